package models

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SigningKey is an Ed25519 key that signs webhook deliveries. At most one
// key is active (it signs); every stored key is published in the JWKS so
// receivers can still verify deliveries signed before a rotation.
type SigningKey struct {
	// ID is the key id ("sk_…"), published as the JWK "kid".
	ID string `gorm:"primaryKey"`
	// Seed is the 32-byte Ed25519 seed, standard Base64.
	Seed string `gorm:"not null"`
	// Active marks the signing key; a partial unique index allows one.
	Active    bool      `gorm:"not null;uniqueIndex:idx_signing_keys_active,where:active"`
	CreatedAt time.Time `gorm:"not null"`
}

// SigningKeys lists every stored key, the active one first, then newest
// first.
func SigningKeys(ctx context.Context, db *gorm.DB) ([]SigningKey, error) {
	var keys []SigningKey
	if err := db.WithContext(ctx).Order("active DESC, created_at DESC, id").Find(&keys).Error; err != nil {
		return nil, fmt.Errorf("read signing keys: %w", err)
	}
	return keys, nil
}

// CreateSigningKeyIfAbsent stores k as the active key unless an active key
// exists already, in which case nothing is written and it returns false.
// Two processes racing end with one active key; callers read it back with
// SigningKeys.
func CreateSigningKeyIfAbsent(ctx context.Context, db *gorm.DB, k *SigningKey) (bool, error) {
	k.Active = true
	res := db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(k)
	if res.Error != nil {
		return false, fmt.Errorf("create signing key: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}
