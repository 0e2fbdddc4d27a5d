package submit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/submit"
	"github.com/taskplatform/taskplatform/testenv"
)

// fixture is a submit service on db whose Temporal is the SDK's mock
// client, for an account holding 10 credits.
type fixture struct {
	t        *testing.T
	db       *gorm.DB
	temporal *mocks.Client
	svc      *submit.Service
	user     *models.User
	// started are the start options of every admit sent.
	started []client.StartWorkflowOptions
}

func newFixture(t *testing.T, db *gorm.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	u, err := models.CreateUser(ctx, db, models.NewID("u_")+"@example.test", models.PlanStandard)
	require.NoError(t, err)
	_, err = models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
	require.NoError(t, err)
	f := &fixture{t: t, db: db, temporal: mocks.NewClient(t), user: u}
	f.svc = &submit.Service{DB: db, Temporal: f.temporal, TaskQueue: "q1", AdmitTimeout: 200 * time.Millisecond}
	f.temporal.On("NewWithStartWorkflowOperation", mock.Anything, contract.JobWorkflow, mock.Anything).Return(nil).
		Run(func(args mock.Arguments) { f.started = append(f.started, args.Get(0).(client.StartWorkflowOptions)) }).
		Maybe()
	return f
}

// request is a submit of a 6-credit job with Idempotency-Key key.
func (f *fixture) request(key string) submit.Request {
	return submit.Request{IdempotencyKey: key, Job: contract.JobInput{JobID: models.NewID("j_"), UserID: f.user.ID,
		APIKeyID: "key_test", Task: "pattern.generate", Input: []byte(`{"count":2}`), CreditType: contract.CreditService,
		HeldCredits: 6, PricePerOutput: 3}}
}

// admits makes the next admit sent answer with its handle's Get: res, or
// err when set. The update must be the admit, waited for until completed.
func (f *fixture) admits(res contract.AdmitResult, err error) {
	handle := mocks.NewWorkflowUpdateHandle(f.t)
	handle.On("Get", mock.Anything, mock.Anything).Return(err).Run(func(args mock.Arguments) {
		*args.Get(1).(*contract.AdmitResult) = res
	})
	f.temporal.On("UpdateWithStartWorkflow", mock.Anything, mock.MatchedBy(isAdmit)).Return(handle, nil).Once()
}

// sendFails makes the next admit sent fail with err, after waiting for the
// caller to give up when slow.
func (f *fixture) sendFails(err error, slow bool) {
	f.temporal.On("UpdateWithStartWorkflow", mock.Anything, mock.MatchedBy(isAdmit)).
		Return(func(ctx context.Context, _ client.UpdateWithStartWorkflowOptions) (client.WorkflowUpdateHandle, error) {
			if slow {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return nil, err
		}).Once()
}

func isAdmit(o client.UpdateWithStartWorkflowOptions) bool {
	return o.UpdateOptions.UpdateID == contract.AdmitUpdateID && o.UpdateOptions.UpdateName == contract.UpdateAdmit &&
		o.UpdateOptions.WaitForStage == client.WorkflowUpdateStageCompleted
}

func (f *fixture) job(id string) *models.Job {
	f.t.Helper()
	j, err := models.JobByID(context.Background(), f.db, f.user.ID, id)
	require.NoError(f.t, err)
	return j
}

func apiError(t *testing.T, err error) *apierr.Error {
	t.Helper()
	var e *apierr.Error
	require.ErrorAs(t, err, &e)
	return e
}

func TestAnAdmitInTimeAnswersTheJobItWrote(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		f.admits(contract.AdmitResult{Admitted: true, Required: 6, CreatedAt: created}, nil)
		req := f.request("k1")
		res, err := f.svc.Submit(ctx, req)
		require.NoError(t, err)
		require.Equal(t, req.Job.JobID, res.JobID)
		require.NotNil(t, res.Admitted)
		require.Equal(t, contract.LifecycleQueued, res.Admitted.Lifecycle)
		require.EqualValues(t, 6, res.Admitted.HeldCredits)
		require.True(t, res.Admitted.CreatedAt.Equal(created))
		require.Len(t, f.started, 1)
		require.Equal(t, req.Job.JobID, f.started[0].ID, "the workflow id is the job id")
		require.Equal(t, "q1", f.started[0].TaskQueue)

		again := f.request("k1")
		res, err = f.svc.Submit(ctx, again)
		require.NoError(t, err)
		require.Equal(t, req.Job.JobID, res.JobID, "the same key answers the same job")
		require.Nil(t, res.Admitted)
		require.Len(t, f.started, 1, "and sends nothing")

		other := f.request("k1")
		other.Job.WebhookURL = "https://hooks.example/x"
		_, err = f.svc.Submit(ctx, other)
		require.Equal(t, apierr.IdempotencyKeyReused, apiError(t, err).Code, "the key is bound to the webhook URL too")
	})
}

