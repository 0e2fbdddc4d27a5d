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

func TestKeyName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		err      error
	}{
		{"", "", nil},
		{"  ci  ", "ci", nil},
		{strings.Repeat("ü", models.MaxKeyNameLen), strings.Repeat("ü", models.MaxKeyNameLen), nil},
		{" " + strings.Repeat("a", models.MaxKeyNameLen) + " ", strings.Repeat("a", models.MaxKeyNameLen), nil},
		{strings.Repeat("a", models.MaxKeyNameLen+1), "", models.ErrKeyNameTooLong},
	} {
		got, err := models.KeyName(tc.in)
		require.ErrorIs(t, err, tc.err)
		require.Equal(t, tc.want, got)
	}
}

func TestNamedKeysKeepTheirNameWhenRolledAndRename(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		k, _, err := models.CreateNamedKey(ctx, db, u.ID, " deploy ", nil, nil, "2026-09-29")
		require.NoError(t, err)
		require.Equal(t, "deploy", k.Name)

		nk, _, err := models.RollKey(ctx, db, k.ID, time.Hour, time.Now().UTC(), "2026-09-29")
		require.NoError(t, err)
		require.Equal(t, "deploy", nk.Name)

		renamed, err := models.RenameKey(ctx, db, u.ID, nk.ID, "prod")
		require.NoError(t, err)
		require.Equal(t, "prod", renamed.Name)
		keys, err := models.KeysOfUser(ctx, db, u.ID)
		require.NoError(t, err)
		require.Equal(t, []string{"deploy", "prod"}, []string{keys[0].Name, keys[1].Name})

		other, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		_, err = models.RenameKey(ctx, db, other.ID, nk.ID, "x")
		require.ErrorIs(t, err, models.ErrNotFound)
		_, err = models.RenameKey(ctx, db, u.ID, nk.ID, strings.Repeat("a", models.MaxKeyNameLen+1))
		require.ErrorIs(t, err, models.ErrKeyNameTooLong)
		_, _, err = models.CreateNamedKey(ctx, db, u.ID, strings.Repeat("a", 65), nil, nil, "2026-09-29")
		require.ErrorIs(t, err, models.ErrKeyNameTooLong)
	})
}
