package contract

import (
	"encoding/json"
	"time"
)

// JobInput starts a job workflow: the job row and hold its admit writes.
type JobInput struct {
	JobID               string
	UserID              uint64
	APIKeyID            string
	Task                string
	Input               json.RawMessage
	CreditType          string
	HeldCredits         int64
	PricePerOutput      int64
	StartTimeoutSeconds int
	WebhookURL          string
	RequestID           string
	ServiceVersion      string
	// Intent is why the job was submitted (IntentWait, IntentBatch; empty
	// for an ordinary submit): it sets the job's priority on every queue.
	Intent string `json:",omitempty"`
	// Weight is the fairness weight of the account's plan; 0 means 1 (the
	// default weight).
	Weight float32 `json:",omitempty"`
}

// AdmitResult is the answer of the admit update and of the HoldCredits
// activity behind it: whether the job was admitted, or the amounts of a
// refusal.
type AdmitResult struct {
	Admitted bool
	Required int64
	Balance  int64
	// CreatedAt is when the job row was written.
	CreatedAt time.Time
	// Events are the job events with subscribers at admit: the job emits only these.
	Events []string `json:",omitempty"`
	// Visible is a refusal of a job whose handle the submit had already
	// answered (its admit was slow): the job ends failed insufficient_credits.
	Visible bool `json:",omitempty"`
	// SpendLimit is the spend limit a refused job's hold would pass; nil
	// for a refusal of the balance (insufficient_credits).
	SpendLimit *SpendLimitHit `json:",omitempty"`
	// Inline is an admitted job whose steps take a few milliseconds
	// (tasks.Quick): it runs them and settles as local activities of the
	// admit's workflow task, with no activity task.
	Inline bool `json:",omitempty"`
	// StepsPerJob bounds how many of the job's outputs run at once; 0 (or
	// above the service's limit) means StepsPerJob. The admitting worker
	// sets it (activities.Activities.StepsPerJob) and the history records
	// it, so a replay takes the same bound.
	StepsPerJob int `json:",omitempty"`
	// Plan is the plan of an admitted job's outputs, made at admit, so its
	// first outputs start together; nil when the admitting worker could
	// not read the job's task or input (the job then fails internal
	// without a step).
	Plan *Plan `json:",omitempty"`
	// Busy is the failure of an admitted job that does not wait: the
	// external engine its plan names already has its queue limit of jobs
	// waiting (capacity_busy). The job fails without a step, its hold
	// released, nothing charged.
	Busy *Failure `json:",omitempty"`
}

// JobResult is how a job workflow ended.
type JobResult struct {
	Outcome   string
	Delivered int
	Charged   int64
}

// Plan is the plan of a job's outputs: how many it delivers, its phase,
// which steps need capacity and whether the first runs alone.
type Plan struct {
	Steps int
	Phase string
	// Capacity names the steps (by index) that run on a capacity-limited
	// queue, by queue name (QueueAnalysis).
	Capacity map[int]string `json:",omitempty"`
	// CapacityDeadline is how long such a step may wait for capacity before
	// the job fails capacity_busy.
	CapacityDeadline time.Duration `json:",omitempty"`
	// FirstAlone says the first output prepares what the others share
	// (tasks.Plan.FirstAlone): the job starts the others once it ended.
	FirstAlone bool `json:",omitempty"`
	// Engine names the external engine every step runs on
	// (tasks.Plan.Engine): its steps run on EngineQueue, waiting there at
	// most CapacityDeadline for a slot of the engine's capacity.
	Engine string `json:",omitempty"`
	// StepTimeout is how long one of its steps may run (the engine's); 0
	// for the service's default.
	StepTimeout time.Duration `json:",omitempty"`
	// PerStep is how many outputs each step makes (tasks.Plan.PerStep), 0
	// meaning one: the step of output i (a multiple of it) makes outputs
	// i … i+PerStep-1.
	PerStep int `json:",omitempty"`
	// Fallback names the external engine of the outputs a built-in step
	// hands off (tasks.Plan.Fallback, StepResult.HandOff): each runs a
	// second step on that engine's EngineQueue.
	Fallback string `json:",omitempty"`
}

