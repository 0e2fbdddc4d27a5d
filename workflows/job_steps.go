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

// stepRetry is how a step that failed is retried: a few times, never when
// the task said it cannot succeed with this input or refused its content.
var stepRetry = temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second,
	MaximumAttempts: 3, NonRetryableErrorTypes: []string{contract.ErrTypeProcessing, contract.ErrTypeContentRefused}}

// runStep starts output i's step on ctx and answers its future (a
// contract.StepResult). plan is nil for the first step of a job its first
// step plans, which leaves the queue and answers the plan; start is true
// for a step of a job planned at admit that starts before the job is known
// to have left the queue, so it leaves the queue itself.
type runStep func(ctx workflow.Context, i int, plan *contract.Plan, start bool) workflow.Future

// stepResult waits for a step's future.
func stepResult(ctx workflow.Context, f workflow.Future) (contract.StepResult, error) {
	var out contract.StepResult
	err := f.Get(ctx, &out)
	return out, err
}

// versionParallel is the change that runs a job's outputs after its plan
// side by side (at most contract.StepsPerJob at once) instead of one after
// another.
const versionParallel = "parallel-outputs"

// queuedSteps delivers the job's outputs on the steps queue, one activity
// each. The first one's ScheduleToStart timeout is the job's start deadline
// (X-Service-Start-Timeout); an output the plan puts on a capacity-limited
// queue (a moodboard's analysis) waits at most the plan's capacity
// deadline for a slot.
func (j *job) queuedSteps(ctx workflow.Context) (contract.SettleInput, error) {
	queue := workflow.GetInfo(ctx).TaskQueueName
	opts := workflow.ActivityOptions{
		TaskQueue:           contract.StepsQueue(queue),
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    3 * time.Second,
		WaitForCancellation: true,
		RetryPolicy:         &stepRetry,
	}
	run := func(ctx workflow.Context, i int, plan *contract.Plan, start bool) workflow.Future {
		o := opts
		in := j.stepInput(i, queue)
		switch {
		case plan == nil:
			o.Summary, in.Start = "leave the queue, plan, output 1", true
			o.ScheduleToStartTimeout = j.startDeadline()
		case start:
			o.Summary, in.Start = fmt.Sprintf("leave the queue, output %d of %d", i+1, plan.Steps), true
			o.ScheduleToStartTimeout = j.startDeadline()
		default:
			o.Summary = fmt.Sprintf("output %d of %d", i+1, plan.Steps)
			if capacity, limited := plan.Capacity[i]; limited {
				o.TaskQueue, o.ScheduleToStartTimeout = contract.CapacityQueue(queue, capacity), plan.CapacityDeadline
			}
		}
		j.onEngine(&o, queue)
		return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, o), contract.ActivityRunStep, in)
	}
	return j.deliver(ctx, run, opts)
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

// inlineSteps delivers the outputs of a quick job (AdmitResult.Inline)
// inside the workflow task that admitted it: each output is RunStep as a
// local activity, so the job asks Temporal for no activity task and no
// further workflow task. The steps are the ones the steps queue runs
// (recorded exactly once per output), retried by the local activity's
// policy.
func (j *job) inlineSteps(ctx workflow.Context) (contract.SettleInput, error) {
	queue := workflow.GetInfo(ctx).TaskQueueName
	opts := workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 2 * time.Minute,
		StartToCloseTimeout:    30 * time.Second,
		RetryPolicy:            &stepRetry,
	}
	run := func(ctx workflow.Context, i int, plan *contract.Plan, _ bool) workflow.Future {
		o := opts
		in := j.stepInput(i, queue)
		if plan == nil {
			o.Summary, in.Start = "leave the queue, plan, output 1 (inline)", true
		} else {
			o.Summary = fmt.Sprintf("output %d of %d (inline)", i+1, plan.Steps)
		}
		return workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, o), contract.ActivityRunStep, in)
	}
	planOpts := workflow.ActivityOptions{TaskQueue: contract.StepsQueue(queue), StartToCloseTimeout: time.Minute}
	return j.deliver(ctx, run, planOpts)
}

// stepInput is the input of output i's step, with the job's task and input
// and the events its subscribers want (the step emits started and
// progress itself).
func (j *job) stepInput(i int, queue string) contract.StepInput {
	return contract.StepInput{JobID: j.in.JobID, Index: i, Events: j.admitted.Events, Queue: queue,
		UserID: j.in.UserID, Task: j.in.Task, Input: j.in.Input}
}

