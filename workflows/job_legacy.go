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

// runLegacy is the job as workflows started before "lean-job" ran it: a
// start activity, one activity per output, a settle activity and an emit
// activity plus a child workflow per event. Kept for their replay.
func (s *jobState) runLegacy(ctx workflow.Context) (contract.JobResult, error) {
	s.webhooks = workflow.GetVersion(ctx, "job-events", workflow.DefaultVersion, 1) == 1
	s.truthful = workflow.GetVersion(ctx, "truthful-end", workflow.DefaultVersion, 1) == 1
	workflow.SetCurrentDetails(ctx, "queued: credits held, waiting for a worker")
	settle, jobErr := s.workLegacy(ctx)
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
	return s.finish(dctx, settle.Outcome, sr)
}

// work leaves the queue and delivers every output; it returns how to settle.
func (s *jobState) workLegacy(ctx workflow.Context) (contract.SettleInput, error) {
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
