package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// checkOpenAPI parses a served document, checks its version and that every
// $ref resolves and every operationId is unique, and compiles the task
// schemas it embeds.
func checkOpenAPI(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Equal(t, "3.1.0", doc["openapi"])
	require.NotEmpty(t, doc["info"].(map[string]any)["title"])
	require.NotEmpty(t, doc["paths"])
	ids := map[string]bool{}
	for path, item := range doc["paths"].(map[string]any) {
		require.True(t, strings.HasPrefix(path, "/"), path)
		for method, o := range item.(map[string]any) {
			id := o.(map[string]any)["operationId"].(string)
			require.False(t, ids[id], "duplicate operationId %s", id)
			ids[id] = true
			require.NotEmpty(t, o.(map[string]any)["responses"], "%s %s", method, path)
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if r, ok := x["$ref"].(string); ok {
				parts := strings.Split(strings.TrimPrefix(r, "#/"), "/")
				var cur any = doc
				for _, p := range parts {
					cur = cur.(map[string]any)[p]
					require.NotNil(t, cur, "unresolved $ref %s", r)
				}
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(doc)
	for name, s := range doc["components"].(map[string]any)["schemas"].(map[string]any) {
		require.False(t, strings.HasSuffix(name, ".input"), "%s: inputs are request bodies, not schemas", name)
		if strings.HasSuffix(name, ".output") {
			raw, _ := json.Marshal(s)
			_, err := tasks.CompileSchema(name, raw)
			require.NoError(t, err, name)
		}
	}
	bodies, _ := doc["components"].(map[string]any)["requestBodies"].(map[string]any)
	for name := range bodies {
		raw, _ := json.Marshal(inputSchema(doc, strings.TrimSuffix(name, ".input")))
		_, err := tasks.CompileSchema(name, raw)
		require.NoError(t, err, name)
	}
	return doc
}

// inputSchema is the JSON Schema of task's request body in doc.
func inputSchema(doc map[string]any, task string) any {
	body, _ := doc["components"].(map[string]any)["requestBodies"].(map[string]any)[task+".input"].(map[string]any)
	media, _ := body["content"].(map[string]any)["application/json"].(map[string]any)
	return media["schema"]
}

func TestCatalogueOpenAPI(t *testing.T) {
	t.Parallel()
	r := catalogueRouter()
	for _, d := range servedTasks().Runnable() {
		res := call(r, "GET", "/v1/tasks/"+d.Name+"/openapi.json", "")
		require.Equal(t, 200, res.code)
		doc := checkOpenAPI(t, res.body)
		paths := doc["paths"].(map[string]any)
		for _, p := range []string{"/v1/tasks/" + d.Name, "/v1/tasks/" + d.Name + "/estimate", "/v1/jobs/{job_id}",
			"/v1/jobs/{job_id}/result"} {
			require.Contains(t, paths, p)
		}
		served, _ := json.Marshal(inputSchema(doc, d.Name))
		require.JSONEq(t, string(d.InputSchema), string(served), "the document embeds the enforced schema")
	}
	res := call(r, "GET", "/v1/openapi.json", "")
	require.Equal(t, 200, res.code)
	doc := checkOpenAPI(t, res.body)
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/v1/tasks", "/v1/tasks/{name}", "/v1/tasks/pattern.generate",
		"/v1/tasks/palette.generate/estimate",
		"/v1/jobs", "/v1/jobs/{job_id}/cancel", "/v1/files", "/v1/errors", "/v1/meta", "/v1/pricing", "/v1/vocab/{name}"} {
		require.Contains(t, paths, p)
	}
	require.NotContains(t, paths, "/v1/tasks/pattern.legacy")
	require.Equal(t, testBase, doc["servers"].([]any)[0].(map[string]any)["url"])
}
