package e2e_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// queueOf reads a job's queue object: position 0 and false when it is null.
func (s *testStack) queueOf(jobID string) (pos int, eta any, queued bool) {
	s.t.Helper()
	job := s.do(http.MethodGet, "/v1/jobs/"+jobID, nil).json(s.t)
	q, ok := job["queue"].(map[string]any)
	if !ok {
		require.Nil(s.t, job["queue"], "queue is an object or null")
		require.NotEqual(s.t, "queued", job["lifecycle"], "a queued job says where it stands")
		return 0, nil, false
	}
	require.Equal(s.t, "queued", job["lifecycle"], "only a queued job has a queue object")
	return int(q["position"].(float64)), q["eta_seconds"], true
}

// queueRead is one read of a queued job's place while a backlog drains.
type queueRead struct {
	pass int       // the pass over the backlog it was of
	job  int       // index in submit order
	at   time.Time // when it was asked
	pos  int
	eta  *float64
}

// TestQueuePositionsFallAsBacklogDrains: a backlog's positions are 1..N in
// submit order and never rise as it drains; the order they give is the
// order the jobs start in (started_at), but for jobs started at once by
// free slots; and the estimates read are compared with when each job
// actually started (logged: the README's "Where a queued job is" quotes
// it).
func TestQueuePositionsFallAsBacklogDrains(t *testing.T) {
	t.Parallel()
	const stepDelay = time.Second
	s := newStack(t, stackOptions{credits: 1_000_000, noSteps: true, stepDelay: stepDelay})
	// Another account's backlog, submitted first, is ahead in the shared
	// queue but not in this account's positions.
	_, other, _ := s.newAccount(1_000_000)
	mine := s.key
	s.key = other
	for range 2 {
		res := s.submit(pattern(1))
		require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	}
	s.key = mine
	const n = 14
	ids := make([]string, n)
	for i := range ids {
		res := s.submit(pattern(1))
		require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
		body := res.json(t)
		ids[i] = body["job_id"].(string)
		q := body["queue"].(map[string]any)
		require.Equal(t, float64(i+1), q["position"], "the submit answers where the job stands")
	}
	for i, id := range ids {
		pos, eta, queued := s.queueOf(id)
		require.True(t, queued)
		require.Equal(t, i+1, pos, "positions are 1..N in submit order")
		require.Nil(t, eta, "nothing runs and nothing ended: no estimate")
	}
	list := s.do(http.MethodGet, "/v1/jobs?limit=100", nil).json(t)["items"].([]any)
	require.Len(t, list, n)
	for _, it := range list {
		job := it.(map[string]any)
		want := 0
		for i, id := range ids {
			if id == job["job_id"] {
				want = i + 1
			}
		}
		require.Equal(t, float64(want), job["queue"].(map[string]any)["position"], "the list says the same")
	}

	s.startWorker(false) // a worker that runs steps: the backlog drains
	last := make([]int, n)
	for i := range last {
		last[i] = i + 1
	}
	sawFall := false
	var reads []queueRead
	pass := 0
	index := map[string]int{}
	for i, id := range ids {
		index[id] = i
	}
	// Each pass reads the job list: every queued job's place in one answer.
	require.Eventually(t, func() bool {
		pass++
		at := time.Now()
		list := s.do(http.MethodGet, "/v1/jobs?limit=100", nil).json(t)["items"].([]any)
		require.Len(t, list, n)
		left := 0
		for _, it := range list {
			job := it.(map[string]any)
			i := index[job["job_id"].(string)]
			q, queued := job["queue"].(map[string]any)
			if !queued {
				require.NotEqual(t, "queued", job["lifecycle"], "a queued job says where it stands")
				last[i] = 0
				continue
			}
			left++
			pos := int(q["position"].(float64))
			require.LessOrEqual(t, pos, last[i], "a position never rises")
			require.NotZero(t, last[i], "a started job is never queued again")
			require.GreaterOrEqual(t, pos, 1)
			if pos < i+1 {
				sawFall = true
			}
			r := queueRead{pass: pass, job: i, at: at, pos: pos}
			if eta, ok := q["eta_seconds"].(float64); ok {
				require.GreaterOrEqual(t, eta, 0.0)
				r.eta = &eta
			}
			reads = append(reads, r)
			last[i] = pos
		}
		return left == 0
	}, patience, 50*time.Millisecond)
	require.True(t, sawFall, "positions fell as jobs started")
	started := make([]time.Time, n)
	var ran time.Duration // the jobs' run times, summed
	for i, id := range ids {
		job := s.waitTerminal(id)
		require.Nil(t, job["queue"])
		require.Equal(t, "succeeded", job["outcome"])
		row, err := models.JobByIDAny(context.Background(), s.db, id)
		require.NoError(t, err)
		require.NotNil(t, row.StartedAt)
		require.NotNil(t, row.EndedAt)
		started[i] = *row.StartedAt
		ran += row.EndedAt.Sub(*row.StartedAt)
	}
	round := ran / n // a round of the slots: one job's run

	// How far the estimates were from the starts: error = (read + eta) −
	// started_at, + for too late, − for too early.
	var errs []float64
	var longest time.Duration // the longest wait an estimate was read for
	for _, r := range reads {
		if r.eta == nil {
			continue
		}
		predicted := r.at.Add(time.Duration(*r.eta * float64(time.Second)))
		errs = append(errs, predicted.Sub(started[r.job]).Seconds())
		longest = max(longest, started[r.job].Sub(r.at))
	}
	if len(errs) == 0 {
		t.Logf("no estimate was answered while draining (no job had ended while one was queued)")
	} else {
		slices.Sort(errs)
		var abs float64
		for _, e := range errs {
			abs += math.Abs(e)
		}
		t.Logf("eta error over %d reads of %d jobs (%s steps, 2 accounts): min %+.2fs median %+.2fs max %+.2fs, "+
			"mean |error| %.2fs; waits up to %s", len(errs), n, stepDelay, errs[0], errs[len(errs)/2],
			errs[len(errs)-1], abs/float64(len(errs)), longest.Round(10*time.Millisecond))
	}

	// The positions' order is the start order, but for jobs started about
	// one round apart: of two jobs read queued in one list, the one placed
	// behind never starts more than a round (a job's run) before the
	// other. The shared queue is not strictly first-in-first-out (the
	// README says why): measured, a few jobs start a round early or late.
	type pair struct{ ahead, behind int }
	inverted := map[pair]time.Duration{}
	compared := map[pair]bool{}
	for _, a := range reads {
		for _, b := range reads {
			if a.pass != b.pass || a.pos >= b.pos {
				continue
			}
			p := pair{a.job, b.job}
			compared[p] = true
			if late := started[a.job].Sub(started[b.job]); late > 0 {
				inverted[p] = late
			}
		}
	}
	worst := time.Duration(0)
	for _, late := range inverted {
		worst = max(worst, late)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return started[x].Compare(started[y]) })
	t.Logf("start order (jobs by submit order 0..%d): %v; %d of %d pairs read in position order started the "+
		"other way, by at most %s (a round: %s)", n-1, order, len(inverted), len(compared),
		worst.Round(time.Microsecond), round.Round(time.Millisecond))
	require.LessOrEqual(t, worst, round+round/2, "a job placed behind another starts at most a round before it")
}

