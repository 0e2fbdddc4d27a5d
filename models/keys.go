package models

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// KeyPrefix starts every API key.
const KeyPrefix = "tpk_"

// KeyIDPrefix starts every API key's id.
const KeyIDPrefix = "key_"

// Scopes a key can hold.
const (
	ScopeTasksRun    = "tasks:run"
	ScopeJobsRead    = "jobs:read"
	ScopeJobsCancel  = "jobs:cancel"
	ScopeFilesRead   = "files:read"
	ScopeFilesWrite  = "files:write"
	ScopeAccountRead = "account:read"
)

// AllScopes is every scope, the default of a new key.
var AllScopes = []string{
	ScopeTasksRun,
	ScopeJobsRead,
	ScopeJobsCancel,
	ScopeFilesRead,
	ScopeFilesWrite,
	ScopeAccountRead,
}

// Errors of key authentication.
var (
	ErrKeyInvalid = errors.New("api key malformed, unknown, revoked or expired")
	// ErrKeyInactive is a revoked or expired key asked to roll.
	ErrKeyInactive = errors.New("the key is revoked or expired")
)

// NewID returns prefix followed by 20 random lowercase base32 characters.
func NewID(prefix string) string {
	const alphabet = "0123456789abcdefghijkmnpqrstvwxyz"
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return prefix + string(b)
}

// HashKey is the stored form of a key secret.
func HashKey(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// WellFormedKey says whether s has the shape of a key.
func WellFormedKey(s string) bool {
	if !strings.HasPrefix(s, KeyPrefix) || len(s) != len(KeyPrefix)+43 {
		return false
	}
	for _, r := range s[len(KeyPrefix):] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return KeyPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// ErrTooManyKeys is a key refused because the account already has
// contract.Limits.APIKeys.MaxPerAccount active keys.
var ErrTooManyKeys = errors.New("the account has as many active keys as it may")

// MaxKeyNameLen is the most characters a key's name may have.
const MaxKeyNameLen = 64

// ErrKeyNameTooLong is a key name longer than MaxKeyNameLen characters.
var ErrKeyNameTooLong = errors.New("the key name is too long")

// KeyName is name trimmed of surrounding space, or ErrKeyNameTooLong when
// it is then longer than MaxKeyNameLen characters. It may be empty.
func KeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > MaxKeyNameLen {
		return "", ErrKeyNameTooLong
	}
	return name, nil
}

// CreateKey makes an unnamed key; see CreateNamedKey.
func CreateKey(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	scopes []string,
	expiresAt *time.Time,
	currentVersion string,
) (*APIKey, string, error) {
	return CreateNamedKey(ctx, db, userID, "", scopes, expiresAt, currentVersion)
}

// CreateNamedKey makes a key for a user and returns the row and the secret, which
// is shown once and never stored. The first key of an account pins the
// account's contract version. An account holding the most active keys it
// may (neither revoked nor expired at now) is refused with ErrTooManyKeys,
// counted under its lock.
func CreateNamedKey(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	name string,
	scopes []string,
	expiresAt *time.Time,
	currentVersion string,
) (*APIKey, string, error) {
	name, err := KeyName(name)
	if err != nil {
		return nil, "", err
	}
	var (
		k      *APIKey
		secret string
	)
	err = db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		var active int64
		now := time.Now()
		if err := tx.Model(&APIKey{}).Where("user_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
			userID, now).
			Count(&active).Error; err != nil {
			return fmt.Errorf("count keys: %w", err)
		}
		if active >= int64(contract.DefaultLimits().APIKeys.MaxPerAccount) {
			return ErrTooManyKeys
		}
		var err error
		k, secret, err = createKeyWithSecret(ctx, tx, userID, name, scopes, expiresAt, currentVersion, newSecret())
		return err
	})
	if err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// CreateKeyWithSecret stores a key whose secret the caller chose (the dev key,
// kept in the data dir so `dev` prints the same key on every start).
func CreateKeyWithSecret(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	scopes []string,
	currentVersion, secret string,
) (*APIKey, error) {
	if !WellFormedKey(secret) {
		return nil, ErrKeyInvalid
	}
	k, _, err := createKeyWithSecret(ctx, db, userID, "", scopes, nil, currentVersion, secret)
	return k, err
}

func createKeyWithSecret(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	name string,
	scopes []string,
	expiresAt *time.Time,
	currentVersion, secret string,
) (*APIKey, string, error) {
	if len(scopes) == 0 {
		scopes = AllScopes
	}
	k := &APIKey{
		ID:        NewID(KeyIDPrefix),
		UserID:    userID,
		Hash:      HashKey(secret),
		Hint:      secret[:len(KeyPrefix)+4] + "…",
		Name:      name,
		Scopes:    strings.Join(scopes, ","),
		ExpiresAt: expiresAt,
	}
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(k).Error; err != nil {
			return fmt.Errorf("create key: %w", err)
		}
		return tx.Model(&User{}).
			Where("id = ? AND service_version = ''", userID).
			Update("service_version", currentVersion).
			Error
	})
	if err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// SecretKeyAuth finds the key and its user for a presented secret. A revoked,
