package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/taskplatform/taskplatform/apierr"
)

// Task is a task's executable half over its own input type In: one Go
// struct whose fields are the input schema's properties (json tags naming
// them). Typed decodes the validated input — nulls removed, aliases
// replaced, schema defaults applied — into an In before each call, so a
// task never restates a default and a misspelt key fails the conformance
// check (taskstest) instead of silently taking a default.
type Task[In any] interface {
	// Plan decides the outputs of a validated input.
	Plan(in *In) Plan
	// Step renders output number i (0-based) of a validated input.
	Step(ctx context.Context, in *In, i int) (Output, error)
}

// TaskAdmitter is a Task that must look at the account's records before
// its job is admitted; see Admitter.
type TaskAdmitter[In any] interface {
	// Admit runs at submit; see Admitter.Admit.
	Admit(ctx context.Context, env Env, in *In) error
	// AdmitErrors lists every code Admit can answer.
	AdmitErrors() []apierr.Code
}

// TaskQuick is a Task whose steps take a few milliseconds for some inputs;
// see Quick.
type TaskQuick[In any] interface {
	// Quick says whether every output of in renders in a few milliseconds.
	Quick(in *In) bool
}

// TypedRunner is implemented by the Runner Typed returns: the Go type of
// the task's input, which taskstest checks against the input schema.
type TypedRunner interface {
	Runner
	InputType() reflect.Type
}

// Typed is the Runner of a Task over In. The Runner is also a Quick and an
// Admitter, which answer "not quick" and admit with no check unless t
// implements TaskQuick[In] or TaskAdmitter[In].
func Typed[In any](t Task[In]) Runner { return typed[In]{t: t} }

// Decode is the validated input in as an In: the same decoding Typed's
// runners use, for the task's Refuse check and for tests.
func Decode[In any](in map[string]any) (*In, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("input of %T: %w", *new(In), err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	v := new(In)
	if err := dec.Decode(v); err != nil {
		return nil, fmt.Errorf("input does not decode into %T: %w", *v, err)
	}
	return v, nil
}

// Refusal adapts a task's Refuse check over In to Definition.Refuse. An
// input that does not decode is left to the step (it cannot happen for a
// schema-valid input of a conforming In).
func Refusal[In any](
	f func(in *In, sizes map[string]ImageSize) *apierr.Error,
) func(map[string]any, map[string]ImageSize) *apierr.Error {
	return func(in map[string]any, sizes map[string]ImageSize) *apierr.Error {
		v, err := Decode[In](in)
		if err != nil {
			return nil
		}
		return f(v, sizes)
	}
}

type typed[In any] struct{ t Task[In] }

// Plan plans nothing for an input that does not decode; the conformance
// check (taskstest) proves every schema-valid input decodes.
func (r typed[In]) Plan(input map[string]any) Plan {
	v, err := Decode[In](input)
	if err != nil {
		return Plan{}
	}
	return r.t.Plan(v)
}

func (r typed[In]) Step(ctx context.Context, input map[string]any, i int) (Output, error) {
	v, err := Decode[In](input)
	if err != nil {
		// A conformance fault of the task, not of the caller: permanent, and
		// said in the caller's words.
		return Output{}, &StepError{Code: string(apierr.ProcessingFailed),
			Message: "The service could not read this input; the fault is the service's, not the request's."}
	}
	return r.t.Step(ctx, v, i)
}

func (r typed[In]) InputType() reflect.Type { return reflect.TypeFor[In]() }

func (r typed[In]) Quick(input map[string]any) bool {
	q, ok := r.t.(TaskQuick[In])
	if !ok {
		return false
	}
	v, err := Decode[In](input)
	return err == nil && q.Quick(v)
}

func (r typed[In]) Admit(ctx context.Context, env Env, input map[string]any) error {
	a, ok := r.t.(TaskAdmitter[In])
	if !ok {
		return nil
	}
	v, err := Decode[In](input)
	if err != nil {
		return apierr.New(apierr.Internal, "")
	}
	return a.Admit(ctx, env, v)
}

func (r typed[In]) AdmitErrors() []apierr.Code {
	if a, ok := r.t.(TaskAdmitter[In]); ok {
		return a.AdmitErrors()
	}
	return nil
}
