package api

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

func TestScopesCoverEveryRouteOnce(t *testing.T) {
	r := NewRouter(Deps{Metrics: NewHTTPMetrics(prometheus.NewRegistry())})
	for _, rt := range r.Routes() {
		_, ok := scopeOf(rt.Method, rt.Path)
		require.True(t, ok, "route %s %s has no row in api.Scopes", rt.Method, rt.Path)
	}
	require.Len(t, scopeIndex, len(Scopes), "no route has two rows")
	known := map[string]bool{}
	for _, s := range models.AllScopes {
		known[s] = true
	}
	for _, s := range Scopes {
		require.Equal(t, s.Access == AccessKey, s.Scope != "", "%s %s: keyed routes and only they name a scope", s.Method, s.Path)
		if s.Scope != "" {
			require.True(t, known[s.Scope], "%s %s: unknown scope %s", s.Method, s.Path, s.Scope)
		}
	}
}

func TestScopesAreServedInMeta(t *testing.T) {
	res := serve(NewRouter(Deps{}), request("GET", "/v1/meta", nil))
	require.Equal(t, 200, res.code)
	rows := res.obj(t)["scopes"].([]any)
	require.Len(t, rows, len(Scopes))
	require.Contains(t, rows, map[string]any{"method": "PUT", "path": "/v1/jobs/{id}/cancel", "auth": "key", "scope": "jobs:cancel"})
	require.Contains(t, rows, map[string]any{"method": "POST", "path": "/v1/account/keys", "auth": "session"})
}

func TestRoutePatterns(t *testing.T) {
	for gin, pattern := range map[string]string{"/v1/jobs/:id/result": "/v1/jobs/{id}/result", "/files/*path": "/files/{path}", "/v1/meta": "/v1/meta"} {
		require.Equal(t, pattern, routePattern(gin))
	}
	require.Equal(t, "/v1/jobs/:id", ginPath("/v1/jobs/{id}"))
	require.Equal(t, shape("/v1/tasks/:task/estimate"), shape("/v1/tasks/{name}/estimate"), "parameter names do not matter")
}
