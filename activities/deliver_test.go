package activities_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestDeliver(t *testing.T) {
	t.Parallel()
	for _, tc := range deliverCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			env := newEnv(acts)
			recv := newReceiver(t, acts, tc.status)
			u := newUser(t, db, 10)
			in := jobInput(u, 6, 3)
			var ep *models.WebhookEndpoint
			if tc.endpoint {
				ep = addEndpoint(t, db, u, recv.URL+"/endpoint", contract.EventFailed)
			} else {
				in.WebhookURL = recv.URL + "/job"
			}
			admit(t, env, acts, in)
			mustExec[contract.SettleResult](
				t,
				env,
				acts.Settle,
				contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeFailed,
					Failure: &contract.Failure{Code: contract.CodeInternal, Message: "Something went wrong."}},
			)
			ds := emit(t, acts, in.JobID, contract.EventFailed, 0)
			require.Len(t, ds, 1)
			d := delivery(t, db, ds[0].DeliveryID)

			_, err := env.ExecuteActivity(acts.Deliver, d.ID)
			if tc.errType == "" {
				require.NoError(t, err)
			} else {
				appErr := appError(t, err)
				require.Equal(t, tc.errType, appErr.Type())
				require.Equal(t, tc.retryable, !appErr.NonRetryable())
				require.Contains(t, appErr.Error(), strconv.Itoa(tc.status))
			}

			// The receiver got the exact body, signed: its verification accepts it.
			requireSignedBody(t, acts, d, u.ID, recv.requests())

			// The delivery log has the attempt and its answer.
			d = requireAttemptLogged(t, db, d.ID, tc.status, tc.after)
			if ep != nil {
				var row models.WebhookEndpoint
				require.NoError(t, db.Take(&row, "id = ?", ep.ID).Error)
				require.Equal(t, tc.failures, row.Failures)
			}

			// A finished delivery is never sent again.
			if tc.after != models.DeliveryPending {
				_, err = env.ExecuteActivity(acts.Deliver, d.ID)
				require.NoError(t, err)
				require.Len(t, recv.requests(), 1)
			}
		})
	}
}

// deliverWithRetries runs Deliver as a workflow does: under a retry policy
// of at most attempts attempts, one second apart (test time). It returns
// the workflow's error.
func deliverWithRetries(t *testing.T, acts *activities.Activities, deliveryID string, attempts int32) error {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	s.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(acts)
	deliver := func(ctx workflow.Context, id string) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
			RetryPolicy: &temporal.RetryPolicy{
				InitialInterval:    time.Second,
				BackoffCoefficient: 2,
				MaximumAttempts:    attempts,
			}})
		return workflow.ExecuteActivity(ctx, contract.ActivityDeliver, id).Get(ctx, nil)
	}
	env.RegisterWorkflowWithOptions(deliver, workflow.RegisterOptions{Name: "deliver"})
	env.ExecuteWorkflow("deliver", deliveryID)
	require.True(t, env.IsWorkflowCompleted())
	return env.GetWorkflowError()
}

func TestDeliverRetriesUntilTheReceiverAccepts(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	recv := newReceiverFunc(t, acts, func(n int) int {
		if n < 3 {
			return http.StatusServiceUnavailable
		}
		return http.StatusAccepted
	})
	env := newEnv(acts)
	u := newUser(t, db, 10)
	ep := addEndpoint(t, db, u, recv.URL, contract.EventSucceeded)
	in := jobInput(u, 6, 3)
	admit(t, env, acts, in)
	mustExec[contract.SettleResult](
		t,
		env,
		acts.Settle,
		contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeSucceeded},
	)
	ds := emit(t, acts, in.JobID, contract.EventSucceeded, 0)
	require.NoError(t, models.MarkEndpointResult(context.Background(), db, ep.ID, false, 0), "a failure before")

	require.NoError(t, deliverWithRetries(t, acts, ds[0].DeliveryID, 5))

	d := delivery(t, db, ds[0].DeliveryID)
	require.Equal(t, models.DeliveryDelivered, d.Status)
	require.Equal(t, 3, d.Attempts)
	got := recv.requests()
	require.Len(t, got, 3)
	for _, r := range got[1:] {
		require.Equal(t, got[0].Body, r.Body, "every attempt sends the same bytes")
		require.Equal(t, d.ID, r.Header.Get("X-Service-Request-Id"), "under the same delivery id")
	}
	require.Nil(t, d.NextAttemptAt)
	atts, err := models.DeliveryAttempts(context.Background(), db, d.ID)
	require.NoError(t, err)
	var seen []int
	for _, a := range atts {
		seen = append(seen, a.Attempt, a.StatusCode)
	}
	require.Equal(t, []int{1, 503, 2, 503, 3, 202}, seen, "every attempt is in the delivery log")
	var row models.WebhookEndpoint
	require.NoError(t, db.Take(&row, "id = ?", ep.ID).Error)
	require.Zero(t, row.Failures, "a delivery resets the endpoint's failures")
}

