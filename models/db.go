// Package models holds the GORM row types of the system of record and the
// queries on them; every query takes a context.Context.
package models

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// ErrNotFound is returned by lookups that find no row.
var ErrNotFound = errors.New("not found")

// OpenConfig says which database to open.
type OpenConfig struct {
	// URL is a PostgreSQL DSN; empty means the SQLite file under DataDir.
	URL string
	// DataDir holds the SQLite file when URL is empty.
	DataDir string
	// MaxConns is the most PostgreSQL connections the process opens at
	// once, idle ones and a job stream's LISTEN included; 0 means
	// DefaultAPIConns. Ignored on SQLite (8).
	MaxConns int
}

// The default PostgreSQL pool sizes per process. With PostgreSQL's default
// max_connections of 100 (97 once its 3 superuser slots are kept), an API
// and four workers hold at most 20 + 4 × 15 = 80, leaving room for migrate,
// admin commands and psql.
const (
	DefaultAPIConns    = 20
	DefaultWorkerConns = 15
)

// idleConnTime is how long an idle PostgreSQL connection is kept: a pool
// that was busy gives its connections back to the server.
const idleConnTime = 5 * time.Minute

// SQLitePath is the dev database file under a data dir.
func SQLitePath(dataDir string) string { return filepath.Join(dataDir, "taskplatform.db") }

// Open connects to PostgreSQL or opens the SQLite file (WAL mode, busy
// timeout, immediate transactions so concurrent writers queue instead of
// failing) and checks the connection.
func Open(ctx context.Context, cfg OpenConfig) (*gorm.DB, error) {
	// SkipDefaultTransaction: a single statement is atomic on its own, so
	// GORM's BEGIN/COMMIT around each one is two round trips bought for
	// nothing; every multi-statement write here opens its own transaction.
	gcfg := &gorm.Config{
		Logger:                 logger.Discard,
		TranslateError:         true,
		SkipDefaultTransaction: true,
		NowFunc:                func() time.Time { return time.Now().UTC() },
	}
	var dial gorm.Dialector
	if cfg.URL != "" {
		dial = postgres.Open(cfg.URL)
	} else {
		if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		dial = sqlite.Open(SQLiteDSN(SQLitePath(cfg.DataDir)))
	}
	db, err := gorm.Open(dial, gcfg)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	if cfg.URL == "" {
		sqlDB.SetMaxOpenConns(8)
	} else {
		n := cfg.MaxConns
		if n <= 0 {
			n = DefaultAPIConns
		}
		sqlDB.SetMaxOpenConns(n)
		sqlDB.SetMaxIdleConns(max(n/2, 1))
		sqlDB.SetConnMaxIdleTime(idleConnTime)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pctx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("reach database: %w", err)
	}
	return db, nil
}

// SQLiteDSN is the DSN of a SQLite file with the pragmas the service needs.
func SQLiteDSN(path string) string {
	return "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(15000)&_pragma=foreign_keys(1)" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
}

// IsPostgres says whether db talks to PostgreSQL.
func IsPostgres(db *gorm.DB) bool { return strings.Contains(db.Dialector.Name(), "postgres") }

// Close closes the pool under db.
func Close(db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Ping checks the database answers.
func Ping(ctx context.Context, db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}
