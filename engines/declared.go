package engines

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// MaxDeclaredOutputs bounds the outputs of one job of a declared task.
const MaxDeclaredOutputs = 16

// declare builds the definition of a task the configuration declares, its
// steps on engine.
func declare(tc TaskConfig, engine tasks.Engine) (*tasks.Definition, error) {
	if tc.InputSchema == nil {
		return nil, errors.New("input_schema is required")
	}
	if _, ok := tc.InputSchema["$schema"]; !ok {
		tc.InputSchema["$schema"] = tasks.SchemaDialect
	}
	in, err := json.Marshal(tc.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("input_schema: %w", err)
	}
	outSchema := tc.OutputSchema
	if outSchema == nil {
		if len(tc.Meta) > 0 {
			return nil, errors.New("meta needs an output_schema that describes it")
		}
		outSchema = defaultOutputSchema()
	}
	if _, ok := outSchema["$schema"]; !ok {
		outSchema["$schema"] = tasks.SchemaDialect
	}
	out, err := json.Marshal(outSchema)
	if err != nil {
		return nil, fmt.Errorf("output_schema: %w", err)
	}
	plan, count, dependsOn, err := countRule(tc)
	if err != nil {
		return nil, err
	}
	per, err := readPerPrediction(tc.FilesPerPrediction, in)
	if err != nil {
		return nil, err
	}
	perJob := fmt.Sprintf("%s; each output is one prediction.", count)
	if tc.FilesPerPrediction != nil {
		if most := maxPredictions(tc) * per.max; most > MaxDeclaredOutputs {
			return nil, fmt.Errorf("outputs: up to %d outputs a job (predictions × files_per_prediction), more "+
				"than %d", most, MaxDeclaredOutputs)
		}
		count = fmt.Sprintf("%s × %s", count, per.docs())
		perJob = fmt.Sprintf("%s: each prediction answers %s files, each one output.", count, per.docs())
		if per.field != "" && !slices.Contains(dependsOn, per.field) {
			dependsOn = append(dependsOn, per.field)
		}
	}
	unit := tc.Unit
	if unit == "" {
		unit = "image"
	}
	types := tc.MediaTypes
	if len(types) == 0 {
		types = DefaultMediaTypes
	}
	d := &tasks.Definition{Name: tc.Name, Title: tc.Title, Description: tc.Description, Category: tc.Category,
		Unit: unit, InputSchema: in, OutputSchema: out,
		Pricing: tasks.Pricing{CreditType: contract.CreditService, PerOutput: tc.PricePerOutput}}
	d.Runner = &Runner{engine: engine, bind: tc.Binding, plan: func(in tasks.Input) tasks.Plan { return plan(in.Fields) },
		per:    per,
		inType: reflect.TypeFor[map[string]any](), allowed: types}
	d.Docs = tasks.Docs{Lead: tc.Docs.Lead, BuiltFor: tc.Docs.BuiltFor, WhatYouGet: tc.Docs.WhatYouGet,
		Limitations: append([]string{"Made by the model server " + engine.Name() + " the operator runs: " +
			"what it makes, and how reproducible it is, is the model's."}, tc.Docs.Limitations...),
		Outputs: tasks.DocsOutputs{Count: count, CountDependsOn: dependsOn},
		Specs: []tasks.SpecRow{
			{Key: "output_format", Title: "Output format", Text: strings.Join(types, ", ") + ", as the model makes it."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: perJob},
		},
		Related: []tasks.Related{}, Compares: nil}
	d.Runner.(*Runner).refs = refFields(d)
	if tc.Docs.Prompting != "" {
		d.Docs.Prompting = &tc.Docs.Prompting
	}
	for _, ex := range tc.Examples {
		raw, err := json.Marshal(ex.Input)
		if err != nil {
			return nil, fmt.Errorf("example %s: %w", ex.Name, err)
		}
		d.Examples = append(d.Examples, tasks.Example{Name: ex.Name, Title: ex.Title, Description: ex.Description,
			Input: raw})
	}
	d.Docs.Errors = tasks.ErrorList(declaredErrors(d)...)
	return d, nil
}

