package models

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"
)

// SubscribedEvents lists the events at least one enabled endpoint of the
// user subscribes to, sorted.
func SubscribedEvents(ctx context.Context, db *gorm.DB, userID uint64) ([]string, error) {
	var lists []string
	if err := db.WithContext(ctx).Model(&WebhookEndpoint{}).Where("user_id = ? AND disabled = ?", userID, false).Pluck(
		"events", &lists).Error; err != nil {
		return nil, err
	}
	var out []string
	for _, l := range lists {
		for _, e := range strings.Split(l, ",") {
			if e = strings.TrimSpace(e); e != "" && !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// EnableEndpoint re-enables an endpoint and resets its failure count.
func EnableEndpoint(ctx context.Context, db *gorm.DB, id string) error {
	res := db.WithContext(ctx).Model(&WebhookEndpoint{}).Where("id = ?", id).
		Updates(map[string]any{"disabled": false, "disabled_reason": "", "failures": 0})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("endpoint %s: %w", id, ErrNotFound)
	}
	return nil
}
