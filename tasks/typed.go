package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/taskplatform/taskplatform/apierr"
)

// Input is one request's validated input, decoded once — river's Job[T]
// for a task. Fields is the JSON object (nulls removed, aliases replaced,
// schema defaults applied), as stored with the job and mapped onto an
// engine's model; the task's own input struct, decoded from Fields once
// per request (at submit or estimate) and once per step (in its activity),
// rides along and is read with Arg. Definition.Validate and
// Definition.Input make one.
type Input struct {
	Fields map[string]any
	value  any
}

// Arg is the task's input struct In carried by in; nil when in was not
// decoded into an In (an Input not made by Definition.Validate or
// Definition.Input).
func Arg[In any](in Input) *In {
	v, _ := in.value.(*In)
	return v
}

// Input decodes fields — a validated or stored input; absent schema
// defaults are added, as Validate adds them — into the task's input
// struct, once, for Plan, Step, Quick, Admit and Refuse to share. A
// task whose Runner has no input struct (one declared by configuration)
// gets Fields alone.
func (d *Definition) Input(fields map[string]any) (Input, error) {
	in := Input{Fields: d.WithDefaults(fields)}
	tr, ok := d.Runner.(TypedRunner)
	if !ok {
		return in, nil
	}
	v, err := tr.DecodeInput(in.Fields)
	if err != nil {
		return Input{}, err
	}
	in.value = v
	return in, nil
}

// Task is a task's executable half over its own input type In: one Go
// struct whose fields are the input schema's properties (json tags naming
// them; the schema is derived from it, see Schema). Typed hands it the In
// decoded once from the validated input — nulls removed, aliases
// replaced, schema defaults applied — so a task never restates a default.
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
// the task's input and its decoder, which Definition.Input calls once.
type TypedRunner interface {
	Runner
	InputType() reflect.Type
	// DecodeInput decodes validated fields into a new *In.
	DecodeInput(fields map[string]any) (any, error)
}

// Typed is the Runner of a Task over In. The Runner is also a Quick and an
// Admitter, which answer "not quick" and admit with no check unless t
// implements TaskQuick[In] or TaskAdmitter[In].
func Typed[In any](t Task[In]) Runner { return typed[In]{t: t} }

// decode is the validated input in as an In, unknown fields refused: the
// decoding Definition.Input runs.
func decode[In any](in map[string]any) (*In, error) {
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
// input not decoded into an In is left to the step (it cannot happen for a
// schema-valid input: the conformance suite decodes every one).
func Refusal[In any](
	f func(in *In, sizes map[string]ImageSize) *apierr.Error,
) func(Input, map[string]ImageSize) *apierr.Error {
	return func(in Input, sizes map[string]ImageSize) *apierr.Error {
		v := Arg[In](in)
		if v == nil {
			return nil
		}
		return f(v, sizes)
	}
}

type typed[In any] struct{ t Task[In] }

// Plan plans nothing for an input not decoded into an In.
func (r typed[In]) Plan(in Input) Plan {
	v := Arg[In](in)
	if v == nil {
		return Plan{}
	}
	return r.t.Plan(v)
}

func (r typed[In]) Step(ctx context.Context, in Input, i int) (Output, error) {
	v := Arg[In](in)
	if v == nil {
		// A fault of the service, not of the caller: permanent, and said in
		// the caller's words.
		return Output{}, &StepError{Code: string(apierr.ProcessingFailed),
			Message: "The service could not read this input; the fault is the service's, not the request's."}
	}
	return r.t.Step(ctx, v, i)
}

func (r typed[In]) InputType() reflect.Type { return reflect.TypeFor[In]() }

func (r typed[In]) DecodeInput(fields map[string]any) (any, error) { return decode[In](fields) }

func (r typed[In]) Quick(in Input) bool {
	q, ok := r.t.(TaskQuick[In])
	v := Arg[In](in)
	return ok && v != nil && q.Quick(v)
}

func (r typed[In]) Admit(ctx context.Context, env Env, in Input) error {
	a, ok := r.t.(TaskAdmitter[In])
	if !ok {
		return nil
	}
	v := Arg[In](in)
	if v == nil {
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

// MarshalJSON writes the input's fields: an Input stored or sent is its
// JSON object, as the caller wrote it, defaults applied.
func (in Input) MarshalJSON() ([]byte, error) { return json.Marshal(in.Fields) }
