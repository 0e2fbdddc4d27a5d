package models

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// SessionLifetime is how long a panel session lasts after sign-in.
const SessionLifetime = 7 * 24 * time.Hour

// ErrNoSession is a session token that is unknown, expired or signed out.
var ErrNoSession = errors.New("no such session: sign in")

// Session is a signed-in panel session. Only the SHA-256 of its token is
// stored; the token lives in the browser's cookie.
type Session struct {
	ID        string    `gorm:"primaryKey"`
	UserID    uint64    `gorm:"not null;index"`
	ExpiresAt time.Time `gorm:"not null;index"`
	CreatedAt time.Time `gorm:"not null"`
	// IP is the address that signed in, for the account's records.
	IP string `gorm:"not null;default:''"`
}

// StartSession signs a user in: it stores a new session and returns its
// token, fresh on every sign-in, so no token chosen before sign-in (a fixed
// session) ever becomes signed in. previous, the token the browser held,
// is ended in the same transaction.
func StartSession(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	previous, ip string,
	now time.Time,
) (string, *Session, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	s := &Session{ID: HashKey(token), UserID: userID, ExpiresAt: now.Add(SessionLifetime), CreatedAt: now, IP: ip}
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if previous != "" {
			if err := tx.Where("id = ?", HashKey(previous)).Delete(&Session{}).Error; err != nil {
				return err
			}
		}
		return tx.Create(s).Error
	})
	if err != nil {
		return "", nil, fmt.Errorf("start session: %w", err)
	}
	return token, s, nil
}

// SessionUser is the signed-in user of a session token; an unknown,
// expired or ended session is ErrNoSession.
func SessionUser(ctx context.Context, db *gorm.DB, token string, now time.Time) (*User, *Session, error) {
	if token == "" {
		return nil, nil, ErrNoSession
	}
	var s Session
	err := db.WithContext(ctx).Where("id = ? AND expires_at > ?", HashKey(token), now).Take(&s).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, ErrNoSession
	}
	if err != nil {
		return nil, nil, err
	}
	u, err := UserByID(ctx, db, s.UserID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, ErrNoSession
	}
	if err != nil {
		return nil, nil, err
	}
	return u, &s, nil
}

// EndSession signs a session out; an unknown token changes nothing.
func EndSession(ctx context.Context, db *gorm.DB, token string) error {
	if token == "" {
		return nil
	}
	return db.WithContext(ctx).Where("id = ?", HashKey(token)).Delete(&Session{}).Error
}

// PruneSessions deletes the sessions that expired before now.
func PruneSessions(ctx context.Context, db *gorm.DB, now time.Time) (int64, error) {
	res := db.WithContext(ctx).Where("expires_at <= ?", now).Delete(&Session{})
	return res.RowsAffected, res.Error
}
