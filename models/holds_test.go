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

// TestCreditsExpiringMidJobAreChargedFromTheHold: a job's hold takes its
// credits from batches when it is admitted; a batch that expires while the
// job runs is still the one charged at settlement, and what the job does not
// spend goes back to the batch it came from (lapsing if that batch expired).
// Before, settlement spent only batches live at settlement: an expiring batch
// alone was charged nothing, and beside a non-expiring one the charge moved
// onto the non-expiring credits while the expiring ones lapsed unspent.
func TestCreditsExpiringMidJobAreChargedFromTheHold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	expires := now.Add(time.Hour)
	during, after := now.Add(30*time.Minute), now.Add(2*time.Hour) // the job runs past the expiry
	type grant struct {
		name     string
		credits  int64
		expiring bool
	}
	tests := []struct {
		name      string
		grants    []grant
		hold      int64 // two outputs of 5
		delivered int
		uncharged int64 // delivered but not charged (a cut-out warned cutout_uncertain)
		charged   int64
		// left is each batch's remaining after settlement; live is what the
		// account can spend after the expiry, during the job and after it.
		left              map[string]int64
		liveDuring, after int64
	}{
		{name: "an expiring batch alone", grants: []grant{{"expiring", 10, true}}, delivered: 1, charged: 5,
			left: map[string]int64{"expiring": 5}, liveDuring: 0, after: 0},
		{
			name:       "an expiring and a non-expiring batch",
			grants:     []grant{{"expiring", 10, true}, {"never", 10, false}},
			delivered:  1,
			charged:    5,
			left:       map[string]int64{"expiring": 5, "never": 10},
			liveDuring: 10,
			after:      10,
		},
		{
			name:       "a hold across both batches",
			grants:     []grant{{"expiring", 3, true}, {"never", 10, false}},
			delivered:  1,
			charged:    5,
			left:       map[string]int64{"expiring": 0, "never": 8},
			liveDuring: 3,
			after:      8,
		},
		{
			name:       "every output delivered",
			grants:     []grant{{"expiring", 4, true}, {"never", 10, false}},
			delivered:  2,
			charged:    10,
			left:       map[string]int64{"expiring": 0, "never": 4},
			liveDuring: 4,
			after:      4,
		},
		{
			name:       "two delivered, one of them not charged",
			grants:     []grant{{"expiring", 4, true}, {"never", 10, false}},
			delivered:  2,
			uncharged:  1,
			charged:    5,
			left:       map[string]int64{"expiring": 0, "never": 9},
			liveDuring: 4,
			after:      9,
		},
		{
			name:       "nothing delivered: the expired part of the release lapses",
			grants:     []grant{{"expiring", 6, true}, {"never", 10, false}},
			delivered:  0,
			charged:    0,
			left:       map[string]int64{"expiring": 6, "never": 10},
			liveDuring: 6,
			after:      10,
		},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				u := accountFor(t, db)
				batches := map[string]uint64{}
				var granted int64
				for _, g := range tt.grants {
					var at *time.Time
					if g.expiring {
						at = &expires
					}
					b, err := models.Grant(ctx, db, u.ID, contract.CreditService, g.credits, at, g.name)
					require.NoError(t, err)
					batches[g.name] = b.ID
					granted += g.credits
				}
				j := newJob(u, 10, 5)
				_, err := models.Admit(ctx, db, j, now, nil)
				require.NoError(t, err)
				require.EqualValues(t, granted-10, available(t, db, u, now), "the hold is taken at admit")
				require.EqualValues(t, tt.liveDuring, available(t, db, u, during.Add(time.Hour)),
					"after the expiry the account spends its live credits; the hold keeps what it took")
				requireBalance(t, db, u, during.Add(time.Hour), tt.liveDuring)

				deliver(t, db, j, tt.delivered, during)
				done, first, err := models.Settle(
					ctx,
					db,
					j.ID,
					models.Settlement{Outcome: contract.OutcomeSucceeded, Uncharged: tt.uncharged},
					after,
				)
				require.NoError(t, err)
				require.True(t, first)
				require.Equal(t, tt.charged, done.ChargedCredits, "price × charged outputs, expired credits included")

				left := map[string]int64{}
				for name, id := range batches {
					var b models.CreditBatch
					require.NoError(t, db.Take(&b, id).Error)
					left[name] = b.Remaining
				}
				require.Equal(t, tt.left, left)
				require.EqualValues(t, tt.after, available(t, db, u, after))
				requireBalance(t, db, u, after, tt.after)
				requireLedgerAddsUp(t, db, u, j.ID, tt.charged)

				usage, err := models.Usage(ctx, db, u.ID, now, after.Add(time.Second))
				require.NoError(t, err)
				require.Len(t, usage, 1)
				require.Equal(t, tt.charged, usage[0].CreditsCharged, "usage reports the charge")
			})
		}
	})
}

