package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// JobWorkflow is one job: admit (hold credits) through the admit update,
// leave the queue, deliver each output in its own activity, then settle
// what was delivered and end in a terminal state. Cancelling the workflow
// cancels the job.
func JobWorkflow(ctx workflow.Context, in contract.JobInput) (contract.JobResult, error) {
	s := &jobState{in: in}
	if err := s.setup(ctx); err != nil {
		return contract.JobResult{}, err
	}
	return s.run(ctx)
}

type jobState struct {
	in       contract.JobInput
	admit    *contract.AdmitResult
	admitErr error
	// admitting is true once the admit handler ran: its hold decides within
	// its own timeout, so the job needs no timer to wait for it.
	admitting bool
	// webhooks is false when replaying histories from before job events.
	webhooks bool
	// truthful is false when replaying histories from before failed jobs
	// said why and ended their workflow as failed (GetVersion "truthful-end").
	truthful bool
	// failed is the public error of a failed job.
	failed *contract.Failure
}

func (s *jobState) setup(ctx workflow.Context) error {
	return workflow.SetUpdateHandlerWithOptions(ctx, contract.UpdateAdmit, s.handleAdmit, workflow.UpdateHandlerOptions{})
}

// handleAdmit runs the credit hold once; later calls answer the first result.
func (s *jobState) handleAdmit(ctx workflow.Context) (contract.AdmitResult, error) {
	if s.admit != nil || s.admitErr != nil {
		return s.admitResult()
	}
	s.admitting = true
	if workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime) > contract.AdmitWindow {
		s.admitErr = temporal.NewNonRetryableApplicationError("admit window passed", "admit_expired", nil)
		return s.admitResult()
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		// Under a burst the account's lock (PostgreSQL) or the database
		// file (SQLite) is contended: keep retrying the hold well inside the
		// admit window rather than end the job never admitted.
		ScheduleToCloseTimeout: contract.AdmitWindow * 3 / 4,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, MaximumInterval: 2 * time.Second},
	})
	var res contract.AdmitResult
	err := workflow.ExecuteLocalActivity(lctx, contract.ActivityHoldCredits, s.in).Get(ctx, &res)
	if err != nil {
		s.admitErr = err
	} else {
		s.admit = &contract.AdmitResult{Admitted: res.Admitted, Required: res.Required, Balance: res.Balance, CreatedAt: res.CreatedAt, Events: res.Events,
			Visible: res.Visible, Inline: res.Inline}
	}
	return s.admitResult()
}

func (s *jobState) admitResult() (contract.AdmitResult, error) {
	if s.admitErr != nil {
		return contract.AdmitResult{}, s.admitErr
	}
	return *s.admit, nil
}

func (s *jobState) run(ctx workflow.Context) (contract.JobResult, error) {
	decided := func() bool { return s.admit != nil || s.admitErr != nil }
	if s.in.Shape >= contract.ShapeUnmarked && s.admitting {
		// The admit came with the start (update-with-start): no timer.
		_ = workflow.Await(ctx, decided)
	} else {
		remaining := contract.AdmitWindow - workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime)
		_, _ = workflow.AwaitWithTimeout(ctx, max(remaining, time.Millisecond), decided)
	}
	if !decided() {
		// Cancelled or out of time while an admit may still be holding
		// credits: let it finish, so a hold is never left unsettled.
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		_ = workflow.Await(dctx, func() bool { return workflow.AllHandlersFinished(dctx) })
		cancel()
	}
	if !decided() || s.admitErr != nil {
		return s.neverAdmitted(ctx)
	}
	if !s.admit.Admitted {
		_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
		if s.admit.Visible {
			return s.refusedVisible(ctx)
		}
		return s.end(ctx, contract.JobResult{Outcome: contract.OutcomeRefused})
	}

	if s.in.Shape >= contract.ShapeUnmarked || workflow.GetVersion(ctx, "lean-job", workflow.DefaultVersion, 1) == 1 {
		return s.runLean(ctx)
	}
	return s.runLegacy(ctx)
}

// neverAdmitted ends a workflow whose admit never decided (no worker in the
// admit window) or failed: nothing is held, and the job's admission is
// closed so a handle answered for it reads failed.
func (s *jobState) neverAdmitted(ctx workflow.Context) (contract.JobResult, error) {
	outcome := contract.OutcomeNeverAdmitted
	if s.admitErr != nil {
		_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
		outcome = contract.OutcomeRefused
	}
	workflow.GetLogger(ctx).Info("job never admitted; ending without a hold", "outcome", outcome)
	if s.in.Shape >= contract.ShapeUnmarked || workflow.GetVersion(ctx, "close-admission", workflow.DefaultVersion, 1) == 1 {
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		defer cancel()
		dctx = workflow.WithActivityOptions(dctx, workflow.ActivityOptions{
			StartToCloseTimeout: 30 * time.Second,
			Summary:             "close admission: the job never runs",
			RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
		})
		in := contract.CloseInput{JobID: s.in.JobID, UserID: s.in.UserID}
		if err := workflow.ExecuteActivity(dctx, contract.ActivityCloseAdmission, in).Get(dctx, nil); err != nil {
			return contract.JobResult{}, fmt.Errorf("close admission: %w", err)
		}
		ctx = dctx
	}
	return s.end(ctx, contract.JobResult{Outcome: outcome})
}

// refusedVisible ends a job refused after its handle was answered: the admit
// already wrote it failed insufficient_credits; subscribers hear job.failed.
func (s *jobState) refusedVisible(ctx workflow.Context) (contract.JobResult, error) {
	s.webhooks = true
	s.emit(ctx, contract.EventFailed, 0)
	res, err := s.end(ctx, contract.JobResult{Outcome: contract.OutcomeFailed})
	if err != nil {
		return res, err
	}
	return res, temporal.NewNonRetryableApplicationError("insufficient credits at admit", contract.CodeInsufficientCredits, nil)
}

// failure is the settlement of a failed or cancelled job with its public error.
func (s *jobState) failure(_ workflow.Context, outcome string, f contract.Failure) contract.SettleInput {
	if outcome == contract.OutcomeFailed {
		s.failed = &f
	}
	return contract.SettleInput{JobID: s.in.JobID, Outcome: outcome, Failure: &f}
}

// finish records how an admitted job ended and ends its workflow the same
// way, so operators see it in the Temporal UI: Failed (with the job's public
// code as the failure type) for a failed job, Cancelled for a cancelled one.
func (s *jobState) finish(ctx workflow.Context, outcome string, sr contract.SettleResult) (contract.JobResult, error) {
	res, err := s.end(ctx, contract.JobResult{Outcome: outcome, Delivered: sr.Delivered, Charged: sr.Charged})
	if err != nil {
		return res, err
	}
	switch {
	case outcome == contract.OutcomeCancelled:
		return res, temporal.NewCanceledError()
	case outcome == contract.OutcomeFailed && s.truthful && s.failed != nil:
		return res, temporal.NewNonRetryableApplicationError(s.failed.Message, s.failed.Code, nil)
	}
	return res, nil
}

// end records the outcome as a search attribute and the job's details.
func (s *jobState) end(ctx workflow.Context, res contract.JobResult) (contract.JobResult, error) {
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("%s: %d outputs delivered, %d credits charged", res.Outcome, res.Delivered, res.Charged))
	if err := workflow.UpsertTypedSearchAttributes(ctx, AttrOutcome.ValueSet(res.Outcome)); err != nil {
		return res, err
	}
	return res, nil
}
