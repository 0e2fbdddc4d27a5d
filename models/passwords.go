package models

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
	"gorm.io/gorm"
)

// Argon2id parameters of new password hashes (OWASP's 19 MiB, 2 passes, 1
// lane); a stored hash carries its own, so they can be raised later.
const (
	argonMemoryKiB = 19 * 1024
	argonPasses    = 2
	argonLanes     = 1
	argonKeyLen    = 32
)

// MinPasswordLength is the fewest characters a password may have.
const MinPasswordLength = 10

// Errors of passwords and sign-in.
var (
	// ErrPasswordTooShort is a password under MinPasswordLength characters.
	ErrPasswordTooShort = fmt.Errorf("a password needs at least %d characters", MinPasswordLength)
	// ErrBadCredentials is a wrong password or an unknown email: the two
	// are never told apart.
	ErrBadCredentials = errors.New("email or password is wrong")
)

// HashPassword is the stored form of a password: argon2id with a random
// salt, in the PHC string format.
func HashPassword(password string) (string, error) {
	if utf8.RuneCountInString(password) < MinPasswordLength {
		return "", ErrPasswordTooShort
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	sum := argon2.IDKey([]byte(password), salt, argonPasses, argonMemoryKiB, argonLanes, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonPasses, argonLanes,
		enc.EncodeToString(salt), enc.EncodeToString(sum)), nil
}

// PasswordMatches says whether password hashes to the stored hash. An
// empty or malformed stored hash matches nothing.
func PasswordMatches(stored, password string) bool {
	parts := strings.Split(stored, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var mem, passes uint32
	var lanes uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &passes, &lanes); err != nil || mem == 0 || passes == 0 ||
		lanes == 0 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, passes, mem, lanes, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is checked against when the email is unknown, so an unknown
// email costs the same time as a wrong password.
var dummyHash, _ = HashPassword("not-a-password-of-anyone")

// SetPassword stores a new password for an account and signs out every
// session of it.
func SetPassword(ctx context.Context, db *gorm.DB, userID uint64, password string) error {
	hash, err := HashPassword(password)
	if err != nil {
		return err
	}
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ?", userID).Update("password_hash", hash)
		if res.Error != nil {
			return fmt.Errorf("set password: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("user %d: %w", userID, ErrNotFound)
		}
		return tx.Where("user_id = ?", userID).Delete(&Session{}).Error
	})
}

// CheckPassword finds the account of email when password is its password;
// a wrong password, an unknown email and an account without a password are
// all ErrBadCredentials, after the same work.
func CheckPassword(ctx context.Context, db *gorm.DB, email, password string) (*User, error) {
	u, err := UserByEmail(ctx, db, email)
	if errors.Is(err, ErrNotFound) {
		PasswordMatches(dummyHash, password)
		return nil, ErrBadCredentials
	}
	if err != nil {
		return nil, err
	}
	stored := u.PasswordHash
	if stored == "" {
		stored = dummyHash
	}
	if !PasswordMatches(stored, password) || u.PasswordHash == "" {
		return nil, ErrBadCredentials
	}
	return u, nil
}
