package api_test

import (
	"fmt"
	"os"
	"testing"

	"go.temporal.io/sdk/testsuite"

	"github.com/taskplatform/taskplatform/testenv"
)

// devServer is the one real Temporal of this test package.
var devServer *testsuite.DevServer

func TestMain(m *testing.M) {
	srv, err := testenv.StartTemporal()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: Temporal dev server:", err)
		os.Exit(1)
	}
	devServer = srv
	code := m.Run()
	_ = srv.Stop()
	os.Exit(code)
}
