package e2e_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/workflows"
)

// receiver is an https webhook receiver that answers the statuses queued
// in answers (then 200) and keeps every request.
type receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	answers []int
	got     []delivery
}

type delivery struct {
	header http.Header
	body   []byte
	event  map[string]any
}

func newReceiver(t *testing.T, answers ...int) *receiver {
	r := &receiver{answers: answers}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var ev map[string]any
		_ = json.Unmarshal(body, &ev)
		r.mu.Lock()
		r.got = append(r.got, delivery{header: req.Header.Clone(), body: body, event: ev})
		status := http.StatusOK
		if len(r.answers) > 0 {
			status, r.answers = r.answers[0], r.answers[1:]
		}
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(r.srv.Certificate())
	return p
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// events lists the event kinds received, in arrival order.
func (r *receiver) events() []string {
	var out []string
	for _, d := range r.deliveries() {
		out = append(out, d.event["event"].(string))
	}
	return out
}

func (s *testStack) jwks(t *testing.T) signer.JWKS {
	res, err := http.Get(s.srv.URL + "/.well-known/jwks.json")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var set signer.JWKS
	require.NoError(t, json.NewDecoder(res.Body).Decode(&set))
	return set
}

// verify checks a delivery as a receiver following the spec does
// (verifySpec), within the timestamp window /v1/meta publishes.
func verify(t *testing.T, set signer.JWKS, d delivery) {
	t.Helper()
	require.NoError(
		t,
		verifySpec(
			set,
			d.header,
			d.body,
			time.Now(),
			time.Duration(contract.DefaultWebhook().Signature.TimestampWindowSeconds)*time.Second,
		),
	)
}

func TestWebhookURLGetsSignedTerminalEvent(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
	res := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.generate?webhook_url="+url.QueryEscape(rcv.srv.URL+"/hook"),
		pattern(2),
	)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 50*time.Millisecond)

	d := rcv.deliveries()[0]
	verify(t, s.jwks(t), d)
	require.Regexp(t, `^whd_`, d.header.Get("X-Service-Request-Id"))
	require.Equal(t, "application/json", d.header.Get("Content-Type"))
	ev := d.event
	require.Regexp(t, `^evt_`, ev["id"])
	require.Equal(t, "job.succeeded", ev["event"])
	require.Equal(t, id, ev["job_id"])
	require.Equal(t, "terminal", ev["lifecycle"])
	require.Equal(t, "succeeded", ev["outcome"])
	require.Len(t, ev["result"].(map[string]any)["files"], 2)

	tampered := d
	tampered.body = append([]byte(nil), d.body...)
	tampered.body[len(tampered.body)-2] ^= 1
	require.ErrorIs(t, verifySpec(s.jwks(t), d.header, tampered.body, time.Now(), time.Minute), errNoKeyVerifies)

	// The receiver has the POST before Deliver records its answer.
	var row *models.WebhookDelivery
	require.Eventually(t, func() bool {
		r, err := models.DeliveryByID(context.Background(), s.db, d.header.Get("X-Service-Request-Id"))
		row = r
		return err == nil && r.Status != "pending"
	}, patience, 50*time.Millisecond)
	require.Equal(t, "delivered", row.Status)
	require.Equal(t, 1, row.Attempts)
}

func TestRegisteredEndpointGetsSubscribedEvents(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
	require.NoError(
		t,
		s.db.Create(&models.WebhookEndpoint{ID: models.NewID("whe_"), UserID: s.userID, URL: rcv.srv.URL + "/ep",
			Events: "job.started,job.progress,job.succeeded"}).Error,
	)
	id := s.submit(pattern(3), "Prefer", "wait=30").json(t)["job_id"].(string)
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 5 }, patience, 50*time.Millisecond)
	require.ElementsMatch(
		t,
		[]string{"job.started", "job.progress", "job.progress", "job.progress", "job.succeeded"},
		rcv.events(),
	)
	ids := map[any]bool{}
	set := s.jwks(t)
	for _, d := range rcv.deliveries() {
		verify(t, set, d)
		require.Equal(t, id, d.event["job_id"])
		ids[d.event["id"]] = true
	}
	require.Len(t, ids, 5, "each event has its own id")
	recordHistory(t, id, "succeeded_with_events")
}

