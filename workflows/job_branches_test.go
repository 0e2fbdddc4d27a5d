package workflows

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// holdResult is what the mocked HoldCredits answers, and how often it ran.
type holdResult struct {
	res   contract.AdmitResult
	err   error
	calls atomic.Int32
}

// bareJobEnv is a JobWorkflow environment whose hold and settlement the
// test decides: hold answers h; settle (nil: none expected) answers for
// the settlement it records in e.settled.
func bareJobEnv(t *testing.T, h *holdResult, settle func(contract.SettleInput) (contract.SettleResult, error)) *jobEnv {
	var s testsuite.WorkflowTestSuite
	e := &jobEnv{TestWorkflowEnvironment: newTestEnv(&s), t: t}
	e.RegisterWorkflow(JobWorkflow)
	e.RegisterActivity(&activities.Activities{})
	e.OnActivity(a.HoldCredits, mock.Anything, mock.Anything).
		Return(func(context.Context, contract.JobInput) (contract.AdmitResult, error) {
			h.calls.Add(1)
			return h.res, h.err
		}).
		Maybe()
	if settle != nil {
		e.OnActivity(a.Settle, mock.Anything, mock.Anything).
			Return(func(_ context.Context, in contract.SettleInput) (contract.SettleResult, error) {
				e.settled = &in
				return settle(in)
			}).
			Maybe()
	}
	return e
}

// update sends an admit update with id after d; its answer goes to done.
func (e *jobEnv) update(id string, d time.Duration, done func(contract.AdmitResult, error)) {
	e.RegisterDelayedCallback(func() {
		e.UpdateWorkflow(contract.UpdateAdmit, id, &testsuite.TestUpdateCallback{
			OnAccept: func() {},
			OnReject: func(err error) { done(contract.AdmitResult{}, err) },
			OnComplete: func(r any, err error) {
				res, _ := r.(contract.AdmitResult)
				done(res, err)
			},
		})
	}, d)
}

// closeAdmission mocks CloseAdmission, taking d, and records its input.
func (e *jobEnv) closeAdmission(d time.Duration) *contract.CloseInput {
	closed := &contract.CloseInput{}
	e.OnActivity(a.CloseAdmission, mock.Anything, mock.Anything).
		After(d).
		Return(func(_ context.Context, in contract.CloseInput) error {
			*closed = in
			return nil
		})
	return closed
}

// TestJobWorkflowAnswersWhatSettlementCharged: the job's result is what
// settlement delivered and charged (the settle activity counts them in the
// database), not what the workflow believes it delivered; settlement gets
// the admit's subscriptions and the job's queue to emit the terminal event.
func TestJobWorkflowAnswersWhatSettlementCharged(t *testing.T) {
	permanent := temporal.NewNonRetryableApplicationError("cannot draw", contract.ErrTypeProcessing, nil)
	h := &holdResult{res: contract.AdmitResult{Admitted: true, Required: 6, Events: []string{contract.EventSucceeded},
		Plan: planOf(3)}}
	e := bareJobEnv(t, h, func(contract.SettleInput) (contract.SettleResult, error) {
		return contract.SettleResult{Delivered: 2, Charged: 4}, nil
	})
	e.steps([]error{nil, permanent, nil}, nil)
	e.admitAt(0)
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.JobResult{Outcome: contract.OutcomeSucceeded, Delivered: 2, Charged: 4}, res)
	require.Equal(t, []string{contract.EventSucceeded}, e.settled.Events)
	require.NotEmpty(t, e.settled.Queue)
	require.Equal(
		t,
		&contract.Summary{Requested: 3, Delivered: 2, Warnings: e.settled.Summary.Warnings},
		e.settled.Summary,
	)
	require.EqualValues(t, 1, h.calls.Load())
}

// TestJobWorkflowAdmitAfterTheWindowHoldsNothing: an admit arriving after
// the admit window (the workflow is closing the job's admission) is
// answered admit_expired and holds nothing.
func TestJobWorkflowAdmitAfterTheWindowHoldsNothing(t *testing.T) {
	h := &holdResult{res: contract.AdmitResult{Admitted: true}}
	e := bareJobEnv(t, h, nil)
	closed := e.closeAdmission(time.Minute)
	var admitErr error
	answered := false
	e.update(
		contract.AdmitUpdateID,
		contract.AdmitWindow+time.Second,
		func(_ contract.AdmitResult, err error) { answered, admitErr = true, err },
	)
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeNeverAdmitted, res.Outcome)
	require.True(t, answered, "the late admit is answered")
	var ae *temporal.ApplicationError
	require.ErrorAs(t, admitErr, &ae)
	require.Equal(t, "admit_expired", ae.Type())
	require.Zero(t, h.calls.Load(), "nothing is held")
	require.Equal(t, contract.CloseInput{JobID: "j_test", UserID: 1}, *closed)
}

