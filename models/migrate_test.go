package models_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestMigrateAndCheckSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tables := []string{
		"users",
		"api_keys",
		"credit_batches",
		"ledger_entries",
		"webhook_endpoints",
		"jobs",
		"files",
		"idempotency_keys",
		"schema_migrations",
	}
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			db := testenv.EmptyDB(t, b)

			err := models.CheckSchema(ctx, db)
			require.ErrorIs(t, err, models.ErrSchemaOutdated, "an empty database is not migrated")

			require.NoError(t, models.Migrate(ctx, db))
			require.NoError(t, models.CheckSchema(ctx, db))
			for _, table := range tables {
				require.True(t, db.Migrator().HasTable(table), "table %s", table)
			}

			require.NoError(t, models.Migrate(ctx, db), "migrating twice is a no-op")
			require.NoError(t, models.CheckSchema(ctx, db))
		})
	}
}

func TestCheckSchemaMissingMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		require.NoError(t, db.Exec("DELETE FROM schema_migrations").Error)
		err := models.CheckSchema(ctx, db)
		require.True(t, errors.Is(err, models.ErrSchemaOutdated), "got %v", err)
		require.ErrorContains(t, err, "missing 0001_accounts_credits")

		require.NoError(t, models.Migrate(ctx, db), "a missing version is applied again")
		require.NoError(t, models.CheckSchema(ctx, db))
	})
}
