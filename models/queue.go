package models

import (
	"context"
	"fmt"
	"math"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// QueueSample is how many recently ended jobs the queue's mean job
// duration is measured over.
const QueueSample = 50

// QueueFleet is what the service measures of its whole queue once per
// read: how many jobs run now and how long recent jobs ran.
type QueueFleet struct {
	// Running is the number of jobs running now, fleet-wide: while a
	// backlog waits, every step slot that polls is busy, so it is the
	// fleet's concurrency as measured.
	Running int64
	// MeanSeconds is the mean run time (ended_at − started_at) of the
	// QueueSample jobs that ended last; 0 when none has.
	MeanSeconds float64
}

// QueueSpot is where one queued job stands.
type QueueSpot struct {
	// Position is the job's place among its account's queued jobs, oldest
	// first; 1 is the next to start.
	Position int64
	// Ahead is the number of queued jobs the shared queue starts first
	// under fairness (fairAhead): the account's older ones and, of each
	// other account, as many as its weight takes while these start.
	Ahead int64
}

// MeasureQueue reads the fleet's running jobs and the mean run time of the
// jobs that ended last.
func MeasureQueue(ctx context.Context, db *gorm.DB) (QueueFleet, error) {
	var f QueueFleet
	db = db.WithContext(ctx)
	if err := db.Model(&Job{}).Where("lifecycle = ?", contract.LifecycleRunning).Count(&f.Running).Error; err != nil {
		return f, fmt.Errorf("count running jobs: %w", err)
	}
	var rows []struct {
		StartedAt time.Time
		EndedAt   time.Time
	}
	err := db.Model(&Job{}).Select("started_at, ended_at").
		Where("ended_at IS NOT NULL AND started_at IS NOT NULL").
		Order("ended_at DESC").Limit(QueueSample).Find(&rows).Error
	if err != nil {
		return f, fmt.Errorf("read recent run times: %w", err)
	}
	var sum float64
	for _, r := range rows {
		sum += max(r.EndedAt.Sub(r.StartedAt).Seconds(), 0)
	}
	if len(rows) > 0 {
		f.MeanSeconds = sum / float64(len(rows))
	}
	return f, nil
}

// QueuePosition reads where queued job j stands, in one query on the
// partial index of queued jobs in admit order (idx_jobs_admitted): its
// position among its account's queued jobs; the queued jobs of other
// accounts dispatched before it follow from that position under fairness
// (fairAhead). Only what a workflow admitted is really queued
// (AdmittedAt), in the order it was admitted; a job no workflow admitted
// yet (a batch's job before its batch starts it, a late job before its
// admit) stands behind every admitted one, among the others in submit
// order, and is never counted ahead of an admitted job.
func QueuePosition(ctx context.Context, db *gorm.DB, j *Job) (QueueSpot, error) {
	var out struct {
		Position int64
	}
	q := db.WithContext(ctx).Model(&Job{}).
		Select("COALESCE(SUM(CASE WHEN user_id = ? THEN 1 ELSE 0 END), 0) AS position", j.UserID).
		Where("lifecycle = ?", contract.LifecycleQueued)
	const submitted = "created_at < ? OR (created_at = ? AND id <= ?)"
	if j.AdmittedAt != nil {
		q = q.Where("admitted_at < ? OR (admitted_at = ? AND ("+submitted+"))", *j.AdmittedAt, *j.AdmittedAt,
			j.CreatedAt, j.CreatedAt, j.ID)
	} else {
		q = q.Where("admitted_at IS NOT NULL OR "+submitted, j.CreatedAt, j.CreatedAt, j.ID)
	}
	if err := q.Scan(&out).Error; err != nil {
		return QueueSpot{}, fmt.Errorf("queue position of %s: %w", j.ID, err)
	}
	accounts, err := queuedAccounts(ctx, db)
	if err != nil {
		return QueueSpot{}, err
	}
	pos := max(out.Position, 1)
	return QueueSpot{Position: pos, Ahead: fairAhead(accounts, j.UserID, pos)}, nil
}

// QueueSpots reads where each of the jobs ids stands that is still queued,
// in the order QueuePosition counts, in one read of the queued jobs (a
// job's event streams ask it for every queued job they follow at once).
// Jobs not queued are absent.
func QueueSpots(ctx context.Context, db *gorm.DB, ids []string) (map[string]QueueSpot, error) {
	out := map[string]QueueSpot{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID       string
		UserID   uint64
		Position int64
	}
	err := db.WithContext(ctx).Raw(`SELECT id, user_id, position FROM (
		SELECT id, user_id,
			ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY `+queueOrder+`) AS position
		FROM jobs WHERE lifecycle = ?) q WHERE id IN ?`, contract.LifecycleQueued, ids).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("queue spots: %w", err)
	}
	if len(rows) == 0 {
		return out, nil
	}
	accounts, err := queuedAccounts(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ID] = QueueSpot{Position: r.Position, Ahead: fairAhead(accounts, r.UserID, r.Position)}
	}
	return out, nil
}

