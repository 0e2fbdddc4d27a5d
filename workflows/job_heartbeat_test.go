package workflows

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// TestAStepWhoseHeartbeatsStopEndsAsItsWaitWould: a step whose heartbeats
// stopped (its worker too slow to send them on a loaded machine, or dead)
// while its last heartbeat said it waited for an engine that answered busy
// ends as that wait would have: the job fails capacity_busy and the other
// outputs are cancelled, as when the wait runs out, rather than the output
// going missing while the job succeeds with the rest. Without a wait in its
// last heartbeat, the output is missing, as before; a wait that ends in a
// processing failure (a task that does not allow capacity_busy) leaves the
// output missing with that reason.
func TestAStepWhoseHeartbeatsStopEndsAsItsWaitWould(t *testing.T) {
	note := "engine sdxl (cog): waiting for the model server (busy or loading) for 2s"
	busy := contract.StepWait{Type: contract.ErrTypeCapacityBusy, Message: "the model server stayed busy"}
	noted := contract.StepWait{Type: contract.ErrTypeProcessing, Message: "the model server stayed busy"}

	t.Run("waiting for a busy engine", func(t *testing.T) {
		p := parallelSteps{}
		e := p.env(t, 6, 0)
		p.mock(e, minutes(0, 10, 1, 10, 10, 10),
			[]error{nil, nil, temporal.NewHeartbeatTimeoutError(note, busy), nil, nil, nil})
		e.admitAt(0)
		_, err := e.run()
		var ae *temporal.ApplicationError
		require.ErrorAs(t, err, &ae)
		require.Equal(t, string(apierr.CapacityBusy), ae.Type())
		f := e.settledError()
		require.Equal(t, string(apierr.CapacityBusy), f.Code)
		require.Contains(t, f.Message, "Output 3 of 6 could not get the model server's capacity in time")
		require.NotContains(t, p.ended, 1, "the running steps are cancelled, not waited for")
		// Output 3's step was tried again after each heartbeat timeout.
		require.Equal(t, []int{0, 1, 2, 3, 4}, slices.Compact(slices.Sorted(slices.Values(p.started))),
			"no step starts after the job failed")
		require.Equal(t, 0, p.runningAtSettle)
	})

	for _, tc := range []struct {
		name, warning string
		err           error
	}{
		{"waiting for nothing", "Output 3 of 6 was not produced and was not charged.",
			temporal.NewHeartbeatTimeoutError("engine sdxl (cog): prediction p1 processing")},
		{"a wait that ends processing_failed",
			"Output 3 of 6 was not produced and was not charged: the model server stayed busy.",
			temporal.NewHeartbeatTimeoutError(note, noted)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parallelSteps{}
			e := p.env(t, 6, 0)
			p.mock(e, minutes(0, 1, 1, 1, 1, 1), []error{nil, nil, tc.err, nil, nil, nil})
			e.admitAt(0)
			_, err := e.run()
			require.NoError(t, err)
			require.Equal(t, contract.OutcomeSucceeded, e.settled.Outcome)
			require.NotNil(t, e.settled.Summary)
			require.Equal(t, 5, e.settled.Summary.Delivered)
			require.Equal(t, []contract.Warning{{Code: contract.CodeOutputNotProduced, Message: tc.warning}},
				e.settled.Summary.Warnings)
		})
	}
}