func TestARefusalInTimeStartsNoJob(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		f.admits(contract.AdmitResult{Required: 6, Balance: 4}, nil)
		_, err := f.svc.Submit(ctx, f.request("k1"))
		e := apiError(t, err)
		require.Equal(t, apierr.InsufficientCredits, e.Code)
		require.EqualValues(t, 6, *e.Required)
		require.EqualValues(t, 4, *e.Balance)

		f.admits(contract.AdmitResult{Admitted: true}, nil)
		res, err := f.svc.Submit(ctx, f.request("k1"))
		require.NoError(t, err, "the key was released: the same key submits again")
		require.NotNil(t, res.Admitted)
	})
}

// The hard cases: an admit that does not answer in time — slow, cut off
// before the server had the workflow, or after — answers the job's handle
// with the durable intent of its admit; the key keeps naming the job.
func TestALateAdmitAnswersTheHandleOfAQueuedJob(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		late func(f *fixture)
	}{
		{"slow admit", func(f *fixture) { f.sendFails(nil, true) }},
		{"cut off before the start", func(f *fixture) {
			f.sendFails(serviceerror.NewUnavailable("connection refused"), false)
		}},
		{"cut off after the start", func(f *fixture) { f.admits(contract.AdmitResult{}, context.DeadlineExceeded) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
				ctx := context.Background()
				f := newFixture(t, db)
				tc.late(f)
				req := f.request("k1")
				res, err := f.svc.Submit(ctx, req)
				require.NoError(t, err, "a job that may still hold credits is never an error")
				require.Equal(t, req.Job.JobID, res.JobID)
				require.Nil(t, res.Admitted, "the caller reads the job")
				j := f.job(res.JobID)
				require.Equal(t, contract.LifecycleQueued, j.Lifecycle)
				require.True(t, j.Pending)
				require.Zero(t, j.HeldCredits, "nothing held yet")
				var intent models.LateAdmit
				require.NoError(t, db.Take(&intent, "job_id = ?", res.JobID).Error, "the admit's intent is durable")
				require.Equal(t, "q1", intent.Queue)
				require.EqualValues(t, 6, intent.Held)

				res, err = f.svc.Submit(ctx, f.request("k1"))
				require.NoError(t, err)
				require.Equal(t, req.Job.JobID, res.JobID, "the key names the late job")
			})
		})
	}
}

