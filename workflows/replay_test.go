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
	// One history per shape a job takes today; the README says which test
	// records each. queued: steps on the steps queue; inline: a quick job's
	// steps as local activities of its admit's workflow task. *_step_planned:
	// the same job recorded before outputs-from-admit, when its first step
	// planned it.
	for _, want := range []string{
		"one_output.json", // 1 output, queued
		"outputs.json",    // 4 outputs, queued, with progress, one after another
		// 8 outputs, queued, planned at admit, side by side from the start (outputs-from-admit 1)
		"parallel.json",
		// 4 outputs, queued, planned by the first, the others side by side after it (parallel-outputs 1)
		"parallel_step_planned.json",
		"inline.json",             // 2 outputs, inline, side by side
		"inline_sequential.json",  // 2 outputs, inline, one after another
		"cancelled.json",          // cancelled after an output, queued, one after another
		"cancelled_parallel.json", // cancelled with outputs running side by side
		"cancelled_parallel_step_planned.json",
		"failed.json",        // nothing delivered, queued: planned by PlanJob
		"failed_inline.json", // nothing delivered, inline
		"start_timeout.json", // the start deadline passed for every first output
		"start_timeout_step_planned.json",
		"admitted_late.json",         // admitted after its handle was answered
		"refused_after_handle.json",  // refused after its handle was answered
		"succeeded_with_events.json", // with job events subscribed, queued, 3 side by side
		"succeeded_with_events_step_planned.json",
		// the same, one output after another
		"succeeded_with_events_sequential.json",
		"webhook_retried.json",      // a WebhookDeliveryWorkflow retried once
		"engine_capacity_busy.json", // an external engine stayed busy (engine-capacity-busy 1)
		// an engine stayed busy for one output of four side by side: the others are cancelled
		// (parallel-capacity-busy 1), or, before that change, run to their end
		"parallel_capacity_busy.json",
		"parallel_capacity_busy_step_planned.json",
		"parallel_capacity_busy_at_end.json",
		"parallel_refused.json", // the model refused one output of four side by side: the others are cancelled
		"parallel_refused_step_planned.json",
	} {
		require.True(t, names[want], "missing recorded history %s", want)
	}
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
