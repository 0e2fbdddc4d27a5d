package models

import "time"

// User is an account; keys act as their user.
type User struct {
	ID             uint64 `gorm:"primaryKey"`
	Email          string `gorm:"uniqueIndex;not null"`
	Plan           string `gorm:"not null;default:standard"`
	ServiceVersion string `gorm:"not null;default:''"`
	// PasswordHash is the argon2id hash of the panel password; empty means
	// the account cannot sign in (migration 0009).
	PasswordHash string    `gorm:"not null;default:''"       json:"-"`
	CreatedAt    time.Time `gorm:"not null"`
}

// APIKey is a key; only the SHA-256 of the secret is stored.
type APIKey struct {
	ID         string `gorm:"primaryKey"`
	UserID     uint64 `gorm:"index;not null"`
	Hash       string `gorm:"uniqueIndex;not null"`
	Hint       string `gorm:"not null"`
	Scopes     string `gorm:"not null"`
	ExpiresAt  *time.Time
	RevokedAt  *time.Time
	ReplacedBy string `gorm:"not null;default:''"`
	// Name is the owner's label for the key, at most MaxKeyNameLen
	// characters; it may be empty.
	Name      string    `gorm:"not null;default:''"`
	CreatedAt time.Time `gorm:"not null"`
}

// CreditBatch is one grant of credits of one type, spent in expiry order.
type CreditBatch struct {
	ID         uint64 `gorm:"primaryKey"`
	UserID     uint64 `gorm:"index:idx_batches_user;not null"`
	CreditType string `gorm:"index:idx_batches_user;not null"`
	Amount     int64  `gorm:"not null"`
	Remaining  int64  `gorm:"not null"`
	ExpiresAt  *time.Time
	Source     string    `gorm:"not null"`
	CreatedAt  time.Time `gorm:"not null"`
}

// LedgerEntry is one append-only change of a balance. The sum of a user's
// entries of one credit type is the spendable balance (before expiry).
type LedgerEntry struct {
	ID         uint64    `gorm:"primaryKey"`
	UserID     uint64    `gorm:"index;not null"`
	CreditType string    `gorm:"not null"`
	Kind       string    `gorm:"not null;uniqueIndex:idx_ledger_job_kind,where:job_id <> ''"`
	Amount     int64     `gorm:"not null"`
	BatchID    uint64    `gorm:"not null;default:0;uniqueIndex:idx_ledger_job_kind,where:job_id <> ''"`
	JobID      string    `gorm:"not null;default:'';uniqueIndex:idx_ledger_job_kind,where:job_id <> ''"`
	Note       string    `gorm:"not null;default:''"`
	CreatedAt  time.Time `gorm:"not null;index"`
}

// Ledger entry kinds.
const (
	LedgerGrant   = "grant"
	LedgerHold    = "hold"
	LedgerRelease = "release"
	LedgerCharge  = "charge"
)

// WebhookEndpoint is a registered receiver of job events.
type WebhookEndpoint struct {
	ID             string `gorm:"primaryKey"`
	UserID         uint64 `gorm:"index;not null"`
	URL            string `gorm:"not null"`
	Events         string `gorm:"not null"`
	Disabled       bool   `gorm:"not null;default:false"`
	DisabledReason string `gorm:"not null;default:''"`
	Failures       int    `gorm:"not null;default:0"`
	CreatedAt      time.Time
}
