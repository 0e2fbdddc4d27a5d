package api

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/api/openapicheck"
)

// servedDoc loads the document served at path (see LoadDoc).
func servedDoc(t *testing.T, path string, strict bool) *openapi3.T {
	t.Helper()
	res := call(catalogueRouter(), "GET", path, "")
	require.Equal(t, 200, res.code, "%s", res.body)
	return openapicheck.LoadDoc(t, res.body, strict)
}

// everyRouteDoc loads the service's document and the panel's merged, so
// every row of the route table is documented in it.
func everyRouteDoc(t *testing.T, strict bool) *openapi3.T {
	t.Helper()
	r := catalogueRouter()
	service, panel := call(r, "GET", "/v1/openapi.json", ""), call(r, "GET", "/v1/panel/openapi.json", "")
	require.Equal(t, 200, service.code)
	require.Equal(t, 200, panel.code)
	return openapicheck.LoadDoc(t, openapicheck.Merge(t, service.body, panel.body), strict)
}

// statuses are the documented statuses of an operation.
func statuses(op *openapi3.Operation) []int {
	var out []int
	for code := range op.Responses.Map() {
		n, _ := strconv.Atoi(code)
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func TestRoutesAreDocumented(t *testing.T) {
	t.Parallel()
	service, panel := servedDoc(t, "/v1/openapi.json", false), servedDoc(t, "/v1/panel/openapi.json", false)
	for _, rt := range routes {
		inService := service.Paths.Value(rt.path) != nil && service.Paths.Value(rt.path).GetOperation(rt.method) != nil
		inPanel := panel.Paths.Value(rt.path) != nil && panel.Paths.Value(rt.path).GetOperation(rt.method) != nil
		require.Equal(
			t,
			rt.access == middleware.AccessSession,
			inPanel,
			"%s %s: in the panel's document only if session-only",
			rt.method,
			rt.path,
		)
		require.Equal(
			t,
			rt.access != middleware.AccessSession,
			inService,
			"%s %s: in the service's document unless session-only",
			rt.method,
			rt.path,
		)
	}
	doc := everyRouteDoc(t, false)
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	for _, rt := range routes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			item := doc.Paths.Value(rt.path)
			require.NotNil(t, item, "the path is documented")
			op := item.GetOperation(rt.method)
			require.NotNil(t, op, "the method is documented")
			delete(documented, rt.method+" "+rt.path)

			var names []string
			for _, p := range op.Parameters {
				if p.Value.In == openapi3.ParameterInPath {
					names = append(names, p.Value.Name)
				}
			}
			require.Equal(t, openapi.PathParams(rt.path), names, "the same path parameters, in order")

			want := openapi.ErrorStatuses(rt.op)
			for _, a := range rt.op.Answers {
				want = append(want, a.Status)
			}
			slices.Sort(want)
			require.Equal(t, slices.Compact(want), statuses(op))

			require.Equal(t, string(rt.access), op.Extensions["x-access"])
			if rt.access == middleware.AccessKey {
				require.Equal(t, rt.scope, op.Extensions["x-scope"])
				require.Equal(t, []string{rt.scope}, (*op.Security)[0]["bearerAuth"])
			}
		})
	}
	for _, d := range servedTasks().Runnable() {
		for _, key := range openapi.TaskRows {
			if strings.Contains(key, "{name}") {
				delete(documented, strings.Replace(key, "{name}", d.Name, 1))
			}
		}
	}
	require.Empty(t, documented, "every documented operation is a row of the table or a task's own")
}

// TestNoBareObjects finds the schemas openapi-typescript would write as
// Record<string, never>: objects that name no properties and allow none.
func TestNoBareObjects(t *testing.T) {
	t.Parallel()
	paths := []string{"/v1/openapi.json"}
	for _, d := range servedTasks().Runnable() {
		paths = append(paths, "/v1/tasks/"+d.Name+"/openapi.json")
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			doc := servedDoc(t, p, false)
			seen := map[*openapi3.Schema]bool{}
			var walk func(where string, s *openapi3.SchemaRef)
			walk = func(where string, s *openapi3.SchemaRef) {
				if s == nil || s.Value == nil || seen[s.Value] {
					return
				}
				seen[s.Value] = true
				v := s.Value
				if v.Type.Is("object") && len(v.Properties) == 0 {
					ap := v.AdditionalProperties
					require.True(
						t,
						(ap.Has != nil && *ap.Has) || ap.Schema != nil,
						"%s is an object without properties",
						where,
					)
				}
				for name, p := range v.Properties {
					walk(where+"."+name, p)
				}
				walk(where+"[]", v.Items)
				walk(where+"{}", v.AdditionalProperties.Schema)
				for i, group := range [][]*openapi3.SchemaRef{v.OneOf, v.AnyOf, v.AllOf} {
					for j, x := range group {
						walk(where+"/"+strconv.Itoa(i)+"."+strconv.Itoa(j), x)
					}
				}
			}
			for path, item := range doc.Paths.Map() {
				for method, op := range item.Operations() {
					for code, r := range op.Responses.Map() {
						for media, m := range r.Value.Content {
							walk(method+" "+path+" "+code+" "+media, m.Schema)
						}
					}
				}
			}
			require.NotEmpty(t, seen)
		})
	}
}
