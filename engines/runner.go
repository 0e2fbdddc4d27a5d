package engines

import (
	"context"
	"errors"
	"fmt"
	"image"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
)

// Runner is the Runner of a task whose steps run on an engine: each step
// is one prediction making one output, its type read from the bytes and
// held to the task's media types, its size to the engine's limit and, for
// an image, to the pixel budget.
type Runner struct {
	engine  tasks.Engine
	bind    Binding
	plan    func(map[string]any) tasks.Plan
	inType  reflect.Type
	allowed []string
	// refs are the input fields that hold file references.
	refs map[string]bool
}

// Plan implements tasks.Runner: the task's plan, every step on the engine's
// queue.
func (r *Runner) Plan(input map[string]any) tasks.Plan {
	p := r.plan(input)
	p.Engine = r.engine.Name()
	return p
}

// EngineSlots is how many of the engine's steps one worker runs at once
// (its concurrency).
func (r *Runner) EngineSlots() int {
	if s, ok := r.engine.(interface{ Slots() int }); ok {
		return s.Slots()
	}
	return 1
}

// InputType implements tasks.TypedRunner: the built-in task's input type, or
// a map for a task declared by configuration (its schema is its only shape).
func (r *Runner) InputType() reflect.Type { return r.inType }

// EngineName implements tasks.EngineRunner.
func (r *Runner) EngineName() string { return r.engine.Name() }

// EngineErrors implements tasks.EngineRunner: a refusal always, capacity_busy
// when the task allows it.
func (r *Runner) EngineErrors() []apierr.Code {
	if r.bind.CapacityBusy {
		return []apierr.Code{apierr.ContentRefused, apierr.CapacityBusy}
	}
	return []apierr.Code{apierr.ContentRefused}
}

// Step implements tasks.Runner: one prediction, one output.
func (r *Runner) Step(ctx context.Context, input map[string]any, i int) (tasks.Output, error) {
	facts := map[string]any{}
	filled, err := fillRecords(ctx, r.bind.Input.apply(scope{input: input, i: i, refs: r.refs}))
	if err != nil {
		return tasks.Output{}, err
	}
	mapped, err := r.files().resolve(ctx, filled, facts)
	if err != nil {
		return tasks.Output{}, err
	}
	p, err := r.engine.Predict(ctx, mapped.(map[string]any))
	if err != nil {
		if ctx.Err() != nil {
			return tasks.Output{}, ctx.Err()
		}
		return tasks.Output{}, r.stepError(err)
	}
	mt := http.DetectContentType(p.Data)
	ext, known := extensions[mt]
	if !known || !slices.Contains(r.allowed, mt) {
		return tasks.Output{}, &tasks.StepError{Code: string(apierr.ProcessingFailed),
			Message: "the model answered a file of a type this task does not deliver",
			Err:     fmt.Errorf("engine %s: prediction %s answered %s", r.engine.Name(), p.ID, mt)}
	}
	if imageType(mt) {
		facts["format"] = strings.TrimPrefix(mt, "image/")
		// Decoded in full within the pixel budget, as an upload is: a file
		// whose header reads but whose pixels do not is not delivered, nor
		// charged.
		size, err := imagefile.Reduce(p.Data, func(img image.Image) image.Point { return img.Bounds().Size() })
		facts["width"], facts["height"] = size.X, size.Y
		if sw, ok := facts["source_width"].(int); ok && sw > 0 && size.X%sw == 0 {
			facts["scale"] = size.X / sw // a whole enlargement: "$output.scale"
		}
		if err != nil {
			return tasks.Output{}, &tasks.StepError{Code: string(apierr.ProcessingFailed),
				Message: "the model answered an image the service cannot read",
				Err:     fmt.Errorf("engine %s: prediction %s: %w", r.engine.Name(), p.ID, err)}
		}
	}
	return tasks.Output{Data: p.Data, MediaType: mt, Ext: ext, Meta: r.meta(input, i, facts), Engine: r.engine.Name()}, nil
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
