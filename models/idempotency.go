package models

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// IdempotencyKey remembers one Idempotency-Key of one user and operation.
type IdempotencyKey struct {
	UserID      uint64 `gorm:"primaryKey;autoIncrement:false"`
	Operation   string `gorm:"primaryKey"`
	Key         string `gorm:"column:idem_key;primaryKey"`
	BodyHash    string `gorm:"not null"`
	JobID       string `gorm:"not null"`
	LeaseUntil  time.Time
	CompletedAt *time.Time
	ExpiresAt   *time.Time `gorm:"index"`
	CreatedAt   time.Time
}

// ClaimState is what a claim of a key found.
type ClaimState int

// Claim states.
const (
	// ClaimNew: the key is new; the caller runs the request with JobID.
	ClaimNew ClaimState = iota
	// ClaimTakeover: the first request's lease ran out; the caller runs the
	// request again with the same JobID.
	ClaimTakeover
	// ClaimDone: the first request finished; answer its JobID.
	ClaimDone
	// ClaimInProgress: the first request is still running.
	ClaimInProgress
	// ClaimMismatch: the key was used with a different body.
	ClaimMismatch
)

// Claim is the state of a key after ClaimKey.
type Claim struct {
	State ClaimState
	JobID string
}

// ClaimKey takes an idempotency key for a request whose body hashes to hash.
// A new key gets newJobID and a lease; a key whose lease ran out is taken
// over with its original job id, so the retried request reaches the same job.
func ClaimKey(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	op, key, hash, newJobID string,
	lease time.Duration,
	now time.Time,
) (Claim, error) {
	var out Claim
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("user_id = ? AND operation = ? AND idem_key = ? AND expires_at IS NOT NULL AND expires_at <= ?",
			userID, op, key, now).
			Delete(&IdempotencyKey{}).Error; err != nil {
			return err
		}
		row := IdempotencyKey{
			UserID:     userID,
			Operation:  op,
			Key:        key,
			BodyHash:   hash,
			JobID:      newJobID,
			LeaseUntil: now.Add(lease),
			CreatedAt:  now,
		}
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 1 {
			out = Claim{State: ClaimNew, JobID: newJobID}
			return nil
		}
		var cur IdempotencyKey
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("user_id = ? AND operation = ? AND idem_key = ?",
			userID, op, key).Take(&cur).Error; err != nil {
			return err
		}
		out.JobID = cur.JobID
		switch {
		case cur.BodyHash != hash:
			out.State = ClaimMismatch
		case cur.CompletedAt != nil:
			out.State = ClaimDone
		case cur.LeaseUntil.After(now):
			out.State = ClaimInProgress
		default:
			out.State = ClaimTakeover
			return tx.Model(&IdempotencyKey{}).
				Where("user_id = ? AND operation = ? AND idem_key = ?", userID, op, key).
				Update("lease_until", now.Add(lease)).
				Error
		}
		return nil
	})
	return out, err
}

// CompleteKey marks a key's request finished; it is kept for ttl (0: as long as its job).
func CompleteKey(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	op, key string,
	ttl time.Duration,
	now time.Time,
) error {
	upd := map[string]any{"completed_at": now}
	if ttl > 0 {
		upd["expires_at"] = now.Add(ttl)
	}
	res := db.WithContext(ctx).
		Model(&IdempotencyKey{}).
		Where("user_id = ? AND operation = ? AND idem_key = ?", userID, op, key).
		Updates(upd)
	if res.Error == nil && res.RowsAffected == 0 {
		return errors.New("idempotency key vanished before completion")
	}
	return res.Error
}

// ReleaseKey forgets a key whose request did not create a job (refused), so
// the same key can be used again.
func ReleaseKey(ctx context.Context, db *gorm.DB, userID uint64, op, key string) error {
	return db.WithContext(ctx).
		Where("user_id = ? AND operation = ? AND idem_key = ?", userID, op, key).
		Delete(&IdempotencyKey{}).
		Error
}
