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
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/mocks"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
)

// received is one request a test receiver got.
type received struct {
	Header http.Header
	Body   []byte
}

// receiver is an https webhook receiver keeping what it received.
type receiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []received
}

// newReceiver starts a receiver answering status to every POST; acts
// sends to it.
func newReceiver(t *testing.T, acts *activities.Activities, status int) *receiver {
	t.Helper()
	return newReceiverFunc(t, acts, func(int) int { return status })
}

// newReceiverFunc starts a receiver answering POST number n (from 1) with
// the status answer(n); acts sends to it.
func newReceiverFunc(t *testing.T, acts *activities.Activities, answer func(n int) int) *receiver {
	t.Helper()
	r := &receiver{}
	r.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{Header: req.Header.Clone(), Body: body})
		n := len(r.got)
		r.mu.Unlock()
		if req.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.WriteHeader(answer(n))
	}))
	t.Cleanup(r.Close)
	acts.HTTP = trusting(r.Server, false)
	return r
}

// requests returns what the receiver got so far.
func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// emit records the deliveries of one event of a job.
func emit(t *testing.T, acts *activities.Activities, jobID, event string, seq int) []activities.Delivery {
	t.Helper()
	ds, err := activities.RecordEvent(acts, context.Background(), activities.Event{JobID: jobID, Event: event, Seq: seq,
		OccurredAt: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	return ds
}

// delivery reads a delivery row.
func delivery(t *testing.T, db *gorm.DB, id string) *models.WebhookDelivery {
	t.Helper()
	d, err := models.DeliveryByID(context.Background(), db, id)
	require.NoError(t, err)
	return d
}

func TestRecordEventMakesOneDeliveryPerSubscriber(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		env := newEnv(acts)
		u := newUser(t, db, 10)
		progress := addEndpoint(
			t,
			db,
			u,
			"https://hooks.example.test/progress",
			contract.EventProgress,
			contract.EventSucceeded,
		)
		started := addEndpoint(t, db, u, "https://hooks.example.test/started", contract.EventStarted)
		off := addEndpoint(t, db, u, "https://hooks.example.test/off", contract.EventSucceeded)
		require.NoError(t, db.Model(off).Update("disabled", true).Error)
		addEndpoint(t, db, newUser(t, db, 0), "https://hooks.example.test/stranger", contract.EventSucceeded)
		in := jobInput(u, 6, 3, withWebhook("https://hooks.example.test/job"))
		admit(t, env, acts, in)

		for _, tc := range []struct {
			event string
			seq   int
			want  []string // the endpoint ids delivered to; "" is the job's webhook_url
		}{
			{contract.EventStarted, 0, []string{started.ID}},
			{contract.EventProgress, 1, []string{progress.ID}},
			{contract.EventSucceeded, 0, []string{progress.ID, ""}},
			{contract.EventFailed, 0, []string{""}},
			{contract.EventCancelled, 0, []string{""}},
		} {
			first := emit(t, acts, in.JobID, tc.event, tc.seq)
			var endpoints []string
			for _, d := range first {
				endpoints = append(endpoints, d.EndpointID)
				row := delivery(t, db, d.DeliveryID)
				require.Equal(t, tc.event, row.Event)
				require.Equal(t, in.JobID, row.JobID)
				require.Equal(t, u.ID, row.UserID)
				require.Equal(t, models.DeliveryPending, row.Status)
				require.Equal(t, delivery(t, db, first[0].DeliveryID).EventID, row.EventID, "one event, one id")
				require.Equal(
					t,
					delivery(t, db, first[0].DeliveryID).Body,
					row.Body,
					"every subscriber gets the same body",
				)
				if d.EndpointID == "" {
					require.Equal(t, in.WebhookURL, row.URL)
				}
			}
			require.Equal(t, tc.want, endpoints, tc.event)

			// Emitting again (a retried activity) makes the same deliveries, no more.
			require.Equal(t, first, emit(t, acts, in.JobID, tc.event, tc.seq), tc.event)
			var n int64
			require.NoError(
				t,
				db.Model(&models.WebhookDelivery{}).
					Where("event_id = ?", delivery(t, db, first[0].DeliveryID).EventID).
					Count(&n).
					Error,
			)
			require.EqualValues(t, len(tc.want), n)
		}

		// Another progress event is a new event with new deliveries.
		one, two := emit(
			t,
			acts,
			in.JobID,
			contract.EventProgress,
			1,
		), emit(
			t,
			acts,
			in.JobID,
			contract.EventProgress,
			2,
		)
		require.NotEqual(t, one[0].DeliveryID, two[0].DeliveryID)
		require.NotEqual(t, delivery(t, db, one[0].DeliveryID).EventID, delivery(t, db, two[0].DeliveryID).EventID)
	})
}

func TestRecordEventBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		outcome string
		failure *contract.Failure
		event   string
	}{
		{name: "succeeded", outcome: contract.OutcomeSucceeded, event: contract.EventSucceeded},
		{name: "failed", outcome: contract.OutcomeFailed, event: contract.EventFailed,
			failure: &contract.Failure{Code: contract.CodeProcessingFailed, Message: "The motif could not be read."}},
		{name: "cancelled", outcome: contract.OutcomeCancelled, event: contract.EventCancelled,
			failure: &contract.Failure{Code: contract.CodeCancelled, Message: "The job was cancelled."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			env := newEnv(acts)
			u := newUser(t, db, 10)
			in := jobInput(u, 6, 3, withWebhook("https://hooks.example.test/job"))
			admit(t, env, acts, in)
			markRunning(t, db, in.JobID, 2)
			files := deliverOutputs(t, db, job(t, db, in.JobID), 2)
			mustExec[contract.SettleResult](
				t,
				env,
				acts.Settle,
				contract.SettleInput{JobID: in.JobID, Outcome: tc.outcome, Failure: tc.failure,
					Summary: &contract.Summary{Requested: 2, Delivered: 2, Warnings: []contract.Warning{}}},
			)

			ds := emit(t, acts, in.JobID, tc.event, 0)
			require.Len(t, ds, 1)
			var body map[string]any
			require.NoError(t, json.Unmarshal([]byte(delivery(t, db, ds[0].DeliveryID).Body), &body))
			require.True(t, strings.HasPrefix(body["id"].(string), "evt_"))
			require.Equal(t, tc.event, body["event"])
			require.Equal(t, "2025-03-01T12:00:00Z", body["occurred_at"])
			require.Equal(t, in.ServiceVersion, body["api_version"])
			require.Equal(t, in.JobID, body["job_id"])
			require.Equal(t, in.Task, body["task"])
			require.Equal(t, contract.LifecycleTerminal, body["lifecycle"])
			require.Equal(t, tc.outcome, body["outcome"])
			require.Equal(t, map[string]any{"done": 2.0, "total": 2.0, "phase": "done"}, body["progress"])

			if tc.failure != nil {
				require.NotContains(t, body, "result")
				e := body["error"].(map[string]any)
				require.Equal(t, tc.failure.Code, e["code"])
				require.Equal(t, tc.failure.Message, e["message"])
				require.Equal(t, in.JobID, e["job_id"])
				return
			}
			require.NotContains(t, body, "error")
			result := body["result"].(map[string]any)
			require.Equal(t, in.JobID, result["job_id"])
			require.Equal(t, false, result["has_more"])
			require.Equal(t, map[string]any{"requested": 2.0, "delivered": 2.0, "warnings": []any{}}, result["summary"])
			list := result["files"].([]any)
			require.Len(t, list, len(files))
			for i, f := range files {
				got := list[i].(map[string]any)
				require.Equal(t, "art:"+f.ID, got["file"])
				require.Equal(t, filesBase+"/files/"+f.ID+".png", got["url"])
				require.Equal(t, "image/png", got["media_type"])
				require.Equal(t, in.Task, got["task"])
				require.Equal(t, in.JobID, got["job_id"])
				require.Equal(t, map[string]any{"index": float64(i)}, got["data"])
			}
		})
	}
}

