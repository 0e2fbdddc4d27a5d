package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/taskplatform/taskplatform/contract"
)

// AdmitRefusal is a hold the balance does not cover, or (Limit set) one
// that would pass a spend limit. Visible is true when the job's handle had
// already been answered: the row now says the job failed
// insufficient_credits (or spend_limit_reached).
type AdmitRefusal struct {
	Required, Balance int64
	Visible           bool
	// Limit is the spend limit the hold would pass; nil when the balance
	// did not cover it.
	Limit *contract.SpendLimitHit
}

// Error implements error.
func (r *AdmitRefusal) Error() string {
	if r.Limit != nil {
		return fmt.Sprintf("spend limit reached: %s %s limit %d, spent %d, required %d", r.Limit.Scope,
			r.Limit.Period, r.Limit.Limit, r.Limit.Spent, r.Required)
	}
	return fmt.Sprintf("insufficient credits: required %d, balance %d", r.Required, r.Balance)
}

// RefusedAdmit remembers a job id that will never be admitted, so a
// retried admit answers the same refusal and a late handle for it (PendJob)
// learns the job will never run (migration 0005). Expired marks a job whose
// admission was closed before any admit decided (its workflow gave up, or
// its late admit was ended by the sweep or a cancel: CloseAdmission,
// EndLateJob); otherwise the balance did not cover Required.
type RefusedAdmit struct {
	JobID    string `gorm:"primaryKey"`
	UserID   uint64 `gorm:"not null"`
	Expired  bool   `gorm:"not null;default:false"`
	Required int64  `gorm:"not null"`
	Balance  int64  `gorm:"not null"`
	// SpendLimit is the JSON of the contract.SpendLimitHit that refused
	// the job; empty for a refusal of the balance (migration
	// 0017_spend_limits).
	SpendLimit string `gorm:"not null;default:''"`
	CreatedAt  time.Time
}

// refusal is the refusal the tombstone records.
func (r *RefusedAdmit) refusal(visible bool) *AdmitRefusal {
	out := &AdmitRefusal{Required: r.Required, Balance: r.Balance, Visible: visible}
	if r.SpendLimit != "" {
		var hit contract.SpendLimitHit
		if json.Unmarshal([]byte(r.SpendLimit), &hit) == nil {
			out.Limit = &hit
		}
	}
	return out
}

// Admit writes the job row (queued) and its credit hold in one transaction,
// with the user's row locked so concurrent admits cannot overdraw: the hold
// takes its credits out of the live batches in spend order and the row
// records which (HoldBatches), one hold entry per batch. Admitting
// a job id that was admitted returns the existing row, and one that was
// refused returns the same refusal: a retried admit decides once. A pending
// row (PendJob) is admitted in place, or failed insufficient_credits with
// refusedError(refusal) as its error object (nil: no object).
//
// Under the same lock it enforces the account's and the job's key's spend
// limits (checkSpend): a hold that would pass one is refused like one the
// balance does not cover (AdmitRefusal.Limit set), and an admitted hold
// records the limit thresholds it reaches (markThresholds), once per
// period; a refused one records the 100 % of the limit that refused it
// (markLimitReached), for its admit to send like the others.
func Admit(
	ctx context.Context,
	db *gorm.DB,
	job *Job,
	now time.Time,
	refusedError func(r *AdmitRefusal) []byte,
) (*Job, error) {
	var out *Job
	var refusal *AdmitRefusal
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, job.UserID); err != nil {
			return err
		}
		st, err := readAdmitState(tx, job, now)
		if err != nil {
			return err
		}
		if st.Expired != nil && *st.Expired {
			return ErrAdmissionClosed
		}
		if st.Expired != nil {
			// Refused before: the same refusal, visible when the job's row
			// was written (its handle had been answered).
			refusal = (&RefusedAdmit{Required: deref(st.Required), Balance: deref(st.Balance),
				SpendLimit: st.SpendLimit}).refusal(st.Found)
			return nil
		}
		var existing *Job
		if st.Found {
			existing, err = admitExisting(tx, job.ID, now)
			if err != nil {
				return err
			}
			if !existing.Pending {
				out = existing
				return nil
			}
		}
		var limits []limitSpend
		refusal, limits, err = refuseOver(tx, job, st, refusedError, now)
		if err != nil || refusal != nil {
			return err
		}
		if err := admitHold(tx, job, existing, limits, now); err != nil {
			return err
		}
		out = job
		return nil
	})
	if err == nil && refusal != nil {
		return nil, refusal
	}
	return out, err
}