// requireBalance checks the balance answered for service credits at now.
func requireBalance(t *testing.T, db *gorm.DB, u *models.User, now time.Time, want int64) {
	t.Helper()
	bals, err := models.Balances(context.Background(), db, u.ID, now)
	require.NoError(t, err)
	require.Equal(t, contract.CreditService, bals[0].CreditType)
	require.Equal(t, want, bals[0].Remaining)
	var listed int64
	for _, e := range bals[0].Expiring {
		listed += e.Credits
	}
	require.Equal(t, want, listed, "the batches listed add up to the balance")
}

// requireLedgerAddsUp checks that every batch's ledger entries add up to what
// the batch has left, and that the job's charge entries add up to its charge.
func requireLedgerAddsUp(t *testing.T, db *gorm.DB, u *models.User, jobID string, charged int64) {
	t.Helper()
	var batches []models.CreditBatch
	require.NoError(t, db.Where("user_id = ?", u.ID).Find(&batches).Error)
	var total int64
	for _, b := range batches {
		var sum int64
		require.NoError(
			t,
			db.Model(&models.LedgerEntry{}).
				Where("batch_id = ?", b.ID).
				Select("COALESCE(SUM(amount), 0)").
				Scan(&sum).
				Error,
		)
		require.Equal(t, b.Remaining, sum, "the ledger of batch %d explains what it has left", b.ID)
		total += b.Remaining
	}
	require.Equal(t, total, ledgerSum(t, db, u), "every entry names its batch")
	var charges int64
	require.NoError(t, db.Model(&models.LedgerEntry{}).Where("job_id = ? AND kind = ?", jobID, models.LedgerCharge).
		Select("COALESCE(SUM(amount), 0)").Scan(&charges).Error)
	require.Equal(t, -charged, charges)
}

// TestMigrationMovesOpenHoldsOntoBatches: a job admitted before migration
// 0013 held its credits as one ledger entry, its batches untouched. The
// migration takes every such open hold out of the batches, in admit order
// and spend order, so the balance is unchanged and settlement charges the
// batch the hold took even when it expires before the job ends.
func TestMigrationMovesOpenHoldsOntoBatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	expires, after := now.Add(time.Hour), now.Add(2*time.Hour)
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			db := testenv.EmptyDB(t, b)
			require.NoError(t, models.MigrateTo(ctx, db, "0012_late_admits"))
			u := accountFor(t, db)
			expiring, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, &expires, "promo")
			require.NoError(t, err)
			never, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "pack")
			require.NoError(t, err)
			// Two open jobs as the old admit wrote them, and a settled one.
			legacy := func(id string, held int64, created time.Time, settled bool) {
				var settledAt *time.Time
				if settled {
					settledAt = &created
				}
				require.NoError(
					t,
					db.Exec(
						`INSERT INTO jobs (id, user_id, api_key_id, task, input, lifecycle, credit_type, held_credits,
					price_per_output, settled_at, created_at, updated_at) VALUES (?, ?, '', 'pattern.generate', '{}', 'running', ?,
	 ?, 5, ?, ?, ?)`,
						id,
						u.ID,
						contract.CreditService,
						held,
						settledAt,
						created,
						created,
					).Error,
				)
				if !settled {
					require.NoError(
						t,
						db.Create(
							&models.LedgerEntry{
								UserID:     u.ID,
								CreditType: contract.CreditService,
								Kind:       models.LedgerHold,
								Amount:     -held,
								JobID:      id,
								CreatedAt:  created,
							},
						).Error,
					)
				}
			}
			first, second := models.NewID("j_"), models.NewID("j_")
			legacy(second, 6, now.Add(-time.Minute), false)
			legacy(first, 10, now.Add(-2*time.Minute), false)
			legacy(models.NewID("j_"), 10, now.Add(-3*time.Minute), true)
			require.EqualValues(t, 20, available(t, db, u, now), "the old shape: batches untouched, holds apart")

			require.NoError(t, models.Migrate(ctx, db))
			require.EqualValues(t, 4, available(t, db, u, now), "the open holds are taken out of the batches")
			jobA, err := models.JobByIDAny(ctx, db, first)
			require.NoError(t, err)
			require.Equal(
				t,
				[]models.HeldBatch{{BatchID: expiring.ID, Credits: 10}},
				jobA.HoldBatches,
				"the older job first, soonest expiry first",
			)
			jobB, err := models.JobByIDAny(ctx, db, second)
			require.NoError(t, err)
			require.Equal(t, []models.HeldBatch{{BatchID: never.ID, Credits: 6}}, jobB.HoldBatches)

			deliver(t, db, jobA, 1, now)
			done, _, err := models.Settle(ctx, db, first, models.Settlement{Outcome: contract.OutcomeSucceeded}, after)
			require.NoError(t, err)
			require.EqualValues(t, 5, done.ChargedCredits, "charged from the expired batch its hold took")
			require.EqualValues(t, 4, available(t, db, u, after), "the non-expiring credits are untouched")
			_, _, err = models.Settle(ctx, db, second, models.Settlement{Outcome: contract.OutcomeFailed}, after)
			require.NoError(t, err)
			require.EqualValues(t, 10, available(t, db, u, after))
			requireLedgerAddsUp(t, db, u, first, 5)
		})
	}
}
