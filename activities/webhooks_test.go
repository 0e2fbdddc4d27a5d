package activities_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/mocks"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
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
			require.Equal(t, tc.want, deliveredTo(t, db, in, u.ID, tc.event, first), tc.event)

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

// deliveredTo checks the deliveries ds of one event of job in: each a
// pending row of user userID, all with one event id and one body, the
// job's own to its webhook_url. It returns the endpoint ids delivered to
// ("" is the job's webhook_url).
func deliveredTo(
	t *testing.T,
	db *gorm.DB,
	in contract.JobInput,
	userID uint64,
	event string,
	ds []activities.Delivery,
) []string {
	t.Helper()
	var endpoints []string
	for _, d := range ds {
		endpoints = append(endpoints, d.EndpointID)
		row := delivery(t, db, d.DeliveryID)
		require.Equal(t, event, row.Event)
		require.Equal(t, in.JobID, row.JobID)
		require.Equal(t, userID, row.UserID)
		require.Equal(t, models.DeliveryPending, row.Status)
		require.Equal(t, delivery(t, db, ds[0].DeliveryID).EventID, row.EventID, "one event, one id")
		require.Equal(t, delivery(t, db, ds[0].DeliveryID).Body, row.Body, "every subscriber gets the same body")
		if d.EndpointID == "" {
			require.Equal(t, in.WebhookURL, row.URL)
		}
	}
	return endpoints
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
