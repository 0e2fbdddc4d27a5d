package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestRetentionConfig(t *testing.T) {
	clearEnv(t)
	c, err := loadConfig()
	require.NoError(t, err)
	require.Equal(t, 90*24*time.Hour, c.RequestLogRetention)
	require.Equal(t, 30*24*time.Hour, c.DeliveryRetention)
	require.Equal(t, 5000, c.PruneBatch)

	t.Setenv("TP_REQUEST_LOG_RETENTION", "7d")
	t.Setenv("TP_DELIVERY_RETENTION", "36h")
	t.Setenv("TP_PRUNE_BATCH", "100")
	c, err = loadConfig()
	require.NoError(t, err)
	require.Equal(
		t,
		retention{requestLog: 7 * 24 * time.Hour, deliveries: 36 * time.Hour, batch: 100, every: time.Hour},
		c.retention(),
	)

	t.Setenv("TP_DELIVERY_RETENTION", "0")
	c, err = loadConfig()
	require.NoError(t, err)
	require.Zero(t, c.DeliveryRetention, "0 keeps deliveries forever")

	for name, bad := range map[string]string{"TP_REQUEST_LOG_RETENTION": "a week", "TP_DELIVERY_RETENTION": "-1d",
		"TP_PRUNE_BATCH": "0"} {
		clearEnv(t)
		t.Setenv(name, bad)
		_, err := loadConfig()
		require.ErrorContains(t, err, name, "%s=%s is refused", name, bad)
	}
}

// TestWorkerPrunesOldRowsAtStart: the retention loop the worker and dev
// start prunes at once, in batches, old calls and finished deliveries, and
// keeps recent ones; stopping it waits for it.
func TestWorkerPrunesOldRowsAtStart(t *testing.T) {
	db := testenv.DB(t, testenv.Postgres)
	ctx := context.Background()
	now := time.Now().UTC()
	var calls []models.RequestLog
	for i := range 7 {
		calls = append(
			calls,
			models.RequestLog{
				RequestID: models.NewID("req_"),
				UserID:    1,
				APIKeyID:  "key_a",
				Method:    "GET",
				Path:      "/v1/jobs",
				Status:    200,
				CreatedAt: now.Add(-time.Duration(91+i) * 24 * time.Hour),
			},
		)
	}
	recent := models.RequestLog{
		RequestID: models.NewID("req_"),
		UserID:    1,
		APIKeyID:  "key_a",
		Method:    "GET",
		Path:      "/v1/jobs",
		Status:    200,
		CreatedAt: now.Add(-time.Hour),
	}
	require.NoError(t, models.InsertRequestLogs(ctx, db, append(calls, recent)))
	for _, d := range []models.WebhookDelivery{
		{ID: "whd_old", Status: models.DeliveryDelivered, CreatedAt: now.Add(-31 * 24 * time.Hour)},
		{ID: "whd_retrying", Status: models.DeliveryPending, CreatedAt: now.Add(-31 * 24 * time.Hour)},
		{ID: "whd_new", Status: models.DeliveryFailed, CreatedAt: now.Add(-time.Hour)},
	} {
		d.EventID, d.UserID, d.URL, d.Event, d.Body, d.UpdatedAt = "evt_1", 1, "https://example.com/hook", "job.succeeded",
			"{}", d.CreatedAt
		require.NoError(t, models.CreateDelivery(ctx, db, &d))
	}

	clearEnv(t)
	t.Setenv("TP_PRUNE_BATCH", "3")
	cfg, err := loadConfig()
	require.NoError(t, err)
	stop := startRetention(ctx, db, cfg.retention(), zaptest.NewLogger(t))
	require.Eventually(t, func() bool {
		var n int64
		require.NoError(t, db.Model(&models.RequestLog{}).Count(&n).Error)
		var d int64
		require.NoError(t, db.Model(&models.WebhookDelivery{}).Count(&d).Error)
		return n == 1 && d == 2
	}, 10*time.Second, 50*time.Millisecond)
	stop()

	var left []string
	require.NoError(t, db.Model(&models.RequestLog{}).Pluck("request_id", &left).Error)
	require.Equal(t, []string{recent.RequestID}, left)
	require.NoError(t, db.Model(&models.WebhookDelivery{}).Order("id").Pluck("id", &left).Error)
	require.Equal(t, []string{"whd_new", "whd_retrying"}, left)
}

// TestWorkerPrunesExpiredSessions: the same loop deletes the panel
// sessions that have expired and keeps the live one, which still signs in.
func TestWorkerPrunesExpiredSessions(t *testing.T) {
	db := testenv.DB(t, testenv.Postgres)
	ctx := context.Background()
	u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
	require.NoError(t, err)
	now := time.Now().UTC()
	expired, _, err := models.StartSession(ctx, db, u.ID, "", "127.0.0.1", now.Add(-models.SessionLifetime-time.Minute))
	require.NoError(t, err)
	live, _, err := models.StartSession(ctx, db, u.ID, "", "127.0.0.1", now)
	require.NoError(t, err)

	clearEnv(t)
	cfg, err := loadConfig()
	require.NoError(t, err)
	stop := startRetention(ctx, db, cfg.retention(), zaptest.NewLogger(t))
	require.Eventually(t, func() bool {
		var n int64
		require.NoError(t, db.Model(&models.Session{}).Count(&n).Error)
		return n == 1
	}, 10*time.Second, 50*time.Millisecond, "the expired session is pruned")
	stop()

	var left []string
	require.NoError(t, db.Model(&models.Session{}).Pluck("id", &left).Error)
	require.Equal(t, []string{models.HashKey(live)}, left)
	require.NotEqual(t, models.HashKey(expired), left[0])
	got, _, err := models.SessionUser(ctx, db, live, now)
	require.NoError(t, err)
	require.Equal(t, u.ID, got.ID)
}