// TestJobWorkflowHoldErrorEndsTheJobRefused: a hold that fails (not a
// refusal: an error) answers the admit with the error, holds nothing,
// settles nothing, closes the job's admission and ends refused.
func TestJobWorkflowHoldErrorEndsTheJobRefused(t *testing.T) {
	h := &holdResult{err: temporal.NewNonRetryableApplicationError("database unavailable", "hold_failed", nil)}
	e := bareJobEnv(t, h, nil)
	closed := e.closeAdmission(0)
	var admitErr error
	e.update(contract.AdmitUpdateID, 0, func(_ contract.AdmitResult, err error) { admitErr = err })
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeRefused, res.Outcome)
	require.ErrorContains(t, admitErr, "database unavailable")
	require.Nil(t, e.settled, "nothing held, nothing settled")
	require.Equal(
		t,
		contract.CloseInput{JobID: "j_test", UserID: 1},
		*closed,
		"a handle answered for the job reads failed",
	)
}

// TestJobWorkflowRepeatedAdmitHoldsOnce: an admit arriving while the job
// runs (a submit retried with its Idempotency-Key lands on the same
// workflow) answers the first admit's result; credits are held once.
func TestJobWorkflowRepeatedAdmitHoldsOnce(t *testing.T) {
	h := &holdResult{
		res: contract.AdmitResult{Admitted: true, Required: 6, Balance: 94, Events: []string{contract.EventSucceeded},
			Plan: planOf(1)},
	}
	e := bareJobEnv(t, h, func(contract.SettleInput) (contract.SettleResult, error) {
		return contract.SettleResult{Delivered: 1, Charged: 2}, nil
	})
	e.OnActivity(a.RunStep, mock.Anything, mock.Anything).
		After(time.Minute).
		Return(contract.StepResult{FileID: "f"}, nil)
	var answers []contract.AdmitResult
	var errs []error
	for _, u := range []struct {
		id string
		at time.Duration
	}{{contract.AdmitUpdateID, 0}, {contract.AdmitUpdateID, 20 * time.Second}, {"another-admit", 40 * time.Second}} {
		e.update(u.id, u.at, func(r contract.AdmitResult, err error) {
			answers, errs = append(answers, r), append(errs, err)
		})
	}
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.JobResult{Outcome: contract.OutcomeSucceeded, Delivered: 1, Charged: 2}, res)
	require.Equal(t, []error{nil, nil, nil}, errs, "every admit is answered")
	require.EqualValues(t, 1, h.calls.Load(), "held once")
	for _, r := range answers {
		require.Equal(t, h.res, r, "every admit answers the first result")
	}
}

// TestJobWorkflowFailsWhenItCannotPlan: a job its admit could not plan
// (its task or input no longer reads on the admitting worker) runs no
// step and fails internal (retryable for the caller), settled with
// nothing delivered.
func TestJobWorkflowFailsWhenItCannotPlan(t *testing.T) {
	h := &holdResult{res: contract.AdmitResult{Admitted: true, Required: 6}}
	e := bareJobEnv(
		t,
		h,
		func(contract.SettleInput) (contract.SettleResult, error) { return contract.SettleResult{}, nil },
	)
	steps := 0
	e.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		if info.ActivityType.Name == contract.ActivityRunStep {
			steps++
		}
	})
	e.admitAt(0)
	_, err := e.run()
	var ae *temporal.ApplicationError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, string(apierr.Internal), ae.Type(), "the workflow ends Failed with the job's public code")
	require.Zero(t, steps, "no step runs")
	require.Equal(t, contract.OutcomeFailed, e.settled.Outcome)
	require.Equal(
		t,
		contract.Failure{Code: contract.CodeInternal, Message: "The job could not start."},
		e.settledError(),
	)
}

// TestJobWorkflowSettleFailureFailsTheWorkflow: when settlement cannot be
// made the workflow fails saying so, and does not claim an outcome.
func TestJobWorkflowSettleFailureFailsTheWorkflow(t *testing.T) {
	h := &holdResult{res: contract.AdmitResult{Admitted: true, Required: 6, Plan: planOf(2)}}
	e := bareJobEnv(t, h, func(contract.SettleInput) (contract.SettleResult, error) {
		return contract.SettleResult{}, temporal.NewNonRetryableApplicationError(
			"ledger unavailable",
			"settle_failed",
			nil,
		)
	})
	e.steps([]error{nil, nil}, nil)
	e.admitAt(0)
	_, err := e.run()
	require.ErrorContains(t, err, "settle")
	require.ErrorContains(t, err, "ledger unavailable")
	var ae *temporal.ApplicationError
	require.ErrorAs(t, err, &ae)
	_, isJobCode := apierr.Lookup(apierr.Code(ae.Type()))
	require.False(t, isJobCode, "the workflow's failure is not a job outcome's code: %s", ae.Type())
	require.Equal(t, contract.OutcomeSucceeded, e.settled.Outcome, "settlement was asked for the delivered outputs")
}
