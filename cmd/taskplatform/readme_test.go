package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// readmeSkip marks a README shell block the test does not run, with why:
// <!-- readme-test: skip — reason --> on the line before the block.
var readmeSkip = regexp.MustCompile(`^<!-- readme-test: skip — (\S.*) -->$`)

// shBlock is one ```sh block of a page of the guide (testenv.GuidePages).
type shBlock struct {
	page string // the page holding it, from the repository's root
	line int    // the line of its opening fence
	code string // what it runs
	skip string // why it is not run; empty for a block the test runs
}

// readmeBlocks are a page's shell blocks, in order.
func readmeBlocks(t *testing.T, page, text string) []shBlock {
	t.Helper()
	var blocks []shBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```sh" {
			continue
		}
		b := shBlock{page: page, line: i + 1}
		if i > 0 {
			if m := readmeSkip.FindStringSubmatch(lines[i-1]); m != nil {
				b.skip = m[1]
			}
		}
		var code []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			code = append(code, lines[i])
		}
		require.Less(t, i, len(lines), "%s line %d: the block never closes", page, b.line)
		b.code = strings.Join(code, "\n") + "\n"
		blocks = append(blocks, b)
	}
	return blocks
}

// TestReadmeCommandsRun runs the shell blocks of the README and of every
// page of docs/ it links (testenv.GuidePages, in reading order), as written, in a
// folder laid out like a clone after `make run`: bin/taskplatform, and a
// dev stack whose data dir is .data (its dev.env holds the key and the
// address), on a free port rather than 8080, changing nothing. Blocks marked
// skip (they serve until Ctrl-C, need a cluster or name ids of your own)
// are listed in the log. curl fails on an HTTP error, so a refused call
// fails its block.
func TestReadmeCommandsRun(t *testing.T) {
	t.Parallel()
	pages, err := testenv.Guide()
	require.NoError(t, err)
	var blocks []shBlock
	for _, p := range pages {
		blocks = append(blocks, readmeBlocks(t, p.Path, p.Text)...)
	}

	var run []shBlock
	for _, b := range blocks {
		if b.skip != "" {
			t.Logf("%s line %d: skipped: %s", b.page, b.line, b.skip)
			continue
		}
		run = append(run, b)
	}
	require.GreaterOrEqual(t, len(run), 2, "the quick start and the command line blocks run")

	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "bin"), 0o755))
	require.NoError(t, os.Symlink(binary, filepath.Join(dir, "bin", "taskplatform")))
	dataDir := filepath.Join(dir, ".data")
	require.NoError(t, os.Mkdir(dataDir, 0o755))
	startReady(t, dataDir, "")
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(dataDir, devEnvFile))
		return err == nil
	}, 10*time.Second, 50*time.Millisecond, "dev writes .data/dev.env")

	for _, b := range run {
		// The stack is not on 8080: a block that names the default address
		// instead of reading it from dev.env fails here as it would for a
		// reader who set TP_HTTP_ADDR.
		code := b.code
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", "curl() { command curl -fsS \"$@\"; }\n"+code)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s line %d:\n%s\noutput:\n%s", b.page, b.line, code, out)
		t.Logf("%s line %d ran:\n%s", b.page, b.line, out)
	}
}

// TestWriteDevEnv checks dev.env sets what the README's blocks use, and
// that a command run after loading it (admin webhook ping, the Temporal CLI)
// reaches a stack started on a port other than the default.
func TestWriteDevEnv(t *testing.T) {
	clearEnv(t)
	dir := filepath.Join(t.TempDir(), "data dir")
	require.NoError(t, os.Mkdir(dir, 0o700))
	t.Setenv("TP_DATA_DIR", dir)
	t.Setenv("TP_HTTP_ADDR", "127.0.0.1:9999")
	t.Setenv("TP_TEMPORAL_PORT", "17299")
	cfg, err := loadConfig()
	require.NoError(t, err)
	require.NoError(t, writeDevEnv(cfg, "tpk_abc"))

	names := []string{"KEY", "TP_API_KEY", "TP_BASE_URL", "TP_DATA_DIR", "TP_TEMPORAL_ADDRESS",
		"TP_TEMPORAL_NAMESPACE", "TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE"}
	script := ". ./dev.env"
	for _, n := range names {
		script += fmt.Sprintf("; printf '%%s\\n' \"$%s\"", n)
	}
	cmd := exec.Command("bash", "-euc", script)
	cmd.Dir, cmd.Env = dir, []string{"PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	require.Equal(t, []string{"tpk_abc", "tpk_abc", "http://127.0.0.1:9999", dir, "127.0.0.1:17299",
		"default", "127.0.0.1:17299", "default"}, got)

	// A later command sees only what dev.env exported: its config dials
	// the stack's Temporal and opens its data dir.
	clearEnv(t)
	for i, n := range names {
		t.Setenv(n, got[i])
	}
	later, err := loadConfig()
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:17299", later.TemporalAddress)
	require.Equal(t, dir, later.DataDir)
	require.Equal(t, "http://127.0.0.1:9999", later.BaseURL)

	info, err := os.Stat(filepath.Join(dir, devEnvFile))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the key is readable by its owner only")
}
