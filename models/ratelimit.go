package models

import (
	"context"
	"fmt"
	"math"
	"time"

	"gorm.io/gorm"
)

// RateWindow counts the calls of one subject (an API key or a client
// address) in one fixed window. Windows are aligned to whole multiples of
// their length since the Unix epoch on the database clock, so every API
// process counts into the same row whatever its own clock says.
type RateWindow struct {
	Subject string `gorm:"primaryKey"`
	// WindowStart is the window's first second, in Unix seconds.
	WindowStart int64 `gorm:"primaryKey;autoIncrement:false;index"`
	Calls       int64 `gorm:"not null"`
}

// RateHit is the state of a window just after a call was counted in it.
type RateHit struct {
	// Calls is how many calls the window holds, this one included.
	Calls int64
	// Reset is the time left until the window ends, by the database clock.
	Reset time.Duration
}

// ResetSeconds is Reset rounded up to whole seconds, at least 1.
func (h RateHit) ResetSeconds() int64 {
	return max(1, int64(math.Ceil(h.Reset.Seconds())))
}

func windowSeconds(window time.Duration) int64 { return max(1, int64(window/time.Second)) }

// HitRate counts one call of subject in the current window of the given
// length with one upsert, and returns the window's count and the time left.
// The window start and the time left come from the database clock in the
// same statement.
func HitRate(ctx context.Context, db *gorm.DB, subject string, window time.Duration) (RateHit, error) {
	w := windowSeconds(window)
	var q string
	if IsPostgres(db) {
		q = `INSERT INTO rate_windows (subject, window_start, calls)
VALUES (@s, (floor(extract(epoch from now()) / CAST(@w AS bigint)) * CAST(@w AS bigint))::bigint, 1)
ON CONFLICT (subject, window_start) DO UPDATE SET calls = rate_windows.calls + 1
RETURNING calls, window_start, extract(epoch from now())::float8`
	} else {
		q = `INSERT INTO rate_windows (subject, window_start, calls)
VALUES (@s, (CAST(strftime('%s', 'now') AS INTEGER) / @w) * @w, 1)
ON CONFLICT (subject, window_start) DO UPDATE SET calls = calls + 1
RETURNING calls, window_start, (julianday('now') - 2440587.5) * 86400.0`
	}
	var (
		calls, start int64
		now          float64
	)
	row := db.WithContext(ctx).Raw(q, map[string]any{"s": subject, "w": w}).Row()
	if err := row.Scan(&calls, &start, &now); err != nil {
		return RateHit{}, fmt.Errorf("count call: %w", err)
	}
	left := float64(start+w) - now
	return RateHit{Calls: calls, Reset: time.Duration(max(left, 0) * float64(time.Second))}, nil
}

// PruneRateWindows deletes every window that has ended by the database
// clock (for windows of the given length) and says how many it deleted.
func PruneRateWindows(ctx context.Context, db *gorm.DB, window time.Duration) (int64, error) {
	now := "CAST(strftime('%s', 'now') AS INTEGER)"
	if IsPostgres(db) {
		now = "extract(epoch from now())"
	}
	res := db.WithContext(ctx).
		Exec("DELETE FROM rate_windows WHERE window_start + CAST(? AS bigint) <= "+now, windowSeconds(window))
	if res.Error != nil {
		return 0, fmt.Errorf("prune rate windows: %w", res.Error)
	}
	return res.RowsAffected, nil
}
