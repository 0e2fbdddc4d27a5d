package e2e_test

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"gocloud.dev/blob/memblob"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/panel"
)

// browser is a headless Debian chromium driven by chromedp, ended at
// cleanup; TP_SCREENSHOTS names a folder that receives a PNG per page.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	require.NoError(t, err, "make test installs Debian's chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.Flag("headless", true),
		chromedp.NoSandbox, chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(cancelCtx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelT)
	return ctx
}

func shoot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("TP_SCREENSHOTS")
	if dir == "" {
		return
	}
	var shot []byte
	require.NoError(t, chromedp.Run(ctx, chromedp.FullScreenshot(&shot, 100)), "quality 100 is a PNG, less a JPEG")
	_, err := png.DecodeConfig(bytes.NewReader(shot))
	require.NoError(t, err, "a screenshot is a PNG")
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644))
}

// panelSite is a stack with the account panel in front of its API on a
// server of its own, a user with a password, and a headless browser.
type panelSite struct {
	s        *testStack
	url      string
	email    string
	password string
	ctx      context.Context
}

// newPanelSite serves the panel and the API of a new stack and starts a
// browser; nobody is signed in yet.
func newPanelSite(t *testing.T, o stackOptions) *panelSite {
	t.Helper()
	if o.bucket == nil {
		o.bucket = memblob.OpenBucket(nil)
	}
	s := newStack(t, o)
	ctx := context.Background()
	u, err := models.UserByID(ctx, s.db, s.userID)
	require.NoError(t, err)
	const password = "panel walk password"
	require.NoError(t, models.SetPassword(ctx, s.db, u.ID, password))

	var handler http.Handler
	srv := httptest.NewServer(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }),
	)
	t.Cleanup(srv.Close)
	handler = panel.Mount(
		api.Deps{DB: s.db, Temporal: s.acts.Temporal, Blob: o.bucket, Log: zaptest.NewLogger(t), BaseURL: srv.URL,
			RateLimit: 100000, RateWindow: time.Minute, TaskQueue: s.queue, Signer: s.signer, AllowPrivateURLs: true,
			Catalogue: catalogue.New(s.acts.Tasks)},
	)
	return &panelSite{s: s, url: srv.URL, email: u.Email, password: password, ctx: browser(t)}
}

// signIn signs the site's user in from the sign-in page.
func (p *panelSite) signIn(t *testing.T) {
	t.Helper()
	require.NoError(t, chromedp.Run(p.ctx,
		chromedp.Navigate(p.url+"/app/sign-in"),
		chromedp.WaitVisible("#email", chromedp.ByQuery),
		chromedp.SendKeys("#email", p.email, chromedp.ByQuery),
		chromedp.SendKeys("#password", p.password, chromedp.ByQuery),
		chromedp.Click("#sign-in", chromedp.ByQuery),
		chromedp.WaitVisible("#sign-out", chromedp.ByQuery),
	))
}

// reloadUntil loads path until the expression js is true in it, within
// within; the page is server-rendered, so news needs a reload.
func (p *panelSite) reloadUntil(t *testing.T, path, js string, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, within)
	defer cancel()
	for {
		var ok bool
		err := chromedp.Run(
			ctx,
			chromedp.Navigate(p.url+path),
			chromedp.WaitReady("body", chromedp.ByQuery),
			chromedp.Evaluate(js, &ok),
		)
		require.NoError(t, err, "%s never showed %s", path, js)
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			require.Fail(t, "timed out", "%s never showed %s", path, js)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// runUntilDone runs actions that can be repeated until one run of all of
// them succeeds, or fails the test after within: steps that race a page
// being replaced (a node read from the old document) are run again.
func (p *panelSite) runUntilDone(t *testing.T, within time.Duration, actions ...chromedp.Action) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		err := chromedp.Run(ctx, actions...)
		cancel()
		if err == nil {
			return
		}
		require.True(t, time.Now().Before(deadline), "the panel's steps never ran through: %v", err)
		time.Sleep(200 * time.Millisecond)
	}
}

