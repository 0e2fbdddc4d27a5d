package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// The workflows' activity options, one function per place an activity
// runs. The job workflow's: the hold (a local activity of the admit), a
// step on the steps queue or a capacity-limited queue, a quick job's step
// (a local activity), settlement (a local activity) and closing a job's
// admission (the workflow's own queue); then a webhook delivery's and the
// deprecation notices'. Every option that reaches an activity is set here.

// stepRetry is how a step that failed is retried: a few times, never when
// the task said it cannot succeed with this input or refused its content.
var stepRetry = temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second,
	MaximumAttempts: 3, NonRetryableErrorTypes: []string{contract.ErrTypeProcessing, contract.ErrTypeContentRefused}}

// holdOptions are the options of the admit's credit hold. Under a burst
// the account's lock (PostgreSQL) or the database file (SQLite) is
// contended: the hold keeps retrying well inside the admit window rather
// than end the job never admitted.
func holdOptions() workflow.LocalActivityOptions {
	return workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: contract.AdmitWindow * 3 / 4,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond,
			MaximumInterval: 2 * time.Second},
	}
}

// stepOptions are the options of output i's step on the steps queue of the
// job workflow's queue. A step that leaves the queue (start) waits for a
// worker at most the job's start deadline (0: none); an output the plan
// puts on a capacity-limited queue (a moodboard's analysis) waits there at
// most the plan's capacity deadline for a slot; a job whose task runs on an
// external engine puts its steps on that engine's own queue, where they
// wait for a slot of the engine's capacity at most the engine's queue wait
// (the plan's capacity deadline) or, for a step that leaves the queue, the
// job's start deadline when that is shorter (engineWait), and run for the
// engine's step timeout.
func stepOptions(queue string, i int, plan *contract.Plan, start bool,
	startDeadline time.Duration) workflow.ActivityOptions {
	o := workflow.ActivityOptions{
		TaskQueue:           contract.StepsQueue(queue),
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    3 * time.Second,
		WaitForCancellation: true,
		RetryPolicy:         &stepRetry,
		Summary:             "output " + outputsOf(i, plan),
	}
	if start {
		o.Summary = "leave the queue, output " + outputsOf(i, plan)
		o.ScheduleToStartTimeout = startDeadline
	}
	if capacity, limited := plan.Capacity[i]; limited {
		o.TaskQueue, o.ScheduleToStartTimeout = contract.CapacityQueue(queue, capacity), plan.CapacityDeadline
	}
	if plan.Engine != "" {
		o.TaskQueue = contract.EngineQueue(queue, plan.Engine)
		o.ScheduleToStartTimeout, _ = engineWait(plan, start, startDeadline)
		if plan.StepTimeout > 0 {
			o.StartToCloseTimeout = plan.StepTimeout
		}
	}
	return o
}

// engineWait is how long a step of a job on an external engine waits in the
// engine's queue for a slot (0: no bound), and whether that bound is the
// job's start deadline (the step leaves the queue, and the caller's
// deadline is the shorter): missing it fails the job start_timeout, else
// capacity_busy.
func engineWait(plan *contract.Plan, start bool, startDeadline time.Duration) (time.Duration, bool) {
	if start && startDeadline > 0 && (plan.CapacityDeadline <= 0 || startDeadline <= plan.CapacityDeadline) {
		return startDeadline, true
	}
	return plan.CapacityDeadline, false
}

// outputsOf names the outputs of the step of output i: "2 of 6", or "1–3
// of 6" for a step that makes several (plan.PerStep).
func outputsOf(i int, plan *contract.Plan) string {
	if n := plan.Group(); n > 1 {
		return fmt.Sprintf("%d–%d of %d", i+1, min(i+n, plan.Steps), plan.Steps)
	}
	return fmt.Sprintf("%d of %d", i+1, plan.Steps)
}

// engineStepOptions are the options of the second step of output i, which
// its built-in step handed off (StepResult.HandOff): on the queue of the
// plan's Fallback engine, as a routed task's steps are, never taking a
// built-in step's slot. The job has left the queue by then: no start
// deadline.
func engineStepOptions(queue string, i int, plan *contract.Plan) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		TaskQueue:           contract.EngineQueue(queue, plan.Fallback),
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    3 * time.Second,
		WaitForCancellation: true,
		RetryPolicy:         &stepRetry,
		Summary:             fmt.Sprintf("output %d of %d on engine %s (handed off)", i+1, plan.Steps, plan.Fallback),
	}
}

// inlineStepOptions are the options of output i's step of a quick job, a
// local activity inside the workflow task that admitted it.
func inlineStepOptions(i int, plan *contract.Plan, start bool) workflow.LocalActivityOptions {
	o := workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 2 * time.Minute,
		StartToCloseTimeout:    30 * time.Second,
		RetryPolicy:            &stepRetry,
		Summary:                "output " + outputsOf(i, plan) + " (inline)",
	}
	if start {
		o.Summary = "leave the queue, output " + outputsOf(i, plan) + " (inline)"
	}
	return o
}

// settleOptions are the options of settlement, a local activity that
// retries until the ledger answers.
func settleOptions() workflow.LocalActivityOptions {
	return workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 10 * time.Minute,
		StartToCloseTimeout:    30 * time.Second,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
		Summary:                "settle: charge delivered outputs, release the rest, emit the terminal event",
	}
}

// closeOptions are the options of closing the admission of a job never
// admitted, on the job workflow's own queue.
func closeOptions() workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		Summary:             "close admission: the job never runs",
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	}
}

// deliverOptions are the options of one webhook delivery of event:
// WebhookBackoff, at most webhook.max_attempts attempts, never retried once
// the receiver rejected it.
func deliverOptions(event string) workflow.ActivityOptions {
	policy := WebhookBackoff
	policy.MaximumAttempts = int32(contract.DefaultWebhook().MaxAttempts)
	policy.NonRetryableErrorTypes = []string{contract.ErrTypeWebhookRejected}
	return workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second, RetryPolicy: &policy,
		Summary: "deliver " + event}
}

// planNoticesOptions are the options of the week's PlanNotices.
func planNoticesOptions() workflow.ActivityOptions {
	return workflow.ActivityOptions{StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 5}}
}

// sendNoticeOptions are the options of one SendNotice: retried for hours,
// further apart each time.
func sendNoticeOptions() workflow.ActivityOptions {
	return workflow.ActivityOptions{StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    10 * time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Hour,
			MaximumAttempts:    20,
		}}
}
