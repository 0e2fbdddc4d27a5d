package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// packageCell is a package named in the first cell of a row of the
// architecture page's package table.
var packageCell = regexp.MustCompile("`([a-z0-9/]+)`")

// goPackages are the folders of the repository holding Go code, from the
// root (the Go packages a reader can open, e2e's tests-only one included).
func goPackages(t *testing.T, root string) map[string]bool {
	t.Helper()
	pkgs := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata" ||
			name == "node_modules" || name == "clients" || name == "docs" || name == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			pkgs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	require.NoError(t, err)
	return pkgs
}

// TestArchitectureNamesEveryPackage keeps the architecture page's package
// table true: every package it names exists, and every package of the
// repository is named in it, so a package added or removed fails here
// until the table says so.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	t.Parallel()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	text, err := testenv.GuidePageText("docs/architecture.md")
	require.NoError(t, err)
	named := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range packageCell.FindAllStringSubmatch(cells[1], -1) {
			named[m[1]] = true
		}
	}
	pkgs := goPackages(t, root)
	require.NotEmpty(t, pkgs)
	for p := range named {
		require.True(t, pkgs[p], "docs/architecture.md names package %s, which does not exist", p)
	}
	for p := range pkgs {
		if p == "." {
			continue
		}
		require.True(t, named[p], "package %s is missing from the package table of docs/architecture.md", p)
	}
}

// TestGuideLinksResolve checks every relative link of the guide's pages
// names a file that exists and, with a #fragment, a heading of that file.
func TestGuideLinksResolve(t *testing.T) {
	t.Parallel()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	pages, err := testenv.Guide()
	require.NoError(t, err)
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, p := range pages {
		for _, m := range link.FindAllStringSubmatch(prose(p.Text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := filepath.Join(root, filepath.Dir(p.Path), file)
			if file == "" {
				path = filepath.Join(root, p.Path)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				_, serr := os.Stat(path)
				require.NoError(t, serr, "%s links %s, which does not exist", p.Path, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") {
				require.True(t, hasAnchor(string(raw), frag), "%s links %s: no heading has that anchor", p.Path, target)
			}
		}
	}
}

// hasAnchor reports whether a heading of a Markdown text has anchor a,
// written as GitHub writes it (lower case, punctuation dropped, spaces as -).
func hasAnchor(text, a string) bool {
	drop := regexp.MustCompile(`[^\p{L}\p{N}\- _]`)
	for _, line := range strings.Split(text, "\n") {
		h := strings.TrimLeft(line, "#")
		if h == line || !strings.HasPrefix(h, " ") {
			continue
		}
		got := strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(strings.TrimSpace(h)), ""), " ", "-")
		if got == a {
			return true
		}
	}
	return false
}

// prose is a Markdown text without its fenced blocks (code, not links).
func prose(text string) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
