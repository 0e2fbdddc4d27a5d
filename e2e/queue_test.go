package e2e_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
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

func TestQueuePositionsFallAsBacklogDrains(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1_000_000, noSteps: true, stepDelay: 400 * time.Millisecond})
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
	const n = 8
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
	sawFall, sawETA := false, false
	require.Eventually(t, func() bool {
		left := 0
		for i, id := range ids {
			pos, eta, queued := s.queueOf(id)
			if !queued {
				last[i] = 0
				continue
			}
			left++
			require.LessOrEqual(t, pos, last[i], "a position never rises")
			require.NotZero(t, last[i], "a started job is never queued again")
			if pos < i+1 {
				sawFall = true
			}
			if eta != nil {
				sawETA = true
				require.GreaterOrEqual(t, eta.(float64), 0.0)
			}
			require.GreaterOrEqual(t, pos, 1)
			last[i] = pos
		}
		return left == 0
	}, 60*time.Second, 50*time.Millisecond)
	require.True(t, sawFall, "positions fell as jobs started")
	for _, id := range ids {
		job := s.waitTerminal(id)
		require.Nil(t, job["queue"])
		require.Equal(t, "succeeded", job["outcome"])
	}
	t.Logf("an estimate was answered while draining: %v", sawETA)
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
