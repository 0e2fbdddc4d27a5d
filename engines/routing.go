package engines

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// Routing is how a route shares its task with the task's built-in engine.
// With neither field set the engine makes every output. A route sets at
// most one of them.
type Routing struct {
	// Fallback runs the built-in step first and hands the engine only the
	// outputs the built-in step is not sure of.
	Fallback *Fallback `json:"fallback" yaml:"fallback"`
	// When names an input field: the route takes the jobs whose input has
	// it (photoshoot.create's model), every other job stays on the
	// built-in engine. The task's own refusal of the field is lifted for
	// the jobs the route takes; the rest of it still applies.
	When string `json:"when" yaml:"when"`
}

// Fallback is when a built-in output goes to the engine instead.
type Fallback struct {
	// Below is the threshold, over 0 and at most 1: an output whose
	// confidence is under it goes to the engine.
	Below float64 `json:"below" yaml:"below"`
	// Field names the number in the built-in output's data that holds its
	// confidence ("confidence" when empty): the output schema must have it.
	Field string `json:"field" yaml:"field"`
}

// routed is what every Runner of a routed task answers.
type routed interface {
	tasks.EngineRunner
	InputType() reflect.Type
	DecodeInput(fields map[string]any) (any, error)
	EngineSlots() int
}

// share puts the engine's Runner er beside the task's built-in one as b's
// Routing says, and answers the Runner the task runs with.
func share(d *tasks.Definition, b Binding, er *Runner, builtin tasks.Runner) (routed, error) {
	switch {
	case b.Fallback != nil && b.When != "":
		return nil, errors.New("a route has a fallback or a when, not both")
	case b.Fallback != nil:
		f := *b.Fallback
		if f.Field == "" {
			f.Field = "confidence"
		}
		if f.Below <= 0 || f.Below > 1 {
			return nil, fmt.Errorf("fallback.below must be over 0 and at most 1, not %g", f.Below)
		}
		if !hasProperty(d.OutputSchema, f.Field, "number") {
			return nil, fmt.Errorf("fallback.field %q is not a number of the task's output data", f.Field)
		}
		if err := addEngineProperty(d); err != nil {
			return nil, err
		}
		d.Docs.Limitations = append(d.Docs.Limitations, fmt.Sprintf("On this service an output whose %s is under "+
			"%g (or that the built-in step refuses for it) is made by the operator's engine %s instead, charged once: "+
			"its data names the engine.", f.Field, f.Below, er.engine.Name()))
		return &fallbackRunner{Runner: er, builtin: builtin, fallback: f}, nil
	case b.When != "":
		if !hasProperty(d.InputSchema, b.When, "") {
			return nil, fmt.Errorf("when names %q, which is not a field of the input schema", b.When)
		}
		if err := addEngineProperty(d); err != nil {
			return nil, err
		}
		if err := relaxRequired(d, b.Meta); err != nil {
			return nil, err
		}
		liftRefusal(d, b.When)
		d.Docs.Limitations = append(d.Docs.Limitations, fmt.Sprintf("On this service the jobs with %s run on the "+
			"operator's engine %s, one prediction an output: its data holds only what the route maps (%s) and "+
			"engine; the built-in engine's record of the job is not made.", b.When, er.engine.Name(),
			strings.Join(slices.Sorted(maps.Keys(b.Meta)), ", ")))
		return &whenRunner{Runner: er, builtin: builtin, field: b.When}, nil
	}
	return er, nil
}

// fallbackRunner runs a task's built-in step and hands the engine the
// outputs whose confidence is under the threshold: the built-in step runs
// on the built-in steps queue and answers tasks.HandOff; the job then runs
// the output again on the engine's queue (tasks.OnEngine).
type fallbackRunner struct {
	*Runner
	builtin  tasks.Runner
	fallback Fallback
}

// Plan implements tasks.Runner: the built-in plan, its steps on the
// built-in queue, a handed-off output on the engine's.
func (f *fallbackRunner) Plan(input tasks.Input) tasks.Plan {
	p := f.builtin.Plan(input)
	p.Fallback = f.engine.Name()
	return p
}

// Step implements tasks.Runner.
func (f *fallbackRunner) Step(ctx context.Context, input tasks.Input, i int) (tasks.Output, error) {
	if tasks.OnEngine(ctx) {
		return f.onEngine(ctx, input, i)
	}
	out, err := f.builtin.Step(ctx, input, i)
	var low *tasks.LowConfidence
	if errors.As(err, &low) && low.Confidence < f.fallback.Below {
		return tasks.Output{}, &tasks.HandOff{Reason: fmt.Sprintf(
			"the built-in step refused it at %s %.3f, under %g", f.fallback.Field, low.Confidence, f.fallback.Below)}
	}
	if err != nil {
		return out, err
	}
	if c, ok := out.Meta[f.fallback.Field].(float64); ok && c < f.fallback.Below {
		return tasks.Output{}, &tasks.HandOff{Reason: fmt.Sprintf(
			"the built-in output's %s %.3f is under %g", f.fallback.Field, c, f.fallback.Below)}
	}
	return out, nil
}

