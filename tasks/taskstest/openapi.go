package taskstest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// checkOpenAPI holds the task to OpenAPIMismatch.
func checkOpenAPI(t *testing.T, d *tasks.Definition) {
	require.NoError(t, OpenAPIMismatch(d))
}

// OpenAPIMismatch loads the task's schemas as its OpenAPI document embeds
// them (components.schemas, raw) with the validator the API's document
// test uses (kin-openapi, OpenAPI 3.1), and validates every example's input
// against the input schema there, as the API's answer checks validate a
// request: it answers why a schema the draft 2020-12 compiler takes is one
// an OpenAPI reader refuses, or an example it reads differently; nil when
// they agree.
func OpenAPIMismatch(d *tasks.Definition) error {
	schemas := map[string]json.RawMessage{"Input": d.InputSchema}
	if len(d.OutputSchema) > 0 {
		schemas["Output"] = d.OutputSchema
	}
	raw, err := json.Marshal(map[string]any{
		"openapi": "3.1.0", "info": map[string]any{"title": d.Name, "version": "1"}, "paths": map[string]any{},
		"components": map[string]any{"schemas": schemas},
	})
	if err != nil {
		return err
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return fmt.Errorf("the task's schemas do not load in an OpenAPI 3.1 document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return fmt.Errorf("the task's schemas are not valid OpenAPI 3.1: %w", err)
	}
	in := doc.Components.Schemas["Input"].Value
	for _, ex := range d.Examples {
		var v any
		if err := json.Unmarshal(ex.Input, &v); err != nil {
			return fmt.Errorf("example %s: %w", ex.Name, err)
		}
		if err := doc.ValidateSchemaJSON(in, v, openapi3.EnableJSONSchema2020()); err != nil {
			return fmt.Errorf("example %s is not valid input to an OpenAPI reader of the task's schema: %w",
				ex.Name, err)
		}
	}
	return nil
}