func TestWebhookRetriesServerErrorsButNotRejections(t *testing.T) {
	t.Parallel()
	t.Run("503 then 200 is delivered on the second attempt", func(t *testing.T) {
		rcv := newReceiver(t, http.StatusServiceUnavailable)
		s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
		s.do(http.MethodPost, "/v1/tasks/pattern.generate?webhook_url="+url.QueryEscape(rcv.srv.URL), pattern(1))
		require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 20*time.Millisecond)
		require.Eventually(t, func() bool {
			row, err := models.DeliveryByID(
				context.Background(),
				s.db,
				rcv.deliveries()[0].header.Get("X-Service-Request-Id"),
			)
			return err == nil && row.Attempts == 1 && row.NextAttemptAt != nil
		}, patience, 20*time.Millisecond, "the log says when the next attempt comes")
		require.Eventually(t, func() bool { return len(rcv.deliveries()) == 2 }, patience, 50*time.Millisecond)
		first, second := rcv.deliveries()[0], rcv.deliveries()[1]
		require.Equal(
			t,
			first.header.Get("X-Service-Request-Id"),
			second.header.Get("X-Service-Request-Id"),
			"a retry keeps the delivery id",
		)
		require.Equal(t, first.event["id"], second.event["id"])
		require.Eventually(t, func() bool {
			row, err := models.DeliveryByID(context.Background(), s.db, first.header.Get("X-Service-Request-Id"))
			return err == nil && row.Status == "delivered" && row.Attempts == 2
		}, patience, 50*time.Millisecond)
		recordHistory(t, first.header.Get("X-Service-Request-Id"), "webhook_retried")
	})
	t.Run("410 is a permanent failure", func(t *testing.T) {
		rcv := newReceiver(t, http.StatusGone)
		s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
		s.do(http.MethodPost, "/v1/tasks/pattern.generate?webhook_url="+url.QueryEscape(rcv.srv.URL), pattern(1))
		require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 50*time.Millisecond)
		require.Eventually(t, func() bool {
			row, err := models.DeliveryByID(
				context.Background(),
				s.db,
				rcv.deliveries()[0].header.Get("X-Service-Request-Id"),
			)
			return err == nil && row.Status == "failed" && row.Attempts == 1
		}, patience, 50*time.Millisecond)
		time.Sleep(3 * time.Second)
		require.Len(t, rcv.deliveries(), 1, "never retried")
	})
}

func TestWebhookURLMustBeHTTPS(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true})
	for _, u := range []string{"http://example.com/hook", "ftp://example.com", "https://"} {
		res := s.do(http.MethodPost, "/v1/tasks/pattern.generate?webhook_url="+url.QueryEscape(u), pattern(1))
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s: %s", u, res.body)
		require.Equal(t, "webhook_url", res.json(t)["error"].(map[string]any)["field"])
	}
}

// poolOf trusts a test TLS server's certificate.
func poolOf(srv *httptest.Server) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(srv.Certificate())
	return p
}

// TestDisabledEndpointGetsNoMoreDeliveries: an endpoint disabled while one
// of its deliveries waits for a retry receives nothing more; the delivery
// ends skipped in the log. A replay to it is skipped too.
func TestDisabledEndpointGetsNoMoreDeliveries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rcv := newReceiver(t, http.StatusServiceUnavailable)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool()})
	ep := models.WebhookEndpoint{
		ID:     models.NewID("whe_"),
		UserID: s.userID,
		URL:    rcv.srv.URL + "/ep",
		Events: "job.succeeded",
	}
	require.NoError(t, s.db.Create(&ep).Error)
	s.submit(pattern(1))
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 20*time.Millisecond)
	id := rcv.deliveries()[0].header.Get("X-Service-Request-Id")
	require.NoError(t, s.db.Model(&models.WebhookEndpoint{}).Where("id = ?", ep.ID).
		Updates(map[string]any{"disabled": true, "disabled_reason": "20 consecutive failed deliveries"}).Error)

	require.Eventually(t, func() bool {
		row, err := models.DeliveryByID(ctx, s.db, id)
		return err == nil && row.Status == models.DeliverySkipped
	}, patience, 50*time.Millisecond, "the retry ends without sending")
	row, err := models.DeliveryByID(ctx, s.db, id)
	require.NoError(t, err)
	require.Equal(t, 1, row.Attempts, "only the attempt made before the endpoint was disabled")
	require.Nil(t, row.NextAttemptAt)
	require.Contains(t, row.LastError, "endpoint disabled")

	replay := models.WebhookDelivery{
		ID:         models.NewID("whd_"),
		EventID:    row.EventID,
		UserID:     row.UserID,
		EndpointID: ep.ID,
		URL:        row.URL,
		Event:      row.Event,
		JobID:      row.JobID,
		Body:       row.Body,
	}
	require.NoError(t, models.CreateDelivery(ctx, s.db, &replay))
	run, err := temporalClient(t).ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: replay.ID, TaskQueue: s.queue},
		workflows.WebhookDeliveryWorkflow, contract.WebhookDeliveryInput{DeliveryID: replay.ID, Event: replay.Event})
	require.NoError(t, err)
	var res contract.WebhookDeliveryResult
	require.NoError(t, run.Get(ctx, &res))
	require.False(t, res.Delivered)
	again, err := models.DeliveryByID(ctx, s.db, replay.ID)
	require.NoError(t, err)
	require.Equal(t, models.DeliverySkipped, again.Status)
	require.Zero(t, again.Attempts, "nothing was sent")
	require.Len(t, rcv.deliveries(), 1, "no delivery after the endpoint was disabled")
}
