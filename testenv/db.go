// Package testenv gives tests their own real dependencies: a fresh
// PostgreSQL schema or SQLite file per test, and one Temporal dev server
// per test package built from the pinned CLI in bin/.
package testenv

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// DefaultPostgresURL is used when TP_TEST_DATABASE_URL is not set.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// MaxOpenConns bounds the PostgreSQL pool of each test's database. A
// stock server takes 100 connections; a package's parallel tests, each
// with a stack of its own, and the package go test runs beside it must fit
// in them (e2e runs e2e.parallel stacks at once).
const MaxOpenConns = 10

// Backend names a database kind tests run against.
type Backend string

// The backends.
const (
	Postgres Backend = "postgres"
	SQLite   Backend = "sqlite"
)

// Backends lists every backend a database test must pass on.
var Backends = []Backend{Postgres, SQLite}

// PostgresURL is the server the database tests use.
func PostgresURL() string {
	if v := os.Getenv("TP_TEST_DATABASE_URL"); v != "" {
		return v
	}
	return DefaultPostgresURL
}

// DB opens a migrated database of its own for t: a fresh schema on the test
// PostgreSQL server (dropped at the end) or a SQLite file in t.TempDir().
// An unreachable PostgreSQL fails the test; it is never skipped.
func DB(t testing.TB, b Backend) *gorm.DB {
	t.Helper()
	db := EmptyDB(t, b)
	require.NoError(t, models.Migrate(context.Background(), db))
	return db
}

// EmptyDB is DB without the migrations: a database of t's own with no tables.
func EmptyDB(t testing.TB, b Backend) *gorm.DB {
	t.Helper()
	var dbURL, dataDir string
	if b == Postgres {
		dbURL = PostgresSchemaURL(t)
	} else {
		dataDir = t.TempDir()
	}
	db, err := models.Open(context.Background(), models.OpenConfig{URL: dbURL, DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = models.Close(db) })
	if b == Postgres {
		sqlDB, err := db.DB()
		require.NoError(t, err)
		sqlDB.SetMaxOpenConns(MaxOpenConns)
		sqlDB.SetMaxIdleConns(MaxOpenConns)
	}
	return db
}

// PostgresSchemaURL creates an empty schema of t's own on the test PostgreSQL
// server (dropped at the end) and returns a DSN whose search_path is that
// schema, for tests that hand a TP_DATABASE_URL to the binary. The
// connection that makes the schema is closed until the one that drops it
// is opened: a test holds no connection of its own beyond its pool.
func PostgresSchemaURL(t testing.TB) string {
	t.Helper()
	schema := strings.ToLower(models.NewID("t_"))
	require.NoError(t, adminExec("CREATE SCHEMA "+schema),
		"PostgreSQL for tests (TP_TEST_DATABASE_URL=%s) is not reachable", PostgresURL())
	t.Cleanup(func() { _ = adminExec("DROP SCHEMA " + schema + " CASCADE") })
	return withSearchPath(t, PostgresURL(), schema)
}

// adminExec runs one statement on the test server's database on a
// connection of its own, closed after.
func adminExec(stmt string) error {
	admin, err := models.Open(context.Background(), models.OpenConfig{URL: PostgresURL()})
	if err != nil {
		return err
	}
	defer func() { _ = models.Close(admin) }()
	return admin.Exec(stmt).Error
}

// EachDB runs fn as a subtest on every backend.
func EachDB(t *testing.T, fn func(t *testing.T, db *gorm.DB)) {
	for _, b := range Backends {
		t.Run(string(b), func(t *testing.T) { fn(t, DB(t, b)) })
	}
}

func withSearchPath(t testing.TB, dsn, schema string) string {
	u, err := url.Parse(dsn)
	require.NoError(t, err, "TP_TEST_DATABASE_URL must be a postgres:// URL")
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// RepoRoot is the folder holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod not found above the working directory")
		}
		dir = parent
	}
}
