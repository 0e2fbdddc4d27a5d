package tasks

import (
	"context"
	"sync"

	"github.com/taskplatform/taskplatform/apierr"
)

// Engine is where a task's steps run when they do not run on its built-in
// Runner: a model server the operator runs (package engines holds the
// protocols and reads the operator's configuration). One Predict is one
// prediction, which answers one file or, for a model with a list output,
// several; each file is one output, stored and charged once like any other
// (GroupRunner, Plan.PerStep).
type Engine interface {
	// Name is the operator's name of the engine, shown in logs, in the
	// step's result and in its heartbeats (the Temporal UI).
	Name() string
	// Predict runs the model on its own input and answers its files. It
	// stops, and cancels the prediction, when ctx ends.
	Predict(ctx context.Context, input map[string]any) (Prediction, error)
}

// Prediction is the files one prediction of an engine made.
type Prediction struct {
	// ID is the engine's id of the prediction ("" when it gave none).
	ID string
	// Files are the files' bytes as the engine answered them, in its
	// order, unchecked: one, or the elements of a list output.
	Files [][]byte
	// Seconds is the time the model ran, as the engine reports it.
	Seconds float64
}

// EngineRunner is implemented by the Runner of a task whose steps run on
// an Engine: the engine's name and the codes its steps can end a job with
// beyond a built-in task's (content_refused, capacity_busy), which the
// task's docs list.
type EngineRunner interface {
	Runner
	EngineName() string
	EngineErrors() []apierr.Code
}

type noteKey struct{}

// noteBox holds the latest note of a running step.
type noteBox struct {
	mu   sync.Mutex
	note string
}

// WithStepNotes lets the step run under the returned context say what it
// is doing (StepNote); latest answers the last thing it said, which the
// worker sends with the step's heartbeats.
func WithStepNotes(ctx context.Context) (_ context.Context, latest func() string) {
	b := &noteBox{}
	return context.WithValue(ctx, noteKey{}, b), func() string {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.note
	}
}

// StepNote records what a running step is doing, for example "engine sdxl:
// prediction p1 processing"; a no-op outside WithStepNotes.
func StepNote(ctx context.Context, note string) {
	if b, ok := ctx.Value(noteKey{}).(*noteBox); ok {
		b.mu.Lock()
		b.note = note
		b.mu.Unlock()
	}
}

// Step names one attempt of one step: the job, the index of the output it
// makes and the attempt of its activity (1 for the first). The worker puts
// it in every step's context (WithStep); an engine names its prediction
// from it, so a later attempt of the same step can find, or cancel, what
// an earlier attempt started on a worker that died.
type Step struct {
	JobID   string
	Index   int
	Attempt int
}

type stepKey struct{}

// WithStep tells the step run under ctx which step and attempt it is.
func WithStep(ctx context.Context, s Step) context.Context {
	return context.WithValue(ctx, stepKey{}, s)
}

// StepOf is the step run under ctx; ok is false outside a worker's step
// (a test calling a Runner directly).
func StepOf(ctx context.Context) (Step, bool) {
	s, ok := ctx.Value(stepKey{}).(Step)
	return s, ok && s.JobID != ""
}

type stopKey struct{}

// WithStopping tells the step run under ctx that stop closes when its worker
// stops (a deploy): a step whose context then ends was not cancelled, and
// leaves work it started on a model server for its next attempt to join.
func WithStopping(ctx context.Context, stop <-chan struct{}) context.Context {
	return context.WithValue(ctx, stopKey{}, stop)
}

// Stopping says whether the worker running the step under ctx is stopping.
func Stopping(ctx context.Context) bool {
	stop, _ := ctx.Value(stopKey{}).(<-chan struct{})
	if stop == nil {
		return false
	}
	select {
	case <-stop:
		return true
	default:
		return false
	}
}
