package engines

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// Runner is the Runner of a task whose steps run on an engine: each step
// is one prediction making one output, or several when its model answers
// a list of files (Binding.FilesPerPrediction); each is checked like an
// upload (check.go's checkOutput) before it is stored or charged.
type Runner struct {
	engine tasks.Engine
	bind   Binding
	plan   func(tasks.Input) tasks.Plan
	per    perPrediction
	inType reflect.Type
	// decode is the built-in task's input decoder (tasks.TypedRunner); nil
	// for a task declared by configuration, whose input is its fields.
	decode  func(map[string]any) (any, error)
	allowed []string
	// refs are the input fields that hold file references.
	refs map[string]bool
}

// Plan implements tasks.Runner: the task's plan, every step on the engine's
// queue.
// With several files a prediction (FilesPerPrediction), each of the
// task's planned predictions makes that many outputs.
func (r *Runner) Plan(input tasks.Input) tasks.Plan {
	p := r.plan(input)
	p.Engine = r.engine.Name()
	if l, ok := r.engine.(interface{ Limits() Limits }); ok {
		p.StepTimeout, p.QueueWait = l.Limits().Step, l.Limits().Queue
	}
	if n := r.per.count(input.Fields); n > 1 {
		p.Steps, p.PerStep = p.Steps*n, n
		if len(p.Capacity) > 0 {
			byOutput := make(map[int]string, len(p.Capacity))
			for i, q := range p.Capacity {
				byOutput[i*n] = q
			}
			p.Capacity = byOutput
		}
	}
	return p
}

// EngineSlots is how many of the engine's steps run at once, across every
// worker: its replicas × its concurrency.
func (r *Runner) EngineSlots() int {
	if s, ok := r.engine.(interface{ Slots() int }); ok {
		return s.Slots()
	}
	return 1
}

// EngineQueueLimit is how many jobs may wait for the engine's capacity
// before a new one fails capacity_busy at once (0: no limit).
func (r *Runner) EngineQueueLimit() int {
	if l, ok := r.engine.(interface{ Limits() Limits }); ok {
		return l.Limits().QueueLimit
	}
	return 0
}

// InputType implements tasks.TypedRunner: the built-in task's input type, or
// a map for a task declared by configuration (its schema is its only shape).
func (r *Runner) InputType() reflect.Type { return r.inType }

// DecodeInput implements tasks.TypedRunner with the built-in task's decoder;
// a declared task's input is its fields alone.
func (r *Runner) DecodeInput(fields map[string]any) (any, error) {
	if r.decode == nil {
		return nil, nil
	}
	return r.decode(fields)
}

// EngineName implements tasks.EngineRunner.
func (r *Runner) EngineName() string { return r.engine.Name() }

// EngineErrors implements tasks.EngineRunner: a refusal, capacity_busy
// (a step that found no free slot of the engine within its queue wait) and
// service_unavailable (a model server that cannot serve: downs.go).
func (r *Runner) EngineErrors() []apierr.Code {
	return []apierr.Code{apierr.ContentRefused, apierr.CapacityBusy, apierr.ServiceUnavailable}
}

// Step implements tasks.Runner: output i, of the prediction that makes it.
func (r *Runner) Step(ctx context.Context, input tasks.Input, i int) (tasks.Output, error) {
	n := r.per.count(input.Fields)
	outs, err := r.StepGroup(ctx, input, i-i%n, n)
	if k := i % n; k < len(outs) {
		return outs[k], nil
	}
	return tasks.Output{}, err
}

