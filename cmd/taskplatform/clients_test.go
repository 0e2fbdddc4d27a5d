package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// TestOfficialClients runs the TypeScript and the Python client's own tests
// against a real stack (`taskplatform dev`, its key in TP_API_KEY): the
// TypeScript client and its examples built by tsc --strict, then
// `node --test`; the Python client's unittest suite with Debian's Python and
// its python3-cryptography (Makefile installs it when missing). One after
// the other: both check the account's newest jobs.
func TestOfficialClients(t *testing.T) {
	t.Parallel()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	dev := startReady(t, t.TempDir(), "")
	env := append(os.Environ(), "TP_BASE_URL="+dev.base, "TP_API_KEY="+dev.key(t))
	run := func(t *testing.T, dir string, name string, args ...string) {
		t.Helper()
		// A suite that hangs fails here, with its output, not at the package's timeout.
		ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
		t.Logf("%s %s:\n%s", name, strings.Join(args, " "), lastLines(string(out), 12))
	}
	t.Run("typescript", func(t *testing.T) {
		dir := filepath.Join(root, "clients", "typescript")
		run(t, dir, "npm", "ci", "--no-audit", "--no-fund")
		run(t, dir, "npm", "run", "build")
		run(t, dir, "node", "--test", "test/")
	})
	t.Run("python", func(t *testing.T) {
		run(t, filepath.Join(root, "clients", "python"), "/usr/bin/python3", "-m", "unittest", "discover", "-v",
			"-s", "tests", "-t", ".")
	})
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
