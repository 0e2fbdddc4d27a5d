package models_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestWebhookTablesMigrated(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, table := range []string{"signing_keys", "webhook_deliveries", "webhook_attempts"} {
			require.True(t, db.Migrator().HasTable(table), "table %s", table)
		}
		var n int64
		require.NoError(t, db.Table("schema_migrations").Where("id = ?", "0003_webhooks").Count(&n).Error)
		require.EqualValues(t, 1, n)
	})
}

func newDelivery(userID uint64) *models.WebhookDelivery {
	return &models.WebhookDelivery{
		EventID:    models.NewID("evt_"),
		UserID:     userID,
		EndpointID: "we_1",
		URL:        "https://example.com/hook",
		Event:      "job.succeeded",
		JobID:      models.NewID("j_"),
		Body:       "{\"id\":\"evt_1\", \"note\":\"é ✓\\n\"}\n",
	}
}

func TestCreateDelivery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		d := newDelivery(7)
		require.NoError(t, models.CreateDelivery(ctx, db, d))
		require.Regexp(t, `^whd_`, d.ID)
		require.Equal(t, models.DeliveryPending, d.Status)

		got, err := models.DeliveryByID(ctx, db, d.ID)
		require.NoError(t, err)
		require.Equal(t, d.Body, got.Body, "the body is kept byte for byte")
		require.Equal(t, d.EventID, got.EventID)
		require.Equal(t, uint64(7), got.UserID)
		require.Equal(t, "we_1", got.EndpointID)
		require.Equal(t, d.URL, got.URL)
		require.Equal(t, d.Event, got.Event)
		require.Equal(t, d.JobID, got.JobID)
		require.Equal(t, models.DeliveryPending, got.Status)
		require.Zero(t, got.Attempts)
		require.Nil(t, got.NextAttemptAt)
		require.False(t, got.CreatedAt.IsZero())

		dup := newDelivery(7)
		dup.ID = d.ID
		require.ErrorIs(
			t,
			models.CreateDelivery(ctx, db, dup),
			gorm.ErrDuplicatedKey,
			"a retried create is recognisable",
		)

		replay := newDelivery(7)
		replay.EventID = d.EventID
		require.NoError(t, models.CreateDelivery(ctx, db, replay), "a replay is a new delivery of the same event")
		require.NotEqual(t, d.ID, replay.ID)

		_, err = models.DeliveryByID(ctx, db, "whd_missing")
		require.ErrorIs(t, err, models.ErrNotFound)
	})
}

func TestEndpointsFor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		eps := []models.WebhookEndpoint{
			{
				ID:     "we_terminal",
				UserID: 1,
				URL:    "https://a.example/hook",
				Events: "job.succeeded,job.failed,job.cancelled",
			},
			{
				ID:     "we_spaced",
				UserID: 1,
				URL:    "https://b.example/hook",
				Events: " job.progress , job.started ,job.succeeded",
			},
			{
				ID:             "we_disabled",
				UserID:         1,
				URL:            "https://c.example/hook",
				Events:         "job.succeeded",
				Disabled:       true,
				DisabledReason: "off",
			},
			{ID: "we_prefix", UserID: 1, URL: "https://d.example/hook", Events: "job.succeeded.v2,job"},
			{ID: "we_other_user", UserID: 2, URL: "https://e.example/hook", Events: "job.succeeded"},
		}
		for i := range eps {
			eps[i].CreatedAt = base.Add(time.Duration(i) * time.Minute)
			require.NoError(t, db.Create(&eps[i]).Error)
		}
		tests := []struct {
			user  uint64
			event string
			want  []string
		}{
			{1, "job.succeeded", []string{"we_terminal", "we_spaced"}},
			{1, "job.failed", []string{"we_terminal"}},
			{1, "job.progress", []string{"we_spaced"}},
			{1, "job.started", []string{"we_spaced"}},
			{1, "job", []string{"we_prefix"}},
			{1, "ping", nil},
			{1, "", nil},
			{2, "job.succeeded", []string{"we_other_user"}},
			{3, "job.succeeded", nil},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("user %d %s", tt.user, tt.event), func(t *testing.T) {
				got, err := models.EndpointsFor(ctx, db, tt.user, tt.event)
				require.NoError(t, err)
				var ids []string
				for _, ep := range got {
					ids = append(ids, ep.ID)
					require.False(t, ep.Disabled)
					require.Equal(t, tt.user, ep.UserID)
				}
				require.Equal(t, tt.want, ids)
			})
		}
	})
}