// queueOrder is the order of the queued jobs: the admitted ones in admit
// order, then the others in submit order.
const queueOrder = "CASE WHEN admitted_at IS NULL THEN 1 ELSE 0 END, admitted_at, created_at, id"

// ETA estimates the seconds until a job with ahead jobs before it starts:
// ceil((ahead + 1) / running) × mean run time, the rounds of the fleet's
// measured concurrency it waits. It is unknown (ok false) while no job runs
// (no worker polls, or none has started yet) or no job has ended to
// measure a run time from.
func (f QueueFleet) ETA(ahead int64) (seconds int64, ok bool) {
	if f.Running <= 0 || f.MeanSeconds <= 0 {
		return 0, false
	}
	rounds := math.Ceil(float64(ahead+1) / float64(f.Running))
	return int64(math.Round(rounds * f.MeanSeconds)), true
}

// Backlog is the service's unfinished jobs as /metrics reports them.
type Backlog struct {
	// Queued and Running count the jobs admitted and not started, and the
	// jobs running.
	Queued, Running int64
	// OldestQueued is when the oldest queued job was submitted; nil when
	// none is queued.
	OldestQueued *time.Time
}

// ReadBacklog counts the unfinished jobs and finds the oldest queued one,
// on the partial index of unfinished jobs (idx_jobs_queued).
func ReadBacklog(ctx context.Context, db *gorm.DB) (Backlog, error) {
	var b Backlog
	db = db.WithContext(ctx)
	var counts []struct {
		Lifecycle string
		N         int64
	}
	err := db.Model(&Job{}).Select("lifecycle, COUNT(*) AS n").
		Where("lifecycle <> ?", contract.LifecycleTerminal).Group("lifecycle").Scan(&counts).Error
	if err != nil {
		return b, fmt.Errorf("count unfinished jobs: %w", err)
	}
	for _, c := range counts {
		switch c.Lifecycle {
		case contract.LifecycleQueued:
			b.Queued = c.N
		case contract.LifecycleRunning:
			b.Running = c.N
		}
	}
	if b.Queued == 0 {
		return b, nil
	}
	var oldest []struct{ CreatedAt time.Time }
	err = db.Model(&Job{}).Select("created_at").Where("lifecycle = ?", contract.LifecycleQueued).
		Order("created_at").Limit(1).Find(&oldest).Error
	if err != nil {
		return b, fmt.Errorf("read the oldest queued job: %w", err)
	}
	if len(oldest) > 0 {
		b.OldestQueued = &oldest[0].CreatedAt
	}
	return b, nil
}

// migrateQueuePosition adds the partial indexes the queue reads.
func migrateQueuePosition(tx *gorm.DB) error {
	for _, stmt := range []string{
		"CREATE INDEX IF NOT EXISTS idx_jobs_queued ON jobs (lifecycle, created_at, id) WHERE lifecycle <> 'terminal'",
		"CREATE INDEX IF NOT EXISTS idx_jobs_ended ON jobs (ended_at) WHERE ended_at IS NOT NULL",
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return fmt.Errorf("queue index: %w", err)
		}
	}
	return nil
}
