package activities_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// lateClock is a settable clock for the sweep.
type lateClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *lateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *lateClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// pendLate writes a late job (its handle answered, its admit not decided)
// on queue q1 at now.
func pendLate(t *testing.T, db *gorm.DB, in contract.JobInput, now time.Time) {
	t.Helper()
	state, _, err := models.PendJob(context.Background(), db, models.JobRow(in), "q1", now)
	require.NoError(t, err)
	require.Equal(t, models.PendWritten, state)
}

var unavailable = serviceerror.NewUnavailable("connection refused")

// sender is a SendAdmit that records what it sends and answers answers in
// turn (then fail).
type sender struct {
	mu      sync.Mutex
	fail    error // answered once answers are used up
	answers []error
	inputs  []contract.JobInput
	queues  []string
}

func (s *sender) send(_ context.Context, in contract.JobInput, queue string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inputs, s.queues = append(s.inputs, in), append(s.queues, queue)
	if len(s.answers) == 0 {
		return s.fail
	}
	err := s.answers[0]
	s.answers = s.answers[1:]
	return err
}

func TestLateAdmitsSendTheAdmitAgainUntilItDecides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		t0 := time.Now().UTC().Truncate(time.Second)
		clock := &lateClock{now: t0}
		temporal := mocks.NewClient(t)
		acts := newActivities(t, db)
		acts.Now, acts.Temporal = clock.Now, temporal
		sends := &sender{answers: []error{unavailable, nil}}
		opts := activities.LateAdmitOptions{Every: time.Second, Deadline: time.Minute}
		sweep := activities.NewLateAdmits(acts, sends.send, opts)
		u := newUser(t, db, 20)
		in := jobInput(u, 6, 3, withWebhook("https://hooks.example/x"))
		pendLate(t, db, in, t0)

		n, err := sweep.Sweep(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		n, err = sweep.Sweep(ctx)
		require.NoError(t, err)
		require.Zero(t, n, "a failed send waits its backoff")

		clock.set(t0.Add(time.Second))
		n, err = sweep.Sweep(ctx)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		in.Weight = models.PlanWeight(u.Plan) // and the account's fairness weight
		require.Equal(t, []contract.JobInput{in, in}, sends.inputs, "the admit is sent again, with the submit's input")
		require.Equal(t, []string{"q1", "q1"}, sends.queues)

		// The admit decides the job: the sweep has nothing more to do.
		admit(t, newEnv(acts), acts, in)
		clock.set(t0.Add(time.Hour))
		n, err = sweep.Sweep(ctx)
		require.NoError(t, err)
		require.Zero(t, n)
		require.Equal(t, contract.LifecycleQueued, job(t, db, in.JobID).Lifecycle, "admitted, not failed")
		require.EqualValues(t, 14, available(t, db, u))
	})
}

// An admit sent with its workflow's start but not accepted is not durable:
// the workflow can exist and still wait for it, so the sweep sends it again
// (the same admit: the update id is fixed).
func TestLateAdmitsSendAgainToAWorkflowThatExists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.DB(t, testenv.Postgres)
	acts := newActivities(t, db)
	acts.Temporal = mocks.NewClient(t)
	u := newUser(t, db, 20)
	in := jobInput(u, 6, 3)
	pendLate(t, db, in, time.Now().UTC())
	sends := &sender{}
	n, err := activities.NewLateAdmits(acts, sends.send, activities.LateAdmitOptions{}).Sweep(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	in.Weight = models.PlanWeight(u.Plan)
	require.Equal(t, []contract.JobInput{in}, sends.inputs, "the admit is sent to the open workflow")
}

