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
// database schema, task queue and worker, but they share one PostgreSQL
// (max_connections) and two cores under -race: at 4, on a loaded machine,
// a 300-submit burst saw 500s and a 60 s wait on an upscale ran out, so
// the bound stays at 2 until those tests allow more.
const parallel = 2

func TestMain(m *testing.M) {
	testenv.Parallel(parallel)
	code := m.Run()
	if devServer != nil {
		_ = devServer.Stop()
	}
	os.Exit(code)
}
