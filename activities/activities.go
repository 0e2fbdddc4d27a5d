// Package activities holds the side effects of job workflows: credit holds,
// task steps, progress and settlement, and the sweep that delivers or ends
// late jobs' admits (LateAdmits). It never imports workflows.
package activities

import (
	"net/http"
	"time"

	"go.temporal.io/sdk/client"
	"go.uber.org/zap"
	"gocloud.dev/blob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/tasks"
)

// Activities holds the dependencies of every activity. Workflows name its
// methods through contract (ActivityRunStep, ActivitySettle, …).
type Activities struct {
	DB   *gorm.DB
	Blob *blob.Bucket
	Log  *zap.Logger
	// StepDelay is slept (heartbeating) before each task step; dev and tests only.
	StepDelay time.Duration
	// StepsPerJob bounds how many outputs of a job this worker admits run
	// at once; 0 means contract.StepsPerJob (the
	// service's limit). `make bench` sets 1 to time jobs as they ran before
	// their outputs ran side by side.
	StepsPerJob int
	// NoInline keeps every job's steps on the steps queue, quick or not
	// (contract.AdmitResult.Inline): set by a worker that polls no steps.
	NoInline bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// FilesBaseURL is the public base address of file URLs in event bodies
	// (TP_FILES_BASE_URL).
	FilesBaseURL string
	// Signer signs webhook deliveries.
	Signer *signer.Signer
	// Tasks is the registry of the tasks jobs run; the binary passes every
	// family (tasks/all). Nil means no task: every job fails task_not_found.
	Tasks *tasks.Registry
	// HTTP is the SSRF-safe client webhooks are sent with.
	HTTP *http.Client
	// Fetch is the SSRF-safe client that fetches image URLs of task inputs.
	Fetch *http.Client
	// Temporal starts the delivery workflows of the job events the steps and
	// settlement emit; nil fails an emit that has someone to deliver to.
	Temporal client.Client
	// CapacityDeadline is how long a capacity-limited step (a moodboard's
	// analysis) may wait for a slot before its job fails capacity_busy
	// (TP_ANALYSIS_DEADLINE); zero means DefaultCapacityDeadline.
	CapacityDeadline time.Duration
	// Mail sends the deprecation notices (TP_SMTP_URL); nil records and
	// logs them without sending. MailFrom is the sender address.
	Mail     Mailer
	MailFrom string
	// Metrics are the business counters settlement adds to; nil counts
	// nothing.
	Metrics *JobMetrics
}

// DefaultCapacityDeadline is the capacity deadline when none is set.
const DefaultCapacityDeadline = time.Minute

func (a *Activities) now() time.Time {
	if a.Now != nil {
		return a.Now().UTC()
	}
	return time.Now().UTC()
}

// noTasks is the registry of an Activities given none.
var noTasks = tasks.NewRegistry()

// registry is the registry of the tasks jobs run.
func (a *Activities) registry() *tasks.Registry {
	if a.Tasks == nil {
		return noTasks
	}
	return a.Tasks
}
