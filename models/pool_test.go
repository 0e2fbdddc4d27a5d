package models_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestPoolSizeIsTheProcesss checks that a process opens at most MaxConns
// PostgreSQL connections (DefaultAPIConns when unset): one more waits for a
// connection to come back instead of asking the server for another.
func TestPoolSizeIsTheProcesss(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open := func(n int) *sql.DB {
		db, err := models.Open(ctx, models.OpenConfig{URL: testenv.PostgresURL(), MaxConns: n})
		require.NoError(t, err)
		t.Cleanup(func() { _ = models.Close(db) })
		sqlDB, err := db.DB()
		require.NoError(t, err)
		return sqlDB
	}
	require.Equal(t, models.DefaultAPIConns, open(0).Stats().MaxOpenConnections)

	small := open(3)
	for range 3 {
		conn, err := small.Conn(ctx)
		require.NoError(t, err)
		t.Cleanup(func() { _ = conn.Close() })
	}
	waitCtx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err := small.Conn(waitCtx)
	require.ErrorIs(t, err, context.DeadlineExceeded, "a fourth connection waits for one of the three")
	require.Equal(t, 3, small.Stats().OpenConnections)
}
