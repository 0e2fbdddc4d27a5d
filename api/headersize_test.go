package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestHeadersOverTheLimitAnswer431InTheErrorShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	tests := []struct {
		name    string
		path    string
		headers []string
		status  int
	}{
		{"small", "/v1/meta", nil, http.StatusOK},
		{
			"one header near the limit",
			"/v1/meta",
			[]string{"X-Note", strings.Repeat("a", middleware.MaxHeaderBytes-200)},
			http.StatusOK,
		},
		{
			"one header over the limit",
			"/v1/meta",
			[]string{"X-Note", strings.Repeat("a", middleware.MaxHeaderBytes)},
			http.StatusRequestHeaderFieldsTooLarge,
		},
		{
			"many headers over the limit",
			"/v1/meta",
			manyHeaders(middleware.MaxHeaderBytes / 50),
			http.StatusRequestHeaderFieldsTooLarge,
		},
		{
			"long URL over the limit",
			"/v1/meta?q=" + strings.Repeat("a", middleware.MaxHeaderBytes),
			nil,
			http.StatusRequestHeaderFieldsTooLarge,
		},
		{
			"with a key",
			"/v1/account/balance",
			with(keyed(e.key), "X-Note", strings.Repeat("a", middleware.MaxHeaderBytes)),
			http.StatusRequestHeaderFieldsTooLarge,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send("GET", tc.path, "", tc.headers...)
			require.Equal(t, tc.status, res.code, "%.300s", res.body)
			require.True(t, strings.HasPrefix(res.head.Get("X-Request-ID"), "req_"))
			if tc.status == http.StatusOK {
				return
			}
			obj := res.errObj(t)
			require.Equal(t, "headers_too_large", obj["code"])
			require.Equal(t, "invalid_request", obj["type"])
			require.Equal(t, false, obj["retryable"])
			require.Equal(t, res.head.Get("X-Request-ID"), obj["request_id"])
			require.Equal(t, "close", res.head.Get("Connection"))
		})
	}
}

// manyHeaders is n header pairs of about 100 bytes each.
func manyHeaders(n int) []string {
	var out []string
	for range n {
		out = append(out, "X-Note", strings.Repeat("b", 90))
	}
	return out
}
