package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func rollUser(t *testing.T, db *gorm.DB) (*models.User, *models.APIKey, string) {
	t.Helper()
	ctx := context.Background()
	u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
	require.NoError(t, err)
	k, secret, err := models.CreateKey(ctx, db, u.ID, nil, nil, "2026-09-29")
	require.NoError(t, err)
	return u, k, secret
}

func keyWorks(t *testing.T, db *gorm.DB, secret string, at time.Time) bool {
	t.Helper()
	_, _, err := models.SecretKeyAuth(context.Background(), db, secret, at)
	if errors.Is(err, models.ErrKeyInvalid) {
		return false
	}
	require.NoError(t, err)
	return true
}

func TestRollKeyKeepsOldKeyForTheGracePeriod(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		_, old, oldSecret := rollUser(t, db)

		nk, newSecret, err := models.RollKey(ctx, db, old.ID, time.Hour, now, "2026-09-29")
		require.NoError(t, err)
		require.NotEqual(t, old.ID, nk.ID)
		require.Equal(t, old.Scopes, nk.Scopes)

		require.True(t, keyWorks(t, db, oldSecret, now.Add(59*time.Minute)), "old key valid within grace")
		require.False(t, keyWorks(t, db, oldSecret, now.Add(time.Hour)), "old key expires at the end of grace")
		require.True(t, keyWorks(t, db, newSecret, now.Add(24*time.Hour)), "new key has no expiry")
	})
}

func TestRevokeKeyIsImmediateAndLeavesItsJobsRunning(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		u, k, secret := rollUser(t, db)
		_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 10, nil, "test")
		require.NoError(t, err)
		job, err := models.Admit(
			ctx,
			db,
			&models.Job{ID: models.NewID("j_"), UserID: u.ID, APIKeyID: k.ID, Task: "pattern.generate",
				Input: "{}", CreditType: contract.CreditService, HeldCredits: 4, PricePerOutput: 2},
			now,
			nil,
		)
		require.NoError(t, err)

		require.NoError(t, models.RevokeKey(ctx, db, k.ID, now))
		require.False(t, keyWorks(t, db, secret, now), "revocation is immediate")
		require.ErrorIs(t, models.RevokeKey(ctx, db, k.ID, now), models.ErrNotFound, "a key is revoked once")

		// The job the key started still runs, delivers and is charged.
		require.NoError(t, models.MarkRunning(ctx, db, job.ID, 1, "rendering", now))
		_, err = models.AddOutput(
			ctx,
			db,
			&models.File{
				ID:        models.NewID("f_"),
				UserID:    u.ID,
				JobID:     job.ID,
				MediaType: "image/png",
				BlobKey:   "k",
				Size:      1,
			},
			now,
		)
		require.NoError(t, err)
		done, _, err := models.Settle(ctx, db, job.ID, models.Settlement{Outcome: contract.OutcomeSucceeded}, now)
		require.NoError(t, err)
		require.Equal(t, contract.OutcomeSucceeded, *done.Outcome)
		require.Equal(t, int64(2), done.ChargedCredits)
	})
}

func TestFirstKeyPinsTheAccountVersion(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u, _, _ := rollUser(t, db)
		_, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, "2027-01-01")
		require.NoError(t, err)
		got, err := models.UserByID(ctx, db, u.ID)
		require.NoError(t, err)
		require.Equal(t, "2026-09-29", got.ServiceVersion, "a later key does not move the pin")
	})
}

func TestRolledOrRevokedKeyCannotBeRolled(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		_, k, _ := rollUser(t, db)
		require.NoError(t, models.RevokeKey(ctx, db, k.ID, now))
		_, _, err := models.RollKey(ctx, db, k.ID, time.Hour, now, "2026-09-29")
		require.Error(t, err)
		_, _, err = models.RollKey(ctx, db, "key_missing", time.Hour, now, "2026-09-29")
		require.ErrorIs(t, err, models.ErrNotFound)
	})
}
