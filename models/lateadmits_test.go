package models_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// intent reads the late admit of a job; nil when there is none.
func intent(t *testing.T, db *gorm.DB, jobID string) *models.LateAdmit {
	t.Helper()
	var l []models.LateAdmit
	require.NoError(t, db.Find(&l, "job_id = ?", jobID).Error)
	if len(l) == 0 {
		return nil
	}
	return &l[0]
}

func TestALateJobKeepsItsAdmitUntilTheAdmitDecides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
		require.NoError(t, err)

		job := newJob(u, 6, 2)
		job.WebhookURL, job.StartTimeoutSeconds, job.ServiceVersion = "https://hooks.example/x", 30, "2026-01-01"
		state, _, err := models.PendJob(ctx, db, job, "q1", now)
		require.NoError(t, err)
		require.Equal(t, models.PendWritten, state)
		l := intent(t, db, job.ID)
		require.NotNil(t, l, "the late job's admit is written down with its row")
		require.Equal(t, "q1", l.Queue)
		row, err := models.JobByID(ctx, db, u.ID, job.ID)
		require.NoError(t, err)
		in := l.JobInput(row)
		require.Equal(t, int64(6), in.HeldCredits, "the admit asks for the hold the pending row does not hold")
		sent := contract.JobInput{JobID: job.ID, UserID: u.ID, Task: job.Task, Input: []byte("{}"),
			CreditType: job.CreditType, HeldCredits: 6, PricePerOutput: 2, StartTimeoutSeconds: 30,
			WebhookURL: job.WebhookURL, ServiceVersion: job.ServiceVersion}
		require.Equal(t, *models.JobRow(sent), *models.JobRow(in), "the admit sent again is the submit's")

		_, err = models.Admit(ctx, db, models.JobRow(in), now, nil)
		require.NoError(t, err)
		require.Nil(t, intent(t, db, job.ID), "the admit decided the job: nothing is left to send")

		// A refusal decides a late job as well.
		short := newJob(u, 5, 1)
		_, _, err = models.PendJob(ctx, db, short, "q1", now)
		require.NoError(t, err)
		_, err = models.Admit(ctx, db, short, now, nil)
		var refusal *models.AdmitRefusal
		require.ErrorAs(t, err, &refusal)
		require.Nil(t, intent(t, db, short.ID))
	})
}

func TestEndLateJobEndsOnlyAJobNoAdmitDecided(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
		require.NoError(t, err)

		for _, outcome := range []string{contract.OutcomeCancelled, contract.OutcomeFailed} {
			job := newJob(u, 4, 1)
			_, _, err = models.PendJob(ctx, db, job, "q1", now)
			require.NoError(t, err)
			require.NoError(t, models.EndLateJob(ctx, db, job.ID, u.ID, outcome, []byte(`{"code":"x"}`), now))
			row, err := models.JobByID(ctx, db, u.ID, job.ID)
			require.NoError(t, err)
			require.Equal(t, contract.LifecycleTerminal, row.Lifecycle)
			require.Equal(t, outcome, *row.Outcome)
			require.JSONEq(t, `{"code":"x"}`, *row.Error)
			require.Equal(t, outcome, intent(t, db, job.ID).Ended, "its terminal event is left to the sweep")
			require.ErrorIs(
				t,
				models.EndLateJob(ctx, db, job.ID, u.ID, outcome, nil, now),
				models.ErrJobDecided,
				"once",
			)

			_, err = models.Admit(ctx, db, job, now, nil)
			require.ErrorIs(t, err, models.ErrAdmissionClosed, "an admit arriving later holds nothing")
			state, _, err := models.PendJob(ctx, db, job, "q1", now)
			require.NoError(t, err)
			require.Equal(t, models.PendClosed, state, "a retried submit learns the job will not run")
		}
		require.EqualValues(t, 10, available(t, db, u, now), "nothing held or charged")
		require.Equal(t, available(t, db, u, now), ledgerSum(t, db, u))

		// An admit that decided first wins: the job is left to its workflow.
		admitted := newJob(u, 3, 1)
		_, _, err = models.PendJob(ctx, db, admitted, "q1", now)
		require.NoError(t, err)
		again := *admitted
		_, err = models.Admit(ctx, db, &again, now, nil)
		require.NoError(t, err)
		err = models.EndLateJob(ctx, db, admitted.ID, u.ID, contract.OutcomeCancelled, nil, now)
		require.ErrorIs(t, err, models.ErrJobDecided)
		row, err := models.JobByID(ctx, db, u.ID, admitted.ID)
		require.NoError(t, err)
		require.Equal(t, contract.LifecycleQueued, row.Lifecycle)

		// A workflow that gave up leaves the job.failed of its late job to the sweep.
		lost := newJob(u, 2, 1)
		_, _, err = models.PendJob(ctx, db, lost, "q1", now)
		require.NoError(t, err)
		require.NoError(t, models.CloseAdmission(ctx, db, lost.ID, u.ID, []byte(`{"code":"internal"}`), now))
		require.Equal(t, contract.OutcomeFailed, intent(t, db, lost.ID).Ended)
	})
}

func TestConcurrentSweepsClaimEachLateAdmitOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		const jobs = 24
		for range jobs {
			_, _, err := models.PendJob(ctx, db, newJob(u, 1, 1), "q1", now)
			require.NoError(t, err)
		}
		later := newJob(u, 1, 1)
		_, _, err := models.PendJob(ctx, db, later, "q1", now.Add(time.Hour))
		require.NoError(t, err)

		var mu sync.Mutex
		claims := map[string]int{}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for {
					got, err := models.ClaimLateAdmits(ctx, db, now, time.Minute, 5)
					if !assertNoError(t, err) || len(got) == 0 {
						return
					}
					mu.Lock()
					for _, l := range got {
						claims[l.JobID] += l.Attempts
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		require.Len(t, claims, jobs, "every due intent is claimed, the one not due is not")
		for id, n := range claims {
			require.Equal(t, 1, n, "%s claimed by one sweep, once", id)
		}
		require.NotContains(t, claims, later.ID)
		again, err := models.ClaimLateAdmits(ctx, db, now.Add(30*time.Second), time.Minute, 50)
		require.NoError(t, err)
		require.Empty(t, again, "a claimed intent is leased")

		require.NoError(t, models.RetryLateAdmitAt(ctx, db, later.ID, now))
		due, err := models.ClaimLateAdmits(ctx, db, now, time.Minute, 50)
		require.NoError(t, err)
		require.Len(t, due, 1)
		require.Equal(t, later.ID, due[0].JobID)
		require.NoError(t, models.DropLateAdmit(ctx, db, later.ID))
		require.Nil(t, intent(t, db, later.ID))
	})
}

// assertNoError reports err from a goroutine other than the test's.
func assertNoError(t *testing.T, err error) bool {
	if err != nil {
		t.Errorf("claim: %v", err)
		return false
	}
	return true
}
