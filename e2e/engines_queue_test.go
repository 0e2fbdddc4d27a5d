package e2e_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/models"
)

// TestAJobBeyondItsEnginesQueueLimitFailsCapacityBusyUncharged: on an
// engine of one slot (concurrency 1, one server) with queue_limit 1, job A's
// prediction holds the slot and job B waits for it; job C, one waiting job
// too many, fails capacity_busy at once — a 503 to Prefer: wait, long
// before the wait runs out — and is charged nothing, and the engine never
// sees it. B then runs once A's prediction ends, and both succeed.
func TestAJobBeyondItsEnginesQueueLimitFailsCapacityBusyUncharged(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	seed := func(in map[string]any) float64 { v, _ := in["seed"].(float64); return v }
	o := cogtest.Options{Run: 100 * time.Millisecond, Hold: func(in map[string]any) <-chan struct{} {
		if seed(in) == 1 { // A's prediction: it keeps the slot until C has been answered
			return release
		}
		return nil
	}}
	s, cog := engineStackWith(t, o, stackOptions{}, func(c *engines.Config) {
		e := c.Engines["sdxl"]
		e.Concurrency, e.QueueLimit = 1, 1
		c.Engines["sdxl"] = e
	})
	var released bool
	t.Cleanup(func() {
		if !released {
			close(release)
		}
	})
	submit := func(seed int, headers ...string) response {
		return s.do(http.MethodPost, "/v1/tasks/image.generate_sdxl",
			map[string]any{"prompt": "a linen shirt", "seed": seed}, headers...)
	}

	a := submit(1)
	require.Equal(t, http.StatusAccepted, a.status, "%s", a.body)
	aID := a.json(t)["job_id"].(string)
	require.Eventually(t, func() bool { return len(cog.Requests()) == 1 }, patience, 20*time.Millisecond,
		"A's prediction reaches the engine")
	b := submit(2)
	require.Equal(t, http.StatusAccepted, b.status, "%s", b.body)
	bID := b.json(t)["job_id"].(string)
	require.Eventually(t, func() bool { return admitted(t, s, bID) }, patience, 20*time.Millisecond)

	began := time.Now()
	c := submit(3, "Prefer", "wait=30")
	took := time.Since(began)
	require.Equal(t, http.StatusServiceUnavailable, c.status, "%s", c.body)
	e := c.json(t)["error"].(map[string]any)
	require.Equal(t, "capacity_busy", e["code"], "%v", e)
	require.Equal(t, true, e["retryable"])
	require.Less(t, took, 15*time.Second, "refused at admit, not after waiting for the slot")
	cID := e["job_id"].(string)
	job := s.do(http.MethodGet, "/v1/jobs/"+cID, nil).json(t)
	require.Equal(t, "failed", job["outcome"], "%v", job)
	require.EqualValues(t, 0, job["credits"].(map[string]any)["charged"], "%v", job)
	require.Len(t, cog.Requests(), 1, "C never reached the engine")
	require.Equal(t, "queued", s.do(http.MethodGet, "/v1/jobs/"+bID, nil).json(t)["lifecycle"], "B still waits")

	released = true
	close(release)
	for _, id := range []string{aID, bID} {
		job := s.waitTerminal(id)
		require.Equal(t, "succeeded", job["outcome"], "%v", job)
	}
	require.Equal(t, []float64{1, 2}, []float64{seed(cog.Inputs()[0]), seed(cog.Inputs()[1])},
		"A, then B, and C never")
	require.Len(t, cog.Inputs(), 2)
	require.Equal(t, int64(100-2*4), s.balance(), "A and B charged 4 each, C nothing")
	require.Equal(t, s.balance(), s.ledgerSum(), "the ledger explains the balance")
	recordHistory(t, cID, "engine_queue_full")
}

// admitted reports whether job id has been admitted (its hold taken, its
// workflow past the admit): the queue_limit count counts admitted jobs.
func admitted(t *testing.T, s *testStack, id string) bool {
	t.Helper()
	var job models.Job
	require.NoError(t, s.db.WithContext(context.Background()).Select("admitted_at").Where("id = ?", id).
		First(&job).Error)
	return job.AdmittedAt != nil
}
