package models

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// SetRunningPhase sets a running job's progress.phase (an engine step's
// model progress, "generating (model 45%)"); a job that is not running is
// left as it is.
func SetRunningPhase(ctx context.Context, db *gorm.DB, id, phase string, now time.Time) error {
	return db.WithContext(ctx).Model(&Job{}).Where("id = ? AND lifecycle = ?", id, contract.LifecycleRunning).
		Updates(map[string]any{"phase": phase, "updated_at": now}).Error
}

// RestorePhase sets a running job's progress.phase back to phase when it
// still reads was (what a step of it wrote last): another step's later
// write stays.
func RestorePhase(ctx context.Context, db *gorm.DB, id, was, phase string, now time.Time) error {
	return db.WithContext(ctx).Model(&Job{}).
		Where("id = ? AND lifecycle = ? AND phase = ?", id, contract.LifecycleRunning, was).
		Updates(map[string]any{"phase": phase, "updated_at": now}).Error
}

// QueuedJobsOf lists up to limit admitted jobs of the tasks names, other
// than except, that are queued: none of their steps has started (their id,
// account, task and input only), oldest first; of account user only when
// user is not 0.
func QueuedJobsOf(ctx context.Context, db *gorm.DB, names []string, except string, user uint64,
	limit int) ([]Job, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var jobs []Job
	q := db.WithContext(ctx).Select("id", "user_id", "task", "input").
		Where("task IN ? AND lifecycle = ? AND admitted_at IS NOT NULL AND NOT pending AND id <> ?", names,
			contract.LifecycleQueued, except)
	if user != 0 {
		q = q.Where("user_id = ?", user)
	}
	err := q.Order("created_at").Limit(limit).Find(&jobs).Error
	return jobs, err
}
