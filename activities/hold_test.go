package activities_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/mocks"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestHoldCreditsAdmitsAndHoldsOnce(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		env := newEnv(acts)
		u := newUser(t, db, 10)
		in := jobInput(u, 6, 3)

		first := admit(t, env, acts, in)
		require.EqualValues(t, 6, first.Required)
		require.False(t, first.CreatedAt.IsZero())
		again := admit(t, env, acts, in) // a retried admit of the same job
		require.WithinDuration(t, first.CreatedAt, again.CreatedAt, time.Microsecond, "a retry answers the first admit")

		require.EqualValues(t, 4, available(t, db, u), "held once")
		bal, err := models.Balances(context.Background(), db, u.ID, time.Now())
		require.NoError(t, err)
		require.Equal(t, contract.CreditService, bal[0].CreditType)
		require.EqualValues(t, 4, bal[0].Remaining)
		require.EqualValues(t, 1, ledgerRows(t, db, in.JobID), "one hold entry")
		require.EqualValues(t, 4, ledgerSum(t, db, u))

		j := job(t, db, in.JobID)
		require.Equal(t, contract.LifecycleQueued, j.Lifecycle)
		require.False(t, j.Pending)
		require.EqualValues(t, 6, j.HeldCredits)
		require.Equal(t, in.Task, j.Task)
		require.JSONEq(t, string(in.Input), j.Input)
	})
}

func TestHoldCreditsRefusesWhatTheBalanceDoesNotCover(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		env := newEnv(acts)
		u := newUser(t, db, 5)
		in := jobInput(u, 6, 3, withWebhook("https://hooks.example.test/a"))

		res := mustExec[contract.AdmitResult](t, env, acts.HoldCredits, in)
		want := contract.AdmitResult{Required: 6, Balance: 5}
		require.Equal(t, want, res, "refused, with the amounts; no events: the job never runs")
		_, err := models.JobByIDAny(context.Background(), db, in.JobID)
		require.ErrorIs(t, err, models.ErrNotFound, "a refused job leaves no row")
		require.EqualValues(t, 5, available(t, db, u))

		// The admit decides once: even with credits granted since, a retry
		// answers the same refusal and holds nothing.
		_, err = models.Grant(context.Background(), db, u.ID, contract.CreditService, 100, nil, "top up")
		require.NoError(t, err)
		res = mustExec[contract.AdmitResult](t, env, acts.HoldCredits, in)
		require.Equal(t, want, res)
		require.EqualValues(t, 105, available(t, db, u))
		require.Zero(t, ledgerRows(t, db, in.JobID))
	})
}

