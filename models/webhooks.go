package models

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	// DeliverySkipped ended without sending: its endpoint was disabled or
	// removed before the attempt.
	DeliverySkipped = "skipped"
)

// WebhookDelivery is one event sent to one receiver (a registered endpoint or
// a job's webhook_url). Its id is the X-Service-Request-Id of every attempt;
// a replay is a new delivery with the same EventID.
type WebhookDelivery struct {
	ID         string `gorm:"primaryKey"`
	EventID    string `gorm:"index;not null"`
	UserID     uint64 `gorm:"index;not null"`
	EndpointID string `gorm:"not null;default:''"`
	URL        string `gorm:"not null"`
	Event      string `gorm:"not null"`
	JobID      string `gorm:"index;not null;default:''"`
	// Body is the exact JSON sent, byte for byte, on every attempt.
	Body           string `gorm:"not null"`
	Status         string `gorm:"not null;default:pending"`
	Attempts       int    `gorm:"not null;default:0"`
	LastStatusCode int    `gorm:"not null;default:0"`
	LastError      string `gorm:"not null;default:''"`
	NextAttemptAt  *time.Time
	CreatedAt      time.Time `gorm:"not null;index"`
	UpdatedAt      time.Time `gorm:"not null"`
}

// WebhookAttempt is one POST of a delivery, for the delivery log. Attempt
// numbers are unique per delivery.
type WebhookAttempt struct {
	ID         uint64    `gorm:"primaryKey"`
	DeliveryID string    `gorm:"not null;index;uniqueIndex:idx_webhook_attempts_delivery_attempt"`
	Attempt    int       `gorm:"not null;uniqueIndex:idx_webhook_attempts_delivery_attempt"`
	At         time.Time `gorm:"not null"`
	StatusCode int       `gorm:"not null;default:0"`
	DurationMS int64     `gorm:"column:duration_ms;not null;default:0"`
	Error      string    `gorm:"not null;default:''"`
	// Response is the first MaxAttemptResponse bytes of the receiver's
	// answer body, as text.
	Response string `gorm:"not null;default:''"`
}

// MaxAttemptResponse is how many bytes of a receiver's answer body an
// attempt keeps.
const MaxAttemptResponse = 2 << 10

// AttemptResponse is the stored text of the start of an answer body: its
// first MaxAttemptResponse bytes, invalid UTF-8 (a rune cut at the end
// included) and NUL bytes, which no database text column takes, replaced
// by U+FFFD.
func AttemptResponse(b []byte) string {
	s := string(b[:min(len(b), MaxAttemptResponse)])
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// CreateDelivery stores a new delivery. An empty ID becomes a fresh "whd_"
// id and an empty Status "pending". A delivery whose id exists already is an
// error wrapping gorm.ErrDuplicatedKey.
func CreateDelivery(ctx context.Context, db *gorm.DB, d *WebhookDelivery) error {
	if d.ID == "" {
		d.ID = NewID("whd_")
	}
	if d.Status == "" {
		d.Status = DeliveryPending
	}
	if err := db.WithContext(ctx).Create(d).Error; err != nil {
		return fmt.Errorf("create delivery %s: %w", d.ID, err)
	}
	return nil
}

// DeliveryByID reads one delivery; an unknown id wraps ErrNotFound.
func DeliveryByID(ctx context.Context, db *gorm.DB, id string) (*WebhookDelivery, error) {
	var d WebhookDelivery
	err := db.WithContext(ctx).Where("id = ?", id).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("delivery %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read delivery %s: %w", id, err)
	}
	return &d, nil
}

// DeliveryAttempts lists the attempts of a delivery in attempt order.
func DeliveryAttempts(ctx context.Context, db *gorm.DB, deliveryID string) ([]WebhookAttempt, error) {
	var out []WebhookAttempt
	if err := db.WithContext(ctx).Where("delivery_id = ?", deliveryID).Order("attempt, id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("read attempts of %s: %w", deliveryID, err)
	}
	return out, nil
}

// RecordAttempt writes one attempt of a delivery and, in the same
// transaction, moves the delivery on: its attempt count, last status code
// and error, status (pending, delivered or failed) and next attempt time.
// a.Attempt 0 means the next number; a zero a.At means now. Recording an
// attempt number that is already stored changes nothing, so a retried
// caller is safe. An unknown delivery wraps ErrNotFound.
func RecordAttempt(
	ctx context.Context,
	db *gorm.DB,
	deliveryID string,
	a WebhookAttempt,
	status string,
	next *time.Time,
) error {
	switch status {
	case DeliveryPending, DeliveryDelivered, DeliveryFailed:
	default:
		return fmt.Errorf("record attempt of %s: unknown status %q", deliveryID, status)
	}
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var d WebhookDelivery
		q := tx
		if IsPostgres(tx) {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		err := q.Select("id", "attempts").Where("id = ?", deliveryID).Take(&d).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return fmt.Errorf("delivery %s: %w", deliveryID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("read delivery %s: %w", deliveryID, err)
		}
		a.ID = 0
		a.DeliveryID = deliveryID
		if a.Attempt <= 0 {
			a.Attempt = d.Attempts + 1
		}
		if a.At.IsZero() {
			a.At = tx.NowFunc()
		}
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&a)
		if res.Error != nil {
			return fmt.Errorf("record attempt %d of %s: %w", a.Attempt, deliveryID, res.Error)
		}
		if res.RowsAffected == 0 {
			return nil // this attempt was recorded before
		}
		var nextAt any
		if next != nil {
			nextAt = next.UTC()
		}
		err = tx.Model(&WebhookDelivery{}).Where("id = ?", deliveryID).Updates(map[string]any{
			"attempts":         max(d.Attempts, a.Attempt),
			"last_status_code": a.StatusCode,
			"last_error":       a.Error,
			"status":           status,
			"next_attempt_at":  nextAt,
			"updated_at":       tx.NowFunc(),
		}).Error
		if err != nil {
			return fmt.Errorf("update delivery %s: %w", deliveryID, err)
		}
		return nil
	})
}

