package e2e_test

import (
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"

	"github.com/taskplatform/taskplatform/testenv"
)

// The one real Temporal of this test package, started by the first test
// that needs it: tests of the router alone run without it.
var (
	devOnce   sync.Once
	devServer *testsuite.DevServer
	devErr    error
)

// temporalClient is the client of the package's Temporal dev server,
// starting it on first use; a server that does not start fails the test.
func temporalClient(t testing.TB) client.Client {
	t.Helper()
	devOnce.Do(func() { devServer, devErr = testenv.StartTemporal() })
	require.NoError(t, devErr, "Temporal dev server")
	return devServer.Client()
}

// parallel bounds the package's tests that run at once. Each has its own
// database schema, task queue and worker, and most of a test is waiting
// (on Temporal, step delays, webhook retries, polls), so more of them than
// the two cores go test assumes keep the machine busy. They share one
// PostgreSQL: each stack's pool is testenv.MaxOpenConns, so parallel
// stacks take at most 40 of a stock server's 100 connections, leaving the
// rest to the package go test runs beside this one. The 300-submit burst,
// which fills the shared Temporal and PostgreSQL on its own, is not
// parallel: it runs alone, before the others start.
const parallel = 4

// patience is how long a test waits for what the stack does on its own
// (a webhook's retry, a job's settling, a worker's poll). A passing run
// waits only as long as the stack takes; the bound is for a machine so
// loaded (CI's race pass beside this package) that a 2-second retry timer
// fired after more than 30 seconds.
const patience = 2 * time.Minute

func TestMain(m *testing.M) {
	testenv.Parallel(parallel)
	code := m.Run()
	if devServer != nil {
		_ = devServer.Stop()
	}
	os.Exit(code)
}
