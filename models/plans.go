package models

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gorm.io/gorm"
)

// PlanStarter is a plan with API access that does not run video or
// photoshoot tasks.
const PlanStarter = "starter"

// PlanRules is what a plan includes.
type PlanRules struct {
	// APIAccess lets the account's keys call the keyed API.
	APIAccess bool
	// ExcludedCategories are the task categories (tasks.Category*) the plan
	// does not run; a call naming such a task answers permission_denied.
	ExcludedCategories []string
	// Weight is the account's share of the task queues beside other
	// accounts with work waiting (Temporal's fairness weight): an account
	// of weight 2 has two tasks dispatched for every one of an account of
	// weight 1, whatever either's backlog.
	Weight float32
}

// Plans is the one place plans are defined: every plan an account can be on
// and what it includes. An account on a plan missing here has no API access.
var Plans = map[string]PlanRules{
	PlanStandard: {APIAccess: true, Weight: 2},
	PlanStarter:  {APIAccess: true, ExcludedCategories: []string{"video", "photoshoots"}, Weight: 1},
	PlanAppOnly:  {APIAccess: false, Weight: 1},
}

// PlanOf returns the rules of a plan; an unknown plan includes nothing.
func PlanOf(name string) PlanRules { return Plans[name] }

// PlanWeight is the fairness weight of a plan; 1 for a plan missing here.
func PlanWeight(name string) float32 {
	if w := Plans[name].Weight; w > 0 {
		return w
	}
	return 1
}

// AccountWeight reads the fairness weight of an account's plan.
func AccountWeight(ctx context.Context, db *gorm.DB, userID uint64) (float32, error) {
	var plans []string
	err := db.WithContext(ctx).Model(&User{}).Where("id = ?", userID).Pluck("plan", &plans).Error
	if err != nil {
		return 0, fmt.Errorf("plan of account %d: %w", userID, err)
	}
	if len(plans) == 0 {
		return PlanWeight(""), nil
	}
	return PlanWeight(plans[0]), nil
}

// AllowsCategory says whether the plan runs tasks of a category.
func (p PlanRules) AllowsCategory(category string) bool {
	for _, c := range p.ExcludedCategories {
		if c == category {
			return false
		}
	}
	return true
}

// Describe says what the plan includes, in a few words: API access, and
// the task categories it leaves out.
func (p PlanRules) Describe() string {
	if !p.APIAccess {
		return "no API access; the app only"
	}
	if len(p.ExcludedCategories) == 0 {
		return "API access, every task category"
	}
	return "API access; no " + strings.Join(p.ExcludedCategories, " or ") + " tasks"
}

// PlanList names every plan with what it includes, in name order, for help
// texts and usage errors: "app_only (no API access; …), standard (…)".
func PlanList() string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(Plans)) {
		out = append(out, name+" ("+Plans[name].Describe()+")")
	}
	return strings.Join(out, ", ")
}
