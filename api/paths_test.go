package api

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// TestUnknownPathsAnswerJSON checks that trailing slashes, misspelt paths and
// unknown methods answer the spec's JSON error rather than gin's HTML
// redirects.
func TestUnknownPathsAnswerJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.Postgres)
	tests := []struct {
		name, method, path string
		status             int
		code               string
	}{
		{"trailing slash", http.MethodGet, "/v1/jobs/", 404, "not_found"},
		{"trailing slash on a task list", http.MethodGet, "/v1/tasks/", 404, "not_found"},
		{"trailing slash after an id", http.MethodGet, "/v1/jobs/j_nothing/", 404, "not_found"},
		{"wrong case", http.MethodGet, "/V1/JOBS", 404, "not_found"},
		{"double slash", http.MethodGet, "/v1//jobs", 404, "not_found"},
		{"unknown path", http.MethodGet, "/v1/nothing", 404, "not_found"},
		{"root", http.MethodGet, "/", 404, "not_found"},
		{"unknown method", http.MethodPatch, "/v1/jobs", 405, "method_not_allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, headers := range [][]string{nil, keyed(e.key)} {
				res := e.send(tc.method, tc.path, "", headers...)
				require.Equal(t, tc.status, res.code, "%s", res.body)
				require.Empty(t, res.head.Get("Location"))
				require.Contains(t, res.head.Get("Content-Type"), "application/json")
				require.Equal(t, tc.code, res.errCode(t))
			}
		})
	}
}
