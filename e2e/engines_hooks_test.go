package e2e_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/models"
)

// TestAnAsyncPredictionOutlivesItsWorker stops the only worker while its
// async prediction runs: the model server reports the prediction's end to
// the API, not to a worker, and the next worker delivers that prediction's
// file without running the model again, charged once.
func TestAnAsyncPredictionOutlivesItsWorker(t *testing.T) {
	t.Parallel()
	s, cog := engineStackWith(t, cogtest.Options{AsURL: true, Run: 8 * time.Second}, stackOptions{},
		func(c *engines.Config) {
			e := c.Engines["sdxl"]
			e.Mode, e.WebhookListen = "async", "" // webhooks to the service's route
			c.Engines["sdxl"] = e
		})
	res := s.do(http.MethodPost, "/v1/tasks/image.generate_sdxl",
		map[string]any{"prompt": "a sage linen shirt", "count": 1, "seed": 5})
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	require.Eventually(t, func() bool { return cog.Running() == 1 }, patience, 20*time.Millisecond)
	reqs := cog.Requests()
	require.True(t, strings.HasPrefix(reqs[0].Webhook, s.srv.URL+"/engines/predictions/"), reqs[0].Webhook)

	s.worker.Stop() // no worker is left while the prediction ends
	require.Eventually(t, func() bool {
		return len(cog.Webhooks()) > 0 && cog.Webhooks()[len(cog.Webhooks())-1] == "completed succeeded"
	}, patience, 20*time.Millisecond)
	var row models.EngineCompletion
	require.Eventually(t, func() bool { return s.db.Take(&row).Error == nil && row.Status == "succeeded" },
		10*time.Second, 20*time.Millisecond, "the API took the webhook with no worker running")

	// A forged token is not taken.
	forged := s.do(http.MethodPost, "/engines/predictions/"+row.PredictionID+"/"+strings.Repeat("0", 48),
		map[string]any{"id": row.PredictionID, "status": "failed"})
	require.Equal(t, http.StatusNotFound, forged.status, "%s", forged.body)

	s.startWorker(false)
	job := s.waitTerminal(id)
	require.Equal(t, "succeeded", job["outcome"], "%v", job)
	require.Len(t, cog.Inputs(), 1, "the model ran once")
	require.Empty(t, cog.Cancelled())
	n, err := models.Delivered(context.Background(), s.db, id)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	require.Equal(t, int64(100-4), s.balance(), "charged once")
	require.Equal(t, s.balance(), s.ledgerSum())
	var left int64
	require.NoError(t, s.db.Model(&models.EngineCompletion{}).Count(&left).Error)
	require.Zero(t, left, "the step deletes what it read")
}
