package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
)

// sessionCookie is the browser's panel session cookie; "" when it has none.
func (p *panelSite) sessionCookie(t *testing.T) string {
	t.Helper()
	var value string
	require.NoError(t, chromedp.Run(p.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		cookies, err := network.GetCookies().WithURLs([]string{p.url}).Do(ctx)
		for _, c := range cookies {
			if c.Name == middleware.SessionCookie {
				value = c.Value
			}
		}
		return err
	})))
	return value
}

// TestPanelRefusesFixationAndCrossSiteForms: a session token planted in
// the browser before sign-in is not the one signed in, and forms another
// origin's page submits to the panel are refused and change nothing.
func TestPanelRefusesFixationAndCrossSiteForms(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	p := newPanelSite(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
	s, ctx := p.s, p.ctx

	// Fixation: the attacker's token is in the browser's cookie jar first.
	const planted = "planted-by-an-attacker-0123456789abcdef"
	host, err := url.Parse(p.url)
	require.NoError(t, err)
	require.NoError(
		t,
		chromedp.Run(
			ctx,
			network.SetCookie(middleware.SessionCookie, planted).WithDomain(host.Hostname()).WithPath("/").WithHTTPOnly(true),
		),
	)
	require.Equal(t, planted, p.sessionCookie(t))
	p.signIn(t)
	signedIn := p.sessionCookie(t)
	require.NotEmpty(t, signedIn)
	require.NotEqual(t, planted, signedIn, "sign-in gives a new session token")
	_, _, err = models.SessionUser(context.Background(), s.db, planted, time.Now())
	require.ErrorIs(t, err, models.ErrNoSession, "the planted token is not signed in")
	req, err := http.NewRequest(http.MethodGet, p.url+"/v1/account/keys", nil)
	require.NoError(t, err)
	req.AddCookie(&http.Cookie{Name: middleware.SessionCookie, Value: planted})
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusForbidden, res.StatusCode, "the planted token reaches nothing")

	// Cross-site forms: another origin on the same loopback host (so the
	// SameSite=Lax cookie is sent: only the origin check can refuse) posts
	// a ping of the user's endpoint, then a sign-out.
	ep := &models.WebhookEndpoint{UserID: s.userID, URL: rcv.srv.URL + "/hook", Events: "job.succeeded"}
	require.NoError(t, models.CreateEndpoint(context.Background(), s.db, ep))
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(
			w,
			`<!doctype html><form id="f" method="post" `+
				`action="%s%s"></form><script>document.getElementById("f").submit()</script>`,
			p.url,
			r.URL.Query().Get("to"),
		)
	}))
	t.Cleanup(evil.Close)
	require.NotEqual(t, evil.URL, p.url)
	for _, to := range []string{"/v1/account/webhooks/" + ep.ID + "/ping", "/app/sign-out"} {
		var body string
		require.NoError(t, chromedp.Run(
			ctx,
			chromedp.Navigate(evil.URL+"/?to="+url.QueryEscape(to)),
			chromedp.Poll(
				`location.href.startsWith(`+"`"+p.url+"`"+`) && document.readyState === "complete"`,
				nil,
				chromedp.WithPollingTimeout(15*time.Second),
			),
			chromedp.Text("body", &body, chromedp.ByQuery),
		), to)
		require.Regexp(t, `(?i)cross-origin`, body, "the panel refuses the form posted to %s", to)
	}
	var n int64
	require.NoError(t, s.db.Model(&models.WebhookDelivery{}).Where("user_id = ?", s.userID).Count(&n).Error)
	require.Zero(t, n, "no ping was sent")
	require.Empty(t, rcv.deliveries())
	require.Equal(t, signedIn, p.sessionCookie(t), "still signed in with the same session")
	_, _, err = models.SessionUser(context.Background(), s.db, signedIn, time.Now())
	require.False(t, errors.Is(err, models.ErrNoSession), "the session was not signed out")
	require.NoError(t, err)
	require.NoError(
		t,
		chromedp.Run(
			ctx,
			chromedp.Navigate(p.url+"/app/webhooks"),
			chromedp.WaitVisible("#sign-out", chromedp.ByQuery),
		),
	)
}
