package panel

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// The delivery log names each delivery's job, shows the body sent and the
// receiver's answer, pages back and forth, and filters by job.
func TestDeliveryLogShowsJobPayloadAndAnswer(t *testing.T) {
	t.Parallel()
	h, db, u, cookie := signedInPanel(t)
	ctx := context.Background()
	jobs := []string{
		jobOf(t, db, u, contract.LifecycleTerminal, contract.OutcomeSucceeded, 0, 1, nil, nil),
		jobOf(t, db, u, contract.LifecycleTerminal, contract.OutcomeSucceeded, 0, 1, nil, nil),
	}
	start := time.Now().UTC().Add(-time.Hour)
	for i := range 30 {
		job := jobs[i%2]
		d := &models.WebhookDelivery{ID: fmt.Sprintf("whd_%02d", i), EventID: models.NewID("evt_"), UserID: u.ID,
			URL: "https://hooks.example.com/in", Event: "job.succeeded", JobID: job,
			Body: `{"type":"job.succeeded","data":{"job_id":"` + job + `"}}`, Status: models.DeliveryFailed,
			Attempts: 1, CreatedAt: start.Add(time.Duration(i) * time.Second), UpdatedAt: start}
		require.NoError(t, models.CreateDelivery(ctx, db, d))
		require.NoError(t, db.Create(&models.WebhookAttempt{DeliveryID: d.ID, Attempt: 1, At: start, StatusCode: 503,
			DurationMS: 12, Error: "the receiver answered 503", Response: "<b>busy</b>, retry"}).Error)
	}
	rows := regexp.MustCompile(`data-delivery="(whd_\d+)"`)
	first := do(h, http.MethodGet, "/app/webhooks", nil, cookie...)
	require.Equal(t, http.StatusOK, first.Code)
	body := first.Body.String()
	require.Len(t, rows.FindAllString(body, -1), 25)
	require.Contains(t, body, `href="/app/jobs/`+jobs[1]+`"`, "the job column links the job")
	require.Contains(t, body, "&#34;job_id&#34;: &#34;"+jobs[1]+"&#34;", "the payload, indented")
	require.Contains(t, body, "HTTP 503")
	require.Contains(t, body, "the receiver answered 503")
	require.Contains(t, body, "&lt;b&gt;busy&lt;/b&gt;, retry", "the receiver's answer, as text")
	require.NotContains(t, body, "<b>busy</b>")
	require.NotContains(t, body, "Newest deliveries", "the first page is the newest")
	older := regexp.MustCompile(`href="(/app/webhooks\?[^"]*after=[^"]+)" id="older-deliveries"`).FindStringSubmatch(body)
	require.NotNil(t, older, "a link to older deliveries")
	second := do(h, http.MethodGet, strings.ReplaceAll(older[1], "&amp;", "&"), nil, cookie...).Body.String()
	require.Equal(t, []string{"whd_04", "whd_03", "whd_02", "whd_01", "whd_00"}, ids(rows, second))
	require.Contains(t, second, `id="newest-deliveries"`)
	require.NotContains(t, second, `id="older-deliveries"`)
	byJob := do(h, http.MethodGet, "/app/webhooks?job="+jobs[0], nil, cookie...).Body.String()
	require.Len(t, ids(rows, byJob), 15, "the deliveries of one job")
	require.NotContains(t, byJob, `href="/app/jobs/`+jobs[1]+`"`)
}

func ids(re *regexp.Regexp, body string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestPingIsNotOfferedAsASubscription: the webhooks page offers the job
// and account events to subscribe to, never ping (sent on request, Send
// ping); the delivery log's filter still offers ping, once.
func TestPingIsNotOfferedAsASubscription(t *testing.T) {
	t.Parallel()
	h, _, _, cookie := signedInPanel(t)
	res := do(h, http.MethodGet, "/app/webhooks", nil, cookie...)
	require.Equal(t, http.StatusOK, res.Code)
	body := res.Body.String()
	require.Contains(t, body, `name="events" value="job.succeeded"`)
	require.NotContains(t, body, `value="ping"`)
	require.Equal(t, 1, strings.Count(body, ">ping</option>"), "the log filter offers ping once")
}