// A refusal after the handle: the admit that decides a late job refuses it;
// the job reads failed, and its key keeps naming it. A refusal the admit
// made before the late path wrote the job answers 402, the key released.
func TestARefusalAfterTheHandle(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		refused := func(*models.AdmitRefusal) []byte { return []byte(`{"code":"insufficient_credits"}`) }

		f.sendFails(nil, true)
		req := f.request("k1")
		req.Job.HeldCredits = 12
		res, err := f.svc.Submit(ctx, req)
		require.NoError(t, err)
		_, err = models.Admit(ctx, db, models.JobRow(req.Job), time.Now(), refused)
		var refusal *models.AdmitRefusal
		require.ErrorAs(t, err, &refusal)
		require.True(t, refusal.Visible)
		j := f.job(res.JobID)
		require.Equal(t, contract.LifecycleTerminal, j.Lifecycle)
		require.Equal(t, contract.OutcomeFailed, *j.Outcome)
		again := f.request("k1")
		again.Job.HeldCredits = 12
		res2, err := f.svc.Submit(ctx, again)
		require.NoError(t, err)
		require.Equal(t, res.JobID, res2.JobID)

		// Refused before the late path wrote it: 402, the key released.
		early := f.request("k2")
		early.Job.HeldCredits = 12
		_, err = models.Admit(ctx, db, models.JobRow(early.Job), time.Now(), refused)
		require.ErrorAs(t, err, &refusal)
		f.temporal.On("UpdateWithStartWorkflow", mock.Anything, mock.Anything).Return(nil, errors.New("cut off")).Once()
		_, err = f.svc.Submit(ctx, early)
		e := apiError(t, err)
		require.Equal(t, apierr.InsufficientCredits, e.Code)
		require.EqualValues(t, 12, *e.Required)
		_, err = models.JobByID(ctx, db, f.user.ID, early.Job.JobID)
		require.ErrorIs(t, err, models.ErrNotFound, "a refused job stays invisible")
		f.admits(contract.AdmitResult{Admitted: true}, nil)
		_, err = f.svc.Submit(ctx, f.request("k2"))
		require.NoError(t, err, "the key was released")

		// A job whose workflow gave up first: 503, retryable, nothing written.
		closed := f.request("k3")
		require.NoError(t, models.CloseAdmission(ctx, db, closed.Job.JobID, f.user.ID, nil, time.Now()))
		f.sendFails(nil, true)
		_, err = f.svc.Submit(ctx, closed)
		e = apiError(t, err)
		require.Equal(t, apierr.ServiceUnavailable, e.Code)
		require.True(t, e.Retryable)
	})
}

func TestIdempotencyKeyInProgressAndRecordsAdmission(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		// Records refused: no admit is sent and the key is released.
		req := f.request("k1")
		req.AdmitRecords = func(_ context.Context, jobID string) error {
			require.Equal(t, req.Job.JobID, jobID, "records are admitted under the job's id")
			return apierr.New(apierr.RequestRefused, "no such moodboard").WithField("moodboard")
		}
		_, err := f.svc.Submit(ctx, req)
		require.Equal(t, apierr.RequestRefused, apiError(t, err).Code)
		require.Empty(t, f.started)

		// A submit still waiting for its admit holds its key.
		sending, answered := make(chan struct{}), make(chan struct{})
		f.temporal.On("UpdateWithStartWorkflow", mock.Anything, mock.Anything).
			Return(func(ctx context.Context, _ client.UpdateWithStartWorkflowOptions) (client.WorkflowUpdateHandle, error) {
				close(sending)
				<-ctx.Done()
				return nil, ctx.Err()
			}).
			Once()
		go func() {
			defer close(answered)
			_, _ = f.svc.Submit(ctx, f.request("k2"))
		}()
		<-sending
		_, err = f.svc.Submit(ctx, f.request("k2"))
		e := apiError(t, err)
		require.Equal(t, apierr.RequestInProgress, e.Code)
		require.True(t, e.Retryable)
		<-answered
	})
}

// TestASpendLimitRefusalAnswersItsOwnCode: an admit refused by a spend
// limit answers 402 spend_limit_reached naming the limit, its period and
// scope and when it resets; the key is released.
func TestASpendLimitRefusalAnswersItsOwnCode(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	ctx := context.Background()
	f := newFixture(t, db)
	resets := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	f.admits(contract.AdmitResult{Required: 6, Balance: 10, SpendLimit: &contract.SpendLimitHit{
		Scope: contract.SpendKey, APIKeyID: "key_test", Period: contract.SpendMonth, CreditType: contract.CreditService,
		Limit: 8, Spent: 4, Required: 6, ResetsAt: resets}}, nil)
	_, err := f.svc.Submit(ctx, f.request("k1"))
	e := apiError(t, err)
	require.Equal(t, apierr.SpendLimitReached, e.Code)
	require.Equal(t, 402, e.Status)
	require.EqualValues(t, 8, *e.Ctx.Limit)
	require.EqualValues(t, 4, *e.Ctx.Spent)
	require.EqualValues(t, 6, *e.Ctx.Required)
	require.Equal(t, contract.SpendMonth, *e.Ctx.Period)
	require.Equal(t, contract.SpendKey, *e.Ctx.Scope)
	require.Equal(t, resets, *e.Ctx.ResetsAt)
	require.Nil(t, e.Balance, "not a balance refusal")

	f.admits(contract.AdmitResult{Admitted: true}, nil)
	_, err = f.svc.Submit(ctx, f.request("k1"))
	require.NoError(t, err, "the key was released")
}
