// Package contract is the job workflow's contract: its task queues, update
// and activity names, inputs and results, event kinds, outcomes, failure
// types — plus the service's limits and dated versions. The API, the
// workflows, the activities and the Go client share these types. It is plain
// Go: it imports nothing of this module and nothing of Temporal's (the
// search attributes and start options of a job workflow are in workflows).
package contract

import (
	"time"
)

// TaskQueue is the queue of job workflows and their bookkeeping activities
// (hold, settle).
const TaskQueue = "taskplatform"

// StepsQueue is the queue of the task steps of workflows on queue: the
// capacity-limited queue whose ScheduleToStart timeout is the start deadline.
func StepsQueue(queue string) string { return queue + "-steps" }

// StepsPerJob is how many of one job's outputs run at once (the service's
// limit, and the default): the rest wait for one of them to end, so a fleet
// of workers shares a job without one job taking every step slot.
const StepsPerJob = 4

// QueueAnalysis is the capacity-limited queue of analysis steps (a
// moodboard's analysis): a worker runs at most TP_ANALYSIS_CAPACITY of them
// at once, and a step that cannot start within TP_ANALYSIS_DEADLINE fails
// its job capacity_busy.
const QueueAnalysis = "analysis"

// CapacityQueue is the task queue of capacity-limited steps named name, of
// workflows on queue.
func CapacityQueue(queue, name string) string { return queue + "-" + name }

// EngineQueue is the task queue of the steps that run on the external
// engine named engine, of job queue queue: each worker takes as many of
// them at once as the engine's concurrency.
func EngineQueue(queue, engine string) string { return queue + "-engine-" + engine }

// The job workflow's workflow types.
const (
	JobWorkflow             = "JobWorkflow"
	WebhookDeliveryWorkflow = "WebhookDeliveryWorkflow"
)

// UpdateAdmit is the update that admits a job (holds its credits). Its
// update id is fixed, so a retried submit lands on the same admit result.
const (
	UpdateAdmit   = "admit"
	AdmitUpdateID = "admit"
)

// AdmitWindow is how long a started job workflow waits to be admitted; a
// workflow never admitted ends by itself without holding anything.
const AdmitWindow = 2 * time.Minute

// The activities of job and delivery workflows, by registered name (the
// method names of activities.Activities).
const (
	ActivityHoldCredits    = "HoldCredits"
	ActivityRunStep        = "RunStep"
	ActivitySettle         = "Settle"
	ActivityCloseAdmission = "CloseAdmission"
	ActivityDeliver        = "Deliver"
)

// Job lifecycles.
const (
	LifecycleQueued   = "queued"
	LifecycleRunning  = "running"
	LifecycleTerminal = "terminal"
)

// Lifecycles lists the lifecycle values in order.
var Lifecycles = []string{LifecycleQueued, LifecycleRunning, LifecycleTerminal}

// Job outcomes, and the outcomes of workflows that never became jobs.
const (
	OutcomeSucceeded     = "succeeded"
	OutcomeFailed        = "failed"
	OutcomeCancelled     = "cancelled"
	OutcomeRefused       = "refused"
	OutcomeNeverAdmitted = "never_admitted"
)

// Outcomes lists the outcomes a job can end with.
var Outcomes = []string{OutcomeSucceeded, OutcomeFailed, OutcomeCancelled}

// Job event kinds (the webhook_event vocabulary).
const (
	EventStarted   = "job.started"
	EventProgress  = "job.progress"
	EventSucceeded = "job.succeeded"
	EventFailed    = "job.failed"
	EventCancelled = "job.cancelled"
	// EventPing is the signed test event sent to an endpoint on request.
	EventPing = "ping"
	// EventQueue is sent on a queued job's event stream (never to a
	// webhook) when its queue position or estimated start moves materially:
	// a state, not history (the stream_event vocabulary).
	EventQueue = "job.queue"
	// EventBatchCompleted is sent once when every job of a batch has
	// ended (POST /v1/batches).
	EventBatchCompleted = "batch.completed"
)

// StreamEvents lists the event kinds a job's event stream sends beyond
// JobEvents.
var StreamEvents = []string{EventQueue}

// JobEvents lists the job event kinds in order.
var JobEvents = []string{EventStarted, EventProgress, EventSucceeded, EventFailed, EventCancelled}

// TerminalEvents are the events a per-request webhook_url receives.
var TerminalEvents = []string{EventSucceeded, EventFailed, EventCancelled}

// TerminalEvent is the event of each outcome.
var TerminalEvent = map[string]string{
	OutcomeSucceeded: EventSucceeded,
	OutcomeFailed:    EventFailed,
	OutcomeCancelled: EventCancelled,
}

// Application error types activities fail with and workflows branch on.
const (
	// ErrTypeProcessing is a step that cannot succeed with this input; its
	// message is the task's own reason for its caller.
	ErrTypeProcessing = "processing_failed"
	// ErrTypeContentRefused is a step refused by content checks.
	ErrTypeContentRefused = "content_refused"
	// ErrTypeCapacityBusy is a step whose external engine stayed
	// overloaded through its retries, for a task that allows capacity_busy.
	ErrTypeCapacityBusy = "capacity_busy"
	// ErrTypeServiceUnavailable is a step whose external engine's model
	// server cannot serve until its operator restarts it (its setup failed).
	ErrTypeServiceUnavailable = "service_unavailable"
	// ErrTypeAdmissionClosed is an admit of a job whose workflow gave up.
	ErrTypeAdmissionClosed = "admission_closed"
	// ErrTypeWebhookRejected is a receiver answer that retrying cannot
	// change (3xx, 4xx other than 408 and 429).
	ErrTypeWebhookRejected = "webhook_rejected"
	// ErrTypeEndpointDisabled ends a delivery whose endpoint was disabled
	// (or removed) before the attempt.
	ErrTypeEndpointDisabled = "webhook_endpoint_disabled"
)

// Public error codes a job can end with, and the warning a missing output
// leaves (the apierr catalogue defines them from these).
const (
	CodeProcessingFailed    = "processing_failed"
	CodeContentRefused      = "content_refused"
	CodeInsufficientCredits = "insufficient_credits"
	CodeSpendLimitReached   = "spend_limit_reached"
	CodeInternal            = "internal"
	CodeStartTimeout        = "start_timeout"
	CodeCancelled           = "cancelled"
	CodeCapacityBusy        = "capacity_busy"
	CodeServiceUnavailable  = "service_unavailable"
	CodeOutputNotProduced   = "output_not_produced"
)

// Credit types: tasks spend service credits; model credits pay for model
// training.
const (
	CreditService = "service_credits"
	CreditModel   = "model_credits"
)

// CreditTypes lists the credit types in the order balances are reported.
var CreditTypes = []string{CreditService, CreditModel}