// expired or unknown key is ErrKeyInvalid.
func SecretKeyAuth(ctx context.Context, db *gorm.DB, secret string, now time.Time) (*APIKey, *User, error) {
	if !WellFormedKey(secret) {
		return nil, nil, ErrKeyInvalid
	}
	var ku keyWithUser
	err := db.WithContext(ctx).InnerJoins("User").Where("api_keys.hash = ?", HashKey(secret)).Take(&ku).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, ErrKeyInvalid
	}
	if err != nil {
		return nil, nil, err
	}
	k := ku.APIKey
	if k.RevokedAt != nil || (k.ExpiresAt != nil && !now.Before(*k.ExpiresAt)) {
		return nil, nil, ErrKeyInvalid
	}
	return &k, &ku.User, nil
}

// keyWithUser is a key read with its user in one statement: every
// authenticated request reads both, so it costs one round trip, not two.
type keyWithUser struct {
	APIKey
	User User `gorm:"foreignKey:UserID"`
}

// TableName is the key's table.
func (keyWithUser) TableName() string { return "api_keys" }

// HasScope says whether the key holds a scope.
func (k *APIKey) HasScope(scope string) bool {
	for _, s := range strings.Split(k.Scopes, ",") {
		if s == scope {
			return true
		}
	}
	return false
}

// RollKey creates a successor of a key with the same user, name, scopes and expiry;
// the old key stays valid for grace (never past its own expiry), then
// expires. A revoked or expired key cannot be rolled. Both changes are one
// transaction.
func RollKey(
	ctx context.Context,
	db *gorm.DB,
	keyID string,
	grace time.Duration,
	now time.Time,
	currentVersion string,
) (*APIKey, string, error) {
	var (
		nk     *APIKey
		secret string
	)
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var old APIKey
		if err := tx.Take(&old, "id = ?", keyID).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return fmt.Errorf("key %s: %w", keyID, ErrNotFound)
			}
			return err
		}
		if old.RevokedAt != nil {
			return fmt.Errorf("key %s is revoked: %w", keyID, ErrKeyInactive)
		}
		if old.ExpiresAt != nil && !now.Before(*old.ExpiresAt) {
			return fmt.Errorf("key %s has expired: %w", keyID, ErrKeyInactive)
		}
		var err error
		nk, secret, err = createKeyWithSecret(
			ctx,
			tx,
			old.UserID,
			old.Name,
			strings.Split(old.Scopes, ","),
			old.ExpiresAt,
			currentVersion,
			newSecret(),
		)
		if err != nil {
			return err
		}
		if err := copySpendLimits(tx, old.UserID, old.ID, nk.ID, now); err != nil {
			return err
		}
		until := now.Add(grace)
		if old.ExpiresAt != nil && old.ExpiresAt.Before(until) {
			until = *old.ExpiresAt
		}
		return tx.Model(&APIKey{}).
			Where("id = ?", keyID).
			Updates(map[string]any{"expires_at": until, "replaced_by": nk.ID}).
			Error
	})
	if err != nil {
		return nil, "", err
	}
	return nk, secret, nil
}

// RenameKey sets the name of a user's key (see KeyName), revoked and
// expired keys included; another user's key is ErrNotFound.
func RenameKey(ctx context.Context, db *gorm.DB, userID uint64, keyID, name string) (*APIKey, error) {
	name, err := KeyName(name)
	if err != nil {
		return nil, err
	}
	res := db.WithContext(ctx).Model(&APIKey{}).Where("id = ? AND user_id = ?", keyID, userID).Update("name", name)
	if res.Error != nil {
		return nil, fmt.Errorf("rename key: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return nil, fmt.Errorf("key %s: %w", keyID, ErrNotFound)
	}
	return KeyOfUser(ctx, db, userID, keyID)
}

// RevokeKey makes a key invalid at once and deletes the leases of its event
// streams, so they end: at once in every process on PostgreSQL (the
// api_keys table notifies them), at their next renewal otherwise.
func RevokeKey(ctx context.Context, db *gorm.DB, keyID string, now time.Time) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&APIKey{}).Where("id = ? AND revoked_at IS NULL", keyID).Update("revoked_at", now)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("key %s: %w", keyID, ErrNotFound)
		}
		return tx.Where("api_key_id = ?", keyID).Delete(&EventStream{}).Error
	})
}

// KeysOfUser is every key of a user, revoked and expired ones included,
// oldest first. A row holds the key's hash and hint, never its secret.
func KeysOfUser(ctx context.Context, db *gorm.DB, userID uint64) ([]APIKey, error) {
	var keys []APIKey
	if err := db.WithContext(ctx).Where("user_id = ?", userID).Order("created_at, id").Find(&keys).Error; err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	return keys, nil
}