// deliver runs the job's steps with run and answers how to settle. A job
// its admit planned (since versionAdmitPlan) runs every output side by
// side from the start (deliverAll). Otherwise the first step plans
// (PlanJob, with planOpts, plans a job whose first step failed before
// answering) and the other outputs run side by side after it
// (deliverParallel; output by output in jobs started before that change).
// Each output delivered or not is recorded, and a cancel, a missed
// deadline, refused content or an engine that stayed busy ends the job
// there.
func (j *job) deliver(ctx workflow.Context, run runStep,
	planOpts workflow.ActivityOptions) (contract.SettleInput, error) {
	if plan := j.admitted.Plan; plan != nil && plan.Steps > 1 &&
		workflow.GetVersion(ctx, versionAdmitPlan, workflow.DefaultVersion, 1) == 1 {
		return j.deliverAll(ctx, run, plan)
	}
	out, err := stepResult(ctx, run(ctx, 0, nil, true))
	switch {
	case scheduleToStart(err):
		return j.startTimeout(), nil
	case temporal.IsCanceledError(err) || ctx.Err() != nil:
		return contract.SettleInput{}, temporal.NewCanceledError()
	}
	plan := out.Plan
	if plan == nil {
		p, perr := j.plan(ctx, planOpts, err)
		if perr != nil {
			failure := contract.Failure{Code: contract.CodeInternal, Message: "The job could not start."}
			return j.fail(contract.OutcomeFailed, failure), nil
		}
		plan = &p
	}
	d := &deliveries{steps: plan.Steps}
	if plan.Steps > 1 && workflow.GetVersion(ctx, versionParallel, workflow.DefaultVersion, 1) == 1 {
		return j.deliverParallel(ctx, run, plan, d, out, err)
	}
	for i := 0; i < plan.Steps; i++ {
		if i > 0 {
			out, err = stepResult(ctx, run(ctx, i, plan, false))
		}
		capacity, limited := plan.Capacity[i]
		switch {
		case temporal.IsCanceledError(err) || ctx.Err() != nil:
			return contract.SettleInput{}, temporal.NewCanceledError()
		case i > 0 && limited && scheduleToStart(err):
			msg := fmt.Sprintf("Output %d of %d could not get %s capacity in time; submit again later.",
				i+1, plan.Steps, capacity)
			return j.fail(contract.OutcomeFailed, contract.Failure{Code: contract.CodeCapacityBusy, Message: msg}), nil
		}
		if f := d.record(ctx, i, out, err); f != nil {
			return j.fail(contract.OutcomeFailed, *f), nil
		}
	}
	settlement := d.settle(j.in.JobID)
	if settlement.Failure != nil {
		return j.fail(settlement.Outcome, *settlement.Failure), nil
	}
	return settlement, nil
}

// plan learns the plan of a job whose first output failed for good (the
// first step plans before it renders, but its answer was an error).
func (j *job) plan(ctx workflow.Context, o workflow.ActivityOptions, cause error) (contract.Plan, error) {
	workflow.GetLogger(ctx).Warn("first output failed; planning the job without it", "error", cause)
	o.Summary, o.HeartbeatTimeout, o.WaitForCancellation = "plan the job", 0, false
	o.ScheduleToStartTimeout = 0
	o.RetryPolicy = &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second,
		MaximumAttempts: 5}
	var plan contract.Plan
	actx := workflow.WithActivityOptions(ctx, o)
	err := workflow.ExecuteActivity(actx, contract.ActivityPlanJob, j.in.JobID).Get(ctx, &plan)
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
	if f := contentRefused(err); f != nil {
		return f
	}
	if f := d.capacityBusy(ctx, i, err); f != nil {
		return f
	}
	switch {
	case err == nil:
		d.delivered++
		d.warnings = append(d.warnings, out.Warnings...)
		workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: %d of %d outputs delivered", d.delivered, d.steps))
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

// settle is how a job whose steps all ran settles: succeeded with what it
// delivered (a summary when something is missing), or failed
// processing_failed when nothing was.
func (d *deliveries) settle(jobID string) contract.SettleInput {
	if d.delivered == 0 {
		msg := "The job delivered no output."
		if d.reason != "" {
			msg = "The job delivered no output: " + d.reason + "."
		}
		return contract.SettleInput{JobID: jobID, Outcome: contract.OutcomeFailed,
			Failure: &contract.Failure{Code: contract.CodeProcessingFailed, Message: msg}}
	}
	in := contract.SettleInput{JobID: jobID, Outcome: contract.OutcomeSucceeded}
	if len(d.warnings) > 0 {
		in.Summary = &contract.Summary{Requested: d.steps, Delivered: d.delivered, Warnings: d.warnings}
	}
	return in
}

// contentRefused is the failure of a step whose task refused its content,
// which ends the job; nil for any other answer.
func contentRefused(err error) *contract.Failure {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) && ae.Type() == contract.ErrTypeContentRefused {
		return &contract.Failure{Code: contract.CodeContentRefused, Message: ae.Message()}
	}
	return nil
}

// versionEngineBusy is the change that ends a job capacity_busy when a
// step's external engine stayed overloaded through its retries (for a task
// that allows it). Old histories never hold such a failure, so the marker
// is asked for only when one arrives.
const versionEngineBusy = "engine-capacity-busy"

// capacityBusy is the failure of a step whose engine stayed busy, which
// ends the job; nil for any other answer.
func (d *deliveries) capacityBusy(ctx workflow.Context, i int, err error) *contract.Failure {
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != contract.ErrTypeCapacityBusy {
		return nil
	}
	if workflow.GetVersion(ctx, versionEngineBusy, workflow.DefaultVersion, 1) != 1 {
		return nil
	}
	msg := fmt.Sprintf("Output %d of %d could not get the model server's capacity in time; submit again later.",
		i+1, d.steps)
	return &contract.Failure{Code: contract.CodeCapacityBusy, Message: msg}
}
