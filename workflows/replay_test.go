package workflows

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/taskplatform/taskplatform/contract"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// TestReplayRecordedHistories replays every recorded job history against
// the current JobWorkflow: a non-deterministic change fails here. Record new
// histories with TP_RECORD_HISTORIES=1 (see the README).
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	require.NoError(t, err)
	names := map[string]bool{}
	for _, f := range files {
		names[filepath.Base(f)] = true
	}
	// v0_* were recorded before job events (GetVersion "job-events"), v1_*
	// before failed jobs said why and ended their workflow failed
	// ("truthful-end") and before admission outlived a slow submit, v2_*
	// before the lean job ("lean-job": planning in the first step, settling
	// in a local activity, events emitted by the activities), v3_* before
	// jobs recorded their shape in their input (contract.ShapeUnmarked: no
	// admit timer, no version marker or its search attribute). Of today's,
	// admitted_late and failed ran inline (a quick job's steps as local
	// activities of its admit's workflow task); queued_* are the same jobs
	// with their steps on the steps queue.
	for _, want := range []string{"succeeded.json", "failed.json", "cancelled.json", "start_timeout.json",
		"v0_succeeded.json", "v1_succeeded.json", "v1_failed.json", "succeeded_with_events.json", "webhook_retried.json",
		"admitted_late.json", "refused_after_handle.json", "v2_succeeded.json", "v2_failed.json", "v2_cancelled.json", "v2_succeeded_with_events.json",
		"v3_succeeded.json", "v3_failed.json", "v3_cancelled.json", "v3_admitted_late.json", "v3_refused_after_handle.json",
		"queued_admitted_late.json", "queued_failed.json"} {
		require.True(t, names[want], "missing recorded history %s", want)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(JobWorkflow, workflow.RegisterOptions{Name: contract.JobWorkflow})
			r.RegisterWorkflowWithOptions(WebhookDeliveryWorkflow, workflow.RegisterOptions{Name: contract.WebhookDeliveryWorkflow})
			require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, f))
		})
	}
}
