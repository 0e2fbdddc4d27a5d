package models

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlansSayWhatTheyInclude: the starter plan leaves out photoshoots (and
// video), the standard plan runs every category, and the list the admin
// command shows names each plan with what it includes.
func TestPlansSayWhatTheyInclude(t *testing.T) {
	for _, tc := range []struct {
		plan, category string
		allowed        bool
	}{
		{PlanStarter, "photoshoots", false},
		{PlanStarter, "video", false},
		{PlanStarter, "image_editing", true},
		{PlanStandard, "photoshoots", true},
	} {
		require.Equal(t, tc.allowed, PlanOf(tc.plan).AllowsCategory(tc.category), "%s %s", tc.plan, tc.category)
	}
	require.Equal(
		t,
		"app_only (no API access; the app only), standard (API access, every task category), starter (API access; no "+
			"video or photoshoots tasks)",
		PlanList(),
	)
}
