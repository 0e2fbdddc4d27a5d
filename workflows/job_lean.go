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

// runLean runs an admitted job asking Temporal for as little as it can:
// the first output's activity also leaves the queue and plans the job (its
// ScheduleToStart timeout is the start deadline), every further output is
// one activity, and settlement is a local activity that also emits the
// terminal event. Started and progress events are emitted by the steps
// themselves, so events cost the job's history nothing.
func (s *jobState) runLean(ctx workflow.Context) (contract.JobResult, error) {
	s.truthful = true
	workflow.SetCurrentDetails(ctx, "queued: credits held, waiting for a worker")
	steps := s.steps
	if s.admit.Inline {
		steps = s.inlineSteps
	}
	settle, jobErr := steps(ctx)
	if temporal.IsCanceledError(jobErr) || errors.Is(ctx.Err(), workflow.ErrCanceled) {
		settle = s.failure(ctx, contract.OutcomeCancelled, contract.Failure{Code: contract.CodeCancelled, Message: "The job was cancelled."})
	}
	settle.Events, settle.Queue = s.admit.Events, workflow.GetInfo(ctx).TaskQueueName
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	lctx := workflow.WithLocalActivityOptions(dctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 10 * time.Minute,
		StartToCloseTimeout:    30 * time.Second,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
		Summary:                "settle: charge delivered outputs, release the rest, emit the terminal event",
	})
	var sr contract.SettleResult
	if err := workflow.ExecuteLocalActivity(lctx, contract.ActivitySettle, settle).Get(dctx, &sr); err != nil {
		return contract.JobResult{}, fmt.Errorf("settle: %w", err)
	}
	return s.finish(dctx, settle.Outcome, sr)
}

// steps delivers every output; it returns how to settle.
func (s *jobState) steps(ctx workflow.Context) (contract.SettleInput, error) {
	queue := workflow.GetInfo(ctx).TaskQueueName
	base := workflow.ActivityOptions{
		TaskQueue:           contract.StepsQueue(queue),
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    3 * time.Second,
		WaitForCancellation: true,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second, MaximumAttempts: 3,
			NonRetryableErrorTypes: []string{contract.ErrTypeProcessing, contract.ErrTypeContentRefused}},
	}
	first := base
	first.Summary = "leave the queue, plan, output 1"
	if s.in.StartTimeoutSeconds > 0 {
		first.ScheduleToStartTimeout = time.Duration(s.in.StartTimeoutSeconds) * time.Second
	}
	in := s.stepInput(0, queue)
	in.Start = true
	var out contract.StepResult
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, first), contract.ActivityRunStep, in).Get(ctx, &out)
	switch {
	case scheduleToStart(err):
		return s.failure(ctx, contract.OutcomeFailed, contract.Failure{Code: contract.CodeStartTimeout, Message: "The job could not start before its start deadline."}), nil
	case temporal.IsCanceledError(err) || ctx.Err() != nil:
		return contract.SettleInput{}, temporal.NewCanceledError()
	}
	plan, d, end := s.firstOutput(ctx, base, out, err)
	if end != nil {
		return *end, nil
	}
	for i := 1; i < plan.Steps; i++ {
		o := base
		o.Summary = fmt.Sprintf("output %d of %d", i+1, plan.Steps)
		capacity, limited := plan.Capacity[i]
		if limited {
			o.TaskQueue = contract.CapacityQueue(queue, capacity)
			o.ScheduleToStartTimeout = plan.CapacityDeadline
		}
		in := s.stepInput(i, queue)
		var out contract.StepResult
		err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, o), contract.ActivityRunStep, in).Get(ctx, &out)
		switch {
		case temporal.IsCanceledError(err) || ctx.Err() != nil:
			return contract.SettleInput{}, temporal.NewCanceledError()
		case limited && scheduleToStart(err):
			return s.failure(ctx, contract.OutcomeFailed, contract.Failure{Code: contract.CodeCapacityBusy,
				Message: fmt.Sprintf("Output %d of %d could not get %s capacity in time; submit again later.", i+1, plan.Steps, capacity)}), nil
		}
		if f := d.record(ctx, i, out, err); f != nil {
			return s.failure(ctx, contract.OutcomeFailed, *f), nil
		}
	}
	return s.settleDelivered(ctx, d), nil
}

// stepInput is the input of output i's step: with the job's task and
// input, so the step does not read the job's row for them.
func (s *jobState) stepInput(i int, queue string) contract.StepInput {
	return contract.StepInput{JobID: s.in.JobID, Index: i, Events: s.admit.Events, Queue: queue,
		UserID: s.in.UserID, Task: s.in.Task, Input: s.in.Input}
}