// TestPanelWalk signs in to the panel in headless chromium, creates a key
// and uses it against the API, runs a task from the generated form and
// watches it finish, rolls and revokes the key and signs out.
func TestPanelWalk(t *testing.T) {
	t.Parallel()
	p := newPanelSite(t, stackOptions{credits: 100000})
	s, srv, u, password := p.s, p.url, p.email, p.password
	ctx := p.ctx
	var text string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(srv+"/"),
		chromedp.WaitVisible("#email", chromedp.ByQuery),
		chromedp.SendKeys("#email", u, chromedp.ByQuery),
		chromedp.SendKeys("#password", "wrong password!", chromedp.ByQuery),
		chromedp.Click("#sign-in", chromedp.ByQuery),
		chromedp.WaitVisible("#signin-error", chromedp.ByQuery),
		chromedp.Text("#signin-error", &text, chromedp.ByQuery),
	))
	require.Contains(t, text, "The email or the password is wrong.")
	shoot(t, ctx, "sign-in")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.SendKeys("#password", password, chromedp.ByQuery),
		chromedp.Click("#sign-in", chromedp.ByQuery),
		chromedp.WaitVisible("#sign-out", chromedp.ByQuery),
		chromedp.Navigate(srv+"/app/keys"),
		chromedp.WaitVisible("#create-key", chromedp.ByQuery),
		chromedp.Click(`#create-key input[value="jobs:read"]`, chromedp.ByQuery),
		chromedp.Click(`#create-key button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible("#new-key", chromedp.ByQuery),
		chromedp.Value("#new-key", &text, chromedp.ByQuery),
	))
	shoot(t, ctx, "keys-new")
	newKey := text
	require.True(t, models.WellFormedKey(newKey), newKey)
	r := s.doAs(newKey, http.MethodGet, "/v1/jobs")
	require.Equal(t, http.StatusOK, r.status, "the new key works against the API")

	// Run a task from the form generated from its inputSchema.
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(srv+"/app/run/pattern.stripes"),
		chromedp.WaitVisible("#run-form", chromedp.ByQuery),
		chromedp.SetValue("#in-count", "1", chromedp.ByQuery),
		chromedp.WaitVisible("#estimate.ready", chromedp.ByQuery),
	))
	shoot(t, ctx, "run-form")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click("#run-submit", chromedp.ByQuery),
		chromedp.WaitVisible("#job", chromedp.ByQuery),
		chromedp.WaitVisible(`#job-status.succeeded`, chromedp.ByQuery),
		chromedp.WaitVisible(".gallery img", chromedp.ByQuery),
		chromedp.Text("#job", &text, chromedp.ByQuery),
	))
	require.Contains(t, text, "the app", "a job started in the app says so")
	shoot(t, ctx, "job")
	var jobPath string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`location.pathname`, &jobPath)))

	// Roll the new key with no grace, then revoke its successor.
	keyID := strings.TrimSpace(s.keyIDOf(t, newKey))
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(srv+"/app/keys"),
		chromedp.SetValue(`#grace-`+keyID, "0", chromedp.ByQuery),
		chromedp.Click(`tr[data-key="`+keyID+`"] form.roll button`, chromedp.ByQuery),
		chromedp.WaitVisible("#new-key", chromedp.ByQuery),
		chromedp.Value("#new-key", &text, chromedp.ByQuery),
	))
	rolled := text
	require.Equal(t, http.StatusUnauthorized, s.doAs(newKey, http.MethodGet, "/v1/jobs").status)
	require.Equal(t, http.StatusOK, s.doAs(rolled, http.MethodGet, "/v1/jobs").status)
	rolledID := s.keyIDOf(t, rolled)
	require.NoError(t, chromedp.Run(
		ctx,
		chromedp.Navigate(srv+"/app/keys"),
		chromedp.ActionFunc(
			func(c context.Context) error { return chromedp.Evaluate(`window.confirm = () => true`, nil).Do(c) },
		),
		chromedp.Click(`tr[data-key="`+rolledID+`"] form.revoke button`, chromedp.ByQuery),
		chromedp.WaitVisible(`tr[data-key="`+rolledID+`"] .pill.revoked`, chromedp.ByQuery),
	))
	shoot(t, ctx, "keys")
	require.Equal(t, http.StatusUnauthorized, s.doAs(rolled, http.MethodGet, "/v1/jobs").status)

	for _, page := range []string{"overview:/app/", "jobs:/app/jobs", "files:/app/files?kind=art"} {
		name, path, _ := strings.Cut(page, ":")
		require.NoError(
			t,
			chromedp.Run(ctx, chromedp.Navigate(srv+path), chromedp.WaitVisible("#sign-out", chromedp.ByQuery)),
		)
		shoot(t, ctx, name)
	}
	var balance string
	require.NoError(
		t,
		chromedp.Run(ctx, chromedp.Navigate(srv+"/app/"), chromedp.Text(".stat h2", &balance, chromedp.ByQuery)),
	)
	require.Contains(t, balance, "Service credits", "a balance is named for people, its API name beside it")
	phoneWidth(t, p, "overview:/app/", "jobs:/app/jobs", "job:"+jobPath, "keys:/app/keys", "webhooks:/app/webhooks",
		"run-form:/app/run/pattern.generate")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click("#sign-out", chromedp.ByQuery),
		chromedp.WaitVisible("#email", chromedp.ByQuery),
		chromedp.Navigate(srv+"/app/keys"),
		chromedp.WaitVisible("#email", chromedp.ByQuery),
	))
}

// phoneWidth loads pages (name:path) in a 390 px wide phone viewport and
// requires that none is wider than the screen; TP_SCREENSHOTS gets
// <name>-phone.png. The desktop viewport is restored after.
func phoneWidth(t *testing.T, p *panelSite, pages ...string) {
	t.Helper()
	const width = 390
	require.NoError(t, chromedp.Run(p.ctx, chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile)))
	for _, pg := range pages {
		name, path, _ := strings.Cut(pg, ":")
		var size struct{ Scroll, Inner int }
		require.NoError(
			t,
			chromedp.Run(p.ctx, chromedp.Navigate(p.url+path), chromedp.WaitVisible("#sign-out", chromedp.ByQuery),
				chromedp.Evaluate(`({Scroll: document.documentElement.scrollWidth, Inner: innerWidth})`, &size)),
		)
		require.Equal(t, width, size.Inner, "%s: the page is laid out at the phone's width", path)
		require.LessOrEqual(t, size.Scroll, size.Inner, "%s scrolls sideways on a phone", path)
		shoot(t, p.ctx, name+"-phone")
	}
	require.NoError(t, chromedp.Run(p.ctx, chromedp.EmulateReset()))
}

// keyIDOf is the id of a key secret.
func (s *testStack) keyIDOf(t *testing.T, secret string) string {
	k, _, err := models.SecretKeyAuth(context.Background(), s.db, secret, time.Now())
	require.NoError(t, err)
	return k.ID
}
