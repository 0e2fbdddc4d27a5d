package models

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/taskplatform/taskplatform/contract"
)

// Settlement is how a job ended.
type Settlement struct {
	Outcome string
	// Error is the public error object of a failed or cancelled job.
	Error json.RawMessage
	// Summary is the result summary (requested, delivered, warnings) when
	// the task has counts or warnings to report.
	Summary json.RawMessage
	// Uncharged is how many of the delivered outputs are not charged (a
	// cut-out delivered with a warning that it may be wrong).
	Uncharged int64
}

// Settle ends a job exactly once: it charges price × (delivered less the
// uncharged outputs) (never above
// the hold) from the batches its hold took, in the order it took them
// (expiry order), gives the rest back to them, and writes the terminal
// state. A second call returns the settled row unchanged and first false.
// It locks the job's row, not the account's: a settlement never lowers
// what the account can hold (see Available), and two settlements giving
// credits back to the same batch queue on the batch's row.
func Settle(
	ctx context.Context,
	db *gorm.DB,
	jobID string,
	s Settlement,
	now time.Time,
) (job *Job, first bool, err error) {
	done, err := SettleWithAccount(ctx, db, jobID, s, now)
	return done.Job, done.First, err
}

// Settled is a job Settle ended: its row as settled, whether this call
// settled it, and the contract version its account is pinned to (empty:
// none), read with the row, so its terminal event reads neither again.
type Settled struct {
	Job            *Job
	First          bool
	AccountVersion string
}

// SettleWithAccount is Settle answering the account's pinned version too.
func SettleWithAccount(ctx context.Context, db *gorm.DB, jobID string, s Settlement, now time.Time) (Settled,
	error) {
	var out settleRow
	var first bool
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		out, first, err = settle(tx, jobID, s, now)
		return err
	})
	return Settled{Job: &out.Job, First: first, AccountVersion: out.AccountVersion}, err
}

// settle is Settle inside transaction tx.
func settle(tx *gorm.DB, jobID string, s Settlement, now time.Time) (row settleRow, first bool, err error) {
	row, err = lockForSettle(tx, jobID)
	if err != nil {
		return row, false, err
	}
	out := &row.Job
	if out.SettledAt != nil {
		return row, false, nil
	}
	delivered := row.Delivered
	charged, entries, err := settleHold(tx, out,
		min(out.PricePerOutput*max(0, delivered-s.Uncharged), out.HeldCredits))
	if err != nil {
		return row, false, fmt.Errorf("charge: %w", err)
	}
	if len(entries) > 0 {
		if err := tx.Create(&entries).Error; err != nil {
			return row, false, fmt.Errorf("write release and charges: %w", err)
		}
	}
	upd := map[string]any{
		"settled_at":      now,
		"charged_credits": charged,
		"lifecycle":       contract.LifecycleTerminal,
		"outcome":         s.Outcome,
		"ended_at":        now,
		"updated_at":      now,
		"progress_done":   delivered,
		"pending":         false,
	}
	if present(s.Error) {
		upd["error"] = string(s.Error)
	}
	if present(s.Summary) {
		upd["summary"] = string(s.Summary)
	}
	if out.ProgressTotal == nil {
		upd["progress_total"] = delivered
	}
	return row, true, tx.Model(out).Clauses(clause.Returning{}).Updates(upd).Error
}

// settleRow is a job's row and the outputs it delivered (deleted ones
// included: they were delivered and are charged), with the contract
// version its account is pinned to.
type settleRow struct {
	Job
	Delivered      int64
	AccountVersion string
}

// lockForSettle reads and locks a job's row with its delivered count in
// one round trip. No output is recorded while a job settles: its workflow
// settles after its last step ended.
func lockForSettle(tx *gorm.DB, jobID string) (settleRow, error) {
	q := "SELECT jobs.*, (SELECT COUNT(*) FROM files WHERE files.job_id = jobs.id) AS delivered, " +
		"COALESCE((SELECT service_version FROM users WHERE users.id = jobs.user_id), '') AS account_version " +
		"FROM jobs WHERE jobs.id = ?"
	if IsPostgres(tx) {
		q += " FOR UPDATE OF jobs"
	}
	var row settleRow
	res := tx.Raw(q, jobID).Scan(&row)
	if res.Error != nil {
		return row, fmt.Errorf("lock job: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return row, fmt.Errorf("lock job %s: %w", jobID, ErrNotFound)
	}
	return row, nil
}

// present says whether a JSON value carries something other than null.
func present(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }
