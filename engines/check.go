package engines

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/taskplatform/taskplatform/tasks"
)

// check holds a task whose steps run on an engine to the promises every
// task keeps, as far as they can be checked without running the model:
// its schemas compile as draft 2020-12 and its input schema is closed; its
// docs have their parts; every example is a valid input whose plan has an
// output and whose outputs' data (the binding's meta) is valid against the
// outputSchema; the binding reads only fields of the input schema and
// names known media types. The registry's own checks (names, category,
// vocabularies) run when the task is added. The tests run the whole
// conformance suite (taskstest) on configured tasks against a Cog server.
func check(d *tasks.Definition, b Binding, meta func(map[string]any, int, map[string]any) map[string]any) error {
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
			raw, err := json.Marshal(meta(v, i, checkedOutput))
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
	return nil
}
