package activities_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/mocks"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestHoldCreditsSendsSpendThresholdsOnce: the admits that bring a day
// limit's spend to 50, 80 and 100 % each start one signed spend.threshold
// delivery to the endpoint subscribed to it (not to one that is not); a
// retried admit starts the same delivery again and records nothing new. A
// hold past the limit is refused with the limit and sends the 100 % (a
// limit that stops submits is reached even when no hold lands on it),
// once in the period.
func TestHoldCreditsSendsSpendThresholdsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	recv := newReceiver(t, acts, http.StatusOK)
	temporal := mocks.NewClient(t)
	acts.Temporal = temporal
	var started []string
	temporal.On("ExecuteWorkflow", mock.Anything, mock.Anything, contract.WebhookDeliveryWorkflow, mock.Anything).
		Return(&mocks.WorkflowRun{}, nil).
		Run(func(args mock.Arguments) {
			in := args.Get(3).(contract.WebhookDeliveryInput)
			require.Equal(t, contract.EventSpendThreshold, in.Event)
			started = append(started, in.DeliveryID)
		}).Maybe()
	env := newEnv(acts)
	u := newUser(t, db, 100)
	ep := addEndpoint(t, db, u, recv.URL, contract.EventSpendThreshold)
	addEndpoint(t, db, u, "https://hooks.example.test/jobs", contract.EventFailed)
	_, err := models.SetSpendLimit(ctx, db, models.SpendLimit{UserID: u.ID, CreditType: contract.CreditService,
		Period: contract.SpendDay, Credits: 10})
	require.NoError(t, err)

	first := jobInput(u, 5, 5)
	admit(t, env, acts, first)
	require.Len(t, started, 1, "50 %")
	admit(t, env, acts, first)
	require.Len(t, started, 2)
	require.Equal(t, started[0], started[1], "a retried admit starts the same delivery")

	admit(t, env, acts, jobInput(u, 4, 4))
	require.Len(t, started, 3, "90 %: 80 % reached")
	refused := jobInput(u, 2, 2)
	res := mustExec[contract.AdmitResult](t, env, acts.HoldCredits, refused)
	require.False(t, res.Admitted)
	require.NotNil(t, res.SpendLimit)
	require.Equal(t, contract.SpendAccount, res.SpendLimit.Scope)
	require.EqualValues(t, 9, res.SpendLimit.Spent)
	require.Len(t, started, 4, "the limit refused a hold: 100 %")
	mustExec[contract.AdmitResult](t, env, acts.HoldCredits, refused)
	require.Len(t, started, 5)
	require.Equal(t, started[3], started[4], "a retried refusal starts the same delivery")
	res = mustExec[contract.AdmitResult](t, env, acts.HoldCredits, jobInput(u, 3, 3))
	require.False(t, res.Admitted)
	require.Len(t, started, 5, "the period's 100 % is sent once")
	admit(t, env, acts, jobInput(u, 1, 1))
	require.Len(t, started, 5, "landing on the limit: 100 % was sent already")

	var ds []models.WebhookDelivery
	require.NoError(t, db.Where("event = ?", contract.EventSpendThreshold).Order("created_at").Find(&ds).Error)
	require.Len(t, ds, 3, "one delivery per threshold, to the subscribed endpoint only")
	var pcts []float64
	for _, d := range ds {
		require.Equal(t, ep.ID, d.EndpointID)
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(d.Body), &body))
		require.Equal(t, contract.EventSpendThreshold, body["event"])
		require.Equal(t, d.EventID, body["id"])
		require.Equal(t, contract.SpendAccount, body["scope"])
		require.Nil(t, body["api_key_id"])
		require.Equal(t, contract.SpendDay, body["period"])
		require.EqualValues(t, 10, body["limit"])
		pcts = append(pcts, body["threshold"].(float64))
	}
	require.Equal(t, []float64{50, 80, 100}, pcts)
	var reached map[string]any
	require.NoError(t, json.Unmarshal([]byte(ds[2].Body), &reached))
	require.EqualValues(t, 9, reached["spent"], "what the period had spent when the limit refused a hold")
	require.Equal(t, refused.JobID, reached["job_id"], "the job it refused")

	_, err = env.ExecuteActivity(acts.Deliver, ds[0].ID)
	require.NoError(t, err)
	got := recv.requests()
	require.Len(t, got, 1)
	h := got[0].Header
	require.NoError(t, signer.Verify(acts.Signer.JWKS(), h.Get("X-Service-Request-Id"), h.Get("X-Service-User-Id"),
		h.Get("X-Service-Timestamp"), h.Get("X-Service-Signature"), got[0].Body, time.Now(), 5*time.Minute),
		"signed like every delivery")
	require.JSONEq(t, ds[0].Body, string(got[0].Body))
}

// TestHoldCreditsFailsAPendingJobSpendLimitReached: a job whose handle was
// answered before its admit, refused by a key's spend limit, ends failed
// with the spend_limit_reached error naming the limit; nothing is held.
func TestHoldCreditsFailsAPendingJobSpendLimitReached(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		acts := newActivities(t, db)
		env := newEnv(acts)
		u := newUser(t, db, 100)
		k, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, contract.CurrentVersion)
		require.NoError(t, err)
		_, err = models.SetSpendLimit(ctx, db, models.SpendLimit{UserID: u.ID, APIKeyID: k.ID,
			CreditType: contract.CreditService, Period: contract.SpendMonth, Credits: 5})
		require.NoError(t, err)
		in := jobInput(u, 6, 3, func(in *contract.JobInput) { in.APIKeyID = k.ID })
		state, _, err := models.PendJob(ctx, db, models.JobRow(in), contract.TaskQueue, time.Now().UTC())
		require.NoError(t, err)
		require.Equal(t, models.PendWritten, state)

		res := mustExec[contract.AdmitResult](t, env, acts.HoldCredits, in)
		require.False(t, res.Admitted)
		require.True(t, res.Visible)
		e := publicError(t, job(t, db, in.JobID))
		require.Equal(t, string(apierr.SpendLimitReached), e["code"])
		ectx := e["ctx"].(map[string]any)
		require.Equal(t, contract.SpendKey, ectx["scope"])
		require.Equal(t, contract.SpendMonth, ectx["period"])
		require.EqualValues(t, 5, ectx["limit"])
		require.EqualValues(t, 6, ectx["required"])
		require.NotEmpty(t, ectx["resets_at"])
		require.EqualValues(t, 100, available(t, db, u), "nothing held")
	})
}