func TestHoldCreditsDecidesAPendingJob(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		credits int64
		webhook string
		// admitted: the pending row becomes a queued job holding its credits;
		// otherwise it ends failed insufficient_credits.
		admitted bool
		events   []string
	}{
		{name: "covered", credits: 10, admitted: true},
		{name: "covered with webhook", credits: 10, webhook: "https://hooks.example.test/a", admitted: true,
			events: contract.TerminalEvents},
		{name: "not covered", credits: 5},
		{name: "not covered with webhook", credits: 5, webhook: "https://hooks.example.test/a",
			events: contract.TerminalEvents},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
				ctx := context.Background()
				acts := newActivities(t, db)
				temporal := mocks.NewClient(t)
				acts.Temporal = temporal
				var started []string
				temporal.On("ExecuteWorkflow", mock.Anything, mock.Anything, contract.WebhookDeliveryWorkflow, mock.Anything).
					Return(&mocks.WorkflowRun{}, nil).
					Run(func(args mock.Arguments) {
						started = append(started, args.Get(3).(contract.WebhookDeliveryInput).Event)
					}).
					Maybe()
				env := newEnv(acts)
				u := newUser(t, db, tc.credits)
				in := jobInput(u, 6, 3, withWebhook(tc.webhook))
				pendedAt := time.Now().UTC().Add(-time.Minute).Truncate(time.Millisecond)
				state, _, err := models.PendJob(ctx, db, models.JobRow(in), contract.TaskQueue, pendedAt)
				require.NoError(t, err)
				require.Equal(t, models.PendWritten, state)

				res := mustExec[contract.AdmitResult](t, env, acts.HoldCredits, in)
				require.Equal(t, tc.admitted, res.Admitted)
				require.Equal(t, tc.events, res.Events)
				j := job(t, db, in.JobID)
				require.False(t, j.Pending)
				require.True(t, j.CreatedAt.Equal(pendedAt), "the job keeps the time its handle was answered")

				if tc.admitted {
					require.False(t, res.Visible)
					require.True(t, res.CreatedAt.Equal(pendedAt))
					require.Equal(t, contract.LifecycleQueued, j.Lifecycle)
					require.EqualValues(t, 6, j.HeldCredits)
					require.EqualValues(t, 4, available(t, db, u))
					return
				}
				require.True(t, res.Visible, "the caller holds a handle: the refusal shows")
				require.EqualValues(t, 6, res.Required)
				require.EqualValues(t, 5, res.Balance)
				require.Equal(t, contract.LifecycleTerminal, j.Lifecycle)
				require.Equal(t, contract.OutcomeFailed, *j.Outcome)
				require.NotNil(t, j.SettledAt)
				require.Zero(t, j.ChargedCredits)
				e := publicError(t, j)
				require.Equal(t, string(apierr.InsufficientCredits), e["code"])
				require.Equal(t, in.JobID, e["job_id"])
				require.EqualValues(t, 6, e["required"])
				require.EqualValues(t, 5, e["balance"])
				require.EqualValues(t, 5, available(t, db, u), "nothing held")
				require.EqualValues(t, 5, ledgerSum(t, db, u))

				if tc.webhook != "" {
					require.Equal(t, []string{contract.EventFailed}, started, "the job's webhook hears it failed")
				}

				again := mustExec[contract.AdmitResult](t, env, acts.HoldCredits, in)
				require.False(t, again.Admitted)
				require.True(t, again.Visible, "a retried hold answers the same refusal")
				require.EqualValues(t, 6, again.Required)
				require.EqualValues(t, 5, again.Balance)
				if tc.webhook != "" {
					require.Equal(
						t,
						[]string{contract.EventFailed, contract.EventFailed},
						started,
						"the same delivery, again",
					)
					var n int64
					require.NoError(
						t,
						db.Model(&models.WebhookDelivery{}).Where("job_id = ?", in.JobID).Count(&n).Error,
					)
					require.EqualValues(t, 1, n, "recorded once")
				}
			})
		})
	}
}

func TestHoldCreditsListsSubscribedEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		endpoints [][]string // the events of each enabled endpoint
		disabled  []string   // the events of a disabled endpoint
		webhook   string
		want      []string
	}{
		{name: "no subscriber"},
		{name: "webhook url", webhook: "https://hooks.example.test/a", want: contract.TerminalEvents},
		{name: "endpoints", endpoints: [][]string{{contract.EventStarted, contract.EventProgress}, {contract.EventProgress,
			contract.EventFailed}},
			want: []string{contract.EventFailed, contract.EventProgress, contract.EventStarted}},
		{name: "endpoint and webhook url", endpoints: [][]string{{contract.EventProgress}},
			webhook: "https://hooks.example.test/a",
			want:    append([]string{contract.EventProgress}, contract.TerminalEvents...)},
		{name: "disabled endpoint", disabled: []string{contract.EventStarted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := testenv.DB(t, testenv.SQLite)
			acts := newActivities(t, db)
			env := newEnv(acts)
			u := newUser(t, db, 10)
			for _, events := range tc.endpoints {
				addEndpoint(t, db, u, "https://hooks.example.test/ep", events...)
			}
			if tc.disabled != nil {
				ep := addEndpoint(t, db, u, "https://hooks.example.test/off", tc.disabled...)
				require.NoError(t, db.Model(ep).Update("disabled", true).Error)
			}
			res := admit(t, env, acts, jobInput(u, 6, 3, withWebhook(tc.webhook)))
			require.Equal(t, tc.want, res.Events)
		})
	}
}

