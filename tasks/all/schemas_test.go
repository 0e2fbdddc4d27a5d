package all_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/all"
)

var updateSchemas = flag.Bool("update-schemas", false, "write testdata/inputschemas from today's served schemas")

// TestServedInputSchemasUnchanged holds every task's served input schema to
// the one recorded in testdata/inputschemas (dumped from the hand-written
// schemas before they were derived from the input structs): a change to an
// input struct or its annotations that a caller would see fails here.
func TestServedInputSchemasUnchanged(t *testing.T) {
	defs := all.Registry().All()
	require.NotEmpty(t, defs)
	seen := map[string]bool{}
	for _, d := range defs {
		if d.Removed {
			continue // a removed task serves no schema
		}
		path := filepath.Join("testdata", "inputschemas", d.Name+".json")
		seen[d.Name+".json"] = true
		var doc any
		require.NoError(t, json.Unmarshal(d.InputSchema, &doc), d.Name)
		got, err := json.MarshalIndent(doc, "", "  ")
		require.NoError(t, err)
		if *updateSchemas {
			require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
			continue
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "%s has no recorded schema: run go test ./tasks/all -run Schemas -update-schemas", d.Name)
		var recorded any
		require.NoError(t, json.Unmarshal(want, &recorded))
		require.Equal(t, sortRequired(recorded), sortRequired(doc), "%s: the served input schema changed", d.Name)
	}
	files, err := os.ReadDir(filepath.Join("testdata", "inputschemas"))
	require.NoError(t, err)
	for _, f := range files {
		require.True(t, seen[f.Name()], "%s is recorded but no task serves it", f.Name())
	}
}

// sortRequired sorts every "required" list of a schema in place: the order
// of the required names means nothing to a validator or a caller, and a
// schema derived from a struct lists them in the struct's order.
func sortRequired(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if r, ok := x.([]any); ok && k == "required" {
				slices.SortFunc(r, func(a, b any) int {
					return strings.Compare(a.(string), b.(string))
				})
				continue
			}
			sortRequired(x)
		}
	case []any:
		for _, x := range t {
			sortRequired(x)
		}
	}
	return v
}
