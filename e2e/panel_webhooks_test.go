package e2e_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
)

// TestPanelWebhooks walks the webhooks page in headless chromium against a
// local https receiver: register an endpoint, ping it, see a job's delivery
// in the delivery log and replay it (same event id, a signature that
// verifies), enable the endpoint again after it was disabled, and send it a
// test event of a chosen kind. A job run from the panel's form is never
// sent to the endpoint.
func TestPanelWebhooks(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	p := newPanelSite(t, stackOptions{credits: 100000, rootCAs: rcv.pool()})
	s, ctx := p.s, p.ctx
	p.signIn(t)

	// Register the receiver with the default (terminal) events.
	var id string
	var found bool
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(p.url+"/app/webhooks"),
		chromedp.WaitVisible("#wh-url", chromedp.ByQuery),
		chromedp.SendKeys("#wh-url", rcv.srv.URL+"/hook", chromedp.ByQuery),
		chromedp.Click(`#create-endpoint button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible("article.endpoint", chromedp.ByQuery),
		chromedp.AttributeValue("article.endpoint", "data-endpoint", &id, &found, chromedp.ByQuery),
	))
	require.True(t, found)
	endpoint := `article[data-endpoint="` + id + `"]`

	// Ping it: a signed ping reaches the receiver and the log shows it delivered.
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(endpoint+` form[data-api$="/ping"] button`, chromedp.ByQuery)))
	require.Eventually(
		t,
		func() bool { return slices.Contains(rcv.events(), "ping") },
		30*time.Second,
		50*time.Millisecond,
	)
	verify(t, s.jwks(t), rcv.deliveries()[0])
	p.reloadUntil(
		t,
		"/app/webhooks?event=ping",
		`document.querySelectorAll("tr.delivery .pill.delivered").length === 1`,
		30*time.Second,
	)

	// A job run from the form finishes, and its events stay in the app.
	var text, appJob string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(p.url+"/app/run/pattern.stripes"),
		chromedp.WaitVisible("#run-form", chromedp.ByQuery),
		chromedp.SetValue("#in-count", "1", chromedp.ByQuery),
		chromedp.Click("#run-submit", chromedp.ByQuery),
		chromedp.WaitVisible(`#job-status.succeeded`, chromedp.ByQuery),
		chromedp.AttributeValue("#job", "data-job", &appJob, &found, chromedp.ByQuery),
		chromedp.Text("table.deliveries tbody", &text, chromedp.ByQuery),
	))
	require.True(t, found)
	require.Contains(t, text, "No deliveries.", "a job started in the app is never sent to registered endpoints")

	// A job started with an API key is sent; its delivery is in the log.
	res := s.submit(pattern(1))
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	keyJob := res.json(t)["job_id"].(string)
	succeeded := func() []delivery {
		var out []delivery
		for _, d := range rcv.deliveries() {
			if d.event["event"] == "job.succeeded" {
				out = append(out, d)
			}
		}
		return out
	}
	require.Eventually(t, func() bool { return len(succeeded()) == 1 }, patience, 50*time.Millisecond)
	first := succeeded()[0]
	require.Equal(t, keyJob, first.event["job_id"])
	for _, d := range rcv.deliveries() {
		require.NotEqual(t, appJob, d.event["job_id"], "the app's job reached the receiver")
	}
	row := `tr[data-delivery="` + first.header.Get("X-Service-Request-Id") + `"]`
	p.reloadUntil(t, "/app/webhooks", `!!document.querySelector('`+row+` .pill.delivered')`, 30*time.Second)
	// The filter's submit replaces a page that already shows the row: a
	// query can land on the old document as it goes, so the steps are run
	// again until they read the new one.
	p.runUntilDone(t, 30*time.Second,
		chromedp.SetValue("#d-event", "job.succeeded", chromedp.ByQuery),
		chromedp.Click(`form.filters button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(row, chromedp.ByQuery),
		chromedp.Text(row, &text, chromedp.ByQuery),
	)
	require.Contains(t, text, "HTTP 200", "the log shows the receiver's answer")

	// Replay: a new delivery of the same event, signed again.
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(row+` form button`, chromedp.ByQuery)))
	require.Eventually(t, func() bool { return len(succeeded()) == 2 }, patience, 50*time.Millisecond)
	again := succeeded()[1]
	require.Equal(t, first.event["id"], again.event["id"], "a replay keeps the event id")
	require.NotEqual(
		t,
		first.header.Get("X-Service-Request-Id"),
		again.header.Get("X-Service-Request-Id"),
		"a replay is a new delivery",
	)
	verify(t, s.jwks(t), again)
	p.reloadUntil(
		t,
		"/app/webhooks?event=job.succeeded",
		`document.querySelectorAll("tr.delivery .pill.delivered").length === 2`,
		30*time.Second,
	)

	// Disabled after failures, enabled again from the page.
	require.NoError(t, s.db.Model(&models.WebhookEndpoint{}).Where("id = ?", id).
		Updates(map[string]any{"disabled": true, "failures": 20, "disabled_reason": "20 consecutive failed deliveries"}).
		Error)
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(p.url+"/app/webhooks"),
		chromedp.WaitVisible(endpoint+" .alert", chromedp.ByQuery),
		chromedp.Text(endpoint+" .alert", &text, chromedp.ByQuery),
		chromedp.Click(endpoint+` form[data-api$="/enable"] button`, chromedp.ByQuery),
		chromedp.WaitVisible(endpoint+" .pill.active", chromedp.ByQuery),
	))
	require.Contains(t, text, "Disabled: 20 consecutive failed deliveries")
	ep, err := models.EndpointOfUser(context.Background(), s.db, s.userID, id)
	require.NoError(t, err)
	require.False(t, ep.Disabled)
	require.Zero(t, ep.Failures, "enabling resets the failure count")

	// A test event of a kind chosen on the page (as stripe trigger sends
	// one): a signed sample job.failed reaches the receiver, and the log
	// shows it delivered.
	require.NoError(t, chromedp.Run(ctx,
		chromedp.SetValue("#test-"+id, "job.failed", chromedp.ByQuery),
		chromedp.Click(endpoint+` form.test-event button`, chromedp.ByQuery),
	))
	failed := func() []delivery {
		var out []delivery
		for _, d := range rcv.deliveries() {
			if d.event["event"] == "job.failed" {
				out = append(out, d)
			}
		}
		return out
	}
	require.Eventually(t, func() bool { return len(failed()) == 1 }, patience, 50*time.Millisecond)
	sample := failed()[0]
	require.Equal(t, "job_sample", sample.event["job_id"], "a sample names no real job")
	require.Equal(t, "failed", sample.event["outcome"])
	require.Equal(t, "processing_failed", sample.event["error"].(map[string]any)["code"])
	verify(t, s.jwks(t), sample)
	p.reloadUntil(
		t,
		"/app/webhooks?event=job.failed",
		`document.querySelectorAll("tr.delivery .pill.delivered").length === 1`,
		30*time.Second,
	)
	shoot(t, ctx, "webhooks")
}
