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

// runStep starts output i's step on ctx and answers its future (a
// contract.StepResult). start is true for a step that starts before the
// job is known to have left the queue: it leaves the queue itself (moves
// the job to running) under the job's start deadline. onEngine is true for
// the second step of an output its built-in step handed off
// (StepResult.HandOff): it runs on the plan's Fallback engine's queue.
type runStep func(ctx workflow.Context, i int, start, onEngine bool) workflow.Future

// deliver runs the outputs the admit planned (AdmitResult.Plan) side by
// side and answers how to settle: on the steps queue, or for a quick job
// (AdmitResult.Inline) as local activities inside the workflow task that
// admitted it, so the job asks Temporal for no activity task and no
// further workflow task. A job its admit could not plan (its task or
// input no longer reads on this worker) fails internal without a step.
func (j *job) deliver(ctx workflow.Context) (contract.SettleInput, error) {
	plan := j.admitted.Plan
	if plan == nil {
		return j.fail(contract.OutcomeFailed,
			contract.Failure{Code: contract.CodeInternal, Message: "The job could not start."}), nil
	}
	if j.admitted.Busy != nil { // its engine's queue is full (queue_limit)
		return j.fail(contract.OutcomeFailed, *j.admitted.Busy), nil
	}
	queue := workflow.GetInfo(ctx).TaskQueueName
	run := func(ctx workflow.Context, i int, start, onEngine bool) workflow.Future {
		in := j.stepInput(i, queue, start)
		if onEngine {
			in.OnEngine = true
			return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, engineStepOptions(queue, i, plan)),
				contract.ActivityRunStep, in)
		}
		if j.admitted.Inline {
			lctx := workflow.WithLocalActivityOptions(ctx, inlineStepOptions(i, plan, start))
			return workflow.ExecuteLocalActivity(lctx, contract.ActivityRunStep, in)
		}
		actx := workflow.WithActivityOptions(ctx, stepOptions(queue, i, plan, start, j.startDeadline()))
		return workflow.ExecuteActivity(actx, contract.ActivityRunStep, in)
	}
	return j.runParallel(ctx, run, plan)
}

// stepInput is the input of output i's step, with the job's task and input
// and the events its subscribers want (the step emits started and
// progress itself).
func (j *job) stepInput(i int, queue string, start bool) contract.StepInput {
	in := contract.StepInput{JobID: j.in.JobID, Index: i, Start: start, Events: j.admitted.Events, Queue: queue,
		UserID: j.in.UserID, Task: j.in.Task, Input: j.in.Input}
	if n := j.admitted.Plan.Group(); n > 1 {
		in.Outputs = n
	}
	return in
}

// startDeadline is how long a step that leaves the queue may wait for a
// worker: the job's start deadline (X-Service-Start-Timeout), 0 for none.
func (j *job) startDeadline() time.Duration {
	return time.Duration(j.in.StartTimeoutSeconds) * time.Second
}

// startTimeout is the failure of a job that could not leave the queue
// before its start deadline.
func (j *job) startTimeout() contract.SettleInput {
	return j.fail(contract.OutcomeFailed, contract.Failure{Code: contract.CodeStartTimeout,
		Message: "The job could not start before its start deadline."})
}

// scheduleToStart says whether err is an activity that never started in time.
func scheduleToStart(err error) bool {
	var te *temporal.TimeoutError
	return errors.As(err, &te) && te.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START
}

// ServiceDownRetryAfter is the wait, in seconds, a job failed
// service_unavailable names: its model server needs its operator (a
// restart, a fixed deploy), which takes minutes, not the default 2 s.
const ServiceDownRetryAfter = 60

// stepFailure is the failure of output i of n whose step ended the job:
// refused content, an external engine whose model server cannot serve
// (service_unavailable), an external engine that stayed busy through its
// retries (for a task that allows it), a step that got no slot of its
// external engine before the engine's queue wait, or a capacity-limited
// output that got no slot before the plan's capacity deadline; nil for any other
// answer (the output is then missing, or delivered).
func stepFailure(i, n int, plan *contract.Plan, err error) *contract.Failure {
	var ae *temporal.ApplicationError
	capacity, limited := plan.Capacity[i]
	switch {
	case errors.As(err, &ae) && ae.Type() == contract.ErrTypeContentRefused:
		return &contract.Failure{Code: contract.CodeContentRefused, Message: ae.Message()}
	case errors.As(err, &ae) && ae.Type() == contract.ErrTypeServiceUnavailable:
		return &contract.Failure{Code: contract.CodeServiceUnavailable, RetryAfter: ServiceDownRetryAfter,
			Message: fmt.Sprintf("Output %d of %d could not be made: %s.", i+1, n, ae.Message())}
	case errors.As(err, &ae) && ae.Type() == contract.ErrTypeCapacityBusy:
		return &contract.Failure{Code: contract.CodeCapacityBusy, Message: fmt.Sprintf(
			"Output %d of %d could not get the model server's capacity in time; submit again later.", i+1, n)}
	case plan.Engine != "" && scheduleToStart(err):
		return &contract.Failure{Code: contract.CodeCapacityBusy, Message: fmt.Sprintf(
			"Output %d of %d could not get a slot of the model server in time; submit again later.", i+1, n)}
	case limited && scheduleToStart(err):
		return &contract.Failure{Code: contract.CodeCapacityBusy, Message: fmt.Sprintf(
			"Output %d of %d could not get %s capacity in time; submit again later.", i+1, n, capacity)}
	}
	return nil
}

// uncharged is how many of the delivered outputs are not charged.
func uncharged(outs []contract.StepResult, errs []error) int {
	n := 0
	for i, err := range errs {
		if err == nil {
			n += outs[i].Uncharged
		}
	}
	return n
}

// settleOutputs is how a job whose steps all ran settles, from each output's
// answer in the task's order: succeeded with what it delivered (a summary
// with an output_not_produced warning per missing output, and the
// delivered ones' warnings), or failed processing_failed when nothing was.
func settleOutputs(ctx workflow.Context, jobID string, outs []contract.StepResult, errs []error) contract.SettleInput {
	n, delivered := len(outs), 0
	var warnings []contract.Warning
	// reason is the last public reason a step gave for not producing its output.
	var reason string
	for i, err := range errs {
		if err == nil {
			delivered++
			warnings = append(warnings, outs[i].Warnings...)
			continue
		}
		workflow.GetLogger(ctx).Warn("output not produced", "index", i, "error", err)
		msg := fmt.Sprintf("Output %d of %d was not produced and was not charged.", i+1, n)
		var ae *temporal.ApplicationError
		if errors.As(err, &ae) && ae.Type() == contract.ErrTypeProcessing {
			// A processing failure's message is the task's own words for its caller.
			reason = ae.Message()
			msg = fmt.Sprintf("Output %d of %d was not produced and was not charged: %s.", i+1, n, reason)
		}
		warnings = append(warnings, contract.Warning{Code: contract.CodeOutputNotProduced, Message: msg})
	}
	if delivered == 0 {
		msg := "The job delivered no output."
		if reason != "" {
			msg = "The job delivered no output: " + reason + "."
		}
		return contract.SettleInput{JobID: jobID, Outcome: contract.OutcomeFailed,
			Failure: &contract.Failure{Code: contract.CodeProcessingFailed, Message: msg}}
	}
	in := contract.SettleInput{JobID: jobID, Outcome: contract.OutcomeSucceeded, Uncharged: uncharged(outs, errs)}
	if len(warnings) > 0 {
		in.Summary = &contract.Summary{Requested: n, Delivered: delivered, Warnings: warnings}
	}
	return in
}
