package workflows

import (
	"maps"
	"path/filepath"
	"slices"
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
	// One history per shape a job takes today, and nothing else: the README
	// says which test records each. queued: steps on the steps queue;
	// inline: a quick job's steps as local activities of its admit's
	// workflow task.
	want := []string{
		"one_output.json",            // 1 output, queued
		"parallel.json",              // 8 outputs, queued, 4 at once, with progress
		"inline.json",                // 2 outputs, inline, side by side
		"cancelled_parallel.json",    // cancelled with outputs running side by side
		"failed.json",                // nothing delivered, queued
		"failed_inline.json",         // nothing delivered, inline
		"start_timeout.json",         // the start deadline passed for every first output
		"admitted_late.json",         // admitted after its handle was answered
		"refused_after_handle.json",  // refused after its handle was answered
		"succeeded_with_events.json", // with job events subscribed, queued, 3 side by side
		"webhook_retried.json",       // a WebhookDeliveryWorkflow retried once
		"engine_capacity_busy.json",  // an external engine stayed busy
		"engine_queue_full.json",     // refused at admit: its engine's queue_limit reached, no step
		"engine_setup_failed.json",   // its model server's setup failed: service_unavailable, uncharged
		// an engine stayed busy, or the model refused, one output of four
		// side by side: the others are cancelled
		"parallel_capacity_busy.json",
		"parallel_refused.json",
		"engine_fallback.json", // a built-in step hands one of 2 outputs off to the engine's queue
	}
	require.ElementsMatch(t, want, slices.Collect(maps.Keys(names)),
		"testdata holds one history per shape of today; record them with TP_RECORD_HISTORIES=1")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(JobWorkflow, workflow.RegisterOptions{Name: contract.JobWorkflow})
			r.RegisterWorkflowWithOptions(
				WebhookDeliveryWorkflow,
				workflow.RegisterOptions{Name: contract.WebhookDeliveryWorkflow},
			)
			require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, f))
		})
	}
}