// TestDeliverUnreachableIsRetried: the delivery table's "no answer" row —
// nobody listening, or no answer within the client's timeout — is retried.
func TestDeliverUnreachableIsRetried(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		serve func(t *testing.T, acts *activities.Activities) string // the URL
	}{
		{name: "nobody listens", serve: func(t *testing.T, acts *activities.Activities) string {
			recv := newReceiver(t, acts, http.StatusOK)
			recv.Close()
			return recv.URL
		}},
		{name: "no answer in time", serve: func(t *testing.T, acts *activities.Activities) string {
			release := make(chan struct{})
			srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(release) }) // runs first: the handler returns, so Close does not wait on it
			pool := x509.NewCertPool()
			pool.AddCert(srv.Certificate())
			acts.HTTP = outbound.New(outbound.Options{AllowPrivate: true, RootCAs: pool, Timeout: 300 * time.Millisecond})
			return srv.URL
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			env := newEnv(acts)
			u := newUser(t, db, 10)
			in := jobInput(u, 6, 3, withWebhook(tc.serve(t, acts)))
			admit(t, env, acts, in)
			mustExec[contract.SettleResult](
				t,
				env,
				acts.Settle,
				contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeSucceeded},
			)
			ds := emit(t, acts, in.JobID, contract.EventSucceeded, 0)

			_, err := env.ExecuteActivity(acts.Deliver, ds[0].DeliveryID)
			appErr := appError(t, err)
			require.Equal(t, "webhook_retry", appErr.Type())
			require.False(t, appErr.NonRetryable())
			d := delivery(t, db, ds[0].DeliveryID)
			require.Equal(t, models.DeliveryPending, d.Status)
			require.Equal(t, 1, d.Attempts)
			require.Contains(t, d.LastError, "no answer")
			require.Zero(t, d.LastStatusCode)
		})
	}
}

func TestDeliverSkipsADisabledEndpoint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(db *gorm.DB, ep *models.WebhookEndpoint) error
	}{
		{name: "disabled", change: func(db *gorm.DB, ep *models.WebhookEndpoint) error {
			return db.Model(ep).Updates(map[string]any{"disabled": true, "disabled_reason": "by the owner"}).Error
		}},
		{name: "removed", change: func(db *gorm.DB, ep *models.WebhookEndpoint) error { return db.Delete(ep).Error }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			env := newEnv(acts)
			recv := newReceiver(t, acts, http.StatusOK)
			u := newUser(t, db, 10)
			ep := addEndpoint(t, db, u, recv.URL, contract.EventStarted)
			in := jobInput(u, 6, 3)
			admit(t, env, acts, in)
			ds := emit(t, acts, in.JobID, contract.EventStarted, 0)
			require.Len(t, ds, 1)
			require.NoError(t, tc.change(db, ep))

			_, err := env.ExecuteActivity(acts.Deliver, ds[0].DeliveryID)
			appErr := appError(t, err)
			require.Equal(t, contract.ErrTypeEndpointDisabled, appErr.Type())
			require.True(t, appErr.NonRetryable())
			require.Empty(t, recv.requests(), "nothing is sent")
			d := delivery(t, db, ds[0].DeliveryID)
			require.Equal(t, models.DeliverySkipped, d.Status)
			require.Zero(t, d.Attempts)
			require.NotEmpty(t, d.LastError)
		})
	}
}

