package models_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// newJob is a job of user u holding hold credits at price per output.
func newJob(u *models.User, hold, price int64) *models.Job {
	return &models.Job{ID: models.NewID("j_"), UserID: u.ID, Task: "pattern.generate", Input: "{}",
		CreditType: contract.CreditService, HeldCredits: hold, PricePerOutput: price}
}

// deliver records outputs 0..n-1 of a job.
func deliver(t *testing.T, db *gorm.DB, j *models.Job, n int, now time.Time) {
	for i := range n {
		_, err := models.AddOutput(
			context.Background(),
			db,
			&models.File{ID: models.NewID(""), UserID: j.UserID, JobID: j.ID, Index: i,
				MediaType: "image/png", BlobKey: "k", Size: 1},
			now,
		)
		require.NoError(t, err)
	}
}

func available(t *testing.T, db *gorm.DB, u *models.User, now time.Time) int64 {
	n, err := models.Available(context.Background(), db, u.ID, contract.CreditService, now)
	require.NoError(t, err)
	return n
}

func ledgerSum(t *testing.T, db *gorm.DB, u *models.User) int64 {
	var sum int64
	require.NoError(
		t,
		db.Model(&models.LedgerEntry{}).Where("user_id = ? AND credit_type = ?", u.ID, contract.CreditService).
			Select("COALESCE(SUM(amount), 0)").Scan(&sum).Error,
	)
	return sum
}

func TestAdmitHoldsOnceAndRefusesOverdraft(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
		require.NoError(t, err)

		j := newJob(u, 6, 2)
		_, err = models.Admit(ctx, db, j, now, nil)
		require.NoError(t, err)
		again := *j
		_, err = models.Admit(ctx, db, &again, now, nil) // a retried admit of the same job
		require.NoError(t, err)
		require.EqualValues(t, 4, available(t, db, u, now), "held once")
		require.Equal(t, available(t, db, u, now), ledgerSum(t, db, u))

		_, err = models.Admit(ctx, db, newJob(u, 5, 1), now, nil)
		var refusal *models.AdmitRefusal
		require.True(t, errors.As(err, &refusal))
		require.Equal(t, models.AdmitRefusal{Required: 5, Balance: 4}, *refusal)
		var jobs int64
		require.NoError(t, db.Model(&models.Job{}).Where("user_id = ?", u.ID).Count(&jobs).Error)
		require.EqualValues(t, 1, jobs, "a refused admit leaves no job")
	})
}

func TestSettleChargesDeliveredOnceInExpiryOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	soon, later := now.Add(time.Hour), now.Add(48*time.Hour)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		never, err := models.Grant(ctx, db, u.ID, contract.CreditService, 100, nil, "pack")
		require.NoError(t, err)
		late, err := models.Grant(ctx, db, u.ID, contract.CreditService, 3, &later, "plan")
		require.NoError(t, err)
		early, err := models.Grant(ctx, db, u.ID, contract.CreditService, 2, &soon, "promo")
		require.NoError(t, err)

		j := newJob(u, 8, 2) // four outputs planned
		_, err = models.Admit(ctx, db, j, now, nil)
		require.NoError(t, err)
		deliver(t, db, j, 3, now)
		deliver(t, db, j, 3, now) // a retried step records nothing new

		done, first, err := models.Settle(ctx, db, j.ID, models.Settlement{Outcome: contract.OutcomeSucceeded}, now)
		require.NoError(t, err)
		require.True(t, first)
		require.EqualValues(t, 6, done.ChargedCredits, "price × delivered")
		require.Equal(t, 3, done.ProgressDone)
		require.Equal(t, contract.LifecycleTerminal, done.Lifecycle)

		_, first, err = models.Settle(ctx, db, j.ID, models.Settlement{Outcome: contract.OutcomeSucceeded}, now)
		require.NoError(t, err)
		require.False(t, first, "settled exactly once")

		left := map[uint64]int64{}
		var batches []models.CreditBatch
		require.NoError(t, db.Where("user_id = ?", u.ID).Find(&batches).Error)
		for _, b := range batches {
			left[b.ID] = b.Remaining
		}
		require.Equal(
			t,
			map[uint64]int64{early.ID: 0, late.ID: 0, never.ID: 99},
			left,
			"soonest expiry spent first, never-expiring last",
		)
		require.EqualValues(t, 105-6, available(t, db, u, now))
		require.Equal(t, available(t, db, u, now), ledgerSum(t, db, u), "the ledger explains the balance")
	})
}

func TestSettleNeverChargesAboveTheHold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 50, nil, "test")
		require.NoError(t, err)
		j := newJob(u, 4, 2)
		_, err = models.Admit(ctx, db, j, now, nil)
		require.NoError(t, err)
		deliver(t, db, j, 5, now)
		done, _, err := models.Settle(ctx, db, j.ID, models.Settlement{Outcome: contract.OutcomeSucceeded}, now)
		require.NoError(t, err)
		require.EqualValues(t, 4, done.ChargedCredits)
		require.EqualValues(t, 46, available(t, db, u, now))
	})
}

func TestSettleFailedJobReleasesEverything(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 20, nil, "test")
		require.NoError(t, err)
		j := newJob(u, 10, 5)
		_, err = models.Admit(ctx, db, j, now, nil)
		require.NoError(t, err)
		require.EqualValues(t, 10, available(t, db, u, now))
		done, _, err := models.Settle(
			ctx,
			db,
			j.ID,
			models.Settlement{Outcome: contract.OutcomeFailed, Error: []byte(`{"code":"processing_failed"}`)},
			now,
		)
		require.NoError(t, err)
		require.EqualValues(t, 0, done.ChargedCredits)
		require.Equal(t, contract.OutcomeFailed, *done.Outcome)
		require.JSONEq(t, `{"code":"processing_failed"}`, *done.Error)
		require.EqualValues(t, 20, available(t, db, u, now))
		require.Equal(t, available(t, db, u, now), ledgerSum(t, db, u))
	})
}

