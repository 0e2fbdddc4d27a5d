package models_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// deletes are the rows each DELETE of the log deleted, in order.
func (s *statements) deletes(table string) []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int64
	for i, sql := range s.sqls {
		if strings.HasPrefix(sql, "DELETE FROM") && strings.Trim(strings.Fields(sql)[2], "\"`") == table {
			out = append(out, s.rows[i])
		}
	}
	return out
}

func TestPruneRequestLogsInBatches(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u, other := accountFor(t, db), accountFor(t, db)
		cutoff := time.Now().UTC().Add(-90 * 24 * time.Hour).Truncate(time.Second)
		var old, recent []models.RequestLog
		for i := range 10 {
			old = append(
				old,
				models.RequestLog{
					APIKeyID:  "key_a",
					Status:    200,
					CreatedAt: cutoff.Add(-time.Duration(i+1) * time.Hour),
				},
			)
		}
		for i := range 3 {
			recent = append(
				recent,
				models.RequestLog{
					APIKeyID:  "key_a",
					Status:    200,
					CreatedAt: cutoff.Add(time.Duration(i) * time.Minute),
				},
			)
		}
		calls(t, db, u, append(old, recent...)...)
		calls(t, db, other, models.RequestLog{APIKeyID: "key_z", Status: 500, CreatedAt: cutoff.Add(-time.Minute)},
			models.RequestLog{APIKeyID: "key_z", Status: 200, CreatedAt: cutoff.Add(-48 * time.Hour)})

		log := &statements{}
		n, err := models.PruneRequestLogs(ctx, log.session(db), cutoff, 4)
		require.NoError(t, err)
		require.EqualValues(t, 12, n, "every call before the cutoff, whoever made it")
		require.Equal(
			t,
			[]int64{4, 4, 4, 0},
			log.deletes("request_logs"),
			"in batches of at most 4, until a batch comes back short",
		)

		var left []time.Time
		require.NoError(t, db.Model(&models.RequestLog{}).Order("created_at").Pluck("created_at", &left).Error)
		require.Len(t, left, 3, "the recent calls stay")
		for _, at := range left {
			require.False(t, at.Before(cutoff))
		}
		if models.IsPostgres(db) {
			var counted int64
			require.NoError(
				t,
				db.Raw("SELECT COALESCE(SUM(calls), 0) FROM call_hour_rollups WHERE dim = 'day'").Scan(&counted).Error,
			)
			require.EqualValues(t, 3, counted, "the call rollups forget the pruned calls")
		}

		n, err = models.PruneRequestLogs(ctx, db, cutoff, 4)
		require.NoError(t, err)
		require.Zero(t, n)
	})
}

func TestPruneDeliveriesKeepsPendingAndRecent(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		cutoff := now.Add(-30 * 24 * time.Hour)
		add := func(status string, created time.Time, attempts int) string {
			d := newDelivery(7)
			d.Status, d.CreatedAt, d.UpdatedAt = status, created, created
			require.NoError(t, models.CreateDelivery(ctx, db, d))
			for i := range attempts {
				require.NoError(
					t,
					db.Create(
						&models.WebhookAttempt{DeliveryID: d.ID, Attempt: i + 1, At: created, StatusCode: 500},
					).Error,
				)
			}
			return d.ID
		}
		var gone []string
		for i, status := range []string{models.DeliveryDelivered, models.DeliveryFailed, models.DeliverySkipped,
			models.DeliveryDelivered, models.DeliveryFailed} {
			gone = append(gone, add(status, cutoff.Add(-time.Duration(i+1)*time.Hour), 2))
		}
		kept := []string{
			add(models.DeliveryPending, cutoff.Add(-10*24*time.Hour), 3), // still retrying: its workflow writes to it
			add(models.DeliveryDelivered, cutoff.Add(time.Hour), 1),
			add(models.DeliveryFailed, now, 1),
		}

		log := &statements{}
		n, err := models.PruneDeliveries(ctx, log.session(db), cutoff, 2)
		require.NoError(t, err)
		require.EqualValues(t, 5, n)
		require.Equal(t, []int64{2, 2, 1}, log.deletes("webhook_deliveries"), "in batches of at most 2")

		var ids []string
		require.NoError(t, db.Model(&models.WebhookDelivery{}).Order("created_at").Pluck("id", &ids).Error)
		require.ElementsMatch(t, kept, ids)
		var attempts []string
		require.NoError(
			t,
			db.Model(&models.WebhookAttempt{}).Distinct("delivery_id").Pluck("delivery_id", &attempts).Error,
		)
		require.ElementsMatch(t, kept, attempts, "the attempts go with their delivery")
		for _, id := range gone {
			_, err := models.DeliveryByID(ctx, db, id)
			require.ErrorIs(t, err, models.ErrNotFound)
		}
	})
}