// TestQueuedJobsStreamSaysWhereItStands follows the stream of the last of
// a backlog: it opens with job.queue at the job's position, sends
// job.queue again as jobs ahead start (never a rise, never after the job
// started), then the job's own events to the end.
func TestQueuedJobsStreamSaysWhereItStands(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1_000_000, noSteps: true, stepDelay: time.Second})
	const n = 12
	var last string
	for range n {
		res := s.submit(pattern(1))
		require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
		last = res.json(t)["job_id"].(string)
	}
	c := client.New(s.srv.URL, s.key)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	st := c.Stream(ctx, last, 0)
	defer st.Close()
	first, err := st.Next()
	require.NoError(t, err)
	require.Equal(t, contract.EventQueue, first.Event.Event, "a queued job's stream opens with where it stands")
	require.Equal(t, jobstream.SeqQueue, first.Seq)
	require.Equal(t, contract.LifecycleQueued, first.Lifecycle)
	require.Equal(t, &wire.Queue{Position: n}, first.Queue, "last of %d, and nothing runs: no estimate", n)

	s.startWorker(false)
	positions := []int64{first.Queue.Position}
	started := false
	for {
		ev, err := st.Next()
		if errors.Is(err, client.ErrStreamEnded) {
			break
		}
		require.NoError(t, err)
		if ev.Event.Event != contract.EventQueue {
			started = true
			continue
		}
		require.False(t, started, "no job.queue after the job started")
		require.NotNil(t, ev.Queue)
		require.LessOrEqual(t, ev.Queue.Position, positions[len(positions)-1], "a position never rises")
		require.GreaterOrEqual(t, ev.Queue.Position, int64(1))
		positions = append(positions, ev.Queue.Position)
	}
	require.True(t, started)
	require.Greater(t, len(positions), 1, "the stream said the job moved up before it started")
	t.Logf("positions sent: %v", positions)
	require.Equal(t, "succeeded", s.waitTerminal(last)["outcome"])
}