// whenRunner runs a job on the engine when its input has the field, on
// the built-in engine otherwise.
type whenRunner struct {
	*Runner
	builtin tasks.Runner
	field   string
}

// takes says whether the route takes a job of input.
func (w *whenRunner) takes(input tasks.Input) bool {
	v, ok := input.Fields[w.field]
	return ok && v != nil
}

// Plan implements tasks.Runner: the built-in plan, on the engine's queue
// for a job the route takes.
func (w *whenRunner) Plan(input tasks.Input) tasks.Plan {
	p := w.builtin.Plan(input)
	if w.takes(input) {
		p.Engine, p.FirstAlone = w.engine.Name(), false
	}
	return p
}

// Step implements tasks.Runner.
func (w *whenRunner) Step(ctx context.Context, input tasks.Input, i int) (tasks.Output, error) {
	if !w.takes(input) {
		return w.builtin.Step(ctx, input, i)
	}
	return w.Runner.onEngine(ctx, input, i)
}

// Admit checks, for a job the route takes, that every record the mapping
// reads is one the account may read and is ready, before the built-in
// task's own check (tasks.Admitter).
func (w *whenRunner) Admit(ctx context.Context, env tasks.Env, input tasks.Input) error {
	if w.takes(input) {
		if err := w.records(ctx, env, input.Fields); err != nil {
			return err
		}
	}
	a, ok := w.builtin.(tasks.Admitter)
	switch {
	case !ok:
		return nil
	case w.takes(input):
		// Every check of the built-in task, none of its writes: the
		// built-in engine's record of the job (a photoshoot) is not made by
		// the model's job.
		env.DryRun = true
	}
	return a.Admit(ctx, env, input)
}

// AdmitErrors implements tasks.Admitter.
func (w *whenRunner) AdmitErrors() []apierr.Code {
	codes := []apierr.Code{apierr.InvalidRequest, apierr.RequestRefused}
	if a, ok := w.builtin.(tasks.Admitter); ok {
		codes = append(codes, a.AdmitErrors()...)
	}
	return tasks.ErrorList(codes...)
}

// onEngine is the engine's step with the engine named in the output's
// data.
func (r *Runner) onEngine(ctx context.Context, input tasks.Input, i int) (tasks.Output, error) {
	out, err := r.Step(ctx, input, i)
	if err != nil {
		return out, err
	}
	out.Meta["engine"] = r.engine.Name()
	return out, nil
}

// liftRefusal lets the task's own refusal (Definition.Refuse) pass field:
// it checks the input without it, so its other checks still apply.
func liftRefusal(d *tasks.Definition, field string) {
	refuse := d.Refuse
	if refuse == nil {
		return
	}
	d.Refuse = func(in tasks.Input, sizes map[string]tasks.ImageSize) *apierr.Error {
		if _, ok := in.Fields[field]; !ok {
			return refuse(in, sizes)
		}
		rest := make(map[string]any, len(in.Fields))
		for k, v := range in.Fields {
			if k != field {
				rest[k] = v
			}
		}
		without, err := d.Input(rest)
		if err != nil {
			return apierr.New(apierr.Internal, "")
		}
		return refuse(without, sizes)
	}
}

// hasProperty says whether an object schema has the property name (of
// type typ, when typ is not "").
func hasProperty(schema json.RawMessage, name, typ string) bool {
	var doc struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if json.Unmarshal(schema, &doc) != nil {
		return false
	}
	p, ok := doc.Properties[name]
	return ok && (typ == "" || p["type"] == typ)
}

// addEngineProperty adds the engine that made an output to the task's
// output data: present when an external engine made it.
func addEngineProperty(d *tasks.Definition) error {
	var doc map[string]any
	if err := json.Unmarshal(d.OutputSchema, &doc); err != nil {
		return fmt.Errorf("output schema: %w", err)
	}
	props, _ := doc["properties"].(map[string]any)
	if props == nil {
		return errors.New("the output schema has no properties")
	}
	props["engine"] = map[string]any{"type": "string", "description": "The external engine (the operator's model " +
		"server) that made this output; absent when the task's built-in engine made it."}
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	d.OutputSchema = raw
	return nil
}

// relaxRequired keeps, of the output data's required fields, those meta
// maps: a model's output has the data its route maps, never a made-up
// value for the rest. The built-in engine's outputs still have them all.
func relaxRequired(d *tasks.Definition, meta Mapping) error {
	var doc map[string]any
	if err := json.Unmarshal(d.OutputSchema, &doc); err != nil {
		return fmt.Errorf("output schema: %w", err)
	}
	req, _ := doc["required"].([]any)
	keep := []any{}
	for _, k := range req {
		if _, mapped := meta[fmt.Sprint(k)]; mapped {
			keep = append(keep, k)
		}
	}
	doc["required"] = keep
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	d.OutputSchema = raw
	return nil
}