func TestDeliver(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		status   int
		endpoint bool // to a registered endpoint; else to the job's webhook_url
		// errType is the failure's type ("" delivered); retryable says the
		// workflow tries again.
		errType   string
		retryable bool
		after     string // the delivery's status after the attempt
		failures  int    // the endpoint's consecutive failures after
	}{
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
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
			got := recv.requests()
			require.Len(t, got, 1)
			h := got[0].Header
			require.Equal(t, d.Body, string(got[0].Body))
			require.Equal(t, "application/json", h.Get("Content-Type"))
			require.Equal(t, d.ID, h.Get("X-Service-Request-Id"))
			require.Equal(t, strconv.FormatUint(u.ID, 10), h.Get("X-Service-User-Id"))
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

			// The delivery log has the attempt and its answer.
			d = delivery(t, db, d.ID)
			require.Equal(t, tc.after, d.Status)
			require.Equal(t, 1, d.Attempts)
			require.Equal(t, tc.status, d.LastStatusCode)
			atts, err := models.DeliveryAttempts(ctx, db, d.ID)
			require.NoError(t, err)
			require.Len(t, atts, 1)
			require.Equal(t, tc.status, atts[0].StatusCode)
			if tc.after == models.DeliveryPending {
				require.NotNil(t, d.NextAttemptAt, "the log says when the next attempt is")
			} else {
				require.Nil(t, d.NextAttemptAt)
			}
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

// A job.failed body follows the contract version of the account (the job's
// own when the account has none, the current one when neither is served):
// under 2026-09-29, the current version and a new account's, a job refused
// its credits carries required and balance at the error's top level as the
// spec's error object does; under 2026-06-30 in ctx only.
func TestEventBodyFollowsTheAccountVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, pin, job, want string
	}{
		{"pinned to the current version", "2026-09-29", "2026-09-29", "2026-09-29"},
		{"pinned to the older version", "2026-06-30", "2026-09-29", "2026-06-30"},
		{"no pin: the job's version", "", "2026-06-30", "2026-06-30"},
		{"a pin no longer served: the current one", "2026-11-17", "2026-11-17", "2026-09-29"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			u := newUser(t, db, 0)
			require.NoError(t, db.Model(&models.User{}).Where("id = ?", u.ID).Update("service_version", tc.pin).Error)
			refusal := apierr.New(apierr.InsufficientCredits, "The job needs 6 credits.").WithCredits(6, 2)
			refusal.JobID = models.NewID("j_")
			raw, err := json.Marshal(refusal)
			require.NoError(t, err)
			stored, out := string(raw), contract.OutcomeFailed
			require.NoError(t, db.Create(&models.Job{ID: refusal.JobID, UserID: u.ID, APIKeyID: "key_test",
				Task: "pattern.generate", Input: "{}", Lifecycle: contract.LifecycleTerminal, Outcome: &out,
				Error: &stored, CreditType: contract.CreditService, ServiceVersion: tc.job,
				WebhookURL: "https://hooks.example.test/job", CreatedAt: time.Now().UTC()}).Error)

			ds := emit(t, acts, refusal.JobID, contract.EventFailed, 0)
			require.Len(t, ds, 1)
			var body map[string]any
			require.NoError(t, json.Unmarshal([]byte(delivery(t, db, ds[0].DeliveryID).Body), &body))
			require.Equal(t, tc.want, body["api_version"])
			e := body["error"].(map[string]any)
			require.Equal(t, "insufficient_credits", e["code"])
			require.Equal(t, map[string]any{"required": 6.0, "balance": 2.0}, e["ctx"], "ctx in every version")
			if tc.want == contract.CurrentVersion {
				require.Equal(t, 6.0, e["required"])
				require.Equal(t, 2.0, e["balance"])
			} else {
				require.NotContains(t, e, "required")
				require.NotContains(t, e, "balance")
			}

			// A settlement's terminal event reads the account's version with
			// the job's row (models.SettleWithAccount): the same version.
			settled := models.NewID("j_")
			require.NoError(t, db.Create(&models.Job{ID: settled, UserID: u.ID, APIKeyID: "key_test",
				Task: "pattern.generate", Input: "{}", Lifecycle: contract.LifecycleRunning,
				CreditType: contract.CreditService, ServiceVersion: tc.job, HoldBatches: []models.HeldBatch{},
				WebhookURL: "https://hooks.example.test/job", CreatedAt: time.Now().UTC()}).Error)
			temporal := mocks.NewClient(t)
			temporal.On("ExecuteWorkflow", mock.Anything, mock.Anything, contract.WebhookDeliveryWorkflow,
				mock.Anything).Return(&mocks.WorkflowRun{}, nil).Once()
			acts.Temporal = temporal
			mustExec[contract.SettleResult](t, newEnv(acts), acts.Settle, contract.SettleInput{JobID: settled,
				Outcome: contract.OutcomeFailed, Failure: &contract.Failure{Code: "internal", Message: "m"},
				Events: []string{contract.EventFailed}, Queue: "q"})
			var sent models.WebhookDelivery
			require.NoError(t, db.Take(&sent, "job_id = ?", settled).Error)
			require.NoError(t, json.Unmarshal([]byte(sent.Body), &body))
			require.Equal(t, tc.want, body["api_version"], "the settled job's event")
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
