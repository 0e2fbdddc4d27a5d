package panel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/api"
)

// TestBrowserLeavingIsNotAnError: a page whose browser left (its request
// cancelled while the page reads the database) logs no ERROR or WARN line,
// only a DEBUG line naming the page and its request id.
func TestBrowserLeavingIsNotAnError(t *testing.T) {
	t.Parallel()
	core, logs := observer.New(zapcore.DebugLevel)
	h, _ := newPanel(t, func(d *api.Deps) { d.Log = zap.New(core) })
	signIn := do(h, http.MethodPost, "/app/sign-in", url.Values{"email": {"ada@example.com"}, "password": {password}})
	cookie := sessionCookie(signIn)
	require.NotNil(t, cookie)
	for _, path := range []string{"/app/", "/app/jobs", "/app/files", "/app/keys"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, "http://panel.test"+path, nil)
		req.AddCookie(cookie)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	require.Zero(t, logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "%v", logs.FilterLevelExact(zapcore.ErrorLevel).All())
	require.Zero(t, logs.FilterLevelExact(zapcore.WarnLevel).Len())
	left := logs.FilterMessage("panel page left before it was shown").All()
	require.Len(t, left, 4)
	require.Equal(t, "/app/", left[0].ContextMap()["path"])
	require.Regexp(t, `^req_`, left[0].ContextMap()["request_id"])
}
