package workflows

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/contract"
)

// fallbackSteps mocks the steps of a job whose route hands the outputs in
// hand to its engine "rembg": their built-in step answers HandOff; the
// engine's step answers engineErr (nil: delivered). It records each step as
// index, where it ran (its task queue, or "local" for a local activity) and
// whether it ran on the engine.
type fallbackSteps struct {
	mu        sync.Mutex
	hand      map[int]bool
	engineErr error
	ran       []ranStep
}

type ranStep struct {
	Index    int
	Queue    string
	OnEngine bool
}

func (f *fallbackSteps) mock(e *jobEnv) {
	e.OnActivity(a.RunStep, mock.Anything, mock.Anything).
		Return(func(ctx context.Context, in contract.StepInput) (contract.StepResult, error) {
			queue := activity.GetInfo(ctx).TaskQueue
			if activity.GetInfo(ctx).IsLocalActivity {
				queue = "local"
			}
			f.mu.Lock()
			f.ran = append(f.ran, ranStep{in.Index, queue, in.OnEngine})
			f.mu.Unlock()
			switch {
			case in.OnEngine && f.engineErr != nil:
				return contract.StepResult{}, f.engineErr
			case in.OnEngine:
				return contract.StepResult{FileID: "engine", Engine: "rembg"}, nil
			case f.hand[in.Index]:
				return contract.StepResult{HandOff: "confidence 0.63 under 0.9"}, nil
			}
			return contract.StepResult{FileID: "builtin"}, nil
		})
}

func fallbackEnv(t *testing.T, n int, inline bool) *jobEnv {
	plan := contract.Plan{Steps: n, Phase: "removing backgrounds", Fallback: "rembg"}
	return newJobEnvAdmitting(t, contract.AdmitResult{Admitted: true, Required: 6, Inline: inline, Plan: &plan})
}

// TestHandedOffOutputsRunOnTheEngineQueue: the built-in steps run where
// the job's steps run (the steps queue, or inline); only the outputs a
// built-in step handed off run again, once each, on the engine's own queue,
// and the job delivers every output once.
func TestHandedOffOutputsRunOnTheEngineQueue(t *testing.T) {
	for _, inline := range []bool{false, true} {
		t.Run(map[bool]string{false: "queued", true: "inline"}[inline], func(t *testing.T) {
			f := fallbackSteps{hand: map[int]bool{1: true, 3: true}}
			e := fallbackEnv(t, 4, inline)
			f.mock(e)
			e.admitAt(0)
			res, err := e.run()
			require.NoError(t, err)
			require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
			require.Nil(t, e.settled.Summary, "every output delivered: no warning")
			var onEngine []int
			for _, r := range f.ran {
				switch {
				case r.OnEngine:
					onEngine = append(onEngine, r.Index)
					require.True(t, strings.HasSuffix(r.Queue, "-engine-rembg"), "%+v on the engine's queue", r)
				case inline:
					require.Equal(t, "local", r.Queue, "an inline job's built-in steps stay local")
				default:
					require.NotContains(t, r.Queue, "-engine-", "a built-in step on the steps queue")
				}
			}
			require.Len(t, f.ran, 6, "four built-in steps, two on the engine")
			require.ElementsMatch(t, []int{1, 3}, onEngine, "only the handed-off outputs, once each")
		})
	}
}

// TestAHandedOffOutputTheEngineFailsIsNotProduced: the engine's failure is
// the output's (not delivered, not charged); the built-in output was
// dropped when it was handed off.
func TestAHandedOffOutputTheEngineFailsIsNotProduced(t *testing.T) {
	f := fallbackSteps{hand: map[int]bool{0: true},
		engineErr: temporal.NewNonRetryableApplicationError("the model could not make it", contract.ErrTypeProcessing, nil)}
	e := fallbackEnv(t, 2, false)
	f.mock(e)
	e.admitAt(0)
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
	sum := e.settled.Summary
	require.NotNil(t, sum)
	require.Equal(t, 1, sum.Delivered)
	require.Len(t, sum.Warnings, 1)
	require.Contains(t, sum.Warnings[0].Message,
		"Output 1 of 2 was not produced and was not charged: the model could not make it")
}
