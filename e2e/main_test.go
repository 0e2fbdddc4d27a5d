package e2e_test

import (
	"os"
	"sync"
	"testing"

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
// database schema, task queue and worker, and most of a test's time is
// waiting (step delays, Temporal timers, webhook retries); the bound keeps
// PostgreSQL connections and the dev server's load in check.
const parallel = 4

func TestMain(m *testing.M) {
	testenv.Parallel(parallel)
	code := m.Run()
	if devServer != nil {
		_ = devServer.Stop()
	}
	os.Exit(code)
}
