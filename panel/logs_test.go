package panel

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"syscall"
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

// brokenPipe is a response whose browser has left: every write fails.
type brokenPipe struct{ h http.Header }

func (b brokenPipe) Header() http.Header     { return b.h }
func (brokenPipe) Write([]byte) (int, error) { return 0, fmt.Errorf("write tcp: %w", syscall.EPIPE) }
func (brokenPipe) WriteHeader(int)           {}

// TestPageWrittenToALeftBrowserIsNotAnError: a page whose writes fail
// because the browser left is logged at DEBUG; any other failure to write
// a page stays an ERROR.
func TestPageWrittenToALeftBrowserIsNotAnError(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	p := &panel{d: api.Deps{Log: zap.New(core)}, pages: parsePages()}
	p.render(brokenPipe{http.Header{}}, "signin", "layout", page{Title: "Sign in", Data: signInData{}})
	require.Equal(t, 1, logs.FilterLevelExact(zapcore.DebugLevel).Len(), "%v", logs.All())
	require.Zero(t, logs.FilterLevelExact(zapcore.ErrorLevel).Len())
	p.render(httptest.NewRecorder(), "signin", "no such block", nil)
	require.Equal(t, 1, logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "%v", logs.All())
}
