package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/contract"
)

func TestAnEngineStepWaitsForASlotUnderTheShorterDeadline(t *testing.T) {
	plan := &contract.Plan{Steps: 2, Engine: "gpu", CapacityDeadline: 10 * time.Minute, StepTimeout: 25 * time.Minute}
	noSlot := temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil)
	for _, tc := range []struct {
		name          string
		start         bool
		startDeadline time.Duration
		wait          time.Duration
		// code is the job's failure when the step got no slot in time.
		code string
	}{
		{"the caller's start deadline is the shorter", true, 30 * time.Second, 30 * time.Second,
			contract.CodeStartTimeout},
		{"the engine's queue wait is the shorter", true, time.Hour, 10 * time.Minute, contract.CodeCapacityBusy},
		{"no start deadline", true, 0, 10 * time.Minute, contract.CodeCapacityBusy},
		{"a step after the job left the queue", false, 30 * time.Second, 10 * time.Minute, contract.CodeCapacityBusy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := stepOptions("q", 0, plan, tc.start, tc.startDeadline)
			require.Equal(t, contract.EngineQueue("q", "gpu"), o.TaskQueue, "never the built-in steps' queue")
			require.Equal(t, tc.wait, o.ScheduleToStartTimeout)
			require.Equal(t, 25*time.Minute, o.StartToCloseTimeout, "the engine's step timeout")
			p := &parallel{plan: plan, startDeadline: tc.startDeadline}
			if tc.start && p.startMissed() {
				require.Equal(t, contract.CodeStartTimeout, tc.code, "missed the start deadline: start_timeout")
				return
			}
			f := stepFailure(0, 2, plan, noSlot)
			require.NotNil(t, f)
			require.Equal(t, tc.code, f.Code)
		})
	}
	built := stepOptions("q", 0, &contract.Plan{Steps: 1}, true, 30*time.Second)
	require.Equal(t, contract.StepsQueue("q"), built.TaskQueue)
	require.Equal(t, 10*time.Minute, built.StartToCloseTimeout, "a built-in step keeps the default")
}

// A job its admit found beyond its engine's queue limit fails
// capacity_busy without a step.
func TestAJobBeyondItsEnginesQueueLimitRunsNoStep(t *testing.T) {
	busy := &contract.Failure{Code: contract.CodeCapacityBusy, Message: "The model server is busy."}
	e := newJobEnvAdmitting(t, contract.AdmitResult{Admitted: true, Required: 6,
		Plan: &contract.Plan{Steps: 3, Engine: "gpu"}, Busy: busy})
	steps := 0
	e.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		if info.ActivityType.Name == contract.ActivityRunStep {
			steps++
		}
	})
	e.admitAt(0)
	_, err := e.run()
	require.Error(t, err, "the job failed")
	require.Equal(t, contract.OutcomeFailed, e.settled.Outcome)
	require.Zero(t, steps, "no step ran")
	require.Equal(t, *busy, e.settledError())
}
