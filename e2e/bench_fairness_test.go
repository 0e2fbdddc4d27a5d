package e2e_test

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/testenv"
)

// fairRun is one side of BenchmarkFairness: account B's latencies idle,
// behind account A's backlog of submits and behind A's batch, and A's own
// throughput.
type fairRun struct {
	idle, idleWait               time.Duration // B's one-output job: submit to end; a Prefer: wait answer
	backlog, backlogWait         time.Duration // the same while A's backlog drains
	batch, batchWait             time.Duration // the same while A's batch drains
	backlogRate, batchRate       float64       // A's jobs ended a second, first submit to last end
	backlogAhead, batchAheadLeft int           // A's jobs still queued when B's job ended
}

// BenchmarkFairness is `make bench-fairness`: the same run on a Temporal dev
// server with priority and fairness (the service's settings) and on one
// without (first in, first out, as before): account B's one-output job and
// Prefer: wait answer idle, while account A's backlog of submits drains,
// and while A's batch drains, with A's throughput. Every step takes
// TP_BENCH_STEP (default 250ms) on the stack's one worker.
// TP_BENCH_SCALE scales A's 200 submits and 500 batch jobs.
func BenchmarkFairness(b *testing.B) {
	scale := 1.0
	if v := os.Getenv("TP_BENCH_SCALE"); v != "" {
		var err error
		scale, err = strconv.ParseFloat(v, 64)
		require.NoError(b, err, "TP_BENCH_SCALE")
	}
	step := 250 * time.Millisecond
	if v := os.Getenv("TP_BENCH_STEP"); v != "" {
		var err error
		step, err = time.ParseDuration(v)
		require.NoError(b, err, "TP_BENCH_STEP")
	}
	backlog, batch := max(int(200*scale), 8), max(int(500*scale), 8)
	fifoServer, err := testenv.StartTemporalFIFO()
	require.NoError(b, err, "FIFO Temporal dev server")
	b.Cleanup(func() { _ = fifoServer.Stop() }) // after the stacks' workers stop (cleanups run last first)
	began := time.Now()
	fifo := runFairness(b, fifoServer.Client(), step, backlog, batch)
	fair := runFairness(b, temporalClient(b), step, backlog, batch)

	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(os.Stdout, "\ntaskplatform fairness bench · %d step slots · step %s · A: %d submits, a batch of %d · "+
		"took %s\n", stepSlots(), step, backlog, batch, time.Since(began).Round(time.Second))
	fmt.Fprintln(w, "account B\tfirst in, first out\tpriority + fairness\ttarget\tmet\t")
	target := func(idle time.Duration) time.Duration { return max(3*idle, idle+5*time.Second) }
	row := func(name string, a, b time.Duration, tgt time.Duration) {
		t, met := "", ""
		if tgt > 0 {
			t, met = sec(tgt), strconv.FormatBool(b <= tgt)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t\n", name, sec(a), sec(b), t, met)
	}
	row("one-output job, idle", fifo.idle, fair.idle, 0)
	row("  behind A's backlog", fifo.backlog, fair.backlog, target(fair.idle))
	row("  behind A's batch", fifo.batch, fair.batch, target(fair.idle))
	row("Prefer: wait answer, idle", fifo.idleWait, fair.idleWait, 0)
	row("  behind A's backlog", fifo.backlogWait, fair.backlogWait, target(fair.idleWait))
	row("  behind A's batch", fifo.batchWait, fair.batchWait, target(fair.idleWait))
	fmt.Fprintln(w, "account A\t\t\t\t\t")
	rate := func(name string, a, b float64) {
		fmt.Fprintf(w, "%s\t%.2f/s\t%.2f/s\t≥ %.2f/s\t%t\t\n", name, a, b, 0.9*a, b >= 0.9*a)
	}
	rate("jobs ended, backlog", fifo.backlogRate, fair.backlogRate)
	rate("jobs ended, batch", fifo.batchRate, fair.batchRate)
	fmt.Fprintf(w, "A's jobs queued when B's ended, backlog\t%d\t%d\t\t\t\n", fifo.backlogAhead, fair.backlogAhead)
	fmt.Fprintf(w, "A's jobs queued when B's ended, batch\t%d\t%d\t\t\t\n", fifo.batchAheadLeft, fair.batchAheadLeft)
	require.NoError(b, w.Flush())
}

func sec(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// runFairness runs the three phases on one server.
func runFairness(b *testing.B, c client.Client, step time.Duration, backlog, batch int) fairRun {
	s := newStack(b, stackOptions{credits: 100_000_000, client: c, noInline: true, stepDelay: step})
	keyA := s.key
	_, keyB, _ := s.newAccount(100_000_000)
	var r fairRun
	r.idle, r.idleWait = s.accountB(keyB)

	// A's backlog: submits from 8 clients at once; B's job once they are in.
	began := time.Now()
	flood := make([]string, backlog)
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				flood[i] = s.submitAs(keyA, nil)
			}
		})
	}
	for i := range flood {
		next <- i
	}
	close(next)
	wg.Wait()
	r.backlog, r.backlogWait = s.accountB(keyB)
	r.backlogAhead = s.queuedOf(flood)
	r.backlogRate = s.drainRate(flood, began)

	// A's batch; B's job once every one of its jobs is queued.
	began = time.Now()
	res := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(batch)}, "Authorization", "Key "+keyA)
	require.Contains(b, []int{http.StatusCreated, http.StatusAccepted}, res.status, "%s", res.body)
	var ids []string
	for _, j := range res.json(b)["jobs"].([]any) {
		ids = append(ids, j.(map[string]any)["job_id"].(string))
	}
	r.batch, r.batchWait = s.accountB(keyB)
	r.batchAheadLeft = s.queuedOf(ids)
	r.batchRate = s.drainRate(ids, began)
	return r
}

