package models

import (
	"context"
	"fmt"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"gorm.io/gorm"
)

// Grant adds a batch of credits to a user's balance and writes the ledger entry.
func Grant(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	creditType string,
	amount int64,
	expiresAt *time.Time,
	source string,
) (*CreditBatch, error) {
	if amount <= 0 {
		return nil, fmt.Errorf("grant: credits must be positive, got %d", amount)
	}
	b := &CreditBatch{
		UserID:     userID,
		CreditType: creditType,
		Amount:     amount,
		Remaining:  amount,
		ExpiresAt:  expiresAt,
		Source:     source,
	}
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(b).Error; err != nil {
			return err
		}
		return tx.Create(
			&LedgerEntry{
				UserID:     userID,
				CreditType: creditType,
				Kind:       LedgerGrant,
				Amount:     amount,
				BatchID:    b.ID,
				Note:       source,
			},
		).Error
	})
	if err != nil {
		return nil, fmt.Errorf("grant credits: %w", err)
	}
	return b, nil
}

// Expiring is one batch of a balance: credits and when they expire.
type Expiring struct {
	Credits int64      `json:"credits"`
	At      *time.Time `json:"at"`
}

// Balance is the spendable credits of one type.
type Balance struct {
	CreditType string     `json:"credit_type"`
	Remaining  int64      `json:"remaining"`
	Expiring   []Expiring `json:"expiring"`
}

// spendOrder orders batches the way they are spent: soonest expiry first,
// batches that never expire last, oldest first among equals.
func spendOrder(tx *gorm.DB) *gorm.DB {
	return tx.Order("CASE WHEN expires_at IS NULL THEN 1 ELSE 0 END").Order("expires_at").Order("id")
}

func liveBatches(tx *gorm.DB, userID uint64, creditType string, now time.Time) *gorm.DB {
	return tx.Model(&CreditBatch{}).
		Where("user_id = ? AND credit_type = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?)", userID,
			creditType, now)
}

// Available is what a user can hold now: the credits left in live
// batches. An admitted job's hold has taken its credits out of them
// already (hold), so no open hold is subtracted. Settling a job (charge
// from its hold, release the rest) never lowers it, which is why Settle
// does not take the account's lock: an admit sees a settlement wholly or
// not at all.
func Available(ctx context.Context, tx *gorm.DB, userID uint64, creditType string, now time.Time) (int64, error) {
	var avail int64
	err := tx.WithContext(ctx).Raw(availableSQL, userID, creditType, now).Scan(&avail).Error
	return avail, err
}

// availableSQL is Available's statement (user, type, now).
const availableSQL = `SELECT COALESCE(SUM(remaining), 0) FROM credit_batches
	  WHERE user_id = ? AND credit_type = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?)`

// Balances reports every credit type of a user in one query (live batches
// in spend order; open holds have taken their credits out of them).
func Balances(ctx context.Context, db *gorm.DB, userID uint64, now time.Time) ([]Balance, error) {
	var batches []CreditBatch
	err := spendOrder(db.WithContext(ctx).Model(&CreditBatch{}).Select("credit_type, remaining, expires_at").
		Where("user_id = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?)", userID, now),
	).Find(&batches).Error
	if err != nil {
		return nil, fmt.Errorf("balance: %w", err)
	}
	out := make([]Balance, 0, len(contract.CreditTypes))
	for _, ct := range contract.CreditTypes {
		bal := Balance{CreditType: ct, Expiring: []Expiring{}}
		for _, b := range batches {
			if b.CreditType == ct {
				bal.Remaining += b.Remaining
				bal.Expiring = append(bal.Expiring, Expiring{Credits: b.Remaining, At: b.ExpiresAt})
			}
		}
		out = append(out, bal)
	}
	return out, nil
}

// HeldBatch is the part of a job's hold taken from one credit batch.
type HeldBatch struct {
	BatchID uint64 `json:"batch_id"`
	Credits int64  `json:"credits"`
}

// hold takes up to amount credits out of the user's live batches in spend
// order inside tx, and returns what it took from each batch (in that order)
// and one hold entry per batch, for the caller to write with the job. The
// caller holds the user's lock (lockUser), so no other hold or admit takes
// from the batches meanwhile; a settlement may only give credits back.
func hold(
	tx *gorm.DB,
	userID uint64,
	creditType, jobID string,
	amount int64,
	now time.Time,
) ([]HeldBatch, []LedgerEntry, error) {
	if amount <= 0 {
		return nil, nil, nil
	}
	var batches []CreditBatch
	if err := spendOrder(liveBatches(tx, userID, creditType, now)).Select("id, remaining").Find(
		&batches).Error; err != nil {
		return nil, nil, fmt.Errorf("read batches: %w", err)
	}
	var (
		taken   int64
		held    []HeldBatch
		entries []LedgerEntry
	)
	for _, b := range batches {
		if taken == amount {
			break
		}
		n := min(b.Remaining, amount-taken)
		if err := tx.Model(&CreditBatch{}).Where("id = ?", b.ID).Update("remaining", gorm.Expr("remaining - ?",
			n)).Error; err != nil {
			return nil, nil, fmt.Errorf("hold from batch %d: %w", b.ID, err)
		}
		held = append(held, HeldBatch{BatchID: b.ID, Credits: n})
		entries = append(
			entries,
			LedgerEntry{
				UserID:     userID,
				CreditType: creditType,
				Kind:       LedgerHold,
				Amount:     -n,
				BatchID:    b.ID,
				JobID:      jobID,
			},
		)
		taken += n
	}
	return held, entries, nil
}

// settleHold charges charge credits from a job's hold, batch by batch in the
// order the hold took them, whether or not a batch has expired since, and
// gives the rest of each batch's part back to it: a batch that has expired
// takes it back too, where it lapses with the batch. It returns what it
// charged and the release and charge entries, one per batch, for the
// caller to write.
func settleHold(tx *gorm.DB, job *Job, charge int64) (int64, []LedgerEntry, error) {
	var (
		charged int64
		entries []LedgerEntry
	)
	for _, h := range job.HoldBatches {
		c := min(h.Credits, charge-charged)
		entries = append(
			entries,
			LedgerEntry{UserID: job.UserID, CreditType: job.CreditType, Kind: LedgerRelease, Amount: h.Credits,
				BatchID: h.BatchID, JobID: job.ID},
		)
		if c > 0 {
			entries = append(
				entries,
				LedgerEntry{UserID: job.UserID, CreditType: job.CreditType, Kind: LedgerCharge, Amount: -c,
					BatchID: h.BatchID, JobID: job.ID},
			)
			charged += c
		}
		if back := h.Credits - c; back > 0 {
			if err := tx.Model(&CreditBatch{}).Where("id = ?", h.BatchID).Update("remaining", gorm.Expr("remaining + ?",
				back)).Error; err != nil {
				return charged, nil, fmt.Errorf("release to batch %d: %w", h.BatchID, err)
			}
		}
	}
	return charged, entries, nil
}

// Ledger lists a user's entries, newest first.
func Ledger(ctx context.Context, db *gorm.DB, userID uint64, limit int) ([]LedgerEntry, error) {
	var out []LedgerEntry
	err := db.WithContext(ctx).Where("user_id = ?", userID).Order("id DESC").Limit(limit).Find(&out).Error
	return out, err
}
