package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// LateAdmit is the durable intent of a job whose handle was answered before
// its admit decided (PendJob writes it with the pending row): its admit is
// still to reach a workflow. The workers' sweep sends it again until the
// admit decides the job (Admit deletes the intent), and ends the job itself
// when it cannot within its deadline (migration 0011).
type LateAdmit struct {
	JobID  string `gorm:"primaryKey"`
	UserID uint64 `gorm:"not null"`
	// Queue is the task queue the job's workflow starts on.
	Queue string `gorm:"not null"`
	// Held is the hold the admit asks for (the pending row holds nothing).
	Held int64 `gorm:"not null"`
	// Attempts counts the sweeps that claimed the intent.
	Attempts int `gorm:"not null;default:0"`
	// NextAt is when a sweep may claim it again.
	NextAt time.Time `gorm:"not null;index"`
	// Ended is the outcome of a job ended without an admit (the sweep's
	// deadline, a cancel, a workflow that gave up): its terminal event is
	// still to be emitted. Empty while the job waits for its admit.
	Ended     string `gorm:"not null;default:''"`
	CreatedAt time.Time
}

// JobInput is the admit input of the late job j (its pending row): the
// input the submit sent, as the sweep sends it again.
func (l *LateAdmit) JobInput(j *Job) contract.JobInput {
	in := j.AdmitInput()
	in.HeldCredits = l.Held
	return in
}

// ClaimLateAdmits claims at most n intents due at now for one sweep: each
// is leased until now+lease (no other sweep claims it meanwhile) and its
// attempt counted. Concurrent sweeps claim disjoint intents: PostgreSQL
// skips the rows another claim has locked; SQLite runs one writer at a time.
func ClaimLateAdmits(ctx context.Context, db *gorm.DB, now time.Time, lease time.Duration, n int) ([]LateAdmit, error) {
	pick := "SELECT job_id FROM late_admits WHERE next_at <= ? ORDER BY next_at LIMIT ?"
	if IsPostgres(db) {
		pick += " FOR UPDATE SKIP LOCKED"
	}
	var out []LateAdmit
	// The pick is a CTE, evaluated once: as an IN (…) subquery PostgreSQL
	// may run it again per row it joins, claiming more than n rows.
	claim := "WITH picked AS (" + pick + ") UPDATE late_admits SET next_at = ?, attempts = attempts + 1 " +
		"WHERE job_id IN (SELECT job_id FROM picked) RETURNING *"
	err := db.WithContext(ctx).Raw(claim, now.UTC(), n, now.Add(lease).UTC()).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("claim late admits: %w", err)
	}
	return out, nil
}

// RetryLateAdmitAt moves a claimed intent's next claim to at.
func RetryLateAdmitAt(ctx context.Context, db *gorm.DB, jobID string, at time.Time) error {
	return db.WithContext(ctx).Model(&LateAdmit{}).Where("job_id = ?", jobID).Update("next_at", at.UTC()).Error
}

// DropLateAdmit forgets an intent whose job needs nothing more of the sweep.
func DropLateAdmit(ctx context.Context, db *gorm.DB, jobID string) error {
	return db.WithContext(ctx).Delete(&LateAdmit{}, "job_id = ?", jobID).Error
}

// DropDecidedLateAdmit forgets the intent of a job its admit decided,
// unless the job was ended without one meanwhile (a cancel between the
// sweep's reads of the intent and of the job): that intent's terminal
// event is still the sweep's to emit.
func DropDecidedLateAdmit(ctx context.Context, db *gorm.DB, jobID string) error {
	return db.WithContext(ctx).Delete(&LateAdmit{}, "job_id = ? AND ended = ''", jobID).Error
}

// ErrJobDecided is EndLateJob on a job its admit already decided.
var ErrJobDecided = errors.New("the job's admit has decided it")

// EndLateJob ends a late job that no admit decided — its sweep's deadline
// passed, or its owner cancelled it — with outcome and failure (its public
// error object): under the account's lock, so it orders with Admit, it
// closes the job's admission (a later admit holds nothing: its workflow
// ends without running) and writes the job terminal, nothing held or
// charged; the intent keeps the outcome until its terminal event is
// emitted. A job already decided answers ErrJobDecided and is unchanged.
func EndLateJob(ctx context.Context, db *gorm.DB, jobID string, userID uint64, outcome string, failure []byte,
	now time.Time) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		res := tx.Model(&Job{}).Where("id = ? AND user_id = ? AND pending AND settled_at IS NULL", jobID, userID).
			Updates(map[string]any{"pending": false, "lifecycle": contract.LifecycleTerminal, "outcome": outcome,
				"error": string(failure), "settled_at": now, "ended_at": now, "updated_at": now, "progress_total": 0})
		if res.Error != nil {
			return fmt.Errorf("end late job: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return ErrJobDecided
		}
		if err := closeAdmission(tx, jobID, userID, now); err != nil {
			return err
		}
		return markEnded(tx, jobID, outcome, now)
	})
}

// markEnded records that a late job ended without an admit: its terminal
// event is the sweep's to emit.
func markEnded(tx *gorm.DB, jobID, outcome string, now time.Time) error {
	err := tx.Model(&LateAdmit{}).Where("job_id = ?", jobID).
		Updates(map[string]any{"ended": outcome, "next_at": now.UTC()}).Error
	if err != nil {
		return fmt.Errorf("mark late job ended: %w", err)
	}
	return nil
}
