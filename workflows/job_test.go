package workflows

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// a names the activities the mocks stand in for (test code only: the
// workflows themselves name activities through contract).
var a *activities.Activities

// jobEnv is a test environment running JobWorkflow with mocked activities.
type jobEnv struct {
	*testsuite.TestWorkflowEnvironment
	t       *testing.T
	settled *contract.SettleInput
	admit   contract.AdmitResult
	// inline is true when the hold says the job is quick: its steps must
	// then run as local activities.
	inline bool
	// onSettle, when set, is called as the job settles.
	onSettle func()
}

// planOf is the plan of a job of n outputs.
func planOf(n int) *contract.Plan { return &contract.Plan{Steps: n, Phase: "drawing"} }

// newJobEnv is a job environment whose hold admits a job of n outputs,
// queued.
func newJobEnv(t *testing.T, n int) *jobEnv { return newJobEnvInline(t, n, false) }

// newJobEnvInline is newJobEnv for a job whose hold answers inline.
func newJobEnvInline(t *testing.T, n int, inline bool) *jobEnv {
	return newJobEnvAdmitting(t, contract.AdmitResult{Admitted: true, Required: 6, Inline: inline, Plan: planOf(n)})
}

// newJobEnvAdmitting is a job environment whose hold answers admit.
func newJobEnvAdmitting(t *testing.T, admit contract.AdmitResult) *jobEnv {
	var s testsuite.WorkflowTestSuite
	e := &jobEnv{TestWorkflowEnvironment: newTestEnv(&s), t: t, inline: admit.Inline}
	e.RegisterWorkflow(JobWorkflow)
	e.RegisterActivity(&activities.Activities{})
	e.OnActivity(a.HoldCredits, mock.Anything, mock.Anything).Return(admit, nil).Maybe()
	e.OnActivity(a.Settle, mock.Anything, mock.Anything).
		Return(func(_ context.Context, in contract.SettleInput) (contract.SettleResult, error) {
			e.settled = &in
			if e.onSettle != nil {
				e.onSettle()
			}
			return contract.SettleResult{}, nil
		}).
		Maybe()
	return e
}

// steps mocks the job's steps: output i fails with steps[i] (nil delivers
// it); a step that leaves the queue fails with startErr when it is set.
func (e *jobEnv) steps(steps []error, startErr error) {
	e.OnActivity(a.RunStep, mock.Anything, mock.Anything).
		Return(func(ctx context.Context, in contract.StepInput) (contract.StepResult, error) {
			require.Equal(e.t, "j_test", in.JobID)
			require.Equal(
				e.t,
				e.inline,
				activity.GetInfo(ctx).IsLocalActivity,
				"a quick job's steps run inside its admit's workflow task",
			)
			require.Equal(
				e.t,
				"pattern.generate",
				in.Task,
				"a step is sent the job's task and input: it does not read the job's row",
			)
			require.JSONEq(e.t, `{"kind":"stripes"}`, string(in.Input))
			if in.Start && startErr != nil {
				return contract.StepResult{}, startErr
			}
			return contract.StepResult{FileID: "f"}, steps[in.Index]
		}).
		Maybe()
}

// admitAt sends the admit update after d.
func (e *jobEnv) admitAt(d time.Duration) {
	e.RegisterDelayedCallback(func() {
		e.UpdateWorkflow(contract.UpdateAdmit, contract.AdmitUpdateID, &testsuite.TestUpdateCallback{
			OnAccept:   func() {},
			OnReject:   func(err error) { e.t.Errorf("admit rejected: %v", err) },
			OnComplete: func(r any, err error) { e.admit, _ = r.(contract.AdmitResult) },
		})
	}, d)
}

func (e *jobEnv) run() (contract.JobResult, error) {
	e.ExecuteWorkflow(
		JobWorkflow,
		contract.JobInput{JobID: "j_test", Task: "pattern.generate", UserID: 1, Input: []byte(`{"kind":"stripes"}`),
			HeldCredits: 6, PricePerOutput: 2, CreditType: "service_credits"},
	)
	require.True(e.t, e.IsWorkflowCompleted())
	var res contract.JobResult
	err := e.GetWorkflowError()
	if err == nil {
		require.NoError(e.t, e.GetWorkflowResult(&res))
	}
	return res, err
}