// SubscribesTo says whether a comma-separated event list names event.
func SubscribesTo(events, event string) bool {
	return event != "" &&
		slices.ContainsFunc(strings.Split(events, ","), func(e string) bool { return strings.TrimSpace(e) == event })
}

// EndpointsFor lists the enabled endpoints of a user subscribed to event
// (their comma-separated Events include it), oldest first.
func EndpointsFor(ctx context.Context, db *gorm.DB, userID uint64, event string) ([]WebhookEndpoint, error) {
	var all []WebhookEndpoint
	err := db.WithContext(ctx).
		Where("user_id = ? AND disabled = ?", userID, false).
		Order("created_at, id").
		Find(&all).
		Error
	if err != nil {
		return nil, fmt.Errorf("read endpoints of user %d: %w", userID, err)
	}
	out := all[:0]
	for _, ep := range all {
		if SubscribesTo(ep.Events, event) {
			out = append(out, ep)
		}
	}
	return out, nil
}

// MarkEndpointResult counts the outcome of a finished delivery against its
// endpoint: a success resets Failures to 0; a failure adds one and, once
// Failures reaches disableAfter (> 0), disables the endpoint with the reason
// "N consecutive failed deliveries". An empty endpointID (a per-request
// webhook_url) does nothing; an unknown one wraps ErrNotFound.
func MarkEndpointResult(ctx context.Context, db *gorm.DB, endpointID string, ok bool, disableAfter int) error {
	if endpointID == "" {
		return nil
	}
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		set := map[string]any{"failures": 0}
		if !ok {
			set["failures"] = gorm.Expr("failures + 1")
		}
		res := tx.Model(&WebhookEndpoint{}).Where("id = ?", endpointID).Updates(set)
		if res.Error != nil {
			return fmt.Errorf("update endpoint %s: %w", endpointID, res.Error)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("endpoint %s: %w", endpointID, ErrNotFound)
		}
		if ok || disableAfter <= 0 {
			return nil
		}
		var ep WebhookEndpoint
		if err := tx.Select("id", "failures", "disabled").Where("id = ?", endpointID).Take(&ep).Error; err != nil {
			return fmt.Errorf("read endpoint %s: %w", endpointID, err)
		}
		if ep.Disabled || ep.Failures < disableAfter {
			return nil
		}
		err := tx.Model(&WebhookEndpoint{}).Where("id = ?", endpointID).Updates(map[string]any{
			"disabled":        true,
			"disabled_reason": fmt.Sprintf("%d consecutive failed deliveries", ep.Failures),
		}).Error
		if err != nil {
			return fmt.Errorf("disable endpoint %s: %w", endpointID, err)
		}
		return nil
	})
}

// EndpointEnabled says whether the endpoint with id exists and is enabled.
func EndpointEnabled(ctx context.Context, db *gorm.DB, id string) (bool, error) {
	var n int64
	err := db.WithContext(ctx).Model(&WebhookEndpoint{}).Where("id = ? AND disabled = ?", id, false).Count(&n).Error
	if err != nil {
		return false, fmt.Errorf("read endpoint %s: %w", id, err)
	}
	return n > 0, nil
}

// SkipDelivery ends a pending delivery without sending it: status skipped,
// reason as its last error, no next attempt. A delivery no longer pending
// is left as it is.
func SkipDelivery(ctx context.Context, db *gorm.DB, id, reason string) error {
	err := db.WithContext(ctx).
		Model(&WebhookDelivery{}).
		Where("id = ? AND status = ?", id, DeliveryPending).
		Updates(map[string]any{
			"status": DeliverySkipped, "last_error": reason, "next_attempt_at": nil, "updated_at": db.NowFunc(),
		}).
		Error
	if err != nil {
		return fmt.Errorf("skip delivery %s: %w", id, err)
	}
	return nil
}

// PruneDeliveries deletes the finished deliveries (delivered, failed or
// skipped) created before cutoff and their attempts, at most batch
// deliveries per transaction, until none is left or ctx ends, and returns
// how many deliveries it deleted. Pending deliveries are kept whatever
// their age: their workflow still writes to them.
func PruneDeliveries(ctx context.Context, db *gorm.DB, cutoff time.Time, batch int) (int64, error) {
	return pruneInBatches(ctx, batch, func(n int) (int64, error) {
		var deleted int64
		err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var ids []string
			err := tx.Raw(
				"SELECT id FROM webhook_deliveries WHERE created_at < ? AND status IN ? ORDER BY created_at LIMIT ?"+skipLocked(tx),
				cutoff, []string{DeliveryDelivered, DeliveryFailed, DeliverySkipped}, n).
				Scan(&ids).
				Error
			if err != nil || len(ids) == 0 {
				return err
			}
			if err := tx.Where("delivery_id IN ?", ids).Delete(&WebhookAttempt{}).Error; err != nil {
				return err
			}
			res := tx.Where("id IN ?", ids).Delete(&WebhookDelivery{})
			deleted = res.RowsAffected
			return res.Error
		})
		return deleted, err
	})
}