func TestLateAdmitsEndAJobPastItsDeadline(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		t0 := time.Now().UTC().Truncate(time.Second)
		clock := &lateClock{now: t0}
		temporal := mocks.NewClient(t)
		acts := newActivities(t, db)
		acts.Now, acts.Temporal = clock.Now, temporal
		sends := &sender{}
		opts := activities.LateAdmitOptions{Every: time.Second, Deadline: 10 * time.Minute}
		sweep := activities.NewLateAdmits(acts, sends.send, opts)
		u := newUser(t, db, 20)
		addEndpoint(t, db, u, "https://hooks.example/all", contract.EventFailed)
		in := jobInput(u, 6, 3, withWebhook("https://hooks.example/job"))
		pendLate(t, db, in, t0)

		// Temporal is away the whole time.
		sends.fail = unavailable
		for at := t0; at.Before(t0.Add(10 * time.Minute)); at = at.Add(17 * time.Second) {
			clock.set(at)
			_, err := sweep.Sweep(ctx)
			require.NoError(t, err)
			require.Equal(t, contract.LifecycleQueued, job(t, db, in.JobID).Lifecycle,
				"within its deadline the job waits for its admit")
		}

		// Past it, the job ends failed, nothing held; job.failed waits for Temporal.
		temporal.On("ExecuteWorkflow", mock.Anything, mock.Anything, contract.WebhookDeliveryWorkflow, mock.Anything).
			Return(nil, unavailable).Times(1)
		clock.set(t0.Add(10 * time.Minute))
		_, err := sweep.Sweep(ctx)
		require.NoError(t, err)
		j := job(t, db, in.JobID)
		require.Equal(t, contract.LifecycleTerminal, j.Lifecycle)
		require.Equal(t, contract.OutcomeFailed, *j.Outcome)
		e := publicError(t, j)
		require.Equal(t, "internal", e["code"])
		require.Equal(t, true, e["retryable"])
		require.Contains(t, e["message"], "with a new Idempotency-Key",
			"a retry with the same key answers this failed job, so the message asks for a new one")
		require.Equal(t, in.JobID, e["job_id"])
		require.EqualValues(t, 20, available(t, db, u), "nothing held or charged")
		require.Equal(t, available(t, db, u), ledgerSum(t, db, u))

		var deliveries []string
		temporal.On("ExecuteWorkflow", mock.Anything, mock.Anything, contract.WebhookDeliveryWorkflow, mock.Anything).
			Return(&mocks.WorkflowRun{}, nil).Run(func(args mock.Arguments) {
			deliveries = append(deliveries, args.Get(1).(client.StartWorkflowOptions).ID)
		})
		for range 3 {
			clock.set(clock.Now().Add(time.Minute))
			_, err = sweep.Sweep(ctx)
			require.NoError(t, err)
		}
		require.Len(
			t,
			deliveries,
			2,
			"job.failed to the endpoint and the job's webhook_url, once Temporal is back, once",
		)
		for _, id := range deliveries {
			d := delivery(t, db, id)
			require.Equal(t, contract.EventFailed, d.Event)
			var body map[string]any
			require.NoError(t, json.Unmarshal([]byte(d.Body), &body))
			require.Equal(t, "internal", body["error"].(map[string]any)["code"])
		}
		_, err = models.Admit(ctx, db, models.JobRow(in), clock.Now(), nil)
		require.ErrorIs(t, err, models.ErrAdmissionClosed, "an admit arriving after the deadline holds nothing")
	})
}

func TestLateAdmitsEmitTheEventOfAJobCancelledBeforeItsAdmit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.DB(t, testenv.SQLite)
	temporal := mocks.NewClient(t)
	acts := newActivities(t, db)
	acts.Temporal = temporal
	u := newUser(t, db, 20)
	in := jobInput(u, 6, 3, withWebhook("https://hooks.example/job"))
	now := time.Now().UTC()
	pendLate(t, db, in, now)
	cancelled := []byte(`{"code":"cancelled"}`)
	require.NoError(t, models.EndLateJob(ctx, db, in.JobID, u.ID, contract.OutcomeCancelled, cancelled, now))
	temporal.On("ExecuteWorkflow", mock.Anything, mock.Anything, contract.WebhookDeliveryWorkflow,
		mock.MatchedBy(func(in contract.WebhookDeliveryInput) bool { return in.Event == contract.EventCancelled })).
		Return(&mocks.WorkflowRun{}, nil).Once()
	sweep := activities.NewLateAdmits(acts, (&sender{}).send, activities.LateAdmitOptions{})
	n, err := sweep.Sweep(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	acts.Now = func() time.Time { return now.Add(time.Hour) }
	n, err = sweep.Sweep(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "emitted once")
}
