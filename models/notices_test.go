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

// TestTaskUsesOnEveryDatabase counts, per account and task, the jobs keys
// started since a time, with the newest one's time — an aggregate SQLite
// answers as text and PostgreSQL as a timestamp. Jobs started in the
// panel (no key), before the window or of other tasks are not counted.
func TestTaskUsesOnEveryDatabase(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		now := time.Date(2026, 9, 29, 12, 30, 15, 123456000, time.UTC)
		a, err := models.CreateUser(ctx, db, "a@example.test", models.PlanStandard)
		require.NoError(t, err)
		b, err := models.CreateUser(ctx, db, "b@example.test", models.PlanStandard)
		require.NoError(t, err)
		started := func(u *models.User, task, key string, ago time.Duration) {
			require.NoError(
				t,
				db.Create(&models.Job{ID: models.NewID("j_"), UserID: u.ID, APIKeyID: key, Task: task, Input: "{}",
					Lifecycle: contract.LifecycleTerminal, CreditType: contract.CreditService, CreatedAt: now.Add(-ago)}).Error,
			)
		}
		day := 24 * time.Hour
		started(a, "pattern.stripes", "key_a", 3*day)
		started(a, "pattern.stripes", "key_a", day+time.Minute)
		started(a, "pattern.stripes", "key_a2", day)
		started(a, "pattern.stripes", "", time.Hour)       // the panel's
		started(a, "pattern.stripes", "key_a", 20*day)     // before the window
		started(a, "pattern.generate", "key_a", time.Hour) // not asked for
		started(b, "pattern.stripes", "key_b", 5*day)

		uses, err := models.TaskUses(ctx, db, []string{"pattern.stripes"}, now.Add(-14*day))
		require.NoError(t, err)
		require.Len(t, uses, 2)
		for i, want := range []models.TaskUse{
			{UserID: a.ID, Email: a.Email, Task: "pattern.stripes", Calls: 3, Last: now.Add(-day)},
			{UserID: b.ID, Email: b.Email, Task: "pattern.stripes", Calls: 1, Last: now.Add(-5 * day)},
		} {
			got := uses[i]
			require.True(
				t,
				want.Last.Equal(got.Last),
				"the last call of %s: want %s, got %s",
				want.Email,
				want.Last,
				got.Last,
			)
			got.Last = want.Last
			require.Equal(t, want, got)
		}
	})
}