// submitAs submits one pattern job with key and answers its id.
func (s *testStack) submitAs(key string, headers []string) string {
	res := s.postAs(key, headers)
	require.Equal(s.t, http.StatusAccepted, res.status, "%s", res.body)
	return res.json(s.t)["job_id"].(string)
}

// postAs posts a one-output pattern job with key and headers.
func (s *testStack) postAs(key string, headers []string) response {
	req := append([]string{"Authorization", "Key " + key}, headers...)
	return s.do(http.MethodPost, "/v1/tasks/pattern.generate", pattern(1), req...)
}

// accountB times, sent at once, B's one-output job (submit to end, read
// every 20 ms) and a Prefer: wait=60 submit's answer (past 60 s it answers
// the handle: then until that job ends).
func (s *testStack) accountB(key string) (job, wait time.Duration) {
	start := time.Now()
	var wg sync.WaitGroup
	wg.Go(func() {
		res := s.postAs(key, []string{"Prefer", "wait=60"})
		if res.status == http.StatusAccepted {
			s.untilEnded(key, res.json(s.t)["job_id"].(string), start)
		} else {
			require.Equal(s.t, http.StatusOK, res.status, "Prefer: wait answers the result: %s", res.body)
		}
		wait = time.Since(start)
	})
	s.untilEnded(key, s.submitAs(key, nil), start)
	job = time.Since(start)
	wg.Wait()
	return job, wait
}

// untilEnded reads job id every 20 ms until it succeeded.
func (s *testStack) untilEnded(key, id string, start time.Time) {
	for {
		row := s.do(http.MethodGet, "/v1/jobs/"+id, nil, "Authorization", "Key "+key).json(s.t)
		if row["lifecycle"] == "terminal" {
			require.Equal(s.t, "succeeded", row["outcome"])
			return
		}
		require.Less(s.t, time.Since(start), 10*time.Minute, "B's job ends")
		time.Sleep(20 * time.Millisecond)
	}
}

// queuedOf counts the jobs of ids still queued.
func (s *testStack) queuedOf(ids []string) int {
	var n int64
	require.NoError(s.t, s.db.Table("jobs").Where("id IN ? AND lifecycle = ?", ids, "queued").Count(&n).Error)
	return int(n)
}

// drainRate waits for every job of ids to end and answers the jobs ended a
// second since began.
func (s *testStack) drainRate(ids []string, began time.Time) float64 {
	for {
		var n int64
		require.NoError(s.t, s.db.Table("jobs").Where("id IN ? AND lifecycle <> ?", ids, "terminal").Count(&n).Error)
		if n == 0 {
			break
		}
		require.Less(s.t, time.Since(began), 20*time.Minute, "A's jobs end")
		time.Sleep(100 * time.Millisecond)
	}
	var last time.Time
	var ends []time.Time
	require.NoError(s.t, s.db.Table("jobs").Where("id IN ?", ids).Pluck("ended_at", &ends).Error)
	for _, e := range ends {
		last = later(last, e)
	}
	return float64(len(ids)) / last.Sub(began).Seconds()
}
