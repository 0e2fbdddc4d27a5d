package tasks

import "context"

// HandOff is the answer of a built-in step whose output is not good enough
// to deliver and that a route hands to an engine (Plan.Fallback): the
// built-in output is dropped, neither stored nor charged, and the job runs
// the output again on the engine (OnEngine). Reason says why, for the
// operator (the step's result in the Temporal UI, the worker's log).
type HandOff struct {
	Reason string
}

// Error implements error.
func (h *HandOff) Error() string { return "handed off to the engine: " + h.Reason }

// LowConfidence is a step's failure that says how sure the task was, for a
// result it refused to deliver (a cut-out of a backdrop that is not plain
// enough): a route with a fallback hands such an output to its engine when
// Confidence is under its threshold.
type LowConfidence struct {
	// Confidence is the task's own measure, 0 to 1, the same number its
	// output's data would have held.
	Confidence float64
	Err        error
}

// Error implements error: the cause's words, which a task may show its
// caller.
func (e *LowConfidence) Error() string { return e.Err.Error() }

// Unwrap is the cause.
func (e *LowConfidence) Unwrap() error { return e.Err }

type onEngineKey struct{}

// WithOnEngine tells the step run under ctx that it is the second step of
// an output its built-in step handed off: it runs on the engine.
func WithOnEngine(ctx context.Context) context.Context {
	return context.WithValue(ctx, onEngineKey{}, true)
}

// OnEngine says whether the step run under ctx runs a handed-off output on
// its engine (WithOnEngine).
func OnEngine(ctx context.Context) bool {
	on, _ := ctx.Value(onEngineKey{}).(bool)
	return on
}
