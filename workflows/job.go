package workflows

import (
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
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
	if workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime) > contract.AdmitWindow {
		s.admitErr = temporal.NewNonRetryableApplicationError("admit window passed", "admit_expired", nil)
		return s.admitResult()
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 20 * time.Second,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, MaximumInterval: 2 * time.Second},
	})
	var res contract.AdmitResult
	err := workflow.ExecuteLocalActivity(lctx, contract.ActivityHoldCredits, s.in).Get(ctx, &res)
	if err != nil {
		s.admitErr = err
	} else {
		s.admit = &contract.AdmitResult{Admitted: res.Admitted, Required: res.Required, Balance: res.Balance, CreatedAt: res.CreatedAt, Events: res.Events, Visible: res.Visible}
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
	remaining := contract.AdmitWindow - workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime)
	decided := func() bool { return s.admit != nil || s.admitErr != nil }
	_, _ = workflow.AwaitWithTimeout(ctx, max(remaining, time.Millisecond), decided)
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

	s.webhooks = workflow.GetVersion(ctx, "job-events", workflow.DefaultVersion, 1) == 1
	s.truthful = workflow.GetVersion(ctx, "truthful-end", workflow.DefaultVersion, 1) == 1
	workflow.SetCurrentDetails(ctx, "queued: credits held, waiting for a worker")
	settle, jobErr := s.work(ctx)
	if temporal.IsCanceledError(jobErr) || errors.Is(ctx.Err(), workflow.ErrCanceled) {
		settle = s.failure(ctx, contract.OutcomeCancelled, contract.Failure{Code: contract.CodeCancelled, Message: "The job was cancelled."})
	}
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	dctx = workflow.WithActivityOptions(dctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		Summary:             "settle: charge delivered outputs, release the rest",
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	var sr contract.SettleResult
	if err := workflow.ExecuteActivity(dctx, contract.ActivitySettle, settle).Get(dctx, &sr); err != nil {
		return contract.JobResult{}, fmt.Errorf("settle: %w", err)
	}
	s.emit(dctx, contract.TerminalEvent[settle.Outcome], 0)
	res, err := s.end(dctx, contract.JobResult{Outcome: settle.Outcome, Delivered: sr.Delivered, Charged: sr.Charged})
	if err != nil {
		return res, err
	}
	switch {
	case settle.Outcome == contract.OutcomeCancelled:
		return res, temporal.NewCanceledError()
	case settle.Outcome == contract.OutcomeFailed && s.truthful && s.failed != nil:
		// Operators see a failed job as Failed in the Temporal UI.
		return res, temporal.NewNonRetryableApplicationError(s.failed.Message, s.failed.Code, nil)
	}
	return res, nil
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
	if workflow.GetVersion(ctx, "close-admission", workflow.DefaultVersion, 1) == 1 {
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

// work leaves the queue and delivers every output; it returns how to settle.
func (s *jobState) work(ctx workflow.Context) (contract.SettleInput, error) {
	stepsQueue := contract.StepsQueue(workflow.GetInfo(ctx).TaskQueueName)
	start := workflow.ActivityOptions{
		TaskQueue:           stepsQueue,
		StartToCloseTimeout: 10 * time.Second,
		Summary:             "start: leave the queue and plan outputs",
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second},
	}
	if s.in.StartTimeoutSeconds > 0 {
		start.ScheduleToStartTimeout = time.Duration(s.in.StartTimeoutSeconds) * time.Second
	}
	var plan contract.StartResult
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, start), contract.ActivityStartJob, s.in.JobID).Get(ctx, &plan); err != nil {
		var te *temporal.TimeoutError
		if errors.As(err, &te) && te.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START {
			return s.failure(ctx, contract.OutcomeFailed, contract.Failure{Code: contract.CodeStartTimeout, Message: "The job could not start before its start deadline."}), nil
		}
		if temporal.IsCanceledError(err) {
			return contract.SettleInput{}, err
		}
		return s.failure(ctx, contract.OutcomeFailed, contract.Failure{Code: contract.CodeInternal, Message: "The job could not start."}), nil
	}
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: 0 of %d outputs delivered", plan.Steps))
	s.emit(ctx, contract.EventStarted, 0)
	steps := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           stepsQueue,
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    3 * time.Second,
		WaitForCancellation: true,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second, MaximumAttempts: 3,
			NonRetryableErrorTypes: []string{contract.ErrTypeProcessing, contract.ErrTypeContentRefused}},
	})
	delivered := 0
	var warnings []contract.Warning
	reason := "" // the last public reason a step gave for not producing its output
	for i := 0; i < plan.Steps; i++ {
		sctx := workflow.WithActivityOptions(steps, stepOptions(steps, i, plan.Steps))
		var out contract.StepResult
		err := workflow.ExecuteActivity(sctx, contract.ActivityRunStep, contract.StepInput{JobID: s.in.JobID, Index: i}).Get(ctx, &out)
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			return contract.SettleInput{}, temporal.NewCanceledError()
		}
		var ae *temporal.ApplicationError
		switch {
		case err == nil:
			delivered++
			workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: %d of %d outputs delivered", delivered, plan.Steps))
			s.emit(ctx, contract.EventProgress, i)
			warnings = append(warnings, out.Warnings...)
		case errors.As(err, &ae) && ae.Type() == contract.ErrTypeContentRefused:
			return s.failure(ctx, contract.OutcomeFailed, contract.Failure{Code: contract.CodeContentRefused, Message: ae.Message()}), nil
		default:
			workflow.GetLogger(ctx).Warn("output not produced", "index", i, "error", err)
			msg := fmt.Sprintf("Output %d of %d was not produced and was not charged.", i+1, plan.Steps)
			if s.truthful && errors.As(err, &ae) && ae.Type() == contract.ErrTypeProcessing {
				// A processing failure's message is the task's own words for its caller.
				reason = ae.Message()
				msg = fmt.Sprintf("Output %d of %d was not produced and was not charged: %s.", i+1, plan.Steps, reason)
			}
			warnings = append(warnings, contract.Warning{Code: contract.CodeOutputNotProduced, Message: msg})
		}
	}
	if delivered == 0 {
		msg := "The job delivered no output."
		if reason != "" {
			msg = "The job delivered no output: " + reason + "."
		}
		return s.failure(ctx, contract.OutcomeFailed, contract.Failure{Code: contract.CodeProcessingFailed, Message: msg}), nil
	}
	in := contract.SettleInput{JobID: s.in.JobID, Outcome: contract.OutcomeSucceeded}
	if len(warnings) > 0 {
		in.Summary = &contract.Summary{Requested: plan.Steps, Delivered: delivered, Warnings: warnings}
	}
	return in, nil
}

func stepOptions(base workflow.Context, i, n int) workflow.ActivityOptions {
	o := workflow.GetActivityOptions(base)
	o.Summary = fmt.Sprintf("output %d of %d", i+1, n)
	return o
}

// failure is the settlement of a failed or cancelled job with its public error.
func (s *jobState) failure(_ workflow.Context, outcome string, f contract.Failure) contract.SettleInput {
	if outcome == contract.OutcomeFailed {
		s.failed = &f
	}
	return contract.SettleInput{JobID: s.in.JobID, Outcome: outcome, Failure: &f}
}

// end records the outcome as a search attribute and the job's details.
func (s *jobState) end(ctx workflow.Context, res contract.JobResult) (contract.JobResult, error) {
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("%s: %d outputs delivered, %d credits charged", res.Outcome, res.Delivered, res.Charged))
	if err := workflow.UpsertTypedSearchAttributes(ctx, contract.AttrOutcome.ValueSet(res.Outcome)); err != nil {
		return res, err
	}
	return res, nil
}
