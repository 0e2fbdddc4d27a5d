package models

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SignInAttempts counts the panel sign-in attempts of one subject: an
// account (by its email, known or not, so the answers never tell them
// apart) as tried from one client address, or a client address. Rows are changed under a row lock, so
// attempts made at once by several API processes are counted one by one.
type SignInAttempts struct {
	Subject string `gorm:"primaryKey"`
	// Count is an account's wrong passwords in a row (the attempt being
	// checked included), or an address's attempts since Since.
	Count int64 `gorm:"not null;default:0"`
	// Since is when an address's window of attempts began.
	Since time.Time `gorm:"not null"`
	// NotBefore is when an account may next have a password checked.
	NotBefore time.Time `gorm:"not null"`
	UpdatedAt time.Time `gorm:"not null;index"`
}

// SignInBackoff slows the guessing of one account's password without
// locking its owner out: the first Free wrong passwords in a row cost
// nothing, each one after doubles the wait before the next check (1 s,
// 2 s, 4 s, …) up to Max, and failures Forget old are forgotten. A right
// password after the wait signs in and clears them.
type SignInBackoff struct {
	Free   int64
	Max    time.Duration
	Forget time.Duration
}

// Delay is the wait after the failures-th wrong password in a row.
func (b SignInBackoff) Delay(failures int64) time.Duration {
	n := failures - b.Free
	if n <= 0 {
		return 0
	}
	if n > 30 {
		return b.Max
	}
	return min(time.Second<<(n-1), b.Max)
}

// ClaimSignIn asks whether a password may be checked for the account
// subject now: a positive wait says how long until it may, and nothing is
// counted. Otherwise the attempt is counted as a wrong password before it
// is checked (so attempts sent at once cannot all pass); ForgetSignIn
// clears the count when the password was right.
func ClaimSignIn(
	ctx context.Context,
	db *gorm.DB,
	subject string,
	b SignInBackoff,
	now time.Time,
) (time.Duration, error) {
	return withSignInAttempts(ctx, db, subject, now, func(a *SignInAttempts) time.Duration {
		if a.NotBefore.After(now) {
			return a.NotBefore.Sub(now)
		}
		if now.Sub(a.UpdatedAt) >= b.Forget {
			a.Count = 0
		}
		a.Count++
		a.NotBefore = now.Add(b.Delay(a.Count))
		return 0
	})
}

// ForgetSignIn clears an account's wrong passwords after a right one.
func ForgetSignIn(ctx context.Context, db *gorm.DB, subject string) error {
	if err := db.WithContext(ctx).Where("subject = ?", subject).Delete(&SignInAttempts{}).Error; err != nil {
		return fmt.Errorf("forget sign-in attempts: %w", err)
	}
	return nil
}

// CountSignInAttempt counts one attempt from the address subject in its
// window (which starts at the first attempt and lasts window), and
// answers how long until the window ends when the attempt is over max.
func CountSignInAttempt(
	ctx context.Context,
	db *gorm.DB,
	subject string,
	max int64,
	window time.Duration,
	now time.Time,
) (time.Duration, error) {
	return withSignInAttempts(ctx, db, subject, now, func(a *SignInAttempts) time.Duration {
		if !now.Before(a.Since.Add(window)) {
			a.Count, a.Since = 0, now
		}
		a.Count++
		if a.Count > max {
			return a.Since.Add(window).Sub(now)
		}
		return 0
	})
}

// withSignInAttempts runs change on subject's row (a new one when there is
// none), locked, and stores what it changed.
func withSignInAttempts(ctx context.Context, db *gorm.DB, subject string, now time.Time,
	change func(*SignInAttempts) time.Duration) (time.Duration, error) {
	var wait time.Duration
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		fresh := SignInAttempts{Subject: subject, Since: now, NotBefore: now, UpdatedAt: now}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh).Error; err != nil {
			return err
		}
		var a SignInAttempts
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("subject = ?", subject).Take(&a).Error; err != nil {
			return err
		}
		if wait = change(&a); wait > 0 {
			return nil
		}
		return tx.Model(&SignInAttempts{}).Where("subject = ?", subject).
			Updates(map[string]any{"count": a.Count, "since": a.Since, "not_before": a.NotBefore, "updated_at": now}).
			Error
	})
	if err != nil {
		return 0, fmt.Errorf("count sign-in attempt: %w", err)
	}
	return wait, nil
}

// PruneSignInAttempts deletes the rows not touched since before.
func PruneSignInAttempts(ctx context.Context, db *gorm.DB, before time.Time) (int64, error) {
	res := db.WithContext(ctx).Where("updated_at < ?", before).Delete(&SignInAttempts{})
	return res.RowsAffected, res.Error
}