// Group is how many outputs each step of the plan makes (at least one).
func (p *Plan) Group() int { return max(p.PerStep, 1) }

// StepInput names one output of a job. A step started before the job is
// known to have left the queue (Start) also moves it to running; a step emits the job's
// started and progress events itself when someone subscribed to them
// (Events, decided at admit), starting their deliveries on Queue.
type StepInput struct {
	JobID  string
	Index  int
	Start  bool     `json:",omitempty"`
	Events []string `json:",omitempty"`
	Queue  string   `json:",omitempty"`
	// Outputs is how many outputs the step makes, from Index on
	// (Plan.PerStep); 0 means one.
	Outputs int `json:",omitempty"`
	// UserID, Task and Input are the job's own (its JobInput), so a step
	// needs no read of the job's row.
	UserID uint64
	Task   string
	Input  json.RawMessage
	// OnEngine says the step runs on the plan's Fallback engine an output
	// its built-in step handed off (StepResult.HandOff).
	OnEngine bool `json:",omitempty"`
}

// Warning is one entry of a job summary's warnings: a catalogued code of
// type warning, the output or input concerned (nil for none) and a message.
type Warning struct {
	Code    string  `json:"code"`
	Field   *string `json:"field"`
	Message string  `json:"message"`
}

// StepResult is the file a step delivered and any warnings for the summary.
// A step that makes several outputs (StepInput.Outputs) answers the first
// one's file as FileID and the next ones' as More, in order; Missing says,
// in the caller's words, why it made fewer than asked (those after the
// delivered ones are not produced and not charged).
type StepResult struct {
	FileID   string
	More     []string  `json:",omitempty"`
	Missing  string    `json:",omitempty"`
	Warnings []Warning `json:",omitempty"`
	// Engine names the external engine that made the output ("" for a
	// built-in one), so the step's result in the Temporal UI shows it.
	Engine string `json:",omitempty"`
	// HandOff is set, with the reason, when the built-in step did not
	// deliver its output but handed it to the plan's Fallback engine
	// (FileID is then empty): the job runs the output again there.
	HandOff string `json:",omitempty"`
	// Uncharged is how many of the delivered outputs are not charged
	// (tasks.Output.Uncharged).
	Uncharged int `json:",omitempty"`
}

// Summary is a job result's summary: counts and warnings, present only when
// the task has something to report.
type Summary struct {
	Requested int       `json:"requested"`
	Delivered int       `json:"delivered"`
	Warnings  []Warning `json:"warnings"`
}

// Failure is the public reason a job failed or was cancelled: a catalogued
// code and its message; the settle activity makes the public error object.
type Failure struct {
	Code    string
	Message string
	// RetryAfter is the wait, in seconds, the job's error names
	// (ctx.retry_after) before submitting again; 0: none of its own.
	RetryAfter int64 `json:",omitempty"`
}

// SettleInput is how a job ended.
type SettleInput struct {
	JobID   string
	Outcome string
	// Failure is set for failed and cancelled jobs.
	Failure *Failure `json:",omitempty"`
	Summary *Summary `json:",omitempty"`
	// Uncharged is how many delivered outputs are not charged
	// (StepResult.Uncharged).
	Uncharged int `json:",omitempty"`
	// Events are the job events with subscribers at admit: settlement
	// emits the terminal event to them, starting deliveries on Queue.
	Events []string `json:",omitempty"`
	Queue  string
}

// SettleResult is what settlement charged.
type SettleResult struct {
	Delivered int
	Charged   int64
}

// CloseInput names a job whose workflow gives up without an admit decision.
type CloseInput struct {
	JobID  string
	UserID uint64
}

// WebhookDeliveryInput names one delivery (workflow id = delivery id).
type WebhookDeliveryInput struct {
	DeliveryID string
	Event      string
}

// WebhookDeliveryResult says how a delivery ended.
type WebhookDeliveryResult struct {
	Delivered bool
}
