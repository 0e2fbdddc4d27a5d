package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
)

// filesListDownload: files list shows the upload and, with --kind art, the
// run's output; files download writes their bytes (the upload's exactly)
// into --out, readable by all.
func filesListDownload(t *testing.T, env []string, uploaded, motif string) {
	r := runBinary(t, env, "files", "list")
	require.Zero(t, r.code, r.stderr)
	require.Regexp(t, `(?m)^FILE\s+NAME\s+URL$`, r.stdout)
	require.Regexp(t, `(?m)^`+regexp.QuoteMeta(uploaded)+`\s+motif\.png\s`, r.stdout, "the upload is listed by its name")

	r = runBinary(t, env, "files", "list", "--kind", "art", "--json")
	require.Zero(t, r.code, r.stderr)
	art := regexp.MustCompile(`"file": "(art:[^"]+)"`).FindStringSubmatch(r.stdout)
	require.NotNil(t, art, "the run's output is listed: %s", r.stdout)

	out := t.TempDir()
	r = runBinary(t, env, "files", "download", uploaded, art[1], "--out", out)
	require.Zero(t, r.code, r.stderr)
	paths := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, paths, 2, r.stdout)
	want, err := os.ReadFile(motif)
	require.NoError(t, err)
	got, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	require.Equal(t, want, got, "the upload's bytes")
	require.Equal(t, filepath.Join(out, strings.TrimPrefix(uploaded, "file:")+".png"), paths[0])
	for _, p := range paths {
		st, err := os.Stat(p)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o644), st.Mode().Perm(), p)
	}

	r = runBinary(t, env, "files", "download", "file:nothing", "--out", out)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "file:nothing")
	r = runBinary(t, env, "files", "download")
	require.Equal(t, 2, r.code, r.stderr)
}

// openInPanel: jobs get --web prints the job's panel page and hands it to
// $BROWSER; run --web says the page on stderr.
func openInPanel(t *testing.T, env []string, base, job string) {
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	browser := filepath.Join(dir, "browser")
	require.NoError(t, os.WriteFile(browser, []byte("#!/bin/sh\necho \"$1\" > "+opened+"\n"), 0o755))
	withBrowser := append(append([]string{}, env...), "BROWSER="+browser)

	r := runBinary(t, withBrowser, "jobs", "get", job, "--web")
	require.Zero(t, r.code, r.stderr)
	page := base + "/app/jobs/" + job
	require.Equal(t, page+"\n", r.stdout)
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(opened)
		return err == nil && strings.TrimSpace(string(b)) == page
	}, 5*time.Second, 50*time.Millisecond, "the browser was handed the page")

	r = runBinary(t, env, append([]string{"run", "pattern.generate", "--web", "--wait=false"}, stripes...)...)
	require.Zero(t, r.code, r.stderr)
	id := strings.TrimSpace(r.stdout)
	require.Contains(t, r.stderr, "in the panel: "+base+"/app/jobs/"+id+"\n")
	require.NotContains(t, r.stderr, "opening", "no browser without a display or $BROWSER")
}

// TestRefNameSaysNothingRatherThanTheKind: an upload or output the
// service names only by its kind shows its external id or "-", not
// "file"/"art" on every row; a record's own name is kept.
func TestRefNameSaysNothingRatherThanTheKind(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		it   client.RefItem
		want string
	}{
		{client.RefItem{File: "file:a", Name: s("file")}, "-"},
		{client.RefItem{File: "file:a", Name: s("file"), ExternalID: s("sku-42")}, "sku-42"},
		{client.RefItem{File: "art:a", Name: s("art")}, "-"},
		{client.RefItem{File: "fabric:a", Name: s("Washed linen")}, "Washed linen"},
		{client.RefItem{File: "fabric:a", Name: s("fabric")}, "-"},
		{client.RefItem{File: "file:a"}, "-"},
	} {
		require.Equal(t, tc.want, refName(tc.it), tc.it.File)
	}
}
