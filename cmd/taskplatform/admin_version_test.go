package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestAdminUserPinVersion(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		adminOK(t, db, "user create --email pin@example.com")
		adminOK(t, db, "key create --user pin@example.com")
		u, err := models.UserByEmail(context.Background(), db, "pin@example.com")
		require.NoError(t, err)
		require.Equal(t, contract.CurrentVersion, u.ServiceVersion, "the first key pins the current version")

		require.Equal(
			t,
			contract.FirstVersion,
			adminOK(t, db, "user pin-version --user pin@example.com --version "+contract.FirstVersion),
		)
		u, err = models.UserByEmail(context.Background(), db, "pin@example.com")
		require.NoError(t, err)
		require.Equal(t, contract.FirstVersion, u.ServiceVersion)

		_, err = runAdminLine(t, db, "user pin-version --user pin@example.com --version 2025-01-01")
		var ue *usageError
		require.ErrorAs(t, err, &ue)
		_, err = runAdminLine(t, db, "user pin-version --user nobody@example.com --version "+contract.FirstVersion)
		require.ErrorIs(t, err, models.ErrNotFound)
	})
}