// StepGroup implements tasks.GroupRunner: prediction i/n, whose files are
// outputs i … i+n-1. In the model's input "$index" is the prediction's
// index; in an output's data, the output's. A prediction that answers
// more files than n delivers none (the declaration is wrong); one that
// answers fewer, or whose k-th file does not pass the checks, delivers the
// files before it and says why the rest were not made.
func (r *Runner) StepGroup(ctx context.Context, input tasks.Input, i, n int) ([]tasks.Output, error) {
	source := map[string]any{}
	filled, err := fillRecords(ctx, r.bind.Input.apply(scope{input: input.Fields, i: i / n, refs: r.refs}))
	if err != nil {
		return nil, err
	}
	mapped, err := r.files().resolve(ctx, filled, source)
	if err != nil {
		return nil, err
	}
	p, err := r.engine.Predict(ctx, mapped.(map[string]any))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, r.stepError(err)
	}
	if len(p.Files) > n {
		return nil, &tasks.StepError{Code: string(apierr.ProcessingFailed),
			Message: fmt.Sprintf("the model answered %d files, more than the %d each of its predictions delivers "+
				"for this task", len(p.Files), n),
			Err: fmt.Errorf("engine %s: prediction %s answered %d files where files_per_prediction is %d: set it "+
				"to what the model answers", r.engine.Name(), p.ID, len(p.Files), n)}
	}
	outs := make([]tasks.Output, 0, len(p.Files))
	for k, data := range p.Files {
		out, err := r.checkOutput(input.Fields, i+k, k, data, source, p.ID)
		if err != nil {
			return outs, err
		}
		outs = append(outs, out)
	}
	if len(outs) < n {
		return outs, &tasks.StepError{Code: string(apierr.ProcessingFailed),
			Message: fmt.Sprintf("the model answered %d of the %d files its prediction delivers for this task",
				len(outs), n),
			Err: fmt.Errorf("engine %s: prediction %s answered %d files where files_per_prediction is %d",
				r.engine.Name(), p.ID, len(outs), n)}
	}
	return outs, nil
}

// files is how the engine hands a caller's files on: data URIs unless it
// says otherwise.
func (r *Runner) files() inputFiles {
	if e, ok := r.engine.(interface{ inputFiles() inputFiles }); ok {
		return e.inputFiles()
	}
	return inputFiles{mode: InputsDataURI}
}

// refFields are a task's input fields that hold file references, as a set.
func refFields(d *tasks.Definition) map[string]bool {
	out := map[string]bool{}
	for _, f := range d.RefFields() {
		out[f] = true
	}
	return out
}

// DefaultMeta is an output's data when the configuration maps none: the
// engine that made it and its index.
func DefaultMeta(engine string, i int) map[string]any {
	return map[string]any{"engine": engine, "index": i}
}

// stepError puts an engine's failure in the caller's words.
func (r *Runner) stepError(err error) error {
	var f *Failure
	if !errors.As(err, &f) {
		f = &Failure{Kind: Unavailable, Err: err}
	}
	se := &tasks.StepError{Code: string(apierr.ProcessingFailed), Err: err}
	switch f.Kind {
	case Refused:
		se.Code, se.Message = string(apierr.ContentRefused), "The model refused to make this content."
	case Busy:
		se.Message, se.Temporary = "the model server stayed busy", true
		if r.bind.CapacityBusy {
			se.Code = string(apierr.CapacityBusy)
		}
	case Unavailable:
		se.Message, se.Temporary = "the model server did not answer", true
	case Down:
		// The service's fault, failed at once: a model server whose setup
		// failed does not recover by itself (downs.go), so the step's
		// retries would only delay the answer. The job is uncharged.
		se.Code = string(apierr.ServiceUnavailable)
		se.Message = "the model server for this task cannot serve now (our side, not the input); " +
			"nothing was charged: submit the job again later"
	default:
		se.Message = "the model could not make it"
	}
	return se
}

// extensions are the media types an engine's output may have, as read from
// its bytes, with their file extensions.
var extensions = map[string]string{
	"image/png":       "png",
	"image/jpeg":      "jpg",
	"image/webp":      "webp",
	"image/gif":       "gif",
	"video/mp4":       "mp4",
	"video/webm":      "webm",
	"application/pdf": "pdf",
}

// imageType says whether a media type is an image the pixel budget reads.
func imageType(mt string) bool {
	return mt == "image/png" || mt == "image/jpeg" || mt == "image/gif" || mt == "image/webp"
}

// DefaultMediaTypes are the types an engine's outputs may have when the
// configuration names none.
var DefaultMediaTypes = []string{"image/png", "image/jpeg", "image/webp"}