func TestDeliverPing(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	recv := newReceiver(t, acts, http.StatusOK)
	u := newUser(t, db, 0)
	ep := addEndpoint(t, db, u, recv.URL, contract.EventSucceeded)

	ping, err := events.NewPing(ep, time.Now(), "2025-01-01")
	require.NoError(t, err)
	require.NoError(t, models.CreateDelivery(context.Background(), db, ping))
	_, err = env.ExecuteActivity(acts.Deliver, ping.ID)
	require.NoError(t, err)

	got := recv.requests()
	require.Len(t, got, 1)
	var body map[string]any
	require.NoError(t, json.Unmarshal(got[0].Body, &body))
	require.Equal(t, contract.EventPing, body["event"])
	require.Equal(t, ep.ID, body["endpoint_id"])
	require.Equal(t, "2025-01-01", body["api_version"])
	h := got[0].Header
	require.Equal(t, ping.ID, h.Get("X-Service-Request-Id"))
	require.NoError(t, signer.Verify(acts.Signer.JWKS(), h.Get("X-Service-Request-Id"), h.Get("X-Service-User-Id"),
		h.Get("X-Service-Timestamp"), h.Get("X-Service-Signature"), got[0].Body, time.Now(), 5*time.Minute))
	require.Equal(t, models.DeliveryDelivered, delivery(t, db, ping.ID).Status)
}

func TestDeliverKeepsTheStartOfTheReceiversAnswer(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", models.MaxAttemptResponse-1) + "é" + strings.Repeat("b", 8<<10)
	for _, tc := range []struct {
		name, answer, stored string
	}{
		{"short", `{"ok":false,"why":"<busy>"}`, `{"ok":false,"why":"<busy>"}`},
		{"empty", "", ""},
		{"past 2 KiB, a rune cut", long, strings.Repeat("a", models.MaxAttemptResponse-1) + "\uFFFD"},
		{"not text", "ok\x00\xff", "ok\uFFFD\uFFFD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, tc.answer)
			}))
			t.Cleanup(srv.Close)
			acts.HTTP = trusting(srv, false)
			env := newEnv(acts)
			u := newUser(t, db, 10)
			addEndpoint(t, db, u, srv.URL, contract.EventSucceeded)
			in := jobInput(u, 6, 3)
			admit(t, env, acts, in)
			mustExec[contract.SettleResult](t, env, acts.Settle,
				contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeSucceeded})
			ds := emit(t, acts, in.JobID, contract.EventSucceeded, 0)

			require.Error(t, deliverWithRetries(t, acts, ds[0].DeliveryID, 1))

			atts, err := models.DeliveryAttempts(context.Background(), db, ds[0].DeliveryID)
			require.NoError(t, err)
			require.Len(t, atts, 1)
			require.Equal(t, http.StatusBadRequest, atts[0].StatusCode)
			require.Equal(t, tc.stored, atts[0].Response)
		})
	}
}

// requireSignedBody checks a receiver got one request, delivery d's exact
// body with its headers, signed for user userID: the signature verifies,
// and does not once the body changes.
func requireSignedBody(t *testing.T, acts *activities.Activities, d *models.WebhookDelivery, userID uint64,
	got []received) {
	t.Helper()
	require.Len(t, got, 1)
	h := got[0].Header
	require.Equal(t, d.Body, string(got[0].Body))
	require.Equal(t, "application/json", h.Get("Content-Type"))
	require.Equal(t, d.ID, h.Get("X-Service-Request-Id"))
	require.Equal(t, strconv.FormatUint(userID, 10), h.Get("X-Service-User-Id"))
	ts, err := strconv.ParseInt(h.Get("X-Service-Timestamp"), 10, 64)
	require.NoError(t, err)
	require.WithinDuration(t, time.Now(), time.Unix(ts, 0), time.Minute)
	require.NoError(
		t,
		signer.Verify(acts.Signer.JWKS(), h.Get("X-Service-Request-Id"), h.Get("X-Service-User-Id"),
			h.Get("X-Service-Timestamp"), h.Get("X-Service-Signature"), got[0].Body, time.Now(), 5*time.Minute),
	)
	require.ErrorIs(
		t,
		signer.Verify(
			acts.Signer.JWKS(),
			h.Get("X-Service-Request-Id"),
			h.Get("X-Service-User-Id"),
			h.Get(
				"X-Service-Timestamp",
			),
			h.Get("X-Service-Signature"),
			append(got[0].Body, ' '),
			time.Now(),
			5*time.Minute,
		),
		signer.ErrBadSignature,
		"a changed body does not verify",
	)
}

