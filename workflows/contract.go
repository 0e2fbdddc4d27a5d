// Package workflows holds the job workflow, its contract (task queue, update
// names, input and result types) and the replay tests of recorded histories.
package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/activities"
)

// TaskQueue is the queue of job workflows and their bookkeeping activities
// (hold, settle).
const TaskQueue = "taskplatform"

// StepsQueue is the queue of the task steps of workflows on queue: the
// capacity-limited queue whose ScheduleToStart timeout is the start deadline.
func StepsQueue(queue string) string { return queue + "-steps" }

// UpdateAdmit is the update that admits a job (holds its credits). Its
// update id is fixed, so a retried submit lands on the same admit result.
const (
	UpdateAdmit   = "admit"
	AdmitUpdateID = "admit"
)

// AdmitWindow is how long a started job workflow waits to be admitted; a
// workflow never admitted ends by itself without holding anything.
const AdmitWindow = 2 * time.Minute

// Search attributes of job workflows, registered on the namespace.
var (
	AttrTask    = temporal.NewSearchAttributeKeyKeyword("TpTask")
	AttrAccount = temporal.NewSearchAttributeKeyKeyword("TpAccountId")
	AttrOutcome = temporal.NewSearchAttributeKeyKeyword("TpOutcome")
)

// SearchAttributes lists the custom attributes to register.
var SearchAttributes = []temporal.SearchAttributeKeyKeyword{AttrTask, AttrAccount, AttrOutcome}

// Outcomes beyond the job outcomes, for workflows that never became jobs.
const (
	OutcomeRefused       = "refused"
	OutcomeNeverAdmitted = "never_admitted"
)

// JobInput starts a job workflow: the job row and hold its admit writes.
type JobInput = activities.HoldInput

// AdmitResult is the answer of the admit update.
type AdmitResult struct {
	Admitted bool
	Required int64
	Balance  int64
	// CreatedAt is when the job row was written.
	CreatedAt time.Time
	// Events are the job events with subscribers at admit.
	Events []string `json:",omitempty"`
	// Visible is a refusal of a job whose handle the submit had already
	// answered: the job ends failed insufficient_credits.
	Visible bool `json:",omitempty"`
}

// JobResult is how a job workflow ended.
type JobResult struct {
	Outcome   string
	Delivered int
	Charged   int64
}