func TestPendingJobIsAdmittedOrFailedInPlace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	failure := func(*models.AdmitRefusal) []byte { return []byte(`{"code":"insufficient_credits"}`) }
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
		require.NoError(t, err)

		// A slow admit: the handle is answered first, the admit holds later.
		covered := newJob(u, 6, 2)
		state, _, err := models.PendJob(ctx, db, covered, contract.TaskQueue, now)
		require.NoError(t, err)
		require.Equal(t, models.PendWritten, state)
		row, err := models.JobByID(ctx, db, u.ID, covered.ID)
		require.NoError(t, err)
		require.Equal(t, contract.LifecycleQueued, row.Lifecycle)
		require.EqualValues(t, 10, available(t, db, u, now), "a pending job holds nothing")
		again := *covered
		_, err = models.Admit(ctx, db, &again, now, failure)
		require.NoError(t, err)
		require.EqualValues(t, 4, available(t, db, u, now), "the admit holds for the pending job")
		row, err = models.JobByID(ctx, db, u.ID, covered.ID)
		require.NoError(t, err)
		require.False(t, row.Pending)
		require.EqualValues(t, 6, row.HeldCredits)

		// The balance no longer covers the next pending job: it reads failed.
		short := newJob(u, 5, 1)
		_, _, err = models.PendJob(ctx, db, short, contract.TaskQueue, now)
		require.NoError(t, err)
		_, err = models.Admit(ctx, db, short, now, failure)
		var refusal *models.AdmitRefusal
		require.ErrorAs(t, err, &refusal)
		require.True(t, refusal.Visible)
		row, err = models.JobByID(ctx, db, u.ID, short.ID)
		require.NoError(t, err)
		require.Equal(t, contract.LifecycleTerminal, row.Lifecycle)
		require.Equal(t, contract.OutcomeFailed, *row.Outcome)
		require.JSONEq(t, `{"code":"insufficient_credits"}`, *row.Error)
		require.EqualValues(t, 4, available(t, db, u, now))
		require.Equal(t, available(t, db, u, now), ledgerSum(t, db, u))

		// A refusal decided before the handle: the late PendJob learns it.
		late := newJob(u, 5, 1)
		_, err = models.Admit(ctx, db, late, now, failure)
		require.ErrorAs(t, err, &refusal)
		require.False(t, refusal.Visible)
		state, got, err := models.PendJob(ctx, db, late, contract.TaskQueue, now)
		require.NoError(t, err)
		require.Equal(t, models.PendRefused, state)
		require.Equal(t, int64(5), got.Required)
		_, err = models.JobByID(ctx, db, u.ID, late.ID)
		require.ErrorIs(t, err, models.ErrNotFound, "a refused job stays invisible")

		// A workflow that gave up closes the admission of its pending job.
		lost := newJob(u, 2, 1)
		_, _, err = models.PendJob(ctx, db, lost, contract.TaskQueue, now)
		require.NoError(t, err)
		require.NoError(t, models.CloseAdmission(ctx, db, lost.ID, u.ID, []byte(`{"code":"internal"}`), now))
		require.NoError(
			t,
			models.CloseAdmission(ctx, db, lost.ID, u.ID, []byte(`{"code":"internal"}`), now),
			"idempotent",
		)
		row, err = models.JobByID(ctx, db, u.ID, lost.ID)
		require.NoError(t, err)
		require.Equal(t, contract.OutcomeFailed, *row.Outcome)
		_, err = models.Admit(ctx, db, lost, now, failure)
		require.ErrorIs(t, err, models.ErrAdmissionClosed)
		state, _, err = models.PendJob(ctx, db, lost, contract.TaskQueue, now)
		require.NoError(t, err)
		require.Equal(t, models.PendClosed, state)
		require.EqualValues(t, 4, available(t, db, u, now), "nothing held by closed jobs")
	})
}

// TestProgressNeverFallsWhenOutputsLandSideBySide: a job's outputs recorded
// at once (its steps run side by side, on several workers), each twice (a
// retried step), raise its progress to the outputs delivered and never
// lower it, as a client polling the job sees it.
func TestProgressNeverFallsWhenOutputsLandSideBySide(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	const outputs = 12
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 100, nil, "test")
		require.NoError(t, err)
		j := newJob(u, 2*outputs, 2)
		_, err = models.Admit(ctx, db, j, now, nil)
		require.NoError(t, err)

		progress := func() (int, error) {
			var row models.Job
			err := db.WithContext(ctx).Select("progress_done").Where("id = ?", j.ID).Take(&row).Error
			return row.ProgressDone, err
		}
		stop, watched := make(chan struct{}), make(chan []int)
		go func() {
			var seen []int
			for {
				select {
				case <-stop:
					watched <- seen
					return
				default:
				}
				if n, err := progress(); err == nil {
					seen = append(seen, n)
				}
			}
		}()
		errs := make([]error, 2*outputs)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = models.AddOutput(ctx, db, &models.File{ID: models.NewID(""), UserID: u.ID, JobID: j.ID,
					Index: i % outputs, MediaType: "image/png", BlobKey: "k", Size: 1}, now)
			}()
		}
		wg.Wait()
		close(stop)
		seen := <-watched
		for _, err := range errs {
			require.NoError(t, err)
		}
		require.IsNonDecreasing(t, seen, "progress never falls while outputs land")
		done, err := progress()
		require.NoError(t, err)
		require.Equal(t, outputs, done, "every output counted once")
	})
}
