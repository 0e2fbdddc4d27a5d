package models

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-gormigrate/gormigrate/v2"
	"gorm.io/gorm"
)

// ErrSchemaOutdated means migrations are pending; run `taskplatform migrate`.
var ErrSchemaOutdated = errors.New("database schema is not up to date: run `taskplatform migrate`")

// migrations is the ordered, append-only list of schema versions. A shipped
// migration is never edited; changes go in a new one.
var migrations = []*gormigrate.Migration{
	{
		ID: "0001_accounts_credits",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(
				&User{},
				&APIKey{},
				&CreditBatch{},
				&LedgerEntry{},
				&WebhookEndpoint{},
				&Job{},
				&File{},
				&IdempotencyKey{},
			)
		},
	},
	{
		ID: "0002_rate_limits_request_log",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&RateWindow{}, &RequestLog{})
		},
	},
	{
		ID: "0003_webhooks",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&SigningKey{}, &WebhookDelivery{}, &WebhookAttempt{})
		},
	},
	{
		// Uploads and registered URLs (file: handles): the source address,
		// unique per user, and the caller's own id. A database created by
		// 0001 from the current File already has them.
		ID: "0004_files",
		Migrate: func(tx *gorm.DB) error {
			m := tx.Migrator()
			for _, col := range []string{"SourceURL", "ExternalID"} {
				if !m.HasColumn(&File{}, col) {
					if err := m.AddColumn(&File{}, col); err != nil {
						return fmt.Errorf("add files.%s: %w", col, err)
					}
				}
			}
			if !m.HasIndex(&File{}, "idx_files_user_source") {
				return m.CreateIndex(&File{}, "idx_files_user_source")
			}
			return nil
		},
	},
	{
		// Admission that outlives a slow submit: pending job rows and the
		// tombstones of refused admits.
		ID: "0005_admission",
		Migrate: func(tx *gorm.DB) error {
			if m := tx.Migrator(); !m.HasColumn(&Job{}, "Pending") {
				if err := m.AddColumn(&Job{}, "Pending"); err != nil {
					return fmt.Errorf("add jobs.pending: %w", err)
				}
			}
			return tx.AutoMigrate(&RefusedAdmit{})
		},
	},
	{
		// Records: moodboards, brand kits, fabrics and range plans, the
		// account's and the curated library's.
		ID: "0006_records",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&Record{})
		},
	},
	{
		// Costs flat as data grows: indexes for the listings, reports and
		// retention, and on PostgreSQL the report rollups kept by triggers,
		// filled from the rows already there (rollups.go).
		ID:      "0007_scale_indexes",
		Migrate: migrateScale,
	},
	{
		// The outbox of the weekly deprecation notices (issue 18).
		ID: "0008_deprecation_notices",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&DeprecationNotice{})
		},
	},
	{
		// Panel sign-in (issue 15): account passwords and server-side
		// sessions.
		ID: "0009_sessions",
		Migrate: func(tx *gorm.DB) error {
			if m := tx.Migrator(); !m.HasColumn(&User{}, "PasswordHash") {
				if err := m.AddColumn(&User{}, "PasswordHash"); err != nil {
					return fmt.Errorf("add users.password_hash: %w", err)
				}
			}
			return tx.AutoMigrate(&Session{})
		},
	},
	{
		// Job rows announce their changes to live streams themselves
		// (PostgreSQL trigger; issue 10: no round trip per event).
		ID:      "0010_job_notify",
		Migrate: migrateJobNotify,
	},
	{
		// Panel sign-in slowed per account and counted per client address
		// (issue 26), instead of windows that lock an account out.
		ID: "0011_sign_in_attempts",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&SignInAttempts{})
		},
	},
	{
		// The durable intent of a late job's admit, which the workers'
		// sweep delivers or ends (issue 26).
		ID: "0012_late_admits",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&LateAdmit{})
		},
	},
	{
		// Holds take their credits out of the batches they reserve, so
		// credits expiring mid-job are charged from their batch (issue 26):
		// jobs.hold_batches, and the open holds of the old shape moved onto
		// batches (holds.go).
		ID:      "0013_holds_per_batch",
		Migrate: migrateHoldsPerBatch,
	},
	{
		// Limits on what one account holds open (issue 26): the leases of
		// live event streams, counted across API processes, and on
		// PostgreSQL the keys' notify trigger that ends a revoked key's
		// streams (streams.go).
		ID:      "0014_event_streams",
		Migrate: migrateEventStreams,
	},
	{
		// Each stored file's SHA-256, answered with it and signed in a
		// job's manifest (issue 33).
		ID: "0015_file_digests",
		Migrate: func(tx *gorm.DB) error {
			if m := tx.Migrator(); !m.HasColumn(&File{}, "SHA256") {
				if err := m.AddColumn(&File{}, "SHA256"); err != nil {
					return fmt.Errorf("add files.sha256: %w", err)
				}
			}
			return nil
		},
	},
	{
		// Where a queued job stands (issue 33): the queued and running
		// jobs in submit order, and the ended jobs newest first, each a
		// partial index the queue reads (queue.go).
		ID:      "0016_queue_position",
		Migrate: migrateQueuePosition,
	},
	{
		// Spend limits per account and key, per day and month (issue 33):
		// the limits, the thresholds each period reached (one
		// spend.threshold event each), and the limit a refused admit's
		// tombstone names.
		ID: "0017_spend_limits",
		Migrate: func(tx *gorm.DB) error {
			if m := tx.Migrator(); !m.HasColumn(&RefusedAdmit{}, "SpendLimit") {
				if err := m.AddColumn(&RefusedAdmit{}, "SpendLimit"); err != nil {
					return fmt.Errorf("add refused_admits.spend_limit: %w", err)
				}
			}
			return tx.AutoMigrate(&SpendLimit{}, &SpendThreshold{})
		},
	},
	{
		// Batches (issue 33): a batch and its jobs in request order
		// (batches.go).
		ID:      "0018_batches",
		Migrate: migrateBatches,
	},
	{
		// Named keys and the receiver's answer in the delivery log
		// (issue 31).
		ID: "0019_key_names_and_answers",
		Migrate: func(tx *gorm.DB) error {
			m := tx.Migrator()
			if !m.HasColumn(&APIKey{}, "Name") {
				if err := m.AddColumn(&APIKey{}, "Name"); err != nil {
					return fmt.Errorf("add api_keys.name: %w", err)
				}
			}
			if !m.HasColumn(&WebhookAttempt{}, "Response") {
				if err := m.AddColumn(&WebhookAttempt{}, "Response"); err != nil {
					return fmt.Errorf("add webhook_attempts.response: %w", err)
				}
			}
			return nil
		},
	},
	{
		// When a job's workflow admitted it (issue 42): a batch's job no
		// workflow admitted yet is cancelled in the store and never runs,
		// and the queue counts only admitted jobs ahead (batchcancel.go,
		// queue.go).
		ID:      "0020_job_admitted_at",
		Migrate: migrateAdmittedAt,
	},
	{
		// The webhooks of engines' async predictions, taken by the API for
		// whichever worker runs the step (issue 44).
		ID: "0021_engine_completions",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&EngineCompletion{})
		},
	},
	{
		// Each external engine's capacity, shared by every worker: the
		// slots of its queue and of each replica, leased (issue 44).
		ID: "0022_engine_leases",
		Migrate: func(tx *gorm.DB) error {
			return tx.AutoMigrate(&EngineLease{})
		},
	},
	{
		// An upload keeps the file name it was sent with (issue 48): its
		// record and its download's Content-Disposition give it back.
		ID: "0023_file_name",
		Migrate: func(tx *gorm.DB) error {
			if tx.Migrator().HasColumn(&File{}, "Name") {
				return nil
			}
			if err := tx.Migrator().AddColumn(&File{}, "Name"); err != nil {
				return fmt.Errorf("add files.name: %w", err)
			}
			return nil
		},
	},
}

func migrator(db *gorm.DB) *gormigrate.Gormigrate {
	return gormigrate.New(
		db,
		&gormigrate.Options{
			TableName:      "schema_migrations",
			IDColumnName:   "id",
			IDColumnSize:   255,
			UseTransaction: true,
		},
		migrations,
	)
}

// Migrate applies every pending migration.
func Migrate(ctx context.Context, db *gorm.DB) error {
	if err := migrator(db.WithContext(ctx)).Migrate(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// CheckSchema returns ErrSchemaOutdated when a migration has not been applied.
func CheckSchema(ctx context.Context, db *gorm.DB) error {
	if !db.Migrator().HasTable("schema_migrations") {
		return ErrSchemaOutdated
	}
	var applied []string
	if err := db.WithContext(ctx).Table("schema_migrations").Pluck("id", &applied).Error; err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	have := make(map[string]bool, len(applied))
	for _, id := range applied {
		have[id] = true
	}
	for _, m := range migrations {
		if !have[m.ID] {
			return fmt.Errorf("%w (missing %s)", ErrSchemaOutdated, m.ID)
		}
	}
	return nil
}
