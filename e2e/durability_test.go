package e2e_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

func TestWorkerStoppedMidJobResumesExactlyOnce(t *testing.T) {
	t.Parallel()
	// One output at a time, so the stop lands mid-job: with four at once
	// the stop's drain of the running steps could finish all six. A worker
	// killed while steps run side by side: cmd/taskplatform's
	// TestWorkerKilledMidJobLosesOnlyItsSteps.
	s := newStack(t, stackOptions{credits: 100, stepDelay: 600 * time.Millisecond, stepsPerJob: 1})
	input := pattern(6)
	_, per := priceOf(t, input)
	id := s.submit(input).json(t)["job_id"].(string)
	require.Eventually(t, func() bool {
		return s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)["progress"].(map[string]any)["done"].(float64) >= 2
	}, patience, 50*time.Millisecond)

	s.worker.Stop() // the worker dies mid-job
	stoppedAt := s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)
	require.Equal(t, "running", stoppedAt["lifecycle"])

	s.startWorker(false) // a new worker takes over
	job := s.waitTerminal(id)
	require.Equal(t, "succeeded", job["outcome"])

	var files []models.File
	require.NoError(t, s.db.Where("job_id = ?", id).Order("idx").Find(&files).Error)
	require.Len(t, files, 6, "every output exists exactly once")
	for i, f := range files {
		require.Equal(t, i, f.Index)
	}
	n, err := models.Delivered(context.Background(), s.db, id)
	require.NoError(t, err)
	require.Equal(t, int64(6), n)
	require.Equal(t, 100-6*per, s.balance(), "the charge equals the outputs")
	require.Equal(t, s.balance(), s.ledgerSum())
	var charges int64
	require.NoError(t, s.db.Model(&models.LedgerEntry{}).Where("job_id = ? AND kind = ?", id, models.LedgerCharge).
		Select("COALESCE(SUM(-amount),0)").Scan(&charges).Error)
	require.Equal(t, 6*per, charges, "charged once")
	res := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil).json(t)
	require.Len(t, res["files"], 6)
}
