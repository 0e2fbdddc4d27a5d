package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// EventStream is one open live event stream (GET /v1/jobs/{job_id}/events)
// as a lease: every API process counts the leases of a key and of an account
// before opening one more, so the limits hold however many processes serve
// streams. A stream renews its lease while it is open and deletes it when it
// ends; the lease of a process that died lapses at ExpiresAt. Revoking a key
// deletes its leases, which ends its streams at their next renewal at the
// latest (migration 0014).
type EventStream struct {
	ID        string    `gorm:"primaryKey"`
	UserID    uint64    `gorm:"not null;index"`
	APIKeyID  string    `gorm:"not null;default:'';index"`
	JobID     string    `gorm:"not null"`
	ExpiresAt time.Time `gorm:"not null"`
	CreatedAt time.Time `gorm:"not null"`
}

// StreamLimits bound the streams open at once; zero means no bound.
type StreamLimits struct {
	PerKey, PerAccount int
}

// TooManyStreams is a stream refused because its key (PerKey) or its
// account already holds Limit streams.
type TooManyStreams struct {
	PerKey bool
	Limit  int
}

// Error implements error.
func (e *TooManyStreams) Error() string {
	if e.PerKey {
		return fmt.Sprintf("the key has %d event streams open", e.Limit)
	}
	return fmt.Sprintf("the account has %d event streams open", e.Limit)
}

// OpenStream takes a lease for a stream of job by a user's key (keyID may be
// empty: a stream without a key counts against the account only), valid
// until now + lease, or refuses it with a *TooManyStreams. It counts under
// the user's lock, so concurrent opens in any process see each other, and
// deletes the user's lapsed leases on the way.
func OpenStream(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	keyID, jobID string,
	limits StreamLimits,
	now time.Time,
	lease time.Duration,
) (*EventStream, error) {
	s := &EventStream{
		ID:        NewID("evs_"),
		UserID:    userID,
		APIKeyID:  keyID,
		JobID:     jobID,
		ExpiresAt: now.Add(lease),
		CreatedAt: now,
	}
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		if err := tx.Where("user_id = ? AND expires_at <= ?", userID, now).Delete(&EventStream{}).Error; err != nil {
			return fmt.Errorf("drop lapsed streams: %w", err)
		}
		var open struct{ OfAccount, OfKey int }
		if err := tx.Model(&EventStream{}).Select("COUNT(*) AS of_account, COALESCE(SUM(CASE WHEN api_key_id = ? THEN 1 "+
			"ELSE 0 END), 0) AS of_key", keyID).
			Where("user_id = ?", userID).Scan(&open).Error; err != nil {
			return fmt.Errorf("count streams: %w", err)
		}
		if keyID != "" && limits.PerKey > 0 && open.OfKey >= limits.PerKey {
			return &TooManyStreams{PerKey: true, Limit: limits.PerKey}
		}
		if limits.PerAccount > 0 && open.OfAccount >= limits.PerAccount {
			return &TooManyStreams{Limit: limits.PerAccount}
		}
		return tx.Create(s).Error
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// RenewStream extends a stream's lease to now + lease while its key is
// neither revoked nor expired. False means the stream must end: its key was
// revoked (which deleted the lease), has expired, or the lease is gone.
func RenewStream(ctx context.Context, db *gorm.DB, id string, now time.Time, lease time.Duration) (bool, error) {
	res := db.WithContext(ctx).Model(&EventStream{}).Where("id = ?", id).
		Where("api_key_id = '' OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = event_streams.api_key_id AND k.revoked_at "+
			"IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?))", now).
		Update("expires_at", now.Add(lease))
	if res.Error != nil {
		return false, fmt.Errorf("renew stream %s: %w", id, res.Error)
	}
	return res.RowsAffected > 0, nil
}

// CloseStream deletes a stream's lease.
func CloseStream(ctx context.Context, db *gorm.DB, id string) error {
	if err := db.WithContext(ctx).Delete(&EventStream{}, "id = ?", id).Error; err != nil {
		return fmt.Errorf("close stream %s: %w", id, err)
	}
	return nil
}

// keyNotifyDDL makes the api_keys table announce a key's revocation or new
// expiry (a roll's grace) on JobEventsChannel, the key id as payload, so the
// streams of the key in every API process end at once (migration 0014).
const keyNotifyDDL = `
CREATE OR REPLACE FUNCTION tp_key_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('` + JobEventsChannel + `', NEW.id);
	RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS api_keys_notify ON api_keys;
CREATE TRIGGER api_keys_notify AFTER UPDATE OF revoked_at, expires_at ON api_keys FOR EACH ROW
	WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
	EXECUTE FUNCTION tp_key_notify();
`

// migrateEventStreams is migration 0014: the stream leases, and on
// PostgreSQL the keys' notify trigger.
func migrateEventStreams(tx *gorm.DB) error {
	if err := tx.AutoMigrate(&EventStream{}); err != nil {
		return fmt.Errorf("0014: %w", err)
	}
	if !IsPostgres(tx) {
		return nil
	}
	if err := tx.Exec(keyNotifyDDL).Error; err != nil {
		return fmt.Errorf("0014: %w", err)
	}
	return nil
}

// KeyUsable reads whether a key is neither revoked nor expired at now, and
// when it expires (nil: never). An unknown key is not usable.
func KeyUsable(ctx context.Context, db *gorm.DB, keyID string, now time.Time) (bool, *time.Time, error) {
	var k APIKey
	err := db.WithContext(ctx).Select("id, revoked_at, expires_at").Take(&k, "id = ?", keyID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, fmt.Errorf("read key %s: %w", keyID, err)
	}
	return k.RevokedAt == nil && (k.ExpiresAt == nil || now.Before(*k.ExpiresAt)), k.ExpiresAt, nil
}
