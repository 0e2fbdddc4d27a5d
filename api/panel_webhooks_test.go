package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/events"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestLoopbackReceiverPointsToListen: registering a receiver on the
// caller's own machine is refused naming url, and the message says to run
// `taskplatform webhooks listen` forwarding to that address; a public
// address that is refused for another reason gets no such advice.
func TestLoopbackReceiverPointsToListen(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
	for raw, want := range map[string]string{
		"https://127.0.0.1:3000/hook": "url must resolve to public addresses only. To receive events on your own " +
			"machine, run `taskplatform webhooks listen --forward-to 127.0.0.1:3000/hook`: it forwards the " +
			"account's events there, signed.",
		"http://localhost:3000/hook": "url must be an https:// address. To receive events on your own " +
			"machine, run `taskplatform webhooks listen --forward-to localhost:3000/hook`: it forwards the " +
			"account's events there, signed.",
		"https://10.0.0.7/hooks/a":  "run `taskplatform webhooks listen --forward-to 10.0.0.7/hooks/a`",
		"http://93.184.216.34/hook": "url must be an https:// address.",
	} {
		res := e.send(http.MethodPost, "/v1/account/webhooks", fmt.Sprintf(`{"url":%q}`, raw), h...)
		require.Equal(t, http.StatusUnprocessableEntity, res.code, "%s: %s", raw, res.body)
		require.Equal(t, "url", res.errObj(t)["field"])
		require.Contains(t, res.errObj(t)["message"], want, raw)
		if raw == "http://93.184.216.34/hook" {
			require.NotContains(t, res.errObj(t)["message"], "listen")
		}
	}
}

// TestPingIsNotSubscribable: an endpoint cannot subscribe to ping, which
// is sent on request; the refusal names events.
func TestPingIsNotSubscribable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
	res := e.send(http.MethodPost, "/v1/account/webhooks",
		`{"url":"https://93.184.216.34/hooks/a","events":["job.succeeded","ping"]}`, h...)
	require.Equal(t, http.StatusUnprocessableEntity, res.code, "%s", res.body)
	require.Equal(t, "events", res.errObj(t)["field"])
	require.Contains(t, res.errObj(t)["message"], "ping is not subscribed to")
}

// TestTestEventKindsAreTheCatalogues: the panel's test event is sent as
// ping or any kind an endpoint receives; another kind or a body that is
// not JSON is refused before anything is delivered.
func TestTestEventKindsAreTheCatalogues(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
	res := e.send(http.MethodPost, "/v1/account/webhooks", `{"url":"https://93.184.216.34/hooks/a"}`, h...)
	require.Equal(t, http.StatusCreated, res.code, "%s", res.body)
	ping := "/v1/account/webhooks/" + res.obj(t)["id"].(string) + "/ping"

	bad := e.send(http.MethodPost, ping, `{"event":"job.exploded"}`, h...)
	require.Equal(t, http.StatusUnprocessableEntity, bad.code, "%s", bad.body)
	require.Equal(t, "invalid_option", bad.errCode(t))
	require.Equal(t, "event", bad.errObj(t)["field"])
	for _, kind := range []string{"ping", "job.started", "job.progress", "job.succeeded", "job.failed", "job.cancelled",
		"spend.threshold", "batch.completed"} {
		require.Contains(t, bad.errObj(t)["message"], kind, "the refusal lists every kind")
	}
	require.Equal(t, http.StatusBadRequest, e.send(http.MethodPost, ping, `[`, h...).code)
	var n int64
	require.NoError(t, e.db.Model(&models.WebhookDelivery{}).Count(&n).Error)
	require.Zero(t, n, "nothing was delivered")
}

// TestTestEventsHaveTheirKindsShape: the sample body of every kind is
// valid against the schema the document gives that kind's real events.
func TestTestEventsHaveTheirKindsShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	doc := servedDoc(t, "/v1/openapi.json", false)
	ep := &models.WebhookEndpoint{ID: "whe_sample", UserID: e.user.ID, URL: "https://93.184.216.34/hooks"}
	for _, kind := range events.SampleKinds()[1:] {
		d, ok, err := events.SampleOf(t.Context(), e.db, ep, kind, time.Now(), CurrentVersion)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, kind, d.Event)
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(d.Body), &body))
		require.Equal(t, kind, body["event"])
		hook := doc.Webhooks[kind]
		require.NotNil(t, hook, "the document has the %s webhook", kind)
		schema := hook.Post.RequestBody.Value.Content["application/json"].Schema
		require.NoError(t, schema.Value.VisitJSON(body, openapi3.EnableJSONSchema2020()), "%s: %s", kind, d.Body)
		openapicheck.CheckValues(t, schema, body, kind+" sample "+d.Body)
	}
}
