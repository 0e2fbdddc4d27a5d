// Command mutate is the repository's mutation check: it copies the
// repository (HEAD, or the working tree with -worktree) to a temporary
// directory, checks that every named test passes there, then applies each
// mutation of mutations.go alone and expects its named test to fail. It
// prints one line per mutation and exits non-zero when a mutation survives,
// no longer applies (stale) or does not compile.
//
//	make mutate                              # every mutation, from HEAD
//	go run ./scripts/mutate -only admit-window-ignored,settle-failure-ignored
//	go run ./scripts/mutate -list
//
// The tests need what `make test` needs: TP_TEST_DATABASE_URL and the
// Temporal CLI in bin/.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	var (
		only     = flag.String("only", "", "comma-separated mutation names to run (default: all)")
		list     = flag.Bool("list", false, "list the mutations and exit")
		worktree = flag.Bool("worktree", false, "copy the working tree's tracked and untracked files instead of HEAD")
		keep     = flag.Bool("keep", false, "keep the temporary copy")
		timeout  = flag.Duration("timeout", 15*time.Minute, "time limit of one test run")
	)
	flag.Parse()
	if *list {
		for _, m := range mutations {
			fmt.Printf("%-52s %s -run %s\n    %s\n", m.Name, m.Pkg, m.Run, m.Bug)
		}
		return
	}
	chosen, err := choose(*only)
	if err != nil {
		fail(err)
	}
	root, err := gitRoot()
	if err != nil {
		fail(err)
	}
	dir, err := os.MkdirTemp("", "taskplatform-mutate-")
	if err != nil {
		fail(err)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	}
	if err := copyRepo(root, dir, *worktree); err != nil {
		fail(err)
	}
	env := append(os.Environ(), "TP_TEMPORAL_CLI="+temporalCLI(root))
	fmt.Printf("mutation check of %s in %s: %d mutations\n", source(*worktree), dir, len(chosen))

	// Every named test must pass unmutated, or its failure proves nothing.
	baseline := map[string]error{}
	for _, m := range chosen {
		key := m.Pkg + " " + m.Run
		if _, done := baseline[key]; done {
			continue
		}
		out, err := goTest(dir, env, m, *timeout)
		if err != nil {
			err = fmt.Errorf("fails unmutated: %w\n%s", err, tail(out))
			fmt.Printf("baseline FAILED  %s -run %s\n%s\n", m.Pkg, m.Run, tail(out))
		}
		baseline[key] = err
	}

	var caught, bad []string
	for _, m := range chosen {
		start := time.Now()
		verdict := run(dir, env, m, baseline[m.Pkg+" "+m.Run], *timeout)
		fmt.Printf(
			"%-9s %-52s %s -run %s (%s)\n",
			verdict.word,
			m.Name,
			m.Pkg,
			m.Run,
			time.Since(start).Round(time.Second),
		)
		if verdict.detail != "" {
			fmt.Println(indent(verdict.detail))
		}
		if verdict.word == "caught" {
			caught = append(caught, m.Name)
		} else {
			bad = append(bad, m.Name)
		}
	}
	fmt.Printf("\n%d of %d mutations caught\n", len(caught), len(chosen))
	if len(bad) > 0 {
		fmt.Printf("not caught: %s\n", strings.Join(bad, ", "))
		os.Exit(1)
	}
}

// verdict is the result of one mutation: caught, SURVIVED, STALE, BROKEN
// (does not compile) or BASELINE (the test fails unmutated).
type verdict struct {
	word, detail string
}

// run applies m in dir, runs its test and restores the file.
func run(dir string, env []string, m mutation, baselineErr error, timeout time.Duration) verdict {
	if baselineErr != nil {
		return verdict{"BASELINE", baselineErr.Error()}
	}
	path := filepath.Join(dir, m.File)
	orig, err := os.ReadFile(path)
	if err != nil {
		return verdict{"STALE", err.Error()}
	}
	if n := bytes.Count(orig, []byte(m.From)); n != 1 {
		return verdict{"STALE", fmt.Sprintf("%s holds the text %d times, not once: %q", m.File, n, m.From)}
	}
	if err := os.WriteFile(path, bytes.Replace(orig, []byte(m.From), []byte(m.To), 1), 0o644); err != nil {
		return verdict{"BROKEN", err.Error()}
	}
	defer func() { _ = os.WriteFile(path, orig, 0o644) }()
	out, err := goTest(dir, env, m, timeout)
	switch {
	case err == nil:
		return verdict{"SURVIVED", "the test passes with the bug"}
	case strings.Contains(out, "[build failed]") || strings.Contains(out, "[setup failed]"):
		return verdict{"BROKEN", "the mutated code does not compile:\n" + tail(out)}
	}
	return verdict{"caught", ""}
}

// goTest runs m's test once in dir.
func goTest(dir string, env []string, m mutation, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-timeout", timeout.String(), "-run", m.Run, m.Pkg)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return string(out), fmt.Errorf("timed out: %w", ctx.Err())
	}
	return string(out), err
}

// choose picks the mutations named in only (all when empty).
func choose(only string) ([]mutation, error) {
	if only == "" {
		return mutations, nil
	}
	names := strings.Split(only, ",")
	var out []mutation
	for _, m := range mutations {
		if slices.Contains(names, m.Name) {
			out = append(out, m)
		}
	}
	if len(out) != len(names) {
		return nil, fmt.Errorf("unknown mutation in -only %q; see -list", only)
	}
	return out, nil
}

func gitRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("run inside the repository: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func source(worktree bool) string {
	if worktree {
		return "the working tree"
	}
	return "HEAD"
}

// copyRepo copies HEAD (git archive) or the working tree's tracked and
// untracked, not ignored, files into dir.
func copyRepo(root, dir string, worktree bool) error {
	if !worktree {
		archive := exec.Command("git", "-C", root, "archive", "--format=tar", "HEAD")
		untar := exec.Command("tar", "-x", "-C", dir)
		pipe, err := archive.StdoutPipe()
		if err != nil {
			return err
		}
		untar.Stdin = pipe
		if err := untar.Start(); err != nil {
			return err
		}
		if err := archive.Run(); err != nil {
			return fmt.Errorf("git archive: %w", err)
		}
		return untar.Wait()
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		raw, err := os.ReadFile(filepath.Join(root, f))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f), raw, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// temporalCLI is the pinned CLI the tests start: TP_TEMPORAL_CLI, else
// bin/temporal of the repository (the copy has no bin/).
func temporalCLI(root string) string {
	if p := os.Getenv("TP_TEMPORAL_CLI"); p != "" {
		return p
	}
	return filepath.Join(root, "bin", "temporal")
}

// tail is the last lines of a test's output.
func tail(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) > 25 {
		lines = lines[len(lines)-25:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(2)
}