func TestCloseAdmission(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		pending bool // a handle was answered: a pending row exists
	}{
		{name: "pending job", pending: true},
		{name: "no row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
				ctx := context.Background()
				acts := newActivities(t, db)
				env := newEnv(acts)
				u := newUser(t, db, 10)
				in := jobInput(u, 6, 3)
				if tc.pending {
					_, _, err := models.PendJob(ctx, db, models.JobRow(in), contract.TaskQueue, time.Now())
					require.NoError(t, err)
				}
				closeIn := contract.CloseInput{JobID: in.JobID, UserID: u.ID}
				for range 2 { // idempotent
					_, err := env.ExecuteActivity(acts.CloseAdmission, closeIn)
					require.NoError(t, err)
				}

				if tc.pending {
					j := job(t, db, in.JobID)
					require.Equal(t, contract.LifecycleTerminal, j.Lifecycle)
					require.Equal(t, contract.OutcomeFailed, *j.Outcome)
					e := publicError(t, j)
					require.Equal(t, string(apierr.Internal), e["code"])
					require.Equal(t, true, e["retryable"], "submitting again may succeed")
					require.Equal(t, in.JobID, e["job_id"])
				} else {
					_, err := models.JobByIDAny(ctx, db, in.JobID)
					require.ErrorIs(t, err, models.ErrNotFound)
				}

				// A late admit cannot open it: it fails for good and holds nothing.
				_, err := env.ExecuteActivity(acts.HoldCredits, in)
				appErr := appError(t, err)
				require.Equal(t, contract.ErrTypeAdmissionClosed, appErr.Type())
				require.True(t, appErr.NonRetryable())
				require.EqualValues(t, 10, available(t, db, u))
				require.Zero(t, ledgerRows(t, db, in.JobID))
			})
		})
	}
}

// TestCloseAdmissionReleasesAnAdmittedJob covers an admit whose answer was
// lost: the job row holds credits when its workflow gives up.
func TestCloseAdmissionReleasesAnAdmittedJob(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 10)
	in := jobInput(u, 6, 3)
	admit(t, env, acts, in)
	require.EqualValues(t, 4, available(t, db, u))

	_, err := env.ExecuteActivity(acts.CloseAdmission, contract.CloseInput{JobID: in.JobID, UserID: u.ID})
	require.NoError(t, err)
	j := job(t, db, in.JobID)
	require.Equal(t, contract.OutcomeFailed, *j.Outcome)
	require.Zero(t, j.ChargedCredits)
	require.EqualValues(t, 10, available(t, db, u), "the hold is released")
	require.EqualValues(t, 10, ledgerSum(t, db, u))
	_, err = env.ExecuteActivity(acts.HoldCredits, in)
	require.Equal(t, contract.ErrTypeAdmissionClosed, appError(t, err).Type())
}

// TestHoldCreditsPlansTheJob: the admit answers the plan of the job's
// outputs, so its first outputs start together, with the worker's capacity
// deadline for capacity-limited outputs, and whether a quick job runs
// inline; a job whose task this worker does not know has no plan.
func TestHoldCreditsPlansTheJob(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tc := range []struct {
			name     string
			noInline bool
			opts     []func(*contract.JobInput)
			inline   bool
			plan     *contract.Plan
		}{
			{name: "a quick job runs inline", inline: true,
				plan: &contract.Plan{Steps: 2, Phase: "drawing tiles"}},
			{name: "a queued job", noInline: true,
				plan: &contract.Plan{Steps: 2, Phase: "drawing tiles"}},
			{name: "a job with a capacity-limited output",
				opts: []func(*contract.JobInput){withTask("moodboard.create",
					map[string]any{"name": "Spring", "images": []string{"file:a", "file:b", "file:c"}})},
				plan: &contract.Plan{Steps: 2, Phase: "making the moodboard",
					Capacity: map[int]string{1: contract.QueueAnalysis}, CapacityDeadline: time.Minute}},
			{name: "a task this worker does not know",
				opts: []func(*contract.JobInput){withTask("pattern.nosuchtask", map[string]any{})}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				acts := newActivities(t, db)
				acts.NoInline, acts.CapacityDeadline = tc.noInline, time.Minute
				env := newEnv(acts)
				res := admit(t, env, acts, jobInput(newUser(t, db, 10), 6, 3, tc.opts...))
				require.Equal(t, tc.inline, res.Inline)
				require.Equal(t, tc.plan, res.Plan)
			})
		}
	})
}
