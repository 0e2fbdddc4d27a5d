package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestRequestIDOnEveryResponseLogLineAndErrorObject(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	e := newEnv(t, testenv.SQLite, func(d *Deps) { d.Log = zap.New(core) })
	e.r.GET("/v1/panic", func(c *gin.Context) { panic("boom") })
	scopeIndex["GET "+shape("/v1/panic")] = route{method: "GET", path: "/v1/panic", access: middleware.AccessPublic}
	t.Cleanup(func() { delete(scopeIndex, "GET "+shape("/v1/panic")) })

	tests := []struct {
		name, method, path string
		headers            []string
		status             int
	}{
		{"ok", "GET", "/v1/meta", nil, 200},
		{"keyed ok", "GET", "/v1/account/balance", keyed(e.key), 200},
		{"not found", "GET", "/v1/nothing/here", nil, 404},
		{"method not allowed", "DELETE", "/v1/meta", nil, 405},
		{"auth error", "GET", "/v1/account/balance", nil, 401},
		{"panic", "GET", "/v1/panic", nil, 500},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := logs.Len()
			res := e.send(tc.method, tc.path, "", tc.headers...)
			require.Equal(t, tc.status, res.code, "%s", res.body)
			id := res.head.Get("X-Request-ID")
			require.True(t, strings.HasPrefix(id, "req_"), "X-Request-ID %q", id)
			require.Equal(t, CurrentVersion, res.head.Get("Service-Version"))
			if tc.status >= 400 {
				require.Equal(t, id, res.errObj(t)["request_id"])
			}
			lines := logs.All()[before:]
			require.NotEmpty(t, lines)
			for _, l := range lines {
				require.Equal(t, id, l.ContextMap()["request_id"], "log line %q", l.Message)
			}
		})
	}
	require.NotEmpty(t, logs.FilterMessage("panic in handler").All(), "the panic was logged")
}

func TestClientRequestIDIsEchoedWhenValidAndIgnoredOtherwise(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	long := strings.Repeat("a", 128)
	tests := []struct {
		name, sent, echoed string
	}{
		{"plain", "abc-123", "abc-123"},
		{"every allowed character", "AZaz09._:-", "AZaz09._:-"},
		{"128 characters", long, long},
		{"129 characters", long + "a", ""},
		{"space", "abc 123", ""},
		{"slash", "abc/123", ""},
		{"non-ASCII", "abç", ""},
		{"not UTF-8", "ab\xff", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/v1/meta", "/v1/nowhere"} {
				res := e.send("GET", path, "", "X-Request-ID", tc.sent)
				require.NotEqual(t, http.StatusBadRequest, res.code, "never refused")
				require.Equal(t, tc.echoed, res.head.Get("X-Client-Request-ID"))
				require.NotEqual(t, tc.sent, res.head.Get("X-Request-ID"), "the service's own id is answered")
				require.True(t, strings.HasPrefix(res.head.Get("X-Request-ID"), "req_"))
			}
		})
	}
}
