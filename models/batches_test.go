package models_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/wire"
)

// batchJobs are n jobs of u holding held credits each (one output at
// price held).
func batchJobs(u *models.User, n int, held int64) ([]*models.Job, []int) {
	jobs, indexes := make([]*models.Job, n), make([]int, n)
	for i := range jobs {
		jobs[i] = &models.Job{ID: models.NewID("j_"), UserID: u.ID, Task: "pattern.generate", Input: "{}",
			CreditType: contract.CreditService, HeldCredits: held, PricePerOutput: held, Phase: "queued"}
		indexes[i] = 2 * i // the odd items were refused
	}
	return jobs, indexes
}

// TestBatchHoldsAllOrNoneAndCompletesOnce: a batch the balance does not
// cover writes nothing and holds nothing; one it covers holds every job's
// credits at once, and a retry of it (the same batch id) holds nothing
// more. Its record counts its jobs, outputs and credits as they end, and
// only the job whose end completed it is told to send batch.completed,
// as often as it asks.
func TestBatchHoldsAllOrNoneAndCompletesOnce(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx, now := context.Background(), time.Now().UTC()
		u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		_, err = models.Grant(ctx, db, u.ID, contract.CreditService, 29, nil, "test")
		require.NoError(t, err)

		jobs, indexes := batchJobs(u, 3, 10)
		b := &models.Batch{ID: models.NewID("b_"), UserID: u.ID, Mode: models.BatchPartial, Jobs: 3}
		_, err = models.CreateBatch(ctx, db, b, jobs, indexes, now)
		var refusal *models.BatchRefusal
		require.ErrorAs(t, err, &refusal)
		require.Equal(t, models.BatchRefusal{CreditType: contract.CreditService, Required: 30, Balance: 29}, *refusal)
		_, err = models.BatchByID(ctx, db, u.ID, b.ID)
		require.ErrorIs(t, err, models.ErrNotFound, "nothing written")
		require.EqualValues(t, 29, balance(t, db, u.ID))

		_, err = models.Grant(ctx, db, u.ID, contract.CreditService, 1, nil, "test")
		require.NoError(t, err)
		created, err := models.CreateBatch(ctx, db, b, jobs, indexes, now)
		require.NoError(t, err)
		require.True(t, created)
		require.Zero(t, balance(t, db, u.ID), "every hold at once")
		again := &models.Batch{ID: b.ID, UserID: u.ID, Mode: models.BatchPartial, Jobs: 3}
		created, err = models.CreateBatch(ctx, db, again, jobs, indexes, now)
		require.NoError(t, err)
		require.False(t, created, "a retry writes and holds nothing")

		rec, err := models.BatchRecord(ctx, db, b, "https://api.example.test")
		require.NoError(t, err)
		require.Equal(t, wire.BatchStarting, rec.Status)
		require.Equal(t, wire.BatchCounts{Jobs: 3, Queued: 3}, rec.Counts)
		require.Equal(t, wire.BatchOutputs{Done: 0, Total: 3}, rec.Outputs, "a queued job's outputs: its hold / price")
		require.Equal(t, []int{0, 2, 4}, []int{rec.Jobs[0].Index, rec.Jobs[1].Index, rec.Jobs[2].Index})
		require.Equal(t, "https://api.example.test/v1/batches/"+b.ID, rec.StatusURL)
		require.NoError(t, models.MarkBatchStarted(ctx, db, b.ID, now))

		outcomes := []string{contract.OutcomeSucceeded, contract.OutcomeFailed, contract.OutcomeSucceeded}
		for i, j := range jobs {
			delivered := 0
			if outcomes[i] == contract.OutcomeSucceeded {
				delivered = 1
			}
			require.NoError(t, db.Model(&models.Job{}).Where("id = ?", j.ID).
				Updates(map[string]any{"lifecycle": contract.LifecycleRunning, "progress_total": 1}).Error)
			if delivered == 1 {
				require.NoError(t, db.Create(&models.File{ID: models.NewID("f_"), UserID: u.ID, JobID: j.ID,
					MediaType: "image/png", BlobKey: "k", Size: 1, CreatedAt: now}).Error)
			}
			_, _, err := models.Settle(ctx, db, j.ID, models.Settlement{Outcome: outcomes[i]}, now)
			require.NoError(t, err)
			done, err := models.CompleteBatch(ctx, db, j.ID, now)
			require.NoError(t, err)
			if i < 2 {
				require.Nil(t, done, "jobs are still running")
			} else {
				require.NotNil(t, done, "the last job completes the batch")
			}
		}
		for _, j := range jobs[:2] {
			done, err := models.CompleteBatch(ctx, db, j.ID, now)
			require.NoError(t, err)
			require.Nil(t, done, "only the job that completed it sends batch.completed")
		}
		done, err := models.CompleteBatch(ctx, db, jobs[2].ID, now)
		require.NoError(t, err)
		require.NotNil(t, done, "a retried settlement of that job sends it again, with the same ids")

		b, err = models.BatchByID(ctx, db, u.ID, b.ID)
		require.NoError(t, err)
		rec, err = models.BatchRecord(ctx, db, b, "")
		require.NoError(t, err)
		require.Equal(t, wire.BatchCompleted, rec.Status)
		require.Equal(t, wire.BatchCounts{Jobs: 3, Succeeded: 2, Failed: 1}, rec.Counts)
		require.Equal(t, wire.BatchOutputs{Done: 2, Total: 3}, rec.Outputs)
		require.Equal(t, []wire.BatchCredit{{CreditType: contract.CreditService, Held: 30, Charged: 20}}, rec.Credits)
		require.EqualValues(t, 10, balance(t, db, u.ID), "the failed job's hold came back")
	})
}