// admitExisting reads the row already written for job id. A batch's job,
// written with its hold, is admitted now by its workflow's first admit; a
// pending (late) job is left for the admit to decide, and its intent is
// done.
func admitExisting(tx *gorm.DB, id string, now time.Time) (*Job, error) {
	var existing Job
	if err := tx.Take(&existing, "id = ?", id).Error; err != nil {
		return nil, err
	}
	if existing.Pending {
		if err := tx.Delete(&LateAdmit{}, "job_id = ?", id).Error; err != nil {
			return nil, fmt.Errorf("drop late admit: %w", err)
		}
		return &existing, nil
	}
	if existing.AdmittedAt == nil {
		existing.AdmittedAt = &now
		if err := tx.Model(&Job{}).Where("id = ?", id).Update("admitted_at", now).Error; err != nil {
			return nil, fmt.Errorf("admit batch job: %w", err)
		}
	}
	return &existing, nil
}

// refuseOver refuses (and records the refusal of) a hold the balance st
// read does not cover or one that would pass a spend limit; otherwise it
// answers the limits the hold counts against.
func refuseOver(
	tx *gorm.DB,
	job *Job,
	st admitState,
	refusedError func(r *AdmitRefusal) []byte,
	now time.Time,
) (*AdmitRefusal, []limitSpend, error) {
	if job.HeldCredits > 0 && st.Available < job.HeldCredits {
		refusal := &AdmitRefusal{Required: job.HeldCredits, Balance: max(st.Available, 0), Visible: st.Found}
		return refusal, nil, refuse(tx, job, refusal, refusedError, now)
	}
	over, limits, err := checkSpend(tx, job, now)
	if err != nil || over == nil {
		return nil, limits, err
	}
	refusal := &AdmitRefusal{Required: job.HeldCredits, Balance: max(st.Available, 0), Visible: st.Found,
		Limit: over.hit(job.HeldCredits, now)}
	if err := refuse(tx, job, refusal, refusedError, now); err != nil {
		return refusal, nil, err
	}
	return refusal, nil, markLimitReached(tx, &over.limit, job.ID, over.spent, now)
}

// admitHold takes job's hold out of the batches now, so settlement charges
// the batches it reserved even if they expire meanwhile, and writes the
// job queued: over its pending row existing, or as a new row (existing
// nil). It records the spend thresholds the hold reaches.
func admitHold(tx *gorm.DB, job, existing *Job, limits []limitSpend, now time.Time) error {
	var holds []LedgerEntry
	var err error
	job.HoldBatches, holds, err = hold(tx, job.UserID, job.CreditType, job.ID, job.HeldCredits, now)
	if err != nil {
		return err
	}
	job.Lifecycle = contract.LifecycleQueued
	job.Pending = false
	job.AdmittedAt = &now
	if existing != nil {
		job.CreatedAt = existing.CreatedAt
		if err := tx.Select("*").Omit("created_at").Where("id = ?", job.ID).Updates(job).Error; err != nil {
			return fmt.Errorf("admit pending job: %w", err)
		}
	} else {
		job.CreatedAt = now
		if err := tx.Create(job).Error; err != nil {
			return fmt.Errorf("insert job: %w", err)
		}
	}
	if len(holds) > 0 {
		if err := tx.Create(&holds).Error; err != nil {
			return fmt.Errorf("write hold: %w", err)
		}
	}
	return markThresholds(tx, job, limits, now)
}

// admitState is what Admit reads under the account's lock, in one
// statement (one snapshot, one round trip): the job id's refusal
// tombstone (Expired is nil without one), whether a row exists for it, and
// what the account can hold.
type admitState struct {
	Expired           *bool
	Required, Balance *int64
	SpendLimit        string
	Found             bool
	Available         int64
}

func readAdmitState(tx *gorm.DB, job *Job, now time.Time) (admitState, error) {
	var st admitState
	err := tx.Raw(`SELECT r.expired AS expired, r.required AS required, r.balance AS balance,
	COALESCE(r.spend_limit, '') AS spend_limit, EXISTS (SELECT 1 FROM jobs WHERE id = ?) AS found,
	(`+availableSQL+`) AS available
FROM (SELECT 1 AS one) AS o LEFT JOIN refused_admits r ON r.job_id = ?`,
		job.ID, job.UserID, job.CreditType, now, job.ID).Scan(&st).Error
	if err != nil {
		return st, fmt.Errorf("read admission: %w", err)
	}
	return st, nil
}

