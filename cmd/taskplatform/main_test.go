package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// binary is the taskplatform binary built once for the package's tests that
// run it as a process.
var binary string

// parallel bounds the package's tests that run at once: the dev and
// process tests mostly wait on the binary they start, each on its own data
// dir, schema and ports.
const parallel = 4

func TestMain(m *testing.M) {
	testenv.Parallel(parallel)
	dir, err := os.MkdirTemp("", "taskplatform-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "taskplatform")
	build := exec.Command("go", "build", "-o", binary, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ./cmd/taskplatform: %v\n%s", err, out)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the binary did.
type result struct {
	stdout, stderr string
	code           int
}

// lines is the non-empty lines of s.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// runBinary runs the binary to completion with only env in its environment,
// in a fresh working directory, and fails the test if it takes over 2
// minutes (a first migrate also draws the curated library: seconds of CPU,
// many more on a machine running the whole suite).
func runBinary(t *testing.T, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(
		t,
		ctx.Err(),
		"taskplatform %s did not finish in time\nstdout: %s\nstderr: %s",
		strings.Join(args, " "),
		stdout.String(),
		stderr.String(),
	)
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}