// firstOutput takes the first step's answer: the job's plan (asked of
// StartJob, with options o, when the step failed before answering it) and
// output 0. A settlement is returned when the job ends there.
func (s *jobState) firstOutput(ctx workflow.Context, o workflow.ActivityOptions, out contract.StepResult, err error) (contract.StartResult, *deliveries, *contract.SettleInput) {
	var plan contract.StartResult
	if out.Plan != nil {
		plan = *out.Plan
	} else {
		var perr error
		if plan, perr = s.plan(ctx, o, err); perr != nil {
			end := s.failure(ctx, contract.OutcomeFailed, contract.Failure{Code: contract.CodeInternal, Message: "The job could not start."})
			return plan, nil, &end
		}
	}
	d := &deliveries{steps: plan.Steps}
	if f := d.record(ctx, 0, out, err); f != nil {
		end := s.failure(ctx, contract.OutcomeFailed, *f)
		return plan, nil, &end
	}
	return plan, d, nil
}

// settleDelivered is how a job whose steps all ran settles: succeeded
// with what it delivered, or failed (and recorded so) when nothing was.
func (s *jobState) settleDelivered(ctx workflow.Context, d *deliveries) contract.SettleInput {
	settle := d.settle(s.in.JobID)
	if settle.Failure != nil {
		return s.failure(ctx, settle.Outcome, *settle.Failure)
	}
	return settle
}

// plan learns the plan of a job whose first output failed for good (the
// first step plans before it renders, but its answer was an error).
func (s *jobState) plan(ctx workflow.Context, o workflow.ActivityOptions, cause error) (contract.StartResult, error) {
	workflow.GetLogger(ctx).Warn("first output failed; planning the job without it", "error", cause)
	o.Summary, o.HeartbeatTimeout, o.WaitForCancellation = "plan the job", 0, false
	o.RetryPolicy = &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second, MaximumAttempts: 5}
	var plan contract.StartResult
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, o), contract.ActivityStartJob, s.in.JobID).Get(ctx, &plan)
	return plan, err
}

// scheduleToStart says whether err is an activity that never started in time.
func scheduleToStart(err error) bool {
	var te *temporal.TimeoutError
	return errors.As(err, &te) && te.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START
}

// deliveries counts a job's delivered outputs and the warnings of the
// missing ones.
type deliveries struct {
	steps, delivered int
	warnings         []contract.Warning
	// reason is the last public reason a step gave for not producing its output.
	reason string
}

// record takes the outcome of step i; a failure that ends the job is
// returned.
func (d *deliveries) record(ctx workflow.Context, i int, out contract.StepResult, err error) *contract.Failure {
	var ae *temporal.ApplicationError
	switch {
	case err == nil:
		d.delivered++
		d.warnings = append(d.warnings, out.Warnings...)
		workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: %d of %d outputs delivered", d.delivered, d.steps))
	case errors.As(err, &ae) && ae.Type() == contract.ErrTypeContentRefused:
		return &contract.Failure{Code: contract.CodeContentRefused, Message: ae.Message()}
	default:
		workflow.GetLogger(ctx).Warn("output not produced", "index", i, "error", err)
		msg := fmt.Sprintf("Output %d of %d was not produced and was not charged.", i+1, d.steps)
		if errors.As(err, &ae) && ae.Type() == contract.ErrTypeProcessing {
			// A processing failure's message is the task's own words for its caller.
			d.reason = ae.Message()
			msg = fmt.Sprintf("Output %d of %d was not produced and was not charged: %s.", i+1, d.steps, d.reason)
		}
		d.warnings = append(d.warnings, contract.Warning{Code: contract.CodeOutputNotProduced, Message: msg})
	}
	return nil
}

// settle is how a job whose steps all ran settles.
func (d *deliveries) settle(jobID string) contract.SettleInput {
	if d.delivered == 0 {
		msg := "The job delivered no output."
		if d.reason != "" {
			msg = "The job delivered no output: " + d.reason + "."
		}
		return contract.SettleInput{JobID: jobID, Outcome: contract.OutcomeFailed, Failure: &contract.Failure{Code: contract.CodeProcessingFailed, Message: msg}}
	}
	in := contract.SettleInput{JobID: jobID, Outcome: contract.OutcomeSucceeded}
	if len(d.warnings) > 0 {
		in.Summary = &contract.Summary{Requested: d.steps, Delivered: d.delivered, Warnings: d.warnings}
	}
	return in
}
