// Package tasks is the task core: the Definition of a task and its Runner,
// the Registry families add their tasks to, the schema builders and the
// validation of inputs against the published schema (the schema served is
// the schema enforced), prices, examples and the Loader of image
// references. Each family of tasks is a package of its own (tasks/pattern,
// tasks/palette, …) that imports this one; tasks/all adds every family.
package tasks

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// The six task categories.
const (
	CategoryDesignGeneration = "design_generation"
	CategoryImageEditing     = "image_editing"
	CategoryPhotoshoots      = "photoshoots"
	CategoryVideo            = "video"
	CategoryProductionPrep   = "production_prep"
	CategoryRecordsLibraries = "records_libraries"
)

// Output is one file a step delivers.
type Output struct {
	// Data is the file's bytes.
	Data []byte
	// MediaType is the file's type, for example image/png.
	MediaType string
	// Ext is the file name extension without a dot.
	Ext string
	// Meta is the output's data, valid against the task's outputSchema.
	Meta map[string]any
	// Warnings are notes for the job summary (codes of type warning).
	Warnings []contract.Warning
	// Uncharged says the output is delivered but not charged: one the task
	// could not stand behind (a cut-out under its quality threshold),
	// delivered with a warning saying so.
	Uncharged bool
	// Engine names the external engine that made the output; "" for the
	// task's built-in one.
	Engine string
}

// Plan is what a job will deliver: one step per output.
type Plan struct {
	// Steps is the number of outputs the job will try to deliver.
	Steps int
	// Phase names what the job does, shown in progress.phase.
	Phase string
	// Capacity names the steps (by index) that run on a capacity-limited
	// queue, by queue name (contract.QueueAnalysis). Such a step that cannot
	// start within the queue's deadline fails the job capacity_busy,
	// charged for what it delivered.
	Capacity map[int]string
	// FirstAlone says the first output prepares what the others share (a
	// photoshoot's cut-out product, cached per worker): the others start
	// once it ended, so none holds a step slot idle waiting for it.
	FirstAlone bool
	// Engine names the external engine every step of the job runs on: the
	// steps wait on that engine's own task queue, with its capacity, and
	// never take the built-in steps' slots.
	Engine string
	// StepTimeout is how long one step may run (0: the service's default),
	// QueueWait how long a step may wait in its engine's queue for a slot
	// before the job fails capacity_busy (0: as long as the job's start
	// deadline lets it); both the engine's.
	StepTimeout, QueueWait time.Duration
	// PerStep is how many outputs each step makes (a model's prediction
	// that answers a list of files), 0 or 1 meaning one: step k makes
	// outputs k×PerStep … k×PerStep+PerStep-1, in order, and Steps (the
	// outputs, held and charged one by one) is a multiple of it. The
	// Runner is then a GroupRunner.
	PerStep int
	// Fallback names the external engine an output goes to when its
	// built-in step hands it off (HandOff: the built-in output's confidence
	// was under the route's threshold). The steps run on the built-in
	// queue; a handed-off output runs a second step on the engine's queue.
	Fallback string
}

// GroupRunner is a Runner whose steps each make Plan.PerStep outputs.
type GroupRunner interface {
	Runner
	// StepGroup renders outputs i … i+n-1 of a validated input (i a
	// multiple of n). It may answer fewer outputs, the first ones, with a
	// *StepError saying why the rest were not made: they are then not
	// produced and not charged. No output and an error is a failed step.
	StepGroup(ctx context.Context, input Input, i, n int) ([]Output, error)
}

// Runner is the executable half of a task.
type Runner interface {
	// Plan decides the outputs of a validated input.
	Plan(input Input) Plan
	// Step renders output number i (0-based) of a validated input.
	Step(ctx context.Context, input Input, i int) (Output, error)
}

// Definition is one task of the catalogue.
type Definition struct {
	Name         string
	Title        string
	Description  string
	Category     string
	Unit         string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Status is "" for a current task or "deprecated".
	Status string
	// ReplacedBy names the replacement of a deprecated or removed task.
	ReplacedBy string
	// Removed tasks answer 410 task_removed on every call.
	Removed bool
	// The task's life cycle, dated YYYY-MM-DD: the changelog
	// (GET /v1/changelog) is written from these fields, so deprecating or
	// removing a task in code is what announces it. AddedOn is when the
	// task joined the catalogue ("" for the first release); DeprecatedOn is
	// required when Status is "deprecated" and RemovedOn when Removed;
	// RemovalOn is the announced removal date of a deprecated task ("" while
	// none is announced). Migration is the step that moves a caller to
	// ReplacedBy, required with either date.
	AddedOn, DeprecatedOn, RemovalOn, RemovedOn string
	Migration                                   string

	Runner Runner
	// Pricing is what one output costs.
	Pricing Pricing
	// Docs is the task page, served as the Task's docs object.
	Docs Docs
	// Examples are real requests; their files are rendered by Runner.
	Examples []Example
	// ErrorRules map a (field, schema keyword) failure to a task-specific code.
	ErrorRules []ErrorRule
	// RefSides bounds the image sides of reference fields by field name; an
	// upload whose size is known is refused at submit when it does not fit.
	RefSides map[string]ImageSides
	// Refuse is the task's own check of an input its schema accepts: a
	// well-formed request the task cannot work with answers request_refused
	// naming the field. Validate runs it with no sizes; the submit runs it
	// again with sizes holding the pixel size of every image reference
	// known then (uploads), by reference. Nil when the task has none.
	Refuse func(in Input, sizes map[string]ImageSize) *apierr.Error
	// Warns are the summary warnings its outputs can carry on inputs its
	// examples do not show (a cut-out judged uncertain: its examples are
	// good cuts); its docs' Errors list them with the rest.
	Warns []apierr.Code
	// Variant names the field (kind or type) that decides which other fields
	// apply; nil when the task has none.
	Variant *Variant
	// Produces and Uses name the concepts (GET /v1/concepts) the task makes
	// and relies on; the catalogue lists the task under each concept.
	Produces []string
	Uses     []string

	once     sync.Once
	compiled *jsonschema.Schema
	doc      map[string]any
	err      error
	exMu     sync.Mutex
	exFiles  map[int][]Output
}

// ErrorRule maps a schema failure to a task-specific catalogue code. Field is
// the public path with array indices written [] (colors[] for colors[2]);
// Keyword is the failing JSON Schema keyword (maxItems, pattern, type, ...).
type ErrorRule struct {
	Field   string
	Keyword string
	Code    apierr.Code
}

// Variant describes a variant field: Only lists, for each field that only
// some variants use, the variant values that use it. The published schema
// carries the same rule as if/then branches setting the field to false.
type Variant struct {
	Field   string
	Default string
	Only    map[string][]string
}

// StepError is a failure of a step whose Message is the caller's: the
// job's error.message, or the output_not_produced warning of the output,
// carries it. Code is processing_failed, content_refused, or
// capacity_busy (an external engine overloaded, for a task that allows it). It is
// permanent — retrying cannot help — unless Temporary.
type StepError struct {
	Code    string
	Message string
	// Temporary says a later attempt may succeed (a server that did not
	// answer): the step is retried, and fails with Message when its
	// attempts run out.
	Temporary bool
	// Err is the cause, for the logs and the operator's view of the step;
	// never shown to the caller.
	Err error
}

// Error implements error.
func (e *StepError) Error() string { return e.Code + ": " + e.Message }

// Unwrap is the cause.
func (e *StepError) Unwrap() error { return e.Err }
