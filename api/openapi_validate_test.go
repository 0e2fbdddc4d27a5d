package api

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"
)

// TestCatalogueOpenAPIValidates loads every served OpenAPI document with a
// standard OpenAPI 3.1 validator (kin-openapi), the way an SDK generator
// would read it.
func TestCatalogueOpenAPIValidates(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	paths := []string{"/v1/openapi.json"}
	for _, d := range servedTasks().Runnable() {
		paths = append(paths, "/v1/tasks/"+d.Name+"/openapi.json")
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			res := call(r, "GET", p, "")
			require.Equal(t, 200, res.code)
			loader := openapi3.NewLoader()
			doc, err := loader.LoadFromData(res.body)
			require.NoError(t, err)
			require.True(t, doc.IsOpenAPI31OrLater(), "served as OpenAPI 3.1")
			require.NoError(t, doc.Validate(context.Background()))
		})
	}
}

// TestDurationsAreIntegerMilliseconds walks every served OpenAPI document
// (the service's, with its components, and each task's, with its input and
// output schemas): the spec's rule is that a field named *_ms is integer
// milliseconds, so every property named so, or named for a percentile of
// one (run_ms_p50), is an integer — never an object or a number.
func TestDurationsAreIntegerMilliseconds(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	paths := []string{"/v1/openapi.json"}
	for _, d := range servedTasks().Runnable() {
		paths = append(paths, "/v1/tasks/"+d.Name+"/openapi.json")
	}
	named := regexp.MustCompile(`_ms(_p\d+)?$`)
	seen := map[string]bool{}
	var walk func(where string, v any)
	walk = func(where string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok {
				for name, p := range props {
					if !named.MatchString(name) {
						continue
					}
					seen[name] = true
					s, _ := p.(map[string]any)
					types := fmt.Sprint(s["type"])
					require.Contains(t, []string{"integer", "[integer null]"}, types,
						"%s: %s is integer milliseconds, not %v", where, name, s)
				}
			}
			for k, c := range x {
				walk(where+"/"+k, c)
			}
		case []any:
			for i, c := range x {
				walk(fmt.Sprintf("%s/%d", where, i), c)
			}
		}
	}
	for _, p := range paths {
		res := call(r, "GET", p, "")
		require.Equal(t, 200, res.code, p)
		walk(p, res.json(t))
	}
	for _, name := range []string{"duration_ms", "frame_ms", "queue_ms_p50", "queue_ms_p95", "run_ms_p50", "run_ms_p95"} {
		require.True(t, seen[name], "some document has %s", name)
	}
}
