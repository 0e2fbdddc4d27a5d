package workflows

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/contract"
)

// TestAStepOfSeveralOutputsDeliversEachInOrder: a plan of two predictions
// of three files each (Plan.PerStep) runs two steps, each asked for three
// outputs; the first delivers three, the second two and says why: the job
// delivers five, in order, and the sixth output is not produced and not
// charged with the step's reason.
func TestAStepOfSeveralOutputsDeliversEachInOrder(t *testing.T) {
	plan := contract.Plan{Steps: 6, Phase: "generating", Engine: "cog", PerStep: 3}
	e := newJobEnvAdmitting(t, contract.AdmitResult{Admitted: true, Required: 12, Plan: &plan})
	var mu sync.Mutex
	var asked []contract.StepInput
	short := "the model answered 2 of the 3 files its prediction delivers for this task"
	e.OnActivity(a.RunStep, mock.Anything, mock.Anything).
		Return(func(_ context.Context, in contract.StepInput) (contract.StepResult, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, in)
			if in.Index == 0 {
				return contract.StepResult{FileID: "f0", More: []string{"f1", "f2"}}, nil
			}
			return contract.StepResult{FileID: "f3", More: []string{"f4"}, Missing: short}, nil
		})
	e.admitAt(0)
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
	require.Len(t, asked, 2, "one step a prediction")
	for _, in := range asked {
		require.Equal(t, 3, in.Outputs, "each step makes three outputs")
		require.Zero(t, in.Index%3)
	}
	sum := e.settled.Summary
	require.NotNil(t, sum)
	require.Equal(t, 6, sum.Requested)
	require.Equal(t, 5, sum.Delivered)
	require.Len(t, sum.Warnings, 1)
	require.Equal(t, "Output 6 of 6 was not produced and was not charged: "+short+".", sum.Warnings[0].Message)
}

// TestAFailedStepOfSeveralOutputsLeavesEachMissing: a step of three
// outputs that fails leaves all three not produced, each with its reason.
func TestAFailedStepOfSeveralOutputsLeavesEachMissing(t *testing.T) {
	plan := contract.Plan{Steps: 6, Phase: "generating", Engine: "cog", PerStep: 3}
	e := newJobEnvAdmitting(t, contract.AdmitResult{Admitted: true, Required: 12, Plan: &plan})
	more := "the model answered 5 files, more than the 3 each of its predictions delivers for this task"
	e.OnActivity(a.RunStep, mock.Anything, mock.Anything).
		Return(func(_ context.Context, in contract.StepInput) (contract.StepResult, error) {
			if in.Index == 3 {
				return contract.StepResult{}, temporal.NewNonRetryableApplicationError(more,
					contract.ErrTypeProcessing, nil)
			}
			return contract.StepResult{FileID: "f0", More: []string{"f1", "f2"}}, nil
		})
	e.admitAt(0)
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
	sum := e.settled.Summary
	require.Equal(t, 3, sum.Delivered)
	require.Len(t, sum.Warnings, 3)
	for k, w := range sum.Warnings {
		require.Contains(t, w.Message, []string{"Output 4 of 6", "Output 5 of 6", "Output 6 of 6"}[k])
		require.Contains(t, w.Message, more)
	}
}
