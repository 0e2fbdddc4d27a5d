package e2e_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/worker"
)

// submitJobs submits n one-output pattern jobs with key and answers their ids.
func (s *testStack) submitJobs(key string, n int, headers ...string) []string {
	s.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = s.submitAs(key, headers)
	}
	return ids
}

// startsOf waits for every job of ids (of any account) to succeed and
// answers when each started (started_at: its first step taken from the
// steps queue).
func (s *testStack) startsOf(ids []string) map[string]time.Time {
	s.t.Helper()
	out := make(map[string]time.Time, len(ids))
	for _, id := range ids {
		var row *models.Job
		require.Eventually(s.t, func() bool {
			var err error
			row, err = models.JobByIDAny(context.Background(), s.db, id)
			require.NoError(s.t, err)
			return row.Lifecycle == contract.LifecycleTerminal
		}, 3*time.Minute, 50*time.Millisecond, "job %s ends", id)
		require.Equal(s.t, contract.OutcomeSucceeded, *row.Outcome, "%s", id)
		require.NotNil(s.t, row.StartedAt)
		out[id] = *row.StartedAt
	}
	return out
}

// startedBefore counts the jobs of ids that started before at.
func startedBefore(starts map[string]time.Time, ids []string, at time.Time) int {
	n := 0
	for _, id := range ids {
		if starts[id].Before(at) {
			n++
		}
	}
	return n
}

// stepSlots is how many steps the stacks' workers run at once.
func stepSlots() int { return worker.DefaultMaxSteps(worker.DefaultAnalysisCapacity) }

// TestFairnessOneAccountsBacklogDoesNotHoldAnother: account A queues 24
// jobs while no step runs, then account B submits one. First-in-first-out,
// B's job would start after all 24 (six rounds of the worker's slots); with
// the account as fairness key it starts within the first rounds, beside A's.
func TestFairnessOneAccountsBacklogDoesNotHoldAnother(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1_000_000, noSteps: true, noInline: true,
		stepDelay: 300 * time.Millisecond})
	const backlog = 24
	flood := s.submitJobs(s.key, backlog)
	_, keyB, _ := s.newAccount(1_000_000)
	single := s.submitJobs(keyB, 1)[0]

	s.startWorker(false) // the steps start: A's backlog and B's job share the queue
	starts := s.startsOf(append(slices.Clone(flood), single))
	ahead := startedBefore(starts, flood, starts[single])
	t.Logf("B's job started after %d of A's %d queued jobs (%d step slots; first-in-first-out: %d)",
		ahead, backlog, stepSlots(), backlog)
	require.Less(t, ahead, 2*stepSlots(), "B's job waits at most about a round behind A's backlog")
}

// TestPriorityWaitBeforeSubmitBeforeBatch: one account queues a batch of
// 12, then 6 ordinary submits, then a Prefer: wait submit, while no step
// runs. The Prefer: wait job starts in the first round, the ordinary
// submits before the batch's jobs (but for one round's overlap).
func TestPriorityWaitBeforeSubmitBeforeBatch(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1_000_000, noSteps: true, noInline: true,
		stepDelay: 300 * time.Millisecond})
	res := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(12)})
	require.Contains(t, []int{http.StatusCreated, http.StatusAccepted}, res.status, "%s", res.body)
	var batch []string
	for _, j := range res.json(t)["jobs"].([]any) {
		batch = append(batch, j.(map[string]any)["job_id"].(string))
	}
	require.Len(t, batch, 12)
	require.Eventually(t, func() bool { // every batch job's workflow started (and so its step queued)
		var b models.Batch
		err := s.db.Where("id = ?", res.json(t)["batch_id"]).First(&b).Error
		return err == nil && b.StartedAt != nil
	}, time.Minute, 50*time.Millisecond)
	ordinary := s.submitJobs(s.key, 6)
	// No step runs: the wait ends unanswered after a second, with the handle.
	waited := s.submitJobs(s.key, 1, "Prefer", "wait=1")[0]

	s.startWorker(false)
	all := append(append(slices.Clone(batch), ordinary...), waited)
	starts := s.startsOf(all)
	before := startedBefore(starts, all, starts[waited])
	lastOrdinary := starts[ordinary[0]]
	for _, id := range ordinary {
		lastOrdinary = later(lastOrdinary, starts[id])
	}
	batchFirst := startedBefore(starts, batch, lastOrdinary)
	t.Logf("the Prefer: wait job started after %d jobs; %d of the batch's %d started before the last of the %d "+
		"ordinary submits (%d step slots; first-in-first-out: %d and %d)", before, batchFirst, len(batch),
		len(ordinary), stepSlots(), len(all)-1, len(batch))
	require.Less(t, before, stepSlots(), "the Prefer: wait job starts in the first round")
	require.Less(t, batchFirst, stepSlots(), "ordinary submits start before the batch's jobs")
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
