package taskstest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStructMismatches shows the conformance check finds each way an input
// struct can drift from its schema.
func TestStructMismatches(t *testing.T) {
	var schema map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","required":["colors"],"properties":{
		"colors":{"type":"array","items":{"type":"string"}},
		"count":{"type":"integer","default":1},
		"seed":{"type":"integer"},
		"size":{"type":"object","properties":{"w":{"type":"number","default":1}}}}}`), &schema))
	type size struct {
		W float64 `json:"w"`
	}
	type good struct {
		Colors []string `json:"colors"`
		Count  int      `json:"count"`
		Seed   *int64   `json:"seed"`
		Size   *size    `json:"size"`
	}
	type misspelt struct {
		Colors []string `json:"colours"`
		Count  int      `json:"count"`
		Seed   *int64   `json:"seed"`
		Size   *size    `json:"size"`
	}
	type wrongTypes struct {
		Colors []int   `json:"colors"`
		Count  *string `json:"count"`
		Seed   int64   `json:"seed"`
		Size   *struct {
			W string `json:"w"`
		} `json:"size"`
	}
	require.Empty(t, StructMismatches(reflect.TypeFor[good](), schema, ""))
	require.ElementsMatch(t, []string{
		"colors: a property of the schema with no field",
		"colours: a field that is no property of the schema",
	}, StructMismatches(reflect.TypeFor[misspelt](), schema, ""))
	require.ElementsMatch(t, []string{
		"colors[]: int for a JSON string",
		"count: required or defaulted, so not a pointer",
		"count: string for a JSON integer",
		"seed: optional without a default, so a pointer, slice or map",
		"size.w: string for a JSON number",
	}, StructMismatches(reflect.TypeFor[wrongTypes](), schema, ""))
}
