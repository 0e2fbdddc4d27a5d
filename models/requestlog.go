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
func ListRequests(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	f RequestFilter,
	after *Position,
	limit int,
) (Page[RequestLog], error) {
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

// PruneRequestLogs deletes the calls that arrived before cutoff, at most
// batch rows per statement (each its own short transaction), until none is
// left or ctx ends, and returns how many it deleted. Concurrent pruners
// skip each other's rows instead of waiting.
func PruneRequestLogs(ctx context.Context, db *gorm.DB, cutoff time.Time, batch int) (int64, error) {
	return pruneInBatches(ctx, batch, func(n int) (int64, error) {
		sql := "DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE created_at < ? ORDER BY " +
			"created_at LIMIT ?" + skipLocked(
			db,
		) + ")"
		res := db.WithContext(ctx).Exec(sql, cutoff, n)
		return res.RowsAffected, res.Error
	})
}

// pruneInBatches runs one batch of at most batch rows (at least 1) at a
// time until a batch comes back short or ctx ends; it returns the total.
func pruneInBatches(ctx context.Context, batch int, one func(n int) (int64, error)) (int64, error) {
	batch = max(batch, 1)
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		n, err := one(batch)
		total += n
		if err != nil {
			return total, fmt.Errorf("prune: %w", err)
		}
		if n < int64(batch) {
			return total, nil
		}
	}
}

// skipLocked makes a row-selecting subquery skip rows another transaction
// locked (PostgreSQL; SQLite has one writer at a time anyway).
func skipLocked(db *gorm.DB) string {
	if IsPostgres(db) {
		return " FOR UPDATE SKIP LOCKED"
	}
	return ""
}
