package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// DefaultEndpointEvents are what an endpoint left at its defaults receives:
// the terminal events.
const DefaultEndpointEvents = "job.succeeded,job.failed,job.cancelled"

// CreateEndpoint registers a webhook endpoint of a user; ep.ID is set when
// empty and an empty Events means DefaultEndpointEvents. The caller has
// checked the URL and the events.
func CreateEndpoint(ctx context.Context, db *gorm.DB, ep *WebhookEndpoint) error {
	if ep.ID == "" {
		ep.ID = NewID("whe_")
	}
	if ep.Events == "" {
		ep.Events = DefaultEndpointEvents
	}
	if err := db.WithContext(ctx).Create(ep).Error; err != nil {
		return fmt.Errorf("create endpoint: %w", err)
	}
	return nil
}

// EndpointsOfUser lists a user's endpoints, oldest first.
func EndpointsOfUser(ctx context.Context, db *gorm.DB, userID uint64) ([]WebhookEndpoint, error) {
	var out []WebhookEndpoint
	if err := db.WithContext(ctx).Where("user_id = ?", userID).Order("created_at, id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list endpoints: %w", err)
	}
	return out, nil
}

// EndpointOfUser reads one endpoint of a user; another user's or an
// unknown id wraps ErrNotFound.
func EndpointOfUser(ctx context.Context, db *gorm.DB, userID uint64, id string) (*WebhookEndpoint, error) {
	var ep WebhookEndpoint
	err := db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&ep).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("endpoint %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read endpoint %s: %w", id, err)
	}
	return &ep, nil
}

// UpdateEndpoint changes the URL or the events of a user's endpoint (an
// empty value keeps the stored one).
func UpdateEndpoint(ctx context.Context, db *gorm.DB, userID uint64, id, url, events string) (*WebhookEndpoint, error) {
	set := map[string]any{}
	if url != "" {
		set["url"] = url
	}
	if events != "" {
		set["events"] = events
	}
	if len(set) > 0 {
		res := db.WithContext(ctx).Model(&WebhookEndpoint{}).Where("id = ? AND user_id = ?", id, userID).Updates(set)
		if res.Error != nil {
			return nil, fmt.Errorf("update endpoint %s: %w", id, res.Error)
		}
	}
	return EndpointOfUser(ctx, db, userID, id)
}

// DeleteEndpoint removes a user's endpoint; its pending deliveries are
// skipped when their turn comes.
func DeleteEndpoint(ctx context.Context, db *gorm.DB, userID uint64, id string) error {
	res := db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Delete(&WebhookEndpoint{})
	if res.Error != nil {
		return fmt.Errorf("delete endpoint %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("endpoint %s: %w", id, ErrNotFound)
	}
	return nil
}

// DeliveryQuery filters a user's delivery log; empty fields do not filter.
type DeliveryQuery struct {
	UserID                    uint64
	Event, Status, EndpointID string
	JobID                     string
	Start, End                *time.Time
	After                     *Position
	Limit                     int
}

// ListDeliveries is a page of a user's deliveries, newest first.
func ListDeliveries(ctx context.Context, db *gorm.DB, q DeliveryQuery) (Page[WebhookDelivery], error) {
	tx := db.WithContext(ctx).Where("user_id = ?", q.UserID)
	for col, v := range map[string]string{"event": q.Event, "status": q.Status, "endpoint_id": q.EndpointID, "job_id": q.JobID} {
		if v != "" {
			tx = tx.Where(col+" = ?", v)
		}
	}
	if q.Start != nil {
		tx = tx.Where("created_at >= ?", *q.Start)
	}
	if q.End != nil {
		tx = tx.Where("created_at < ?", *q.End)
	}
	return newestFirst(tx, q.After, max(q.Limit, 1), textID, func(d *WebhookDelivery) Position { return Position{At: d.CreatedAt, ID: d.ID} })
}

// AttemptsOf lists the attempts of several deliveries, by delivery id, in
// attempt order.
func AttemptsOf(ctx context.Context, db *gorm.DB, deliveryIDs []string) (map[string][]WebhookAttempt, error) {
	out := make(map[string][]WebhookAttempt, len(deliveryIDs))
	if len(deliveryIDs) == 0 {
		return out, nil
	}
	var rows []WebhookAttempt
	if err := db.WithContext(ctx).Where("delivery_id IN ?", deliveryIDs).Order("attempt, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("read attempts: %w", err)
	}
	for _, a := range rows {
		out[a.DeliveryID] = append(out[a.DeliveryID], a)
	}
	return out, nil
}

// KeyOfUser reads one key of a user; another user's or an unknown id wraps
// ErrNotFound.
func KeyOfUser(ctx context.Context, db *gorm.DB, userID uint64, keyID string) (*APIKey, error) {
	var k APIKey
	err := db.WithContext(ctx).Where("id = ? AND user_id = ?", keyID, userID).Take(&k).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("key %s: %w", keyID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read key %s: %w", keyID, err)
	}
	return &k, nil
}

// ListJobsByOutcome is ListJobs also filtered by outcome: a job outcome
// (succeeded, failed, cancelled…), "running" for jobs without one yet, or
// "" for all.
func ListJobsByOutcome(ctx context.Context, db *gorm.DB, userID uint64, keyID, outcome string, after *Position, limit int) (Page[Job], error) {
	q := db.WithContext(ctx).Where("user_id = ?", userID)
	if keyID != "" {
		q = q.Where("api_key_id = ?", keyID)
	}
	switch outcome {
	case "":
	case "running":
		q = q.Where("outcome IS NULL")
	default:
		q = q.Where("outcome = ?", outcome)
	}
	return newestFirst(q, after, limit, textID, func(j *Job) Position { return Position{At: j.CreatedAt, ID: j.ID} })
}
