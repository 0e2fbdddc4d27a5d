package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestAdminLimits: limit set prints the limit's id and the admit enforces
// it; setting it again replaces it; list prints each limit with its
// period's spend; clear removes it. Bad flags are usage errors and a key
// of another account is not found.
func TestAdminLimits(t *testing.T) {
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		adminOK(t, db, "user create --email caps@example.com --credits 100")
		u, err := models.UserByEmail(ctx, db, "caps@example.com")
		require.NoError(t, err)
		k, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, contract.CurrentVersion)
		require.NoError(t, err)

		id := adminOK(t, db, "limit set --user caps@example.com --period day --credits 5")
		require.True(t, strings.HasPrefix(id, "limit_"), "limit id: %q", id)
		require.Equal(t, id, adminOK(t, db, "limit set --user caps@example.com --period day --credits 8"),
			"setting a limit again replaces it")
		adminOK(t, db, "limit set --user caps@example.com --key-id "+k.ID+" --period month --credits 3")

		now := time.Now().UTC()
		j := &models.Job{ID: models.NewID("j_"), UserID: u.ID, APIKeyID: k.ID, Task: "pattern.generate",
			Input: "{}", CreditType: contract.CreditService, HeldCredits: 4, PricePerOutput: 1}
		_, err = models.Admit(ctx, db, j, now, nil)
		var refusal *models.AdmitRefusal
		require.True(t, errors.As(err, &refusal), "the key's limit of 3 refuses a hold of 4: %v", err)
		require.Equal(t, contract.SpendKey, refusal.Limit.Scope)
		j.ID, j.HeldCredits = models.NewID("j_"), 2
		_, err = models.Admit(ctx, db, j, now, nil)
		require.NoError(t, err)

		out, err := runAdminLine(t, db, "limit list --user caps@example.com")
		require.NoError(t, err)
		day, month := contract.PeriodEnd(contract.SpendDay, now), contract.PeriodEnd(contract.SpendMonth, now)
		require.Equal(t, "account\tday\tservice_credits\t8\t2\t"+day.Format(time.RFC3339)+"\n"+
			k.ID+"\tmonth\tservice_credits\t3\t2\t"+month.Format(time.RFC3339), out)

		require.Equal(t, "account\tday\tservice_credits",
			adminOK(t, db, "limit clear --user caps@example.com --period day"))
		_, err = runAdminLine(t, db, "limit clear --user caps@example.com --period day")
		require.ErrorIs(t, err, models.ErrNotFound, "nothing left to clear")
		out, err = runAdminLine(t, db, "limit list --user caps@example.com")
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(out, k.ID), out)

		other, _, err := models.CreateKey(ctx, db, accountOf(t, db), nil, nil, contract.CurrentVersion)
		require.NoError(t, err)
		_, err = runAdminLine(t, db, "limit set --user caps@example.com --key-id "+other.ID+" --period day --credits 1")
		require.ErrorIs(t, err, models.ErrNotFound, "a key of another account")

		for _, line := range []string{
			"limit set --period day --credits 1",
			"limit set --user caps@example.com --credits 1",
			"limit set --user caps@example.com --period week --credits 1",
			"limit set --user caps@example.com --period day",
			"limit set --user caps@example.com --period day --credits -2",
			"limit set --user caps@example.com --period day --credits 1 --type gold",
			"limit clear --user caps@example.com",
			"limit list",
		} {
			_, err := runAdminLine(t, db, line)
			var usage *usageError
			require.True(t, errors.As(err, &usage), "%s: want a usage error, got %v", line, err)
		}
	})
}

func accountOf(t *testing.T, db *gorm.DB) uint64 {
	t.Helper()
	u, err := models.CreateUser(context.Background(), db, models.NewID("")+"@example.com", "")
	require.NoError(t, err)
	return u.ID
}
