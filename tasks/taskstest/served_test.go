package taskstest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/tasks"
)

// TestNullFieldsFindsWhatTheDocumentRefuses: a task page the API's OpenAPI
// document would refuse — count_depends_on null, as a new task once served
// — is found by the conformance suite; what the document lets be null (a
// pointer, compares and related) is not.
func TestNullFieldsFindsWhatTheDocumentRefuses(t *testing.T) {
	d := &tasks.Definition{Name: "x.y", Docs: tasks.Docs{
		Lead: "x", BuiltFor: []string{"x"}, WhatYouGet: []string{"x"}, Specs: []tasks.SpecRow{},
		Limitations: []string{}, Errors: []apierr.Code{},
		Outputs: tasks.DocsOutputs{Count: "One."},
	}}
	require.Equal(t, []string{"docs.outputs.count_depends_on"}, NullFields(catalogue.View(d)))

	d.Docs.Outputs.CountDependsOn = []string{}
	require.Empty(t, NullFields(catalogue.View(d)), "compares, related and the pointers may be null")

	d.Docs.Limitations, d.Docs.Specs = nil, []tasks.SpecRow{{Key: "k"}}
	require.Equal(t, []string{"docs.limitations"}, NullFields(catalogue.View(d)))

	v := tasks.Vocabulary{Name: "v", Values: []tasks.VocabValue{{Value: "a"}}}
	require.Empty(t, NullFields([]tasks.Vocabulary{v}), "groups and used_in may be null")
	v.Values = nil
	require.Equal(t, []string{"[0].values"}, NullFields([]tasks.Vocabulary{v}))
}

// TestOpenAPIMismatchFindsWhatAnOpenAPIReaderRefuses: an example an
// OpenAPI reader of the task's schema finds invalid is found; a valid one
// is not.
func TestOpenAPIMismatchFindsWhatAnOpenAPIReaderRefuses(t *testing.T) {
	schema := func(props string) json.RawMessage {
		return json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
			`"additionalProperties":false,"properties":{` + props + `}}`)
	}
	d := &tasks.Definition{Name: "x.y", InputSchema: schema(`"n":{"type":"integer","maximum":3}`),
		Examples: []tasks.Example{{Name: "ok", Input: json.RawMessage(`{"n":2}`)}}}
	require.NoError(t, OpenAPIMismatch(d))

	d.Examples = append(d.Examples, tasks.Example{Name: "too many", Input: json.RawMessage(`{"n":4}`)})
	require.ErrorContains(t, OpenAPIMismatch(d), "example too many")
}