// requireCancelled requires the workflow ended cancelled (err is its
// error) and the job settled cancelled.
func (e *jobEnv) requireCancelled(err error) {
	var canceled *temporal.CanceledError
	require.True(e.t, errors.As(err, &canceled), "the workflow ends cancelled, got %v", err)
	require.Equal(e.t, contract.OutcomeCancelled, e.settled.Outcome)
}

func (e *jobEnv) settledError() contract.Failure {
	require.NotNil(e.t, e.settled)
	require.NotNil(e.t, e.settled.Failure)
	return *e.settled.Failure
}

func TestJobWorkflow(t *testing.T) {
	permanent := temporal.NewNonRetryableApplicationError("cannot draw", contract.ErrTypeProcessing, nil)
	refused := temporal.NewNonRetryableApplicationError("refused", contract.ErrTypeContentRefused, nil)
	tests := []struct {
		name        string
		steps       []error // one per planned output
		startErr    error
		wantOutcome string
		wantCode    apierr.Code
		wantSummary bool
	}{
		{name: "every output delivered", steps: []error{nil, nil, nil}, wantOutcome: contract.OutcomeSucceeded},
		{
			name:        "one output missing is a warning",
			steps:       []error{nil, permanent, nil},
			wantOutcome: contract.OutcomeSucceeded,
			wantSummary: true,
		},
		{
			name:        "nothing delivered fails",
			steps:       []error{permanent, permanent},
			wantOutcome: contract.OutcomeFailed,
			wantCode:    apierr.ProcessingFailed,
		},
		{
			name:        "content refused fails at once",
			steps:       []error{nil, refused, nil},
			wantOutcome: contract.OutcomeFailed,
			wantCode:    apierr.ContentRefused,
		},
		{
			name:        "first output fails, the rest deliver",
			steps:       []error{permanent, nil},
			wantOutcome: contract.OutcomeSucceeded,
			wantSummary: true,
		},
		{
			name:        "start deadline passes",
			steps:       []error{nil, nil},
			startErr:    temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil),
			wantOutcome: contract.OutcomeFailed,
			wantCode:    apierr.StartTimeout,
		},
	}
	for _, tc := range tests {
		for _, inline := range []bool{false, true} {
			if inline && tc.startErr != nil {
				continue // a quick job runs at once: it has no start deadline
			}
			name := tc.name
			if inline {
				name += ", inline"
			}
			t.Run(name, func(t *testing.T) {
				e := newJobEnvInline(t, len(tc.steps), inline)
				e.steps(tc.steps, tc.startErr)
				e.admitAt(0)
				res, err := e.run()
				if tc.wantOutcome == contract.OutcomeFailed {
					// Operators see a failed job's workflow as Failed, with its public code.
					var ae *temporal.ApplicationError
					require.ErrorAs(t, err, &ae)
					require.Equal(t, string(tc.wantCode), ae.Type())
					require.True(t, ae.NonRetryable())
				} else {
					require.NoError(t, err)
					require.Equal(t, tc.wantOutcome, res.Outcome)
				}
				require.True(t, e.admit.Admitted)
				require.Equal(t, tc.wantOutcome, e.settled.Outcome)
				if tc.wantCode != "" {
					ae := e.settledError()
					require.Equal(t, string(tc.wantCode), ae.Code)
					if tc.wantCode == apierr.ProcessingFailed {
						require.Contains(t, ae.Message, "cannot draw", "a failed job says why")
					}
				} else {
					require.Nil(t, e.settled.Failure)
				}
				if tc.wantSummary {
					sum := e.settled.Summary
					require.NotNil(t, sum)
					require.Equal(t, len(tc.steps), sum.Requested)
					require.Equal(t, len(tc.steps)-1, sum.Delivered)
					require.Equal(t, string(apierr.OutputNotProduced), sum.Warnings[0].Code)
				} else {
					require.Nil(t, e.settled.Summary)
				}
			})
		}
	}
}

