package models_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestABatchJobCancelledBeforeItsAdmitNeverRuns: a batch's job no workflow
// admitted is cancelled in the store: it ends cancelled, charged nothing,
// its hold back in the balance and its event left to the sweep; its
// workflow's admit, arriving after, is refused (admission closed), so it
// never runs. A job its workflow admitted first is not the store's to
// cancel and is left as it is.
func TestABatchJobCancelledBeforeItsAdmitNeverRuns(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx, now := context.Background(), time.Now().UTC()
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 30, nil, "test")
		require.NoError(t, err)
		jobs, indexes := batchJobs(u, 2, 10)
		b := &models.Batch{ID: models.NewID("b_"), UserID: u.ID, Mode: models.BatchPartial, Jobs: 2, Queue: "q1"}
		_, err = models.CreateBatch(ctx, db, b, jobs, indexes, now)
		require.NoError(t, err)
		require.EqualValues(t, 10, balance(t, db, u.ID))
		cancelled, admitted := jobs[0], jobs[1]

		// The batch's start admits the second job before its cancel.
		_, err = models.Admit(ctx, db, models.JobRow(admitted.AdmitInput()), now, nil)
		require.NoError(t, err)
		_, err = models.CancelUnadmitted(ctx, db, admitted.ID, u.ID, []byte(`{"code":"cancelled"}`), now)
		require.ErrorIs(t, err, models.ErrJobAdmitted)
		row, err := models.JobByID(ctx, db, u.ID, admitted.ID)
		require.NoError(t, err)
		require.Equal(t, contract.LifecycleQueued, row.Lifecycle, "an admitted job is its workflow's to cancel")
		require.NotNil(t, row.AdmittedAt)

		row, err = models.CancelUnadmitted(ctx, db, cancelled.ID, u.ID, []byte(`{"code":"cancelled"}`), now)
		require.NoError(t, err)
		require.Equal(t, contract.LifecycleTerminal, row.Lifecycle)
		require.Equal(t, contract.OutcomeCancelled, *row.Outcome)
		require.Zero(t, row.ChargedCredits)
		require.EqualValues(t, 20, balance(t, db, u.ID), "its hold came back")
		requireLedgerAddsUp(t, db, u, cancelled.ID, 0)

		_, err = models.Admit(ctx, db, models.JobRow(cancelled.AdmitInput()), now, nil)
		require.ErrorIs(t, err, models.ErrAdmissionClosed, "the batch's start, arriving after, never runs it")
		_, err = models.CancelUnadmitted(ctx, db, cancelled.ID, u.ID, []byte(`{"code":"cancelled"}`), now)
		require.ErrorIs(t, err, models.ErrJobAdmitted, "a second cancel changes nothing")
		require.EqualValues(t, 20, balance(t, db, u.ID))

		ins, err := models.BatchJobInputs(ctx, db, b.ID, true)
		require.NoError(t, err)
		require.Len(t, ins, 1, "the batch's start skips the cancelled job")
		require.Equal(t, admitted.ID, ins[0].JobID)

		var intent models.LateAdmit
		require.NoError(t, db.Take(&intent, "job_id = ?", cancelled.ID).Error)
		require.Equal(t, contract.OutcomeCancelled, intent.Ended, "job.cancelled is the sweep's to emit")
		require.Equal(t, "q1", intent.Queue)
	})
}

// TestQueueCountsOnlyAdmittedJobsAhead: the jobs of a batch whose start was
// interrupted (written, never admitted) are not ahead of a job submitted
// after them; they stand behind every admitted job, and once admitted they
// queue in the order they were admitted.
func TestQueueCountsOnlyAdmittedJobsAhead(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 1000, nil, "test")
		require.NoError(t, err)
		stalled, indexes := batchJobs(u, 50, 1)
		b := &models.Batch{ID: models.NewID("b_"), UserID: u.ID, Mode: models.BatchPartial, Jobs: 50}
		_, err = models.CreateBatch(ctx, db, b, stalled, indexes, base)
		require.NoError(t, err)

		later := newJob(u, 1, 1)
		admitted, err := models.Admit(ctx, db, later, base.Add(time.Minute), nil)
		require.NoError(t, err)
		spot, err := models.QueuePosition(ctx, db, admitted)
		require.NoError(t, err)
		require.EqualValues(t, 1, spot.Position, "the stalled batch's 50 jobs are not ahead of it")
		spots, err := models.QueueSpots(ctx, db, []string{admitted.ID, stalled[0].ID, stalled[49].ID})
		require.NoError(t, err)
		require.Equal(t, spot, spots[admitted.ID], "the streams' read agrees with a job's own")
		require.EqualValues(t, 2, spots[stalled[0].ID].Position, "an unadmitted job stands behind the admitted")
		require.EqualValues(t, 51, spots[stalled[49].ID].Position)
		for _, id := range []string{stalled[0].ID, stalled[49].ID} {
			j, err := models.JobByID(ctx, db, u.ID, id)
			require.NoError(t, err)
			own, err := models.QueuePosition(ctx, db, j)
			require.NoError(t, err)
			require.Equal(t, spots[id], own)
		}

		// The sweep starts the batch's last job: admitted after the later
		// job, it queues behind it.
		_, err = models.Admit(ctx, db, models.JobRow(stalled[49].AdmitInput()), base.Add(2*time.Minute), nil)
		require.NoError(t, err)
		j, err := models.JobByID(ctx, db, u.ID, stalled[49].ID)
		require.NoError(t, err)
		spot, err = models.QueuePosition(ctx, db, j)
		require.NoError(t, err)
		require.EqualValues(t, 2, spot.Position)
		spots, err = models.QueueSpots(ctx, db, []string{j.ID, stalled[0].ID})
		require.NoError(t, err)
		require.Equal(t, spot, spots[j.ID])
		require.EqualValues(t, 3, spots[stalled[0].ID].Position)
	})
}
