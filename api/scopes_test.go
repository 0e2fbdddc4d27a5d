package api

import (
	"crypto/ed25519"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
)

// fullRouter is a router with every optional route on: metrics and the
// signing keys.
func fullRouter(t *testing.T, d Deps) *Deps {
	t.Helper()
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	d.Metrics, d.Signer = middleware.NewHTTPMetrics(prometheus.NewRegistry()), signer.New(key)
	return &d
}

func TestScopesCoverEveryRouteOnce(t *testing.T) {
	t.Parallel()
	r := NewRouter(*fullRouter(t, Deps{}))
	registered := map[string]bool{}
	for _, rt := range r.Routes() {
		_, ok := scopeOf(rt.Method, rt.Path)
		require.True(t, ok, "route %s %s has no row in the route table", rt.Method, rt.Path)
		registered[rt.Method+" "+middleware.RoutePattern(rt.Path)] = true
	}
	require.Len(t, scopeIndex, len(routes), "no route has two rows")
	known := map[string]bool{}
	for _, s := range models.AllScopes {
		known[s] = true
	}
	for _, rt := range routes {
		require.True(t, registered[rt.method+" "+rt.path], "%s %s is registered as written", rt.method, rt.path)
		require.Equal(
			t,
			rt.access == middleware.AccessKey,
			rt.scope != "",
			"%s %s: keyed routes and only they name a scope",
			rt.method,
			rt.path,
		)
		if rt.scope != "" {
			require.True(t, known[rt.scope], "%s %s: unknown scope %s", rt.method, rt.path, rt.scope)
		}
	}
}

func TestScopesAreServedInMeta(t *testing.T) {
	t.Parallel()
	res := serve(NewRouter(Deps{}), request("GET", "/v1/meta", nil))
	require.Equal(t, 200, res.code)
	rows := res.obj(t)["scopes"].([]any)
	require.Len(t, rows, len(routes))
	require.Contains(
		t,
		rows,
		map[string]any{"method": "PUT", "path": "/v1/jobs/{job_id}/cancel", "auth": "key", "scope": "jobs:cancel"},
	)
	require.Contains(t, rows, map[string]any{"method": "POST", "path": "/v1/account/keys", "auth": "session"})
}

func TestRoutePatterns(t *testing.T) {
	t.Parallel()
	for gin, pattern := range map[string]string{"/v1/jobs/:id/result": "/v1/jobs/{id}/result",
		"/files/*path": "/files/{path}", "/v1/meta": "/v1/meta"} {
		require.Equal(t, pattern, middleware.RoutePattern(gin))
	}
	require.Equal(t, "/v1/jobs/:id", ginPath("/v1/jobs/{id}"))
	require.Equal(
		t,
		[]string{"name", "example", "index"},
		openapi.PathParams("/v1/tasks/{name}/examples/{example}/files/{index}"),
	)
	require.Equal(
		t,
		shape("/v1/tasks/:task/estimate"),
		shape("/v1/tasks/{name}/estimate"),
		"parameter names do not matter",
	)
}