func TestJobWorkflowRefusedAdmitHoldsNothing(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	e := &jobEnv{TestWorkflowEnvironment: newTestEnv(&s), t: t}
	e.RegisterWorkflow(JobWorkflow)
	e.RegisterActivity(&activities.Activities{})
	e.OnActivity(a.HoldCredits, mock.Anything, mock.Anything).Return(contract.AdmitResult{Required: 6, Balance: 1}, nil)
	e.admitAt(0)
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeRefused, res.Outcome)
	require.Equal(t, contract.AdmitResult{Required: 6, Balance: 1}, e.admit)
}

func TestJobWorkflowNeverAdmittedEndsByItself(t *testing.T) {
	e := newJobEnv(t, 1)
	var closed *contract.CloseInput
	e.OnActivity(a.CloseAdmission, mock.Anything, mock.Anything).
		Return(func(_ context.Context, in contract.CloseInput) error {
			closed = &in
			return nil
		})
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeNeverAdmitted, res.Outcome)
	require.Nil(t, e.settled, "nothing held, nothing to settle")
	require.Equal(
		t,
		&contract.CloseInput{JobID: "j_test", UserID: 1},
		closed,
		"a handle answered for the job reads failed",
	)
}

func TestJobWorkflowRefusalAfterTheHandleFailsTheJob(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	e := &jobEnv{TestWorkflowEnvironment: newTestEnv(&s), t: t}
	e.RegisterWorkflow(JobWorkflow)
	e.RegisterActivity(&activities.Activities{})
	e.OnActivity(a.HoldCredits, mock.Anything, mock.Anything).
		Return(contract.AdmitResult{Required: 6, Balance: 1, Visible: true, Events: []string{contract.EventFailed}}, nil)
	e.admitAt(0)
	_, err := e.run()
	var ae *temporal.ApplicationError
	require.ErrorAs(t, err, &ae, "operators see the job failed")
	require.Equal(t, string(apierr.InsufficientCredits), ae.Type())
	require.Nil(t, e.settled, "nothing was held, nothing is settled")
}

// TestJobWorkflowCancelSettlesDelivered: a job cancelled while its second
// wave of outputs runs (4 of 6 delivered after a minute) settles cancelled.
func TestJobWorkflowCancelSettlesDelivered(t *testing.T) {
	e := newJobEnv(t, 6)
	e.OnActivity(a.RunStep, mock.Anything, mock.Anything).
		After(time.Minute).
		Return(contract.StepResult{FileID: "f"}, nil)
	e.admitAt(0)
	e.RegisterDelayedCallback(e.CancelWorkflow, 90*time.Second)
	_, err := e.run()
	e.requireCancelled(err)
	require.Equal(t, string(apierr.Cancelled), e.settledError().Code)
}

// newTestEnv is a test environment whose deadlock detection waits as long
// as the job workers' (worker.JobsOptions): under make test's load a
// workflow goroutine can wait for a CPU for a second without a deadlock.
func newTestEnv(s *testsuite.WorkflowTestSuite) *testsuite.TestWorkflowEnvironment {
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(sdkworker.Options{DeadlockDetectionTimeout: 5 * time.Second})
	return env
}

// TestJobWorkflowCancelKeepsUnchargedOutputsUncharged: a job cancelled
// after it delivered outputs the task gives free (a cut-out warned
// cutout_uncertain) settles cancelled without charging them.
func TestJobWorkflowCancelKeepsUnchargedOutputsUncharged(t *testing.T) {
	e := newJobEnv(t, 6)
	e.OnActivity(a.RunStep, mock.Anything, mock.Anything).
		After(time.Minute).
		Return(contract.StepResult{FileID: "f", Uncharged: 1}, nil)
	e.admitAt(0)
	e.RegisterDelayedCallback(e.CancelWorkflow, 90*time.Second)
	_, err := e.run()
	e.requireCancelled(err)
	require.Equal(t, string(apierr.Cancelled), e.settledError().Code)
	require.Positive(t, e.settled.Uncharged, "the outputs delivered before the cancel stay uncharged")
}
