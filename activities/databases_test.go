package activities_test

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// mailbox is a Mailer keeping what it is given.
type mailbox struct {
	mu   sync.Mutex
	sent []string // "to\nmessage"
}

func (m *mailbox) Send(_ context.Context, _, to string, msg []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, to+"\n"+string(msg))
	return nil
}

func (m *mailbox) to(addr string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, s := range m.sent {
		if to, msg, _ := strings.Cut(s, "\n"); to == addr {
			out = append(out, msg)
		}
	}
	return out
}

// activityOnEveryDatabase runs one activity's database path on db and
// checks what it wrote.
type activityOnEveryDatabase func(t *testing.T, db *gorm.DB)

// databasePaths has a case for every activity: each runs on SQLite (the
// default of `make run`) and on PostgreSQL, the cases of one database
// sharing it, each with its own accounts. The details of each activity are
// tested beside it; this table is where a query that one database answers
// differently fails.
var databasePaths = map[string]activityOnEveryDatabase{
	"HoldCredits": func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		u := newUser(t, db, 10)
		in := jobInput(u, 6, 3)
		admit(t, newEnv(acts), acts, in)
		require.EqualValues(t, 4, available(t, db, u))
		require.Equal(t, contract.LifecycleQueued, job(t, db, in.JobID).Lifecycle)
	},
	"CloseAdmission": func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		env := newEnv(acts)
		u := newUser(t, db, 10)
		in := jobInput(u, 6, 3)
		admit(t, env, acts, in)
		_, err := env.ExecuteActivity(acts.CloseAdmission, contract.CloseInput{JobID: in.JobID, UserID: u.ID})
		require.NoError(t, err)
		require.Equal(t, contract.OutcomeFailed, *job(t, db, in.JobID).Outcome)
		require.EqualValues(t, 10, available(t, db, u), "the hold is released")
	},
	"RunStep": func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		env := newEnv(acts)
		in := jobInput(newUser(t, db, 10), 6, 3)
		admit(t, env, acts, in)
		first := mustExec[contract.StepResult](t, env, acts.RunStep, leavingTheQueue(stepOf(in, 0)))
		j := job(t, db, in.JobID)
		require.Equal(t, contract.LifecycleRunning, j.Lifecycle, "the step that leaves the queue starts the job")
		require.NotNil(t, j.StartedAt)
		require.Equal(t, 2, *j.ProgressTotal)
		again := mustExec[contract.StepResult](t, env, acts.RunStep, leavingTheQueue(stepOf(in, 0)))
		require.Equal(t, first.FileID, again.FileID, "a step run twice stores one output")
		require.Equal(t, 1, job(t, db, in.JobID).ProgressDone)
	},
	"Settle": func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		env := newEnv(acts)
		u := newUser(t, db, 10)
		in := jobInput(u, 6, 3)
		admit(t, env, acts, in)
		deliverOutputs(t, db, job(t, db, in.JobID), 1)
		res := mustExec[contract.SettleResult](
			t,
			env,
			acts.Settle,
			contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeSucceeded},
		)
		require.Equal(t, contract.SettleResult{Delivered: 1, Charged: 3}, res)
		require.EqualValues(t, 7, available(t, db, u))
		require.EqualValues(t, 7, ledgerSum(t, db, u))
	},
	"Deliver": func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		env := newEnv(acts)
		recv := newReceiver(t, acts, http.StatusNoContent)
		u := newUser(t, db, 10)
		addEndpoint(t, db, u, recv.URL+"/hook", contract.EventSucceeded)
		in := jobInput(u, 6, 3)
		admit(t, env, acts, in)
		ds := emit(t, acts, in.JobID, contract.EventSucceeded, 0)
		_, err := env.ExecuteActivity(acts.Deliver, ds[0].DeliveryID)
		require.NoError(t, err)
		require.Len(t, recv.requests(), 1)
		d := delivery(t, db, ds[0].DeliveryID)
		require.Equal(t, models.DeliveryDelivered, d.Status)
		require.EqualValues(t, 1, d.Attempts)
	},
	"PlanNotices": func(t *testing.T, db *gorm.DB) {
		acts, told, other := noticesOf(t, db)
		var mine []string
		for _, id := range mustExec[contract.NoticesPlan](t, newEnv(acts), acts.PlanNotices).Pending {
			n, err := models.NoticeByID(context.Background(), db, id)
			require.NoError(t, err)
			require.NotEqual(t, other.ID, n.UserID, "no notice for an account that called no deprecated task")
			if n.UserID == told.ID {
				mine = append(mine, id)
				require.Equal(t, told.Email, n.Email)
				require.Equal(t, "2026-W40", n.Week)
				require.Contains(t, n.Body, "* pattern.stripes (2 calls, the last at 2026-09-28T12:00:00Z)")
			}
		}
		require.Len(t, mine, 1, "one notice for the account whose keys called a deprecated task")
		again := mustExec[contract.NoticesPlan](t, newEnv(acts), acts.PlanNotices)
		require.Contains(t, again.Pending, mine[0], "a week's notice is written once")
		var n int64
		require.NoError(t, db.Model(&models.DeprecationNotice{}).Where("user_id = ?", told.ID).Count(&n).Error)
		require.EqualValues(t, 1, n)
	},
	"SendNotice": func(t *testing.T, db *gorm.DB) {
		acts, told, other := noticesOf(t, db)
		mail := &mailbox{}
		acts.Mail, acts.MailFrom = mail, "notices@taskplatform.test"
		env := newEnv(acts)
		var notice *models.DeprecationNotice
		for _, id := range mustExec[contract.NoticesPlan](t, env, acts.PlanNotices).Pending {
			n, err := models.NoticeByID(context.Background(), db, id)
			require.NoError(t, err)
			require.NotEqual(t, other.ID, n.UserID)
			if n.UserID == told.ID {
				notice = n
			}
		}
		require.NotNil(t, notice, "a notice is planned for the account whose keys called a deprecated task")
		for range 2 { // a retried activity sends once
			_, err := env.ExecuteActivity(acts.SendNotice, notice.ID)
			require.NoError(t, err)
		}
		got := mail.to(told.Email)
		require.Len(t, got, 1)
		require.Contains(t, got[0], "Subject: Deprecated tasks your API keys use: pattern.stripes")
		require.Contains(t, got[0], "Replacement: pattern.generate")
		require.Empty(t, mail.to(other.Email))
		n, err := models.NoticeByID(context.Background(), db, notice.ID)
		require.NoError(t, err)
		require.Equal(t, models.NoticeSent, n.Status)
		require.NotContains(t, mustExec[contract.NoticesPlan](t, env, acts.PlanNotices).Pending, notice.ID,
			"a sent notice is not planned again")
	},
}

