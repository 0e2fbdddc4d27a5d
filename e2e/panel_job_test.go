package e2e_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestPanelJobPageFollowsAJobAndSaysWhyItFailed: a job run from the panel
// shows done/total and each output as it is delivered, on the page that
// was opened (never reloaded); a failed job shows its reason, code and
// docs link instead of an error object.
func TestPanelJobPageFollowsAJobAndSaysWhyItFailed(t *testing.T) {
	t.Parallel()
	motif := motifServer(t, tinyPNG(t, 4, 4))
	// One output at a time, so the page shows each as it arrives.
	p := newPanelSite(t, stackOptions{credits: 100000, stepDelay: 1500 * time.Millisecond, rootCAs: poolOf(motif),
		stepsPerJob: 1})
	p.signIn(t)
	ctx := p.ctx
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(p.url+"/app/run/pattern.stripes"),
		chromedp.WaitVisible("#run-form", chromedp.ByQuery),
		chromedp.SetValue("#in-count", "3", chromedp.ByQuery),
		chromedp.Click("#run-submit", chromedp.ByQuery),
		chromedp.WaitVisible(`#job[data-running="true"]`, chromedp.ByQuery),
		chromedp.Evaluate(`window.pageOpened = "once"`, nil),
	))
	// While it runs: some outputs on the page, and the count says so (the
	// page draws an output and its count in one update; a loaded machine
	// can show the poll the first before the second).
	var running string
	require.NoError(t, chromedp.Run(
		ctx,
		chromedp.Poll(
			`document.querySelectorAll("#job-outputs img").length >= 1 && document.querySelector("#job").dataset.running === `+
				`"true" && /^[12] of 3/.test(document.querySelector("#job-count").textContent)`,
			nil,
			chromedp.WithPollingTimeout(time.Minute),
		),
		chromedp.Text("#job-count", &running, chromedp.ByQuery),
	))
	require.Regexp(t, `^[12] of 3 outputs delivered$`, running)
	shoot(t, ctx, "job-running")
	var count, marker string
	var images int
	require.NoError(t, chromedp.Run(ctx,
		chromedp.WaitVisible(`#job-status.succeeded`, chromedp.ByQuery),
		chromedp.Text("#job-count", &count, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#job-outputs img").length`, &images),
		chromedp.Evaluate(`window.pageOpened || "reloaded"`, &marker),
	))
	require.Equal(t, "3 of 3 outputs delivered", count)
	require.Equal(t, 3, images, "every output shows")
	require.Equal(t, "once", marker, "the page was never reloaded")
	var errorBoxes int
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelectorAll(".alert").length`, &errorBoxes)))
	require.Zero(t, errorBoxes, "a succeeded job shows no error box")

	// A job that fails: its reason, code and docs link.
	res := p.s.do(
		http.MethodPost,
		"/v1/tasks/pattern.repeat",
		map[string]any{"image": motif.URL + "/motif.png", "resolution": "512"},
	)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	require.Equal(t, "failed", p.s.waitTerminal(id)["outcome"])
	var reason, docs, box string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(p.url+"/app/jobs/"+id),
		chromedp.WaitVisible("#job-error", chromedp.ByQuery),
		chromedp.Text("#job-error .reason", &reason, chromedp.ByQuery),
		chromedp.AttributeValue("#job-error a", "href", &docs, nil, chromedp.ByQuery),
		chromedp.Text("#job-error", &box, chromedp.ByQuery),
	))
	require.Contains(t, reason, "4 × 4 px", "the task's own reason")
	require.Equal(t, "/v1/errors#processing_failed", docs)
	require.Contains(t, box, "processing_failed")
	require.NotContains(t, box, `"code"`, "never the raw error object")
	shoot(t, ctx, "job-failed")
}
