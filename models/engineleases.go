package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// EngineLease is one slot of an external engine's capacity, shared by every
// worker process through the database (migration 0022). Lane names what the
// slot is of: the engine's task queue as a whole (the slots its workers may
// poll with), or one replica of the engine (the predictions it runs at
// once). A slot is free when Holder is empty or its lease has expired: a
// holder renews it while it works and frees it when done, so a process that
// died frees its slots when their leases run out.
type EngineLease struct {
	Engine string `gorm:"primaryKey;size:64"`
	Lane   string `gorm:"primaryKey;size:255"`
	Slot   int    `gorm:"primaryKey;autoIncrement:false"`
	// Holder is who holds the slot ("" for nobody).
	Holder    string    `gorm:"size:128;not null;default:''"`
	ExpiresAt time.Time `gorm:"not null"`
}

// ErrLeaseLost is a lease its holder no longer has: it expired and another
// took the slot.
var ErrLeaseLost = errors.New("engine lease lost")

// EngineLeases are the capacity table on a database: the methods are those
// engines.Leases asks for.
type EngineLeases struct {
	// DB is the database; a func so the store can be made before it opens.
	DB func() *gorm.DB
}

// AcquireEngineLease takes a free slot of lane among its first size for
// holder until now+ttl, holder's own slot first when it still has one (a
// retried step takes back the slot its earlier attempt held); ok is false
// when every slot is taken. Concurrent acquirers take different slots:
// PostgreSQL skips the rows another has locked, SQLite runs one writer at a
// time. The pick is a scalar subquery, run once: PostgreSQL may run an
// IN (…) subquery once per row and so claim several slots.
func AcquireEngineLease(ctx context.Context, db *gorm.DB, engine, lane string, size int, holder string,
	now time.Time, ttl time.Duration) (slot int, ok bool, err error) {
	if err := ensureEngineLane(ctx, db, engine, lane, size, now); err != nil {
		return 0, false, err
	}
	free := "engine = ? AND lane = ? AND slot < ? AND (holder = ? OR holder = '' OR expires_at < ?)"
	pick := "SELECT slot FROM engine_leases WHERE " + free +
		" ORDER BY CASE WHEN holder = ? THEN 0 ELSE 1 END, slot LIMIT 1"
	if IsPostgres(db) {
		pick += " FOR UPDATE SKIP LOCKED"
	}
	claim := "UPDATE engine_leases SET holder = ?, expires_at = ? WHERE " + free + " AND slot = (" + pick +
		") RETURNING slot"
	t := now.UTC()
	var got []int
	err = db.WithContext(ctx).Raw(claim, holder, t.Add(ttl), engine, lane, size, holder, t,
		engine, lane, size, holder, t, holder).Scan(&got).Error
	if err != nil {
		return 0, false, fmt.Errorf("engine %s: acquire a slot of %s: %w", engine, lane, err)
	}
	if len(got) == 0 {
		return 0, false, nil
	}
	return got[0], true, nil
}

// ensureEngineLane makes the first size slots of lane when some are
// missing (the lane is new, or its engine was given more capacity).
func ensureEngineLane(ctx context.Context, db *gorm.DB, engine, lane string, size int, now time.Time) error {
	var n int64
	err := db.WithContext(ctx).Model(&EngineLease{}).Where("engine = ? AND lane = ? AND slot < ?", engine, lane, size).
		Count(&n).Error
	if err != nil {
		return fmt.Errorf("engine %s: slots of %s: %w", engine, lane, err)
	}
	if int(n) >= size {
		return nil
	}
	rows := make([]EngineLease, size)
	for i := range rows {
		rows[i] = EngineLease{Engine: engine, Lane: lane, Slot: i, ExpiresAt: now.UTC()}
	}
	if err := db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&rows).Error; err != nil {
		return fmt.Errorf("engine %s: make the slots of %s: %w", engine, lane, err)
	}
	return nil
}

// RenewEngineLease extends holder's lease of slot until now+ttl:
// ErrLeaseLost when it no longer holds it.
func RenewEngineLease(ctx context.Context, db *gorm.DB, engine, lane string, slot int, holder string,
	now time.Time, ttl time.Duration) error {
	res := db.WithContext(ctx).Model(&EngineLease{}).
		Where("engine = ? AND lane = ? AND slot = ? AND holder = ?", engine, lane, slot, holder).
		Update("expires_at", now.UTC().Add(ttl))
	if res.Error != nil {
		return fmt.Errorf("engine %s: renew slot %d of %s: %w", engine, slot, lane, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrLeaseLost
	}
	return nil
}

// ReleaseEngineLease frees slot when holder still holds it.
func ReleaseEngineLease(ctx context.Context, db *gorm.DB, engine, lane string, slot int, holder string) error {
	err := db.WithContext(ctx).Model(&EngineLease{}).
		Where("engine = ? AND lane = ? AND slot = ? AND holder = ?", engine, lane, slot, holder).
		Update("holder", "").Error
	if err != nil {
		return fmt.Errorf("engine %s: release slot %d of %s: %w", engine, slot, lane, err)
	}
	return nil
}

// HeldEngineLanes are the lanes of engine where holder holds a slot, or
// held one whose lease no one has taken since.
func HeldEngineLanes(ctx context.Context, db *gorm.DB, engine, holder string) ([]string, error) {
	var lanes []string
	err := db.WithContext(ctx).Model(&EngineLease{}).Where("engine = ? AND holder = ?", engine, holder).
		Order("lane").Pluck("lane", &lanes).Error
	if err != nil {
		return nil, fmt.Errorf("engine %s: lanes of %s: %w", engine, holder, err)
	}
	return lanes, nil
}

// EngineQueueLane is the lane of an engine's queue slots among its
// leases (the worker's slot supplier); the other lanes are its replicas'.
const EngineQueueLane = "queue"

// EngineLanesInUse counts the slots of each lane of engine held now.
func EngineLanesInUse(ctx context.Context, db *gorm.DB, engine string, now time.Time) (map[string]int, error) {
	var rows []struct {
		Lane string
		N    int
	}
	err := db.WithContext(ctx).Model(&EngineLease{}).Select("lane, count(*) AS n").
		Where("engine = ? AND holder <> '' AND expires_at >= ?", engine, now.UTC()).Group("lane").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("engine %s: slots in use: %w", engine, err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.Lane] = r.N
	}
	return out, nil
}

// Acquire implements engines.Leases.
func (l EngineLeases) Acquire(ctx context.Context, engine, lane string, size int, holder string,
	ttl time.Duration) (int, bool, error) {
	return AcquireEngineLease(ctx, l.DB(), engine, lane, size, holder, time.Now(), ttl)
}

// Renew implements engines.Leases.
func (l EngineLeases) Renew(ctx context.Context, engine, lane string, slot int, holder string,
	ttl time.Duration) error {
	return RenewEngineLease(ctx, l.DB(), engine, lane, slot, holder, time.Now(), ttl)
}

// Release implements engines.Leases.
func (l EngineLeases) Release(ctx context.Context, engine, lane string, slot int, holder string) error {
	return ReleaseEngineLease(ctx, l.DB(), engine, lane, slot, holder)
}

// Held implements engines.Leases.
func (l EngineLeases) Held(ctx context.Context, engine, holder string) ([]string, error) {
	return HeldEngineLanes(ctx, l.DB(), engine, holder)
}
