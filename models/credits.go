package models

import (
	"context"
	"fmt"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Grant adds a batch of credits to a user's balance and writes the ledger entry.
func Grant(ctx context.Context, db *gorm.DB, userID uint64, creditType string, amount int64, expiresAt *time.Time, source string) (*CreditBatch, error) {
	if amount <= 0 {
		return nil, fmt.Errorf("grant: credits must be positive, got %d", amount)
	}
	b := &CreditBatch{UserID: userID, CreditType: creditType, Amount: amount, Remaining: amount, ExpiresAt: expiresAt, Source: source}
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(b).Error; err != nil {
			return err
		}
		return tx.Create(&LedgerEntry{UserID: userID, CreditType: creditType, Kind: LedgerGrant, Amount: amount, BatchID: b.ID, Note: source}).Error
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
	return tx.Model(&CreditBatch{}).Where("user_id = ? AND credit_type = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?)", userID, creditType, now)
}

// Available is what a user can hold now: live batches minus open holds,
// read in one statement so both sums come from one snapshot. Settling a
// job (charge at most its hold, release the hold) never lowers it, which
// is why Settle does not take the account's lock: an admit sees a
// settlement wholly or not at all.
func Available(ctx context.Context, tx *gorm.DB, userID uint64, creditType string, now time.Time) (int64, error) {
	var avail int64
	err := tx.WithContext(ctx).Raw(availableSQL, userID, creditType, now, userID, creditType).Scan(&avail).Error
	return avail, err
}

// availableSQL is Available's statement (user, type, now, user, type).
const availableSQL = `SELECT
	(SELECT COALESCE(SUM(remaining), 0) FROM credit_batches
	  WHERE user_id = ? AND credit_type = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?))
	- (SELECT COALESCE(SUM(held_credits), 0) FROM jobs WHERE user_id = ? AND credit_type = ? AND settled_at IS NULL)`

// Balances reports every credit type of a user: two queries whatever the
// number of types (live batches in spend order, open holds).
func Balances(ctx context.Context, db *gorm.DB, userID uint64, now time.Time) ([]Balance, error) {
	var batches []CreditBatch
	err := spendOrder(db.WithContext(ctx).Model(&CreditBatch{}).Select("credit_type, remaining, expires_at").
		Where("user_id = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?)", userID, now)).Find(&batches).Error
	if err != nil {
		return nil, fmt.Errorf("balance: %w", err)
	}
	var holds []struct {
		CreditType string
		Held       int64
	}
	if err := db.WithContext(ctx).Model(&Job{}).Select("credit_type, COALESCE(SUM(held_credits), 0) AS held").
		Where("user_id = ? AND settled_at IS NULL", userID).Group("credit_type").Scan(&holds).Error; err != nil {
		return nil, fmt.Errorf("balance: %w", err)
	}
	out := make([]Balance, 0, len(contract.CreditTypes))
	for _, ct := range contract.CreditTypes {
		bal := Balance{CreditType: ct, Expiring: []Expiring{}}
		var avail int64
		for _, b := range batches {
			if b.CreditType == ct {
				avail += b.Remaining
				bal.Expiring = append(bal.Expiring, Expiring{Credits: b.Remaining, At: b.ExpiresAt})
			}
		}
		for _, h := range holds {
			if h.CreditType == ct {
				avail -= h.Held
			}
		}
		bal.Remaining = max(avail, 0)
		out = append(out, bal)
	}
	return out, nil
}

// spend takes amount credits from live batches in spend order inside tx
// and returns what it could take and one charge entry per batch touched,
// for the caller to write with its other entries.
func spend(tx *gorm.DB, userID uint64, creditType string, amount int64, jobID string, now time.Time) (int64, []LedgerEntry, error) {
	if amount <= 0 {
		return 0, nil, nil
	}
	var batches []CreditBatch
	if err := spendOrder(liveBatches(tx, userID, creditType, now)).Clauses(clause.Locking{Strength: "UPDATE"}).Find(&batches).Error; err != nil {
		return 0, nil, err
	}
	var (
		taken   int64
		entries []LedgerEntry
	)
	for _, b := range batches {
		if taken == amount {
			break
		}
		n := min(b.Remaining, amount-taken)
		if err := tx.Model(&CreditBatch{}).Where("id = ?", b.ID).Update("remaining", gorm.Expr("remaining - ?", n)).Error; err != nil {
			return taken, nil, err
		}
		entries = append(entries, LedgerEntry{UserID: userID, CreditType: creditType, Kind: LedgerCharge, Amount: -n, BatchID: b.ID, JobID: jobID})
		taken += n
	}
	return taken, entries, nil
}

// Ledger lists a user's entries, newest first.
func Ledger(ctx context.Context, db *gorm.DB, userID uint64, limit int) ([]LedgerEntry, error) {
	var out []LedgerEntry
	err := db.WithContext(ctx).Where("user_id = ?", userID).Order("id DESC").Limit(limit).Find(&out).Error
	return out, err
}
