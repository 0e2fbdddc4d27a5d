package e2e_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/testenv"
)

// requireCancelledUncharged checks that job jobID, whose cancel answered
// before it ran, ended cancelled having delivered and charged nothing.
func (s *testStack) requireCancelledUncharged(jobID string) {
	s.t.Helper()
	job := s.waitTerminal(jobID)
	require.Equal(s.t, "cancelled", job["outcome"], "%v", job)
	require.Equal(s.t, "cancelled", job["error"].(map[string]any)["code"])
	require.EqualValues(s.t, 0, job["progress"].(map[string]any)["done"], "nothing delivered")
}

// TestCancelAnInterruptedBatchJobChargesNothing: on both databases, a quick
// job of a batch whose start was interrupted, cancelled before the sweep
// starts it, answers 202 terminal cancelled at once, never runs and is
// charged nothing, even once the sweep starts the batch's other jobs
// (which run and are charged); the batch completes.
func TestCancelAnInterruptedBatchJobChargesNothing(t *testing.T) {
	t.Parallel()
	for _, b := range []testenv.Backend{testenv.Postgres, testenv.SQLite} {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			// The sweep waits 30 s after the batch's write: the cancel below
			// must come before it, even on a loaded machine (a batch's
			// answer took 14 s under make test's load).
			s := newStack(t, stackOptions{backend: b, credits: 100,
				lateAdmits: activities.LateAdmitOptions{BatchAfter: 30 * time.Second},
				temporal:   func(c client.Client) client.Client { return refuseAdmits{c} }})
			_, per := priceOf(t, pattern(1))
			res := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(3)})
			require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
			rec := res.json(t)
			require.Equal(t, "starting", rec["status"])
			id := rec["batch_id"].(string)
			first := rec["jobs"].([]any)[0].(map[string]any)["job_id"].(string)

			res = s.do(http.MethodPut, "/v1/jobs/"+first+"/cancel", nil)
			require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
			require.Equal(t, "terminal", res.json(t)["lifecycle"], "the lifecycle at that moment: it ended")
			require.Equal(t, "cancelled", res.json(t)["outcome"])
			require.Equal(t, 100-2*per, s.balance(), "its hold is back at once")
			res = s.do(http.MethodPut, "/v1/jobs/"+first+"/cancel", nil)
			require.Equal(t, http.StatusBadRequest, res.status, "%s", res.body)
			require.Equal(t, "job_already_ended", res.errorCode(t))

			require.Eventually(t, func() bool {
				rec = s.do(http.MethodGet, "/v1/batches/"+id, nil).json(t)
				return rec["status"] == "completed"
			}, 2*time.Minute, 200*time.Millisecond)
			counts := rec["counts"].(map[string]any)
			require.EqualValues(t, 1, counts["cancelled"], "%v", rec)
			require.EqualValues(t, 2, counts["succeeded"], "%v", rec)
			s.requireCancelledUncharged(first)
			require.Equal(t, 100-2*per, s.balance(), "the cancelled job charged nothing")
			require.Equal(t, s.balance(), s.ledgerSum())
		})
	}
}

// slowAdmits is an API's Temporal client whose admits each take delay, so
// a batch's start is still under way while its jobs are visible.
type slowAdmits struct {
	client.Client
	delay time.Duration
}

func (s slowAdmits) UpdateWithStartWorkflow(ctx context.Context,
	o client.UpdateWithStartWorkflowOptions) (client.WorkflowUpdateHandle, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.Client.UpdateWithStartWorkflow(ctx, o)
}

// TestCancelAStartingBatchJobChargesNothing: while a healthy batch's
// request is still starting its quick jobs, its last job, cancelled before
// the start reaches it, ends cancelled and charged nothing when the start
// then sends its admit; every other job runs and is charged. On both
// databases.
func TestCancelAStartingBatchJobChargesNothing(t *testing.T) {
	t.Parallel()
	for _, b := range []testenv.Backend{testenv.Postgres, testenv.SQLite} {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			cancelAStartingBatchJob(t, b)
		})
	}
}

func cancelAStartingBatchJob(t *testing.T, backend testenv.Backend) {
	s := newStack(t, stackOptions{backend: backend, credits: 1000,
		temporal: func(c client.Client) client.Client { return slowAdmits{c, 600 * time.Millisecond} }})
	_, per := priceOf(t, pattern(1))
	const n = 24 // three rounds of the start's eight admits at once
	answered := make(chan response, 1)
	go func() {
		res, err := s.tryDo(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(n)})
		if err != nil {
			res = response{status: -1, body: []byte(err.Error())}
		}
		answered <- res
	}()
	var last string
	require.Eventually(t, func() bool {
		res, err := s.tryDo(http.MethodGet, "/v1/jobs?limit=100", nil)
		if err != nil || res.status != http.StatusOK {
			return false
		}
		items, _ := res.json(t)["items"].([]any)
		if len(items) < n {
			return false
		}
		last = items[0].(map[string]any)["job_id"].(string) // newest first: the last item
		return true
	}, patience, 20*time.Millisecond)
	res := s.do(http.MethodPut, "/v1/jobs/"+last+"/cancel", nil)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	require.Equal(t, "terminal", res.json(t)["lifecycle"], "cancelled before its start reached it")

	res = <-answered
	require.Contains(t, []int{http.StatusCreated, http.StatusAccepted}, res.status, "%s", res.body)
	id := res.json(t)["batch_id"].(string)
	var rec map[string]any
	require.Eventually(t, func() bool {
		rec = s.do(http.MethodGet, "/v1/batches/"+id, nil).json(t)
		return rec["status"] == "completed"
	}, 2*time.Minute, 200*time.Millisecond)
	counts := rec["counts"].(map[string]any)
	require.EqualValues(t, 1, counts["cancelled"], "%v", rec)
	require.EqualValues(t, n-1, counts["succeeded"], "%v", rec)
	s.requireCancelledUncharged(last)
	require.Equal(t, 1000-(n-1)*per, s.balance(), "only the jobs that ran are charged")
	require.Equal(t, s.balance(), s.ledgerSum())
}