// noticesOf is an Activities on db at Tuesday 2026-09-29 with one account
// whose keys started the deprecated pattern.stripes twice in the last 14
// days (told) and one that started only pattern.generate (other).
func noticesOf(t *testing.T, db *gorm.DB) (acts *activities.Activities, told, other *models.User) {
	t.Helper()
	now := time.Date(2026, 9, 29, 9, 0, 0, 0, time.UTC)
	acts = newActivities(t, db)
	acts.Now = func() time.Time { return now }
	told, other = newUser(t, db, 0), newUser(t, db, 0)
	for _, j := range []struct {
		u    *models.User
		task string
		at   time.Time
	}{
		{told, "pattern.stripes", now.Add(-72 * time.Hour)},
		{told, "pattern.stripes", time.Date(2026, 9, 28, 12, 0, 0, 0, time.UTC)},
		{other, "pattern.generate", now.Add(-time.Hour)},
	} {
		require.NoError(
			t,
			db.Create(
				&models.Job{ID: models.NewID("j_"), UserID: j.u.ID, APIKeyID: "key_test", Task: j.task, Input: "{}",
					Lifecycle: contract.LifecycleTerminal, CreditType: contract.CreditService, CreatedAt: j.at},
			).Error,
		)
	}
	return acts, told, other
}

// TestEveryActivityOnEveryDatabase runs every activity the worker
// registers on SQLite and on PostgreSQL; an activity without a case in
// databasePaths fails it.
func TestEveryActivityOnEveryDatabase(t *testing.T) {
	t.Parallel()
	var names []string
	typ := reflect.TypeOf(&activities.Activities{})
	for i := range typ.NumMethod() {
		names = append(names, typ.Method(i).Name)
	}
	for _, name := range names {
		require.Contains(t, databasePaths, name, "the activity %s has no case in databasePaths", name)
	}
	require.Len(t, databasePaths, len(names), "databasePaths names only activities")
	slices.Sort(names)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, name := range names {
			t.Run(name, func(t *testing.T) { databasePaths[name](t, db) })
		}
	})
}
