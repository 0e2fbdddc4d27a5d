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

func TestGrant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		b, err := models.Grant(ctx, db, u.ID, contract.CreditService, 250, nil, "test grant")
		require.NoError(t, err)
		require.NotZero(t, b.ID)
		require.EqualValues(t, 250, b.Amount)
		require.EqualValues(t, 250, b.Remaining)

		entries, err := models.Ledger(ctx, db, u.ID, 10)
		require.NoError(t, err)
		require.Len(t, entries, 1)
		require.Equal(t, models.LedgerGrant, entries[0].Kind)
		require.EqualValues(t, 250, entries[0].Amount)
		require.Equal(t, b.ID, entries[0].BatchID)
		require.Equal(t, contract.CreditService, entries[0].CreditType)

		for _, amount := range []int64{0, -5} {
			_, err := models.Grant(ctx, db, u.ID, contract.CreditService, amount, nil, "bad")
			require.ErrorContains(t, err, "credits must be positive")
		}
		entries, err = models.Ledger(ctx, db, u.ID, 10)
		require.NoError(t, err)
		require.Len(t, entries, 1, "refused grants write nothing")
	})
}

func TestBalances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	type grant struct {
		ctype   string
		credits int64
		expires *time.Time
	}
	tests := []struct {
		name     string
		grants   []grant
		service  []models.Expiring // in spend order
		model    []models.Expiring
		svcTotal int64
		mdlTotal int64
	}{
		{name: "no credits", service: []models.Expiring{}, model: []models.Expiring{}},
		{
			name: "soonest expiry first, never-expiring last, expired excluded",
			grants: []grant{
				{contract.CreditService, 100, nil},
				{contract.CreditService, 20, at(48 * time.Hour)},
				{contract.CreditService, 30, at(24 * time.Hour)},
				{contract.CreditService, 999, at(-time.Hour)}, // expired
				{contract.CreditService, 7, at(0)},            // expires now: spent already
				{contract.CreditService, 5, nil},
				{contract.CreditModel, 40, at(time.Hour)},
			},
			service: []models.Expiring{
				{Credits: 30, At: at(24 * time.Hour)},
				{Credits: 20, At: at(48 * time.Hour)},
				{Credits: 100},
				{Credits: 5},
			},
			model:    []models.Expiring{{Credits: 40, At: at(time.Hour)}},
			svcTotal: 155,
			mdlTotal: 40,
		},
		{
			name:     "only expired batches",
			grants:   []grant{{contract.CreditModel, 10, at(-time.Second)}},
			service:  []models.Expiring{},
			model:    []models.Expiring{},
			svcTotal: 0,
		},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				u := accountFor(t, db)
				for _, g := range tt.grants {
					_, err := models.Grant(ctx, db, u.ID, g.ctype, g.credits, g.expires, "test")
					require.NoError(t, err)
				}
				bals, err := models.Balances(ctx, db, u.ID, now)
				require.NoError(t, err)
				require.Len(t, bals, 2)
				require.Equal(t, contract.CreditService, bals[0].CreditType)
				require.Equal(t, contract.CreditModel, bals[1].CreditType)
				require.Equal(t, tt.svcTotal, bals[0].Remaining)
				require.Equal(t, tt.mdlTotal, bals[1].Remaining)
				requireExpiring(t, tt.service, bals[0].Expiring)
				requireExpiring(t, tt.model, bals[1].Expiring)

				for _, ct := range contract.CreditTypes {
					avail, err := models.Available(ctx, db, u.ID, ct, now)
					require.NoError(t, err)
					require.Equal(
						t,
						map[string]int64{contract.CreditService: tt.svcTotal, contract.CreditModel: tt.mdlTotal}[ct],
						avail,
					)
				}
			})
		}
	})
}

// requireExpiring compares expiring lists; times are compared as instants.
func requireExpiring(t *testing.T, want, got []models.Expiring) {
	t.Helper()
	require.NotNil(t, got, "expiring is [] rather than null")
	require.Len(t, got, len(want), "got %+v", got)
	for i := range want {
		require.Equal(t, want[i].Credits, got[i].Credits, "entry %d", i)
		if want[i].At == nil {
			require.Nil(t, got[i].At, "entry %d never expires", i)
			continue
		}
		require.NotNil(t, got[i].At, "entry %d", i)
		require.True(t, want[i].At.Equal(*got[i].At), "entry %d: want %s, got %s", i, want[i].At, got[i].At)
	}
}

func TestBalancesPerUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		a, b := accountFor(t, db), accountFor(t, db)
		_, err := models.Grant(ctx, db, a.ID, contract.CreditService, 10, nil, "a")
		require.NoError(t, err)
		bals, err := models.Balances(ctx, db, b.ID, time.Now().UTC())
		require.NoError(t, err)
		require.Zero(t, bals[0].Remaining, "another user's credits are not mine")
		require.Empty(t, bals[0].Expiring)
	})
}
