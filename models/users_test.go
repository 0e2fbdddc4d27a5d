package models_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// accountFor creates a user with a unique email for one test.
func accountFor(t *testing.T, db *gorm.DB) *models.User {
	t.Helper()
	u, err := models.CreateUser(context.Background(), db, models.NewID("u_")+"@example.com", models.PlanStandard)
	require.NoError(t, err)
	return u
}

func TestCreateUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u, err := models.CreateUser(ctx, db, "  Ada@Example.COM ", "")
		require.NoError(t, err)
		require.NotZero(t, u.ID)
		require.Equal(t, "ada@example.com", u.Email, "stored trimmed and lowercased")
		require.Equal(t, models.PlanStandard, u.Plan, "empty plan is standard")
		require.Empty(t, u.ServiceVersion, "no key yet, no pinned version")

		got, err := models.UserByEmail(ctx, db, "ADA@example.com")
		require.NoError(t, err)
		require.Equal(t, u.ID, got.ID)
		got, err = models.UserByID(ctx, db, u.ID)
		require.NoError(t, err)
		require.Equal(t, "ada@example.com", got.Email)

		app, err := models.CreateUser(ctx, db, "app@example.com", models.PlanAppOnly)
		require.NoError(t, err)
		require.Equal(t, models.PlanAppOnly, app.Plan)
	})
}

func TestCreateUserDuplicate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		_, err := models.CreateUser(ctx, db, "dup@example.com", models.PlanStandard)
		require.NoError(t, err)
		for _, email := range []string{"dup@example.com", "DUP@example.com", " dup@example.com"} {
			_, err = models.CreateUser(ctx, db, email, models.PlanStandard)
			require.ErrorContains(t, err, "user dup@example.com already exists", "email %q", email)
		}
		var n int64
		require.NoError(t, db.Model(&models.User{}).Where("email = ?", "dup@example.com").Count(&n).Error)
		require.EqualValues(t, 1, n)
	})
}

func TestUserNotFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		_, err := models.UserByEmail(ctx, db, "nobody@example.com")
		require.ErrorIs(t, err, models.ErrNotFound)
		_, err = models.UserByID(ctx, db, 999999)
		require.ErrorIs(t, err, models.ErrNotFound)
	})
}

// An account's fairness weight is its plan's: standard weighs twice a
// starter account; an account missing weighs the default 1.
func TestAccountWeight(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		std, err := models.CreateUser(ctx, db, models.NewID("u_")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		starter, err := models.CreateUser(ctx, db, models.NewID("u_")+"@example.com", models.PlanStarter)
		require.NoError(t, err)
		for _, tc := range []struct {
			id   uint64
			want float32
		}{{std.ID, 2}, {starter.ID, 1}, {starter.ID + 1000, 1}} {
			w, err := models.AccountWeight(ctx, db, tc.id)
			require.NoError(t, err)
			require.Equal(t, tc.want, w, "account %d", tc.id)
		}
	})
}