// requireAttemptLogged checks delivery id's log holds its one attempt,
// answered status, and that the delivery is now after; it returns the
// delivery as logged.
func requireAttemptLogged(t *testing.T, db *gorm.DB, id string, status int, after string) *models.WebhookDelivery {
	t.Helper()
	ctx := context.Background()
	d := delivery(t, db, id)
	require.Equal(t, after, d.Status)
	require.Equal(t, 1, d.Attempts)
	require.Equal(t, status, d.LastStatusCode)
	atts, err := models.DeliveryAttempts(ctx, db, id)
	require.NoError(t, err)
	require.Len(t, atts, 1)
	require.Equal(t, status, atts[0].StatusCode)
	if after == models.DeliveryPending {
		require.NotNil(t, d.NextAttemptAt, "the log says when the next attempt is")
	} else {
		require.Nil(t, d.NextAttemptAt)
	}
	return d
}

// deliverCase is one answer of a receiver to Deliver and what becomes of
// the delivery.
type deliverCase struct {
	name     string
	status   int
	endpoint bool // to a registered endpoint; else to the job's webhook_url
	// errType is the failure's type ("" delivered); retryable says the
	// workflow tries again.
	errType   string
	retryable bool
	after     string // the delivery's status after the attempt
	failures  int    // the endpoint's consecutive failures after
}

// deliverCases are the rows of the spec's delivery table: 2xx delivered;
// 3xx and 4xx other than 408/429 fail for good; 408, 429, 5xx retried.
func deliverCases() []deliverCase {
	return []deliverCase{
		{name: "200 endpoint", status: http.StatusOK, endpoint: true, after: models.DeliveryDelivered},
		{name: "204 webhook url", status: http.StatusNoContent, after: models.DeliveryDelivered},
		{name: "400 endpoint", status: http.StatusBadRequest, endpoint: true, errType: contract.ErrTypeWebhookRejected,
			after: models.DeliveryFailed, failures: 1},
		{name: "410 webhook url", status: http.StatusGone, errType: contract.ErrTypeWebhookRejected,
			after: models.DeliveryFailed},
		{name: "302 endpoint", status: http.StatusFound, endpoint: true, errType: contract.ErrTypeWebhookRejected,
			after: models.DeliveryFailed, failures: 1},
		{name: "503 endpoint", status: http.StatusServiceUnavailable, endpoint: true, errType: "webhook_retry",
			retryable: true, after: models.DeliveryPending},
		{name: "429 webhook url", status: http.StatusTooManyRequests, errType: "webhook_retry", retryable: true,
			after: models.DeliveryPending},
		{name: "408 endpoint", status: http.StatusRequestTimeout, endpoint: true, errType: "webhook_retry", retryable: true,
			after: models.DeliveryPending},
		// The rest of the spec's delivery table, row by row: 2xx delivered;
		// 3xx and 4xx other than 408/429 fail for good; 408, 429, 5xx retried.
		{name: "202 endpoint", status: http.StatusAccepted, endpoint: true, after: models.DeliveryDelivered},
		{name: "301 webhook url", status: http.StatusMovedPermanently, errType: contract.ErrTypeWebhookRejected,
			after: models.DeliveryFailed},
		{name: "307 endpoint", status: http.StatusTemporaryRedirect, endpoint: true,
			errType: contract.ErrTypeWebhookRejected, after: models.DeliveryFailed, failures: 1},
		{name: "401 endpoint", status: http.StatusUnauthorized, endpoint: true, errType: contract.ErrTypeWebhookRejected,
			after: models.DeliveryFailed, failures: 1},
		{name: "404 webhook url", status: http.StatusNotFound, errType: contract.ErrTypeWebhookRejected,
			after: models.DeliveryFailed},
		{name: "422 endpoint", status: http.StatusUnprocessableEntity, endpoint: true,
			errType: contract.ErrTypeWebhookRejected, after: models.DeliveryFailed, failures: 1},
		{name: "408 webhook url", status: http.StatusRequestTimeout, errType: "webhook_retry", retryable: true,
			after: models.DeliveryPending},
		{name: "429 endpoint", status: http.StatusTooManyRequests, endpoint: true, errType: "webhook_retry", retryable: true,
			after: models.DeliveryPending},
		{name: "500 webhook url", status: http.StatusInternalServerError, errType: "webhook_retry", retryable: true,
			after: models.DeliveryPending},
		{name: "502 endpoint", status: http.StatusBadGateway, endpoint: true, errType: "webhook_retry", retryable: true,
			after: models.DeliveryPending},
		{name: "504 webhook url", status: http.StatusGatewayTimeout, errType: "webhook_retry", retryable: true,
			after: models.DeliveryPending},
	}
}