func deref(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// refuse records the refusal r of job: a tombstone, and for a visible
// (pending) job its terminal failed state.
func refuse(
	tx *gorm.DB,
	job *Job,
	r *AdmitRefusal,
	refusedError func(r *AdmitRefusal) []byte,
	now time.Time,
) error {
	tombstone := RefusedAdmit{JobID: job.ID, UserID: job.UserID, Required: r.Required, Balance: r.Balance,
		CreatedAt: now}
	if r.Limit != nil {
		b, err := json.Marshal(r.Limit)
		if err != nil {
			return err
		}
		tombstone.SpendLimit = string(b)
	}
	if err := tx.Create(&tombstone).Error; err != nil {
		return fmt.Errorf("record refusal: %w", err)
	}
	if r.Visible {
		upd := map[string]any{
			"pending":        false,
			"lifecycle":      contract.LifecycleTerminal,
			"outcome":        contract.OutcomeFailed,
			"settled_at":     now,
			"ended_at":       now,
			"updated_at":     now,
			"progress_total": 0,
		}
		if refusedError != nil {
			upd["error"] = string(refusedError(r))
		}
		if err := tx.Model(&Job{}).Where("id = ?", job.ID).Updates(upd).Error; err != nil {
			return fmt.Errorf("fail pending job: %w", err)
		}
	}
	return nil
}

// PendState is what PendJob found.
type PendState int

// The states of PendJob.
const (
	// PendAdmitted: the admit wrote the job first; answer it.
	PendAdmitted PendState = iota
	// PendWritten: the job row is pending; the admit will decide it.
	PendWritten
	// PendRefused: the admit refused the job; nothing runs or is held.
	PendRefused
	// PendClosed: the job's workflow gave up before admitting it; nothing
	// runs or is held.
	PendClosed
)

// ErrAdmissionClosed is an admit of a job whose workflow already gave up.
var ErrAdmissionClosed = errors.New("the job's admission is closed")

// PendJob makes a job whose admit has not answered in time visible: under
// the user's lock (so it orders with Admit) it writes job as a pending
// queued row, with the durable intent of its admit (a LateAdmit on queue,
// due at once), unless the admit already admitted or refused that id.
func PendJob(ctx context.Context, db *gorm.DB, job *Job, queue string,
	now time.Time) (PendState, *AdmitRefusal, error) {
	state, refusal := PendAdmitted, (*AdmitRefusal)(nil)
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, job.UserID); err != nil {
			return err
		}
		var refused RefusedAdmit
		err := tx.Take(&refused, "job_id = ?", job.ID).Error
		if err == nil && refused.Expired {
			state = PendClosed
			return nil
		}
		if err == nil {
			state, refusal = PendRefused, refused.refusal(false)
			return nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		var n int64
		if err := tx.Model(&Job{}).Where("id = ?", job.ID).Count(&n).Error; err != nil || n > 0 {
			return err
		}
		row := *job
		row.Pending, row.Lifecycle, row.HeldCredits, row.CreatedAt = true, contract.LifecycleQueued, 0, now
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("insert pending job: %w", err)
		}
		intent := LateAdmit{JobID: job.ID, UserID: job.UserID, Queue: queue, Held: job.HeldCredits,
			NextAt: now.UTC(), CreatedAt: now.UTC()}
		if err := tx.Create(&intent).Error; err != nil {
			return fmt.Errorf("insert late admit: %w", err)
		}
		state = PendWritten
		return nil
	})
	return state, refusal, err
}

// CloseAdmission ends a job whose workflow gave up without an admit
// decision: no later PendJob or Admit can open it, and a row written for it
// (pending, or admitted by an admit whose answer was lost) is settled
// failed with failure as its error, releasing any hold; a late job's
// terminal event is left to the sweep (LateAdmit.Ended). It is idempotent.
func CloseAdmission(
	ctx context.Context,
	db *gorm.DB,
	jobID string,
	userID uint64,
	failure []byte,
	now time.Time,
) error {
	var settle bool
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		if err := closeAdmission(tx, jobID, userID, now); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&Job{}).Where("id = ? AND settled_at IS NULL", jobID).Count(&n).Error; err != nil {
			return err
		}
		if settle = n > 0; settle {
			return markEnded(tx, jobID, contract.OutcomeFailed, now)
		}
		return nil
	})
	if err != nil || !settle {
		return err
	}
	_, _, err = Settle(ctx, db, jobID, Settlement{Outcome: contract.OutcomeFailed, Error: failure}, now)
	return err
}

// closeAdmission writes the tombstone of a job whose admission is closed:
// a later Admit answers ErrAdmissionClosed and PendJob PendClosed.
func closeAdmission(tx *gorm.DB, jobID string, userID uint64, now time.Time) error {
	tombstone := RefusedAdmit{JobID: jobID, UserID: userID, Expired: true, CreatedAt: now}
	err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&tombstone).Error
	if err != nil {
		return fmt.Errorf("close admission: %w", err)
	}
	return nil
}

// lockUser locks the user's row: every change of a user's balance or jobs'
// admission takes it first, so they see one order.
func lockUser(tx *gorm.DB, userID uint64) error {
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&User{}, userID).Error; err != nil {
		return fmt.Errorf("lock user: %w", err)
	}
	return nil
}