// defaultOutputSchema describes DefaultMeta.
func defaultOutputSchema() map[string]any {
	return map[string]any{
		"type": "object", "additionalProperties": false, "required": []any{"engine", "index"},
		"properties": map[string]any{
			"engine": map[string]any{"type": "string", "description": "The engine (model server) that made the file."},
			"index":  map[string]any{"type": "integer", "minimum": 0, "description": "The output's index, from 0."},
		},
	}
}

// countRule is a declared task's plan and how its docs word the count.
func countRule(tc TaskConfig) (plan func(map[string]any) tasks.Plan, count string, dependsOn []string, err error) {
	phase := tc.Outputs.Phase
	if phase == "" {
		phase = "generating"
	}
	switch o := tc.Outputs; {
	case o.CountField != "" && o.Count != 0:
		return nil, "", nil, errors.New("outputs: give count or count_field, not both")
	case o.CountField != "":
		p, _ := tc.InputSchema["properties"].(map[string]any)
		f, _ := p[o.CountField].(map[string]any)
		maxN, ok := number(f["maximum"])
		if f["type"] != "integer" || !ok || maxN > MaxDeclaredOutputs {
			return nil, "", nil, fmt.Errorf("outputs.count_field %s must be an integer field with a maximum of at "+
				"most %d", o.CountField, MaxDeclaredOutputs)
		}
		minN, _ := number(f["minimum"])
		if minN < 1 {
			return nil, "", nil, fmt.Errorf("outputs.count_field %s needs a minimum of at least 1", o.CountField)
		}
		field := o.CountField
		return func(in map[string]any) tasks.Plan {
			n, _ := number(in[field])
			return tasks.Plan{Steps: max(1, int(n)), Phase: phase}
		}, fmt.Sprintf("%s (%d to %d)", field, int(minN), int(maxN)), []string{field}, nil
	case o.Count >= 1 && o.Count <= MaxDeclaredOutputs:
		n := o.Count
		return func(map[string]any) tasks.Plan { return tasks.Plan{Steps: n, Phase: phase} },
			fmt.Sprint(n), []string{}, nil
	}
	return nil, "", nil, fmt.Errorf("outputs: count must be 1 to %d, or count_field name an input field",
		MaxDeclaredOutputs)
}

// maxPredictions is the most predictions a job of a declared task makes.
func maxPredictions(tc TaskConfig) int {
	if tc.Outputs.CountField == "" {
		return tc.Outputs.Count
	}
	p, _ := tc.InputSchema["properties"].(map[string]any)
	f, _ := p[tc.Outputs.CountField].(map[string]any)
	n, _ := number(f["maximum"])
	return int(n)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// declaredErrors are the codes a declared task answers beyond CallErrors:
// those its schema's validation can answer, its reference fields', and its
// engine's.
func declaredErrors(d *tasks.Definition) []apierr.Code {
	codes := []apierr.Code{apierr.FieldNotAccepted}
	s := string(d.InputSchema)
	if strings.Contains(s, `"enum"`) || strings.Contains(s, `"const"`) {
		codes = append(codes, apierr.InvalidOption)
	}
	if hasFalseSchema(d.InputSchema) {
		codes = append(codes, apierr.FieldNotSupported)
	}
	if len(d.RefFields()) > 0 {
		codes = append(codes, tasks.RefErrors...)
	}
	if er, ok := d.Runner.(tasks.EngineRunner); ok {
		codes = append(codes, er.EngineErrors()...)
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

// hasFalseSchema says whether a schema holds a subschema that is false (a
// field never accepted, answered field_not_supported).
func hasFalseSchema(raw json.RawMessage) bool {
	var doc any
	_ = json.Unmarshal(raw, &doc)
	return falseSchema(doc)
}

func falseSchema(v any) bool {
	switch x := v.(type) {
	case bool:
		return !x
	case map[string]any:
		if _, ok := x["not"]; ok {
			return true // a "not" that fails answers field_not_supported too
		}
		for k, e := range x {
			var subs []any
			switch k {
			case "properties", "$defs", "patternProperties", "dependentSchemas":
				m, _ := e.(map[string]any)
				for _, s := range m {
					subs = append(subs, s)
				}
			case "then", "else", "items", "contains", "if", "propertyNames":
				subs = []any{e}
			case "allOf", "anyOf", "oneOf", "prefixItems":
				subs, _ = e.([]any)
			}
			if slices.ContainsFunc(subs, falseSchema) {
				return true
			}
		}
	}
	return false
}