func TestMarkEndpointResult(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type mark struct {
		ok           bool
		wantFailures int
		wantDisabled bool
	}
	tests := []struct {
		name         string
		disableAfter int
		marks        []mark
		wantReason   string
	}{
		{
			name:         "success resets",
			disableAfter: 3,
			marks:        []mark{{false, 1, false}, {false, 2, false}, {true, 0, false}, {false, 1, false}},
		},
		{
			name:         "disabled at the threshold",
			disableAfter: 3,
			marks:        []mark{{false, 1, false}, {false, 2, false}, {false, 3, true}},
			wantReason:   "3 consecutive failed deliveries",
		},
		{
			name:         "failures after disabling keep the reason",
			disableAfter: 2,
			marks:        []mark{{false, 1, false}, {false, 2, true}, {false, 3, true}},
			wantReason:   "2 consecutive failed deliveries",
		},
		{name: "a late success does not re-enable", disableAfter: 1, marks: []mark{{false, 1, true}, {true, 0, true}},
			wantReason: "1 consecutive failed deliveries"},
		{
			name:         "zero never disables",
			disableAfter: 0,
			marks:        []mark{{false, 1, false}, {false, 2, false}, {false, 3, false}},
		},
	}
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ep := createEndpoint(t, db)
				for i, m := range tt.marks {
					require.NoError(t, models.MarkEndpointResult(ctx, db, ep.ID, m.ok, tt.disableAfter), "mark %d", i)
					var got models.WebhookEndpoint
					require.NoError(t, db.Where("id = ?", ep.ID).Take(&got).Error)
					require.Equal(t, m.wantFailures, got.Failures, "mark %d failures", i)
					require.Equal(t, m.wantDisabled, got.Disabled, "mark %d disabled", i)
					if got.Disabled {
						require.Equal(t, tt.wantReason, got.DisabledReason)
					} else {
						require.Empty(t, got.DisabledReason)
					}
				}
			})
		}

		t.Run("concurrent failures count each one", func(t *testing.T) { countsConcurrentFailures(t, db) })

		t.Run("unknown and empty ids", func(t *testing.T) {
			require.ErrorIs(t, models.MarkEndpointResult(ctx, db, "we_missing", false, 3), models.ErrNotFound)
			require.ErrorIs(t, models.MarkEndpointResult(ctx, db, "we_missing", true, 3), models.ErrNotFound)
			require.NoError(t, models.MarkEndpointResult(ctx, db, "", false, 3), "a per-request URL has no endpoint")
		})
	})
}

// countsConcurrentFailures: five failures marked at once each count, and
// the fifth disables the endpoint.
func countsConcurrentFailures(t *testing.T, db *gorm.DB) {
	ctx := context.Background()
	ep := createEndpoint(t, db)
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Go(func() { errs[i] = models.MarkEndpointResult(ctx, db, ep.ID, false, 5) })
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	var got models.WebhookEndpoint
	require.NoError(t, db.Where("id = ?", ep.ID).Take(&got).Error)
	require.Equal(t, 5, got.Failures)
	require.True(t, got.Disabled)
	require.Equal(t, "5 consecutive failed deliveries", got.DisabledReason)
}

// createEndpoint writes an enabled endpoint of user 1 for job.succeeded.
func createEndpoint(t *testing.T, db *gorm.DB) models.WebhookEndpoint {
	t.Helper()
	ep := models.WebhookEndpoint{
		ID:     models.NewID("we_"),
		UserID: 1,
		URL:    "https://a.example/hook",
		Events: "job.succeeded",
	}
	require.NoError(t, db.Create(&ep).Error)
	return ep
}

func TestCreateSigningKeyIfAbsent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		keys, err := models.SigningKeys(ctx, db)
		require.NoError(t, err)
		require.Empty(t, keys)

		first := &models.SigningKey{ID: "sk_first", Seed: "c2VlZA==", CreatedAt: time.Now().UTC()}
		created, err := models.CreateSigningKeyIfAbsent(ctx, db, first)
		require.NoError(t, err)
		require.True(t, created)

		second := &models.SigningKey{ID: "sk_second", Seed: "c2VlZA==", CreatedAt: time.Now().UTC()}
		created, err = models.CreateSigningKeyIfAbsent(ctx, db, second)
		require.NoError(t, err)
		require.False(t, created, "one active key at most")

		keys, err = models.SigningKeys(ctx, db)
		require.NoError(t, err)
		require.Len(t, keys, 1)
		require.Equal(t, "sk_first", keys[0].ID)
		require.True(t, keys[0].Active)

		require.NoError(t, db.Model(&models.SigningKey{}).Where("id = ?", "sk_first").Update("active", false).Error)
		created, err = models.CreateSigningKeyIfAbsent(ctx, db, second)
		require.NoError(t, err)
		require.True(t, created, "a new key after the old one is retired")
		keys, err = models.SigningKeys(ctx, db)
		require.NoError(t, err)
		require.Len(t, keys, 2)
		require.Equal(t, "sk_second", keys[0].ID, "the active key first")
		require.False(t, keys[1].Active)

		require.NoError(t, db.Model(&models.SigningKey{}).Where("id = ?", "sk_second").Update("active", false).Error,
			"retired keys are not limited to one")
		created, err = models.CreateSigningKeyIfAbsent(
			ctx,
			db,
			&models.SigningKey{ID: "sk_third", Seed: "c2VlZA==", CreatedAt: time.Now().UTC()},
		)
		require.NoError(t, err)
		require.True(t, created)
		keys, err = models.SigningKeys(ctx, db)
		require.NoError(t, err)
		require.Len(t, keys, 3)
		require.Equal(t, "sk_third", keys[0].ID)
	})
}
