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
	// Shape is the workflow code path the job was started with, recorded
	// in its start so replays take the same one: 0 (jobs started before
	// shapes) chooses by workflow.GetVersion markers; ShapeUnmarked runs
	// the lean job with no admit timer when its admit came with its start,
	// and no version marker (each marker also upserts a search attribute:
	// a visibility write per job).
	Shape int `json:",omitempty"`
}

// ShapeUnmarked is the shape of jobs the API starts today (JobInput.Shape).
const ShapeUnmarked = 1

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
	// Inline is an admitted job whose steps take a few milliseconds
	// (tasks.Quick): it runs them and settles as local activities of the
	// admit's workflow task, with no activity task.
	Inline bool `json:",omitempty"`
}

// JobResult is how a job workflow ended.
type JobResult struct {
	Outcome   string
	Delivered int
	Charged   int64
}

// StartResult is the plan of a job that left the queue.
type StartResult struct {
	Steps int
	Phase string
	// Capacity names the steps (by index) that run on a capacity-limited
	// queue, by queue name (QueueAnalysis).
	Capacity map[int]string `json:",omitempty"`
	// CapacityDeadline is how long such a step may wait for capacity before
	// the job fails capacity_busy.
	CapacityDeadline time.Duration `json:",omitempty"`
}

// StepInput names one output of a job. The first step of a job (Start)
// also moves it to running and plans its outputs; a step emits the job's
// started and progress events itself when someone subscribed to them
// (Events, decided at admit), starting their deliveries on Queue.
type StepInput struct {
	JobID  string
	Index  int
	Start  bool     `json:",omitempty"`
	Events []string `json:",omitempty"`
	Queue  string   `json:",omitempty"`
	// UserID, Task and Input are the job's own (its JobInput), so a step
	// needs no read of the job's row; empty in steps scheduled before
	// they were sent, which read the row.
	UserID uint64          `json:",omitempty"`
	Task   string          `json:",omitempty"`
	Input  json.RawMessage `json:",omitempty"`
}

// Warning is one entry of a job summary's warnings: a catalogued code of
// type warning, the output or input concerned (nil for none) and a message.
type Warning struct {
	Code    string  `json:"code"`
	Field   *string `json:"field"`
	Message string  `json:"message"`
}

// StepResult is the file a step delivered and any warnings for the summary;
// the first step also returns the job's plan.
type StepResult struct {
	FileID   string
	Warnings []Warning    `json:",omitempty"`
	Plan     *StartResult `json:",omitempty"`
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
}

// SettleInput is how a job ended.
type SettleInput struct {
	JobID   string
	Outcome string
	// Failure is set for failed and cancelled jobs.
	Failure *Failure `json:",omitempty"`
	// Error is the public error object as recorded by workflows started
	// before Failure existed; settle reads it when Failure is nil.
	Error   json.RawMessage `json:",omitempty"`
	Summary *Summary        `json:",omitempty"`
	// Events and Queue, when set, make settlement emit the terminal event
	// to its subscribers itself (the job workflow then runs no emit step).
	Events []string `json:",omitempty"`
	Queue  string   `json:",omitempty"`
}

// SettleResult is what settlement charged.
type SettleResult struct {
	Delivered int
	Charged   int64
}

// EmitInput is one event of one job.
type EmitInput struct {
	JobID string
	Event string
	// Seq tells apart events of one kind (the output number for progress).
	Seq        int
	OccurredAt time.Time
}

// Delivery names one delivery an emit created.
type Delivery struct {
	DeliveryID string
	EndpointID string
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
