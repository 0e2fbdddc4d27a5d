// Package taskstest checks the promises every task definition keeps, for
// the tests of each family and of the assembled catalogue: its schemas
// compile as draft 2020-12, its examples run and their data matches the
// output schema, breaking any bound of its input schema answers the
// documented code and field, its docs list exactly the codes a call can
// answer, its warnings are catalogued as warnings, its docs have their
// shape, its page as the catalogue serves it is one the API's OpenAPI
// document accepts (no null where the document requires a value), and its
// schemas and examples read the same to an OpenAPI 3.1 reader.
package taskstest

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// Check runs CheckTask on every runnable task of r, one subtest each, and
// holds the vocabularies, concepts and recipes r's families bring to what
// the API's OpenAPI document requires of them.
func Check(t *testing.T, r *tasks.Registry) {
	t.Helper()
	t.Run("served", func(t *testing.T) { checkFamilyServed(t, r) })
	for _, d := range r.Runnable() {
		t.Run(d.Name, func(t *testing.T) { CheckTask(t, d) })
	}
}

// CheckTask runs every check on one task, one subtest each.
func CheckTask(t *testing.T, d *tasks.Definition) {
	t.Helper()
	t.Run("schemas", func(t *testing.T) { checkSchemas(t, d) })
	t.Run("typed", func(t *testing.T) {
		_, ok := d.Runner.(tasks.TypedRunner)
		require.True(t, ok, "%s's Runner is tasks.Typed: its input is one Go struct (tasks.InputSchema)", d.Name)
	})
	t.Run("examples", func(t *testing.T) { checkExamples(t, d) })
	t.Run("bounds", func(t *testing.T) { checkBounds(t, d) })
	t.Run("errors", func(t *testing.T) { checkErrors(t, d) })
	t.Run("warnings", func(t *testing.T) { checkWarnings(t, d) })
	t.Run("docs", func(t *testing.T) { checkDocs(t, d) })
	t.Run("served", func(t *testing.T) { checkServed(t, d) })
	t.Run("openapi", func(t *testing.T) { checkOpenAPI(t, d) })
}

// checkSchemas compiles both schemas as draft 2020-12; input schemas are closed.
func checkSchemas(t *testing.T, d *tasks.Definition) {
	for kind, raw := range map[string]json.RawMessage{"input": d.InputSchema, "output": d.OutputSchema} {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(raw, &doc), kind)
		require.Equal(t, tasks.SchemaDialect, doc["$schema"], kind)
		_, err := tasks.CompileSchema(d.Name+"/"+kind, raw)
		require.NoError(t, err, kind)
	}
	var in map[string]any
	require.NoError(t, json.Unmarshal(d.InputSchema, &in))
	require.Equal(t, false, in["additionalProperties"], "input schemas are closed")
}

// checkExamples runs every example through the Runner and validates each
// file's data against the published outputSchema; every file's type has
// the extension its URL and download name carry.
func checkExamples(t *testing.T, d *tasks.Definition) {
	out, err := tasks.CompileSchema(d.Name+"/output", d.OutputSchema)
	require.NoError(t, err)
	require.NotEmpty(t, d.Examples, d.Name)
	for i, ex := range d.Examples {
		in, err := d.Validate(ex.Input)
		require.NoError(t, err, "%s example %s", d.Name, ex.Name)
		files, err := d.ExampleOutputs(context.Background(), i)
		require.NoError(t, err)
		require.Len(t, files, d.Runner.Plan(in).Steps)
		for _, f := range files {
			require.NotEmpty(t, f.Data)
			require.NotEmpty(t, f.MediaType)
			ext, named := models.Extension(f.MediaType)
			require.True(t, named, "%s example %s: %s downloads as .bin", d.Name, ex.Name, f.MediaType)
			require.Equal(t, ext, f.Ext, "%s example %s: %s", d.Name, ex.Name, f.MediaType)
			b, err := json.Marshal(f.Meta)
			require.NoError(t, err)
			meta, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			require.NoError(t, err)
			require.NoError(t, out.Validate(meta), "%s example %s: %s", d.Name, ex.Name, b)
		}
	}
}

// checkWarnings checks every warning the examples report is a catalogued
// code of type warning.
func checkWarnings(t *testing.T, d *tasks.Definition) {
	for i := range d.Examples {
		files, err := d.ExampleOutputs(context.Background(), i)
		require.NoError(t, err)
		for _, f := range files {
			for _, w := range f.Warnings {
				e, ok := apierr.Lookup(apierr.Code(w.Code))
				require.True(t, ok, w.Code)
				require.Equal(t, apierr.TypeWarning, e.Type, w.Code)
			}
		}
	}
}

// checkDocs checks the task page has every part, with known spec keys,
// count fields of the input and known relations.
func checkDocs(t *testing.T, d *tasks.Definition) {
	doc := d.Docs
	require.NotEmpty(t, doc.Lead)
	require.NotEmpty(t, doc.BuiltFor)
	require.NotEmpty(t, doc.WhatYouGet)
	require.NotEmpty(t, doc.Outputs.Count)
	for _, f := range doc.Outputs.CountDependsOn {
		require.Contains(t, string(d.InputSchema), `"`+f+`"`)
	}
	for _, s := range doc.Specs {
		require.Contains(t, tasks.SpecKeys, s.Key)
	}
	for _, r := range doc.Related {
		require.Contains(t, []string{"before", "after", "sibling"}, r.Relation)
	}
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	var docs map[string]any
	require.NoError(t, json.Unmarshal(b, &docs))
	for _, k := range []string{"lead", "built_for", "what_you_get", "outputs", "specs", "limitations", "errors",
		"compares", "related", "prompting"} {
		require.Contains(t, docs, k)
	}
}
