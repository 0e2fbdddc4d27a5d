package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// taskProbes read, estimate and fetch the examples of every runnable task,
// under the generic row and the task's own path.
func taskProbes(key []string) []probe {
	var out []probe
	for _, d := range servedTasks().Runnable() {
		base := "/v1/tasks/" + d.Name
		out = append(out,
			probe{row: "GET /v1/tasks/{name}", path: base, status: 200},
			probe{row: "GET /v1/tasks/{name}", path: base, status: 200, doc: base},
			probe{row: "GET /v1/tasks/{name}/openapi.json", path: base + "/openapi.json", status: 200},
			probe{row: "GET /v1/tasks/{name}/llms.txt", path: base + "/llms.txt", status: 200},
			probe{row: "GET /v1/tasks/{name}/examples", path: base + "/examples", status: 200})
		for i, ex := range d.Examples {
			outs, _ := d.ExampleOutputs(context.Background(), i)
			for j := range outs {
				out = append(
					out,
					probe{
						row:    "GET /v1/tasks/{name}/examples/{example}/files/{index}",
						path:   base + "/examples/" + ex.Name + "/files/" + strconv.Itoa(j),
						status: 200,
					},
				)
			}
			for j := range ex.Files {
				out = append(
					out,
					probe{
						row:    "GET /v1/tasks/{name}/examples/{example}/sent/{index}",
						path:   base + "/examples/" + ex.Name + "/sent/" + strconv.Itoa(j),
						status: 200,
					},
				)
			}
			body := string(ex.Input)
			headers := with(key, "Content-Type", "application/json")
			status := http.StatusOK // every example runs for any caller, its files included
			out = append(
				out,
				probe{
					row:     "POST /v1/tasks/{name}/estimate",
					path:    base + "/estimate",
					body:    body,
					headers: headers,
					status:  status,
				},
				probe{
					row:     "POST /v1/tasks/{name}/estimate",
					path:    base + "/estimate",
					body:    body,
					headers: headers,
					status:  status,
					doc:     base + "/estimate",
				},
			)
		}
		out = append(out, probe{row: "POST /v1/tasks/{name}", path: base, body: `{"no_such_field":1}`,
			headers: with(key, "Content-Type", "application/json"), status: 422, doc: base})
	}
	return out
}

// TestCommonErrorsAnswerAsDocumented calls routes with what the middleware
// refuses: a key in the URL, headers too large, the rate limit, a database
// that is down.
func TestCommonErrorsAnswerAsDocumented(t *testing.T) {
	t.Parallel()
	doc := everyRouteDoc(t, true)
	open := newEnv(t, testenv.Postgres)
	limited := newEnv(t, testenv.Postgres, func(d *Deps) { d.RateLimit = 1 })
	down := newEnv(t, testenv.Postgres)
	sqlDB, err := down.db.DB()
	require.NoError(t, err)
	tests := []struct {
		name, row, path string
		e               *env
		headers         []string
		status          int
	}{
		{"key in the URL", "GET /v1/meta", "/v1/meta?k=" + url.QueryEscape(models.KeyPrefix+"abc"), open, nil, 400},
		{"unknown version", "GET /v1/meta", "/v1/meta", open, []string{"Service-Version", "1999-01-01"}, 400},
		{
			"invalid key",
			"GET /v1/tasks",
			"/v1/tasks",
			open,
			[]string{"Authorization", "Key " + models.KeyPrefix + "nope"},
			401,
		},
		{
			"key from a browser",
			"GET /v1/tasks",
			"/v1/tasks",
			open,
			with(keyed(open.key), "Origin", "https://example.com"),
			403,
		},
		{
			"headers too large",
			"GET /v1/meta",
			"/v1/meta",
			open,
			[]string{"X-Filler", strings.Repeat("a", middleware.MaxHeaderBytes)},
			431,
		},
		{"rate limited", "GET /v1/account/limits", "/v1/account/limits", limited, keyed(limited.key), 429},
		{"database down", "GET /v1/account/balance", "/v1/account/balance", down, keyed(down.key), 503},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.e == down {
				require.NoError(t, sqlDB.Close())
			}
			if tc.status == 429 {
				serve(tc.e.r, request("GET", tc.path, nil, tc.headers...))
			}
			res := serve(tc.e.r, request("GET", tc.path, nil, tc.headers...))
			require.Equal(t, tc.status, res.code, "%s", res.body)
			_, path, _ := strings.Cut(tc.row, " ")
			openapicheck.CheckAnswer(
				t,
				doc,
				"GET",
				path,
				request("GET", tc.path, nil, tc.headers...),
				nil,
				res.code,
				res.head,
				res.body,
			)
		})
	}
}
