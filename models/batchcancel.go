package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// ErrJobAdmitted is CancelUnadmitted on a job a workflow has admitted (or
// that is not a batch's job waiting for its start): its workflow is the one
// to cancel.
var ErrJobAdmitted = errors.New("the job's workflow has admitted it")

// CancelUnadmitted cancels a batch's job whose workflow has not admitted
// it yet (its batch's start is under way, or was interrupted): under the
// account's lock, so it orders with Admit, it closes the job's admission
// (an admit that arrives later holds nothing and its workflow ends
// without running), settles the job cancelled with failure as its error,
// charging nothing and releasing its hold, and leaves its job.cancelled
// (and the batch's batch.completed, when it was the last job to end) for
// the late-admit sweep to emit (a LateAdmit with Ended set, on the batch's
// queue). A job admitted meanwhile answers ErrJobAdmitted and is unchanged.
func CancelUnadmitted(ctx context.Context, db *gorm.DB, jobID string, userID uint64, failure []byte,
	now time.Time) (*Job, error) {
	var out Job
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		var b Batch
		err := tx.Joins("JOIN batch_items i ON i.batch_id = batches.id").
			Joins("JOIN jobs j ON j.id = i.job_id").
			Where("i.job_id = ? AND j.user_id = ? AND j.lifecycle = ? AND NOT j.pending AND "+
				"j.admitted_at IS NULL AND j.settled_at IS NULL", jobID, userID, contract.LifecycleQueued).
			Take(&b).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrJobAdmitted
		}
		if err != nil {
			return fmt.Errorf("read unadmitted batch job: %w", err)
		}
		if err := closeAdmission(tx, jobID, userID, now); err != nil {
			return err
		}
		row, _, err := settle(tx, jobID, Settlement{Outcome: contract.OutcomeCancelled, Error: failure}, now)
		if err != nil {
			return err
		}
		out = row.Job
		intent := LateAdmit{JobID: jobID, UserID: userID, Queue: b.Queue, Ended: contract.OutcomeCancelled,
			NextAt: now.UTC(), CreatedAt: now.UTC()}
		if err := tx.Create(&intent).Error; err != nil {
			return fmt.Errorf("record the cancelled job's event: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// migrateAdmittedAt is migration 0020: jobs.admitted_at, set for every job
// written before it except the queued jobs of batches not known started
// (their workflows may not have admitted them; an admit sets it), and the
// queue's index in admit order.
func migrateAdmittedAt(tx *gorm.DB) error {
	if m := tx.Migrator(); !m.HasColumn(&Job{}, "AdmittedAt") {
		if err := m.AddColumn(&Job{}, "AdmittedAt"); err != nil {
			return fmt.Errorf("add jobs.admitted_at: %w", err)
		}
	}
	err := tx.Exec(`UPDATE jobs SET admitted_at = created_at WHERE admitted_at IS NULL AND NOT pending
AND NOT (lifecycle = ? AND id IN (SELECT i.job_id FROM batch_items i JOIN batches b ON b.id = i.batch_id
	WHERE b.started_at IS NULL))`, contract.LifecycleQueued).Error
	if err != nil {
		return fmt.Errorf("0020: admitted_at of admitted jobs: %w", err)
	}
	return tx.Exec("CREATE INDEX IF NOT EXISTS idx_jobs_admitted ON jobs (lifecycle, admitted_at, created_at, id) " +
		"WHERE lifecycle <> 'terminal'").Error
}
