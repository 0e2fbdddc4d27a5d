package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// A walkthrough page (docs/add-a-task.md, docs/add-an-endpoint.md) marks
// what a reader does, on the line before a fenced block: a new file, or
// lines added after an existing line of a file (the line's text, trimmed).
// Its ```sh blocks marked "readme-test: skip — the walkthrough's own test"
// are the commands the reader then runs.
var (
	walkNewFile = regexp.MustCompile(`^<!-- walkthrough: new file (\S+) -->$`)
	walkEdit    = regexp.MustCompile(`^<!-- walkthrough: edit (\S+) after the line "(.*)" -->$`)
	walkRun     = regexp.MustCompile(`^<!-- readme-test: skip — the walkthrough's own test`)
)

// walkthrough is what a page tells a reader to do.
type walkthrough struct {
	files map[string]string // path from the root: the file's text after the page's steps
	runs  []string          // the commands to run, in order
}

// readWalkthrough applies a page's steps to the files of the tree at root,
// in memory.
func readWalkthrough(t *testing.T, root, page string) walkthrough {
	t.Helper()
	text, err := testenv.GuidePageText(page)
	require.NoError(t, err)
	w := walkthrough{files: map[string]string{}}
	lines := strings.Split(text, "\n")
	block := func(i int) string { // the fenced block starting at line i
		require.Less(t, i, len(lines), "%s: a step is not followed by a block", page)
		require.True(t, strings.HasPrefix(lines[i], "```"), "%s line %d: a step is not followed by a block", page, i)
		var b []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			b = append(b, lines[i])
		}
		return strings.Join(b, "\n") + "\n"
	}
	for i, l := range lines {
		switch {
		case walkNewFile.MatchString(l):
			path := walkNewFile.FindStringSubmatch(l)[1]
			_, err := os.Stat(filepath.Join(root, path))
			require.True(t, os.IsNotExist(err), "%s: %s already exists in the tree", page, path)
			w.files[path] = block(i + 1)
		case walkEdit.MatchString(l):
			m := walkEdit.FindStringSubmatch(l)
			path, after := m[1], strings.ReplaceAll(m[2], `\"`, `"`)
			old, ok := w.files[path]
			if !ok {
				raw, err := os.ReadFile(filepath.Join(root, path))
				require.NoError(t, err, "%s: edits %s", page, path)
				old = string(raw)
			}
			var out []string
			found := 0
			for _, o := range strings.Split(old, "\n") {
				out = append(out, o)
				if strings.TrimSpace(o) == after {
					out = append(out, strings.TrimSuffix(block(i+1), "\n"))
					found++
				}
			}
			require.Equal(t, 1, found, "%s: %s has the line %q once", page, path, after)
			w.files[path] = strings.Join(out, "\n")
		case walkRun.MatchString(l):
			w.runs = append(w.runs, strings.TrimSpace(block(i+1)))
		}
	}
	require.NotEmpty(t, w.files, "%s has steps", page)
	require.NotEmpty(t, w.runs, "%s has commands", page)
	return w
}

// runWalkthrough lays a page's files over the tree (go's -overlay, so the
// checkout is not changed) and runs its go commands.
func runWalkthrough(t *testing.T, page string) {
	t.Parallel()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	w := readWalkthrough(t, root, page)
	dir := t.TempDir()
	replace := map[string]string{}
	for path, text := range w.files {
		// A new package's folder must exist for go test to run in it: made
		// empty (go ignores it), removed after.
		folder := filepath.Join(root, filepath.Dir(path))
		if _, err := os.Stat(folder); os.IsNotExist(err) {
			require.NoError(t, os.MkdirAll(folder, 0o755))
			t.Cleanup(func() { _ = os.Remove(folder) })
		}
		tmp := filepath.Join(dir, strings.ReplaceAll(path, "/", "_"))
		require.NoError(t, os.WriteFile(tmp, []byte(text), 0o600))
		replace[filepath.Join(root, path)] = tmp
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	require.NoError(t, err)
	overlayFile := filepath.Join(dir, "overlay.json")
	require.NoError(t, os.WriteFile(overlayFile, overlay, 0o600))
	for _, run := range w.runs {
		args := strings.Fields(strings.ReplaceAll(run, "'", ""))
		require.GreaterOrEqual(t, len(args), 2, "%s: %s", page, run)
		require.Equal(t, []string{"go", "test"}, args[:2], "%s: the walkthrough's commands are go test runs", page)
		cmd := exec.Command("go", append([]string{"test", "-count=1", "-overlay=" + overlayFile}, args[2:]...)...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s\n%s", page, run, out)
		t.Logf("%s: %s\n%s", page, run, out)
	}
}

// TestAddATaskWalkthrough follows docs/add-a-task.md: its family, page and
// tests, registered in tasks/all, pass the checks every task passes.
func TestAddATaskWalkthrough(t *testing.T) { runWalkthrough(t, "docs/add-a-task.md") }

// TestAddAnEndpointWalkthrough follows docs/add-an-endpoint.md: its route
// answers as the served OpenAPI document says.
func TestAddAnEndpointWalkthrough(t *testing.T) { runWalkthrough(t, "docs/add-an-endpoint.md") }
