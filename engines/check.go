package engines

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/taskplatform/taskplatform/tasks"
)

// check holds a task whose steps run on an engine to the promises every
// task keeps, as far as they can be checked without running the model:
// it costs at least one credit an output; its schemas compile as draft
// 2020-12 and its input schema is closed and uses only keywords whose
// violation answers a documented code and field; its docs have their parts
// and known spec keys; every example is a valid input whose plan has an
// output and whose outputs' data (the binding's meta) is valid against the
// outputSchema; the binding reads only fields of the input schema and
// names known media types. The registry's own checks (names, category,
// vocabularies) run when the task is added. The tests run the whole
// conformance suite (taskstest) on configured tasks against a Cog server.
func check(d *tasks.Definition, b Binding, meta func(map[string]any, int, map[string]any) map[string]any) error {
	if d.Pricing.Option == "" && d.Pricing.PerOutput < 1 {
		return fmt.Errorf("price_per_output must be at least 1 credit, not %d: a job is charged per output "+
			"delivered", d.Pricing.PerOutput)
	}
	var in map[string]any
	if err := json.Unmarshal(d.InputSchema, &in); err != nil {
		return fmt.Errorf("input schema: %w", err)
	}
	if in["$schema"] != tasks.SchemaDialect || in["type"] != "object" || in["additionalProperties"] != false {
		return fmt.Errorf("the input schema must be a draft 2020-12 object schema ($schema %s) with "+
			"additionalProperties false", tasks.SchemaDialect)
	}
	if _, err := tasks.CompileSchema(d.Name+"/input", d.InputSchema); err != nil {
		return fmt.Errorf("input schema: %w", err)
	}
	if err := checkKeywords(in); err != nil {
		return fmt.Errorf("input schema: %w", err)
	}
	var outDoc map[string]any
	if err := json.Unmarshal(d.OutputSchema, &outDoc); err != nil || outDoc["$schema"] != tasks.SchemaDialect {
		return fmt.Errorf("the output schema must be a draft 2020-12 schema ($schema %s)", tasks.SchemaDialect)
	}
	out, err := tasks.CompileSchema(d.Name+"/output", d.OutputSchema)
	if err != nil {
		return fmt.Errorf("output schema: %w", err)
	}
	props, _ := in["properties"].(map[string]any)
	for _, f := range slices.Concat(b.Input.Fields(), b.Meta.Fields()) {
		if _, ok := props[f]; !ok {
			return fmt.Errorf("the binding reads %q, which is not a field of the input schema", f)
		}
	}
	for _, mt := range b.MediaTypes {
		if _, ok := extensions[mt]; !ok {
			return fmt.Errorf("media type %q is not one an output's bytes can be read as", mt)
		}
	}
	if err := checkDocs(d); err != nil {
		return err
	}
	if len(d.Examples) == 0 {
		return errors.New("a task needs at least one example")
	}
	for _, ex := range d.Examples {
		v, err := d.Validate(ex.Input)
		if err != nil {
			return fmt.Errorf("example %q is not a valid input: %w", ex.Name, err)
		}
		steps := d.Runner.Plan(v).Steps
		if steps < 1 {
			return fmt.Errorf("example %q plans no output", ex.Name)
		}
		for i := range steps {
			raw, err := json.Marshal(meta(v.Fields, i, checkedOutput))
			if err != nil {
				return fmt.Errorf("example %q: output data: %w", ex.Name, err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				return fmt.Errorf("example %q: output data: %w", ex.Name, err)
			}
			if err := out.Validate(doc); err != nil {
				return fmt.Errorf("example %q: output %d's data %s does not match the output schema: %w",
					ex.Name, i, raw, err)
			}
		}
	}
	return nil
}

// checkDocs checks the task page has the parts every task page has.
func checkDocs(d *tasks.Definition) error {
	doc := d.Docs
	switch {
	case d.Title == "" || d.Description == "":
		return errors.New("a task needs a title and a description")
	case doc.Lead == "" || len(doc.BuiltFor) == 0 || len(doc.WhatYouGet) == 0:
		return errors.New("docs need lead, built_for and what_you_get")
	case doc.Outputs.Count == "":
		return errors.New("docs need outputs.count")
	}
	for _, f := range doc.Outputs.CountDependsOn {
		if !bytes.Contains(d.InputSchema, []byte(`"`+f+`"`)) {
			return fmt.Errorf("outputs.count_depends_on names %q, not a field of the input", f)
		}
	}
	for _, r := range doc.Specs {
		if !slices.Contains(tasks.SpecKeys, r.Key) {
			return fmt.Errorf("docs: spec key %q is not one of %v", r.Key, tasks.SpecKeys)
		}
	}
	return nil
}

// The keywords an input schema may use, where: those whose violation the
// service answers with a documented code and field (the bounds the
// conformance suite breaks one by one, tasks/taskstest/bounds.go), the
// structure it descends into, and annotations (tasks.AnnotationKeywords).
// Anything else (const, format, multipleOf, if/then, $ref, …) would be
// validated but answered with a code the task's docs do not promise.
var (
	topKeywords = []string{"$schema", "title", "description", "type", "properties",
		"additionalProperties", "required", "allOf"}
	propertyKeywords = []string{"type", "enum", "minimum", "maximum", "pattern", "minLength", "maxLength",
		"contains", "minItems", "maxItems", "uniqueItems", "items", "properties", "oneOf", "required",
		"additionalProperties"}
	itemKeywords = []string{"type", "pattern", "enum", "maxLength", "minimum", "maximum", "minItems",
		"maxItems", "items", "properties", "required", "additionalProperties"}
)

// checkKeywords holds an input schema to those keywords.
func checkKeywords(schema map[string]any) error {
	for k := range schema {
		if !slices.Contains(topKeywords, k) {
			return fmt.Errorf("keyword %q at the top is not one the service answers for (%v)", k, topKeywords)
		}
	}
	return checkProperties(schema, "")
}

// checkProperties checks the properties of an object schema at path.
func checkProperties(schema map[string]any, path string) error {
	props, _ := schema["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]any)
		if err := checkProperty(p, path+name, propertyKeywords); err != nil {
			return err
		}
	}
	return nil
}

// checkProperty checks the schema p of field, which may use allowed.
func checkProperty(p map[string]any, field string, allowed []string) error {
	for _, k := range slices.Sorted(maps.Keys(p)) {
		if !slices.Contains(allowed, k) && !slices.Contains(tasks.AnnotationKeywords, k) {
			return fmt.Errorf("keyword %q of %s is not one whose violation the service answers with a "+
				"documented code", k, field)
		}
	}
	if err := checkProperties(p, field+"."); err != nil {
		return err
	}
	if items, ok := p["items"].(map[string]any); ok {
		if err := checkProperty(items, field+"[]", itemKeywords); err != nil {
			return err
		}
	}
	if branches, ok := p["oneOf"].([]any); ok {
		for _, b := range branches {
			branch, _ := b.(map[string]any)
			if err := checkProperty(branch, field, propertyKeywords); err != nil {
				return err
			}
		}
	}
	return nil
}
