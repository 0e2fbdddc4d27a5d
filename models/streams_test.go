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

// TestStreamLeasesAreCountedPerKeyAndAccount: the leases of open streams
// are counted in the database against the key's and the account's bound; a
// closed or lapsed lease frees its place, and revoking a key deletes its
// leases so their renewal fails.
func TestStreamLeasesAreCountedPerKeyAndAccount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now().UTC()
	lim := models.StreamLimits{PerKey: 2, PerAccount: 3}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		a, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, "v")
		require.NoError(t, err)
		b, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, "v")
		require.NoError(t, err)
		open := func(keyID string, at time.Time) (*models.EventStream, error) {
			return models.OpenStream(ctx, db, u.ID, keyID, "j_x", lim, at, time.Minute)
		}
		first, err := open(a.ID, now)
		require.NoError(t, err)
		_, err = open(a.ID, now)
		require.NoError(t, err)
		_, err = open(a.ID, now)
		var tooMany *models.TooManyStreams
		require.True(t, errors.As(err, &tooMany), "a third stream of one key: %v", err)
		require.Equal(t, models.TooManyStreams{PerKey: true, Limit: 2}, *tooMany)

		onB, err := open(b.ID, now)
		require.NoError(t, err)
		_, err = open(b.ID, now)
		require.True(t, errors.As(err, &tooMany), "a fourth stream of the account: %v", err)
		require.Equal(t, models.TooManyStreams{Limit: 3}, *tooMany)

		require.NoError(t, models.CloseStream(ctx, db, first.ID))
		_, err = open(b.ID, now)
		require.NoError(t, err, "a closed stream frees its place")
		_, err = open(b.ID, now.Add(2*time.Minute))
		require.NoError(t, err, "leases not renewed lapse (a process that died)")

		alive, err := models.RenewStream(ctx, db, onB.ID, now, time.Minute)
		require.NoError(t, err)
		require.False(t, alive, "the lapsed lease is gone")
		last, err := open(b.ID, now.Add(2*time.Minute))
		require.NoError(t, err)
		alive, err = models.RenewStream(ctx, db, last.ID, now.Add(2*time.Minute), time.Minute)
		require.NoError(t, err)
		require.True(t, alive)
		require.NoError(t, models.RevokeKey(ctx, db, b.ID, now.Add(2*time.Minute)))
		alive, err = models.RenewStream(ctx, db, last.ID, now.Add(2*time.Minute), time.Minute)
		require.NoError(t, err)
		require.False(t, alive, "a revoked key's streams end")
	})
}

// TestKeysAndEndpointsPerAccountAreBounded: every way of making a key or an
// endpoint (panel, admin command) goes through these, so the bounds hold
// for all of them.
func TestKeysAndEndpointsPerAccountAreBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u := accountFor(t, db)
		lim := contract.DefaultLimits()
		past := time.Now().Add(-time.Hour)
		_, _, err := models.CreateKey(ctx, db, u.ID, nil, &past, "v") // expired: does not count
		require.NoError(t, err)
		for range lim.APIKeys.MaxPerAccount {
			_, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, "v")
			require.NoError(t, err)
		}
		_, _, err = models.CreateKey(ctx, db, u.ID, nil, nil, "v")
		require.ErrorIs(t, err, models.ErrTooManyKeys)

		first := &models.WebhookEndpoint{UserID: u.ID, URL: "https://hooks.example.com/a"}
		require.NoError(t, models.CreateEndpoint(ctx, db, first))
		err = models.CreateEndpoint(
			ctx,
			db,
			&models.WebhookEndpoint{UserID: u.ID, URL: "https://HOOKS.example.com:443/a"},
		)
		var exists *models.EndpointExists
		require.True(t, errors.As(err, &exists), "the same address spelt otherwise: %v", err)
		require.Equal(t, first.ID, exists.ID)
		other := accountFor(t, db)
		require.NoError(
			t,
			models.CreateEndpoint(ctx, db, &models.WebhookEndpoint{UserID: other.ID, URL: first.URL}),
			"another account's",
		)
		for i := 1; i < lim.WebhookEndpoints.MaxPerAccount; i++ {
			require.NoError(
				t,
				models.CreateEndpoint(
					ctx,
					db,
					&models.WebhookEndpoint{UserID: u.ID, URL: "https://hooks.example.com/" + string(rune('a'+i))},
				),
			)
		}
		err = models.CreateEndpoint(
			ctx,
			db,
			&models.WebhookEndpoint{UserID: u.ID, URL: "https://hooks.example.com/more"},
		)
		require.ErrorIs(t, err, models.ErrTooManyEndpoints)
	})
}
