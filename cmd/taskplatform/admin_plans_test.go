package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestAdminPlanNamesThePlans: an unknown --plan is refused with every plan
// and what it includes; a starter account is made on the starter plan.
func TestAdminPlanNamesThePlans(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		_, err := runAdminLine(t, db, "user create --email a@example.com --plan gold")
		var usage *usageError
		require.True(t, errors.As(err, &usage), "want a usage error, got %v", err)
		require.Contains(t, usage.Error(), models.PlanList())
		require.Contains(t, models.PlanList(), "starter (API access; no video or photoshoots tasks)")

		adminOK(t, db, "user create --email shop@example.com --plan starter")
		var u models.User
		require.NoError(t, db.Take(&u, "email = ?", "shop@example.com").Error)
		require.Equal(t, models.PlanStarter, u.Plan)
	})
}
