package models

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"gorm.io/gorm"
)

// RequestLog is one call made with an API key: the account's request log,
// and the call counts of its metrics.
type RequestLog struct {
	ID              uint64 `gorm:"primaryKey"`
	RequestID       string `gorm:"uniqueIndex;not null"`
	UserID          uint64 `gorm:"not null;index:idx_request_logs_user_created,priority:1"`
	APIKeyID        string `gorm:"not null;index"`
	Method          string `gorm:"not null"`
	Route           string `gorm:"not null;default:''"`
	Path            string `gorm:"not null"`
	Task            string `gorm:"not null;default:''"`
	Status          int    `gorm:"not null"`
	ErrorCode       string `gorm:"not null;default:''"`
	DurationMS      int64  `gorm:"not null"`
	ClientRequestID string `gorm:"not null;default:''"`
	ServiceVersion  string `gorm:"not null;default:''"`
	// CreatedAt is when the call arrived.
	CreatedAt time.Time `gorm:"not null;index:idx_request_logs_user_created,priority:2"`
}

// InsertRequestLogs writes a batch of calls in one statement per 500 rows.
func InsertRequestLogs(ctx context.Context, db *gorm.DB, rows []RequestLog) error {
	if len(rows) == 0 {
		return nil
	}
	if err := db.WithContext(ctx).CreateInBatches(rows, 500).Error; err != nil {
		return fmt.Errorf("write request log: %w", err)
	}
	return nil
}

// RequestFilter narrows a request-log listing; zero fields do not filter.
type RequestFilter struct {
	APIKeyID   string
	Start, End time.Time
}

// ListRequests lists a user's calls newest first from after (nil: the
// start).
func ListRequests(ctx context.Context, db *gorm.DB, userID uint64, f RequestFilter, after *Position, limit int) (Page[RequestLog], error) {
	q := db.WithContext(ctx).Where("user_id = ?", userID)
	if f.APIKeyID != "" {
		q = q.Where("api_key_id = ?", f.APIKeyID)
	}
	if !f.Start.IsZero() {
		q = q.Where("created_at >= ?", f.Start)
	}
	if !f.End.IsZero() {
		q = q.Where("created_at < ?", f.End)
	}
	return newestFirst(q, after, limit, numericID, func(r *RequestLog) Position {
		return Position{At: r.CreatedAt, ID: strconv.FormatUint(r.ID, 10)}
	})
}

// PruneRequestLogs deletes calls that arrived before cutoff.
func PruneRequestLogs(ctx context.Context, db *gorm.DB, cutoff time.Time) (int64, error) {
	res := db.WithContext(ctx).Where("created_at < ?", cutoff).Delete(&RequestLog{})
	return res.RowsAffected, res.Error
}