func balance(t *testing.T, db *gorm.DB, userID uint64) int64 {
	t.Helper()
	bals, err := models.Balances(context.Background(), db, userID, time.Now())
	require.NoError(t, err)
	return bals[0].Remaining
}

// TestBatchIsHeldToTheSpendLimits: a batch whose jobs together would pass
// the account's day limit is refused whole, naming the limit, and writes
// nothing but the limit's 100 % threshold (once); one within it records
// the thresholds its jobs reach.
func TestBatchIsHeldToTheSpendLimits(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx, now := context.Background(), time.Now().UTC()
		u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		_, err = models.Grant(ctx, db, u.ID, contract.CreditService, 100, nil, "test")
		require.NoError(t, err)
		_, err = models.SetSpendLimit(ctx, db, models.SpendLimit{UserID: u.ID, CreditType: contract.CreditService,
			Period: contract.SpendDay, Credits: 25})
		require.NoError(t, err)

		jobs, indexes := batchJobs(u, 3, 10)
		b := &models.Batch{ID: models.NewID("b_"), UserID: u.ID, Mode: models.BatchAll, Jobs: 3}
		_, err = models.CreateBatch(ctx, db, b, jobs, indexes, now)
		var refusal *models.BatchRefusal
		require.ErrorAs(t, err, &refusal)
		require.NotNil(t, refusal.Limit, "the third job would pass the day's limit")
		require.EqualValues(t, 20, refusal.Limit.Spent, "counting the batch's jobs before it")
		_, err = models.BatchByID(ctx, db, u.ID, b.ID)
		require.ErrorIs(t, err, models.ErrNotFound)
		require.EqualValues(t, 100, balance(t, db, u.ID), "nothing held")
		require.Equal(t, jobs[2].ID, refusal.JobID)
		reached, err := models.ThresholdsOfJob(ctx, db, refusal.JobID)
		require.NoError(t, err)
		require.Len(t, reached, 1, "the limit refused a hold: its 100 % is recorded, naming the refused job")
		require.Equal(t, 100, reached[0].Percent)
		require.EqualValues(t, 0, reached[0].Spent, "the period's spend, without the batch's undone jobs")
		_, err = models.CreateBatch(ctx, db, b, jobs, indexes, now)
		require.ErrorAs(t, err, &refusal, "refused again")
		var n int64
		require.NoError(t, db.Model(&models.SpendThreshold{}).Where("user_id = ?", u.ID).Count(&n).Error)
		require.EqualValues(t, 1, n, "once in the period")

		jobs, indexes = batchJobs(u, 2, 10)
		_, err = models.CreateBatch(ctx, db, b, jobs, indexes, now)
		require.NoError(t, err)
		crossed, err := models.ThresholdsOfJob(ctx, db, jobs[1].ID)
		require.NoError(t, err)
		require.Len(t, crossed, 2, "20 of 25: the 50 % and 80 % thresholds, reached by the second job")
	})
}

// TestABatchQueuesInItemOrder: a batch's jobs hold their queue positions
// in item order whatever their ids (a job's id is a hash), the job list
// shows them newest first as it pages, and a batch written just before
// the UTC midnight keeps every job in the day its limits were checked in.
func TestABatchQueuesInItemOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tc := range []struct {
			name string
			now  time.Time
		}{
			{"midday", time.Date(2026, 11, 25, 12, 0, 0, 123456789, time.UTC)},
			{"a microsecond before midnight", time.Date(2026, 11, 25, 23, 59, 59, 999999000, time.UTC)},
		} {
			t.Run(tc.name, func(t *testing.T) {
				u := accountFor(t, db)
				_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 1000, nil, "test")
				require.NoError(t, err)
				const n = 12
				jobs, indexes := batchJobs(u, n, 1)
				for i, j := range jobs {
					j.ID = fmt.Sprintf("j_%02d_%s", n-i, j.ID) // ids fall as the items rise
				}
				b := &models.Batch{ID: models.NewID("b_"), UserID: u.ID, Mode: models.BatchAll, Jobs: n}
				_, err = models.CreateBatch(ctx, db, b, jobs, indexes, tc.now)
				require.NoError(t, err)

				ids := make([]string, n)
				for i, j := range jobs {
					ids[i] = j.ID
				}
				spots, err := models.QueueSpots(ctx, db, ids)
				require.NoError(t, err)
				for i, j := range jobs {
					row, err := models.JobByID(ctx, db, u.ID, j.ID)
					require.NoError(t, err)
					spot, err := models.QueuePosition(ctx, db, row)
					require.NoError(t, err)
					require.EqualValues(t, i+1, spot.Position, "item %d", i)
					require.Equal(t, spot, spots[j.ID])
					require.Equal(t, contract.PeriodStart(contract.SpendDay, tc.now),
						contract.PeriodStart(contract.SpendDay, row.CreatedAt), "written in the day of the batch")
				}

				var listed []string
				var after *models.Position
				for {
					page, err := models.ListJobs(ctx, db, u.ID, "", after, 5)
					require.NoError(t, err)
					for _, j := range page.Items {
						listed = append(listed, j.ID)
					}
					if page.Next == nil {
						break
					}
					after = page.Next
				}
				slices.Reverse(ids)
				require.Equal(t, ids, listed, "newest first: the last item first, each once across pages")
			})
		}
	})
}
