package e2e_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/contract"
)

func TestStartTimeoutFailsAndReleasesHold(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noSteps: true})
	res := s.submit(pattern(2), "X-Service-Start-Timeout", "1", "Prefer", "wait=20")
	require.Equal(t, http.StatusServiceUnavailable, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "start_timeout", e["code"])
	require.Equal(t, "internal", e["type"])
	require.Equal(t, true, e["retryable"])
	require.Equal(t, "user", res.header.Get("X-Service-Start-Timeout-Type"))
	id := e["job_id"].(string)

	job := s.do(http.MethodGet, "/v1/jobs/"+id, nil)
	require.Equal(t, "user", job.header.Get("X-Service-Start-Timeout-Type"))
	require.Equal(t, "failed", job.json(t)["outcome"])
	require.Equal(t, int64(100), s.balance(), "the hold is fully released")
	require.Equal(t, s.balance(), s.ledgerSum())

	r := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, "job_failed", r.errorCode(t))
	recordHistory(t, id, "start_timeout")
}

func TestStartTimeoutOutsideLimitsIs422(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true})
	lim := contract.DefaultLimits().StartTimeout
	for _, v := range []string{"0", strconv.Itoa(lim.MaxSeconds + 1), "soon"} {
		res := s.submit(pattern(1), "X-Service-Start-Timeout", v)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s: %s", v, res.body)
		require.Equal(t, "X-Service-Start-Timeout", res.json(t)["error"].(map[string]any)["field"])
	}
	bad := s.do(http.MethodPost, "/v1/tasks/pattern.generate?webhook_url=http://example.com/h", pattern(1))
	require.Equal(t, http.StatusUnprocessableEntity, bad.status)
	require.Equal(t, "webhook_url", bad.json(t)["error"].(map[string]any)["field"])
}

func TestSlowAdmitAnswersTheJobHandle(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true, admitTimeout: 1500 * time.Millisecond})
	start := time.Now()
	res := s.submit(pattern(1), "Idempotency-Key", "no-worker")
	require.Less(t, time.Since(start), 10*time.Second)
	require.Equal(
		t,
		http.StatusAccepted,
		res.status,
		"a job that may still hold credits is never a retryable error: %s",
		res.body,
	)
	id := res.json(t)["job_id"].(string)
	require.Regexp(t, `^j_`, id)
	job := s.do(http.MethodGet, "/v1/jobs/"+id, nil)
	require.Equal(t, http.StatusOK, job.status, "the handle can be read at once: %s", job.body)
	require.Equal(t, "queued", job.json(t)["lifecycle"])
	require.Equal(t, int64(100), s.balance(), "nothing held yet")

	again := s.submit(pattern(1), "Idempotency-Key", "no-worker")
	require.Equal(t, http.StatusAccepted, again.status, "%s", again.body)
	require.Equal(t, id, again.json(t)["job_id"], "the retry reaches the same job")

	s.startWorker(false)
	require.Equal(t, "succeeded", s.waitTerminal(id)["outcome"])
	recordHistory(t, id, "admitted_late")
	_, per := priceOf(t, pattern(1))
	require.Equal(t, 100-per, s.balance(), "charged once, for the one output")
	require.Equal(t, s.balance(), s.ledgerSum())
}

// cutOffAdmit is a Temporal client whose first update-with-start gives up
// before reaching the server, as one cut off under a burst does.
type cutOffAdmit struct {
	client.Client
	calls *atomic.Int32
}

func (c cutOffAdmit) UpdateWithStartWorkflow(
	ctx context.Context,
	o client.UpdateWithStartWorkflowOptions,
) (client.WorkflowUpdateHandle, error) {
	if c.calls.Add(1) == 1 {
		return nil, context.DeadlineExceeded
	}
	return c.Client.UpdateWithStartWorkflow(ctx, o)
}

func TestAdmitCutOffBeforeTheStartIsSentAgain(t *testing.T) {
	t.Parallel()
	calls := new(atomic.Int32)
	s := newStack(t, stackOptions{credits: 100, admitTimeout: 2 * time.Second,
		temporal: func(c client.Client) client.Client { return cutOffAdmit{Client: c, calls: calls} }})
	res := s.submit(pattern(1))
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	require.Equal(
		t,
		"succeeded",
		s.waitTerminal(id)["outcome"],
		"the admit sent again reaches a workflow, which runs the job",
	)
	require.Equal(t, int32(1), calls.Load(), "the API sends it once: the workers' late-admit sweep sends it again")
	_, per := priceOf(t, pattern(1))
	require.Equal(t, 100-per, s.balance(), "held and charged once")
	require.Equal(t, s.balance(), s.ledgerSum())
}

func TestSlowAdmitThatTheBalanceCannotCoverFailsTheJob(t *testing.T) {
	t.Parallel()
	held, _ := priceOf(t, pattern(2))
	s := newStack(t, stackOptions{credits: held + held/2, noWorker: true, admitTimeout: time.Second})
	var ids []string
	for range 2 {
		res := s.submit(pattern(2))
		require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
		ids = append(ids, res.json(t)["job_id"].(string))
	}
	s.startWorker(false)
	outcomes := map[string]int{}
	for _, id := range ids {
		job := s.waitTerminal(id)
		outcomes[job["outcome"].(string)]++
		if job["outcome"] == "failed" {
			e := job["error"].(map[string]any)
			require.Equal(t, "insufficient_credits", e["code"])
			require.Equal(t, id, e["job_id"])
			require.Nil(t, e["request_id"])
			recordHistory(t, id, "refused_after_handle")
		}
	}
	require.Equal(t, map[string]int{"succeeded": 1, "failed": 1}, outcomes, "the balance covers one hold")
	require.Equal(t, s.balance(), s.ledgerSum(), "no hold is left behind")
}
