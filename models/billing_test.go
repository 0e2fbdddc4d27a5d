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

// TestAnOutputDeletedBeforeSettlementIsStillCharged: a caller may delete a
// delivered output (DELETE /v1/files/art:…) while the job still runs. It was
// delivered, so progress keeps counting it, a retried step does not deliver
// it again, and settlement charges it.
func TestAnOutputDeletedBeforeSettlementIsStillCharged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 20, nil, "test")
		require.NoError(t, err)
		j := newJob(u, 8, 2) // four outputs planned
		_, err = models.Admit(ctx, db, j, now, nil)
		require.NoError(t, err)

		deliver(t, db, j, 2, now)
		var first models.File
		require.NoError(t, db.Where("job_id = ? AND idx = 0", j.ID).Take(&first).Error)
		require.NoError(t, db.Delete(&first).Error, "the caller deletes art:"+first.ID)

		// A retried step of the deleted output keeps the first file, and the
		// next output counts every delivered one.
		again, err := models.AddOutput(
			ctx,
			db,
			&models.File{
				ID:        models.NewID(""),
				UserID:    u.ID,
				JobID:     j.ID,
				Index:     0,
				MediaType: "image/png",
				BlobKey:   "k",
				Size:      1,
			},
			now,
		)
		require.NoError(t, err)
		require.Equal(t, first.ID, again.ID)
		_, err = models.AddOutput(
			ctx,
			db,
			&models.File{
				ID:        models.NewID(""),
				UserID:    u.ID,
				JobID:     j.ID,
				Index:     2,
				MediaType: "image/png",
				BlobKey:   "k",
				Size:      1,
			},
			now,
		)
		require.NoError(t, err)
		running, err := models.JobByIDAny(ctx, db, j.ID)
		require.NoError(t, err)
		require.Equal(t, 3, running.ProgressDone, "progress counts the deleted output")
		n, err := models.Delivered(ctx, db, j.ID)
		require.NoError(t, err)
		require.EqualValues(t, 3, n)

		done, settled, err := models.Settle(ctx, db, j.ID, models.Settlement{Outcome: contract.OutcomeSucceeded}, now)
		require.NoError(t, err)
		require.True(t, settled)
		require.EqualValues(t, 6, done.ChargedCredits, "price × delivered, the deleted output included")
		require.Equal(t, 3, done.ProgressDone)
		require.EqualValues(t, 20-6, available(t, db, u, now))
		require.Equal(t, available(t, db, u, now), ledgerSum(t, db, u))
	})
}
