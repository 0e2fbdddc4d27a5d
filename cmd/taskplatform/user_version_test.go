package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestVersionLineNamesTheCommit: the version names the module version and
// the commit, its date and whether the tree had uncommitted changes, from
// the toolchain's vcs stamp; a build without one says why.
func TestVersionLineNamesTheCommit(t *testing.T) {
	t.Parallel()
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "6e802f0a1b2c3d4e5f60718293a4b5c6d7e8f901"},
		{Key: "vcs.time", Value: "2026-11-28T22:10:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	require.Equal(t, "v1.2.0 (commit 6e802f0a1b2c, 2026-11-28, modified)", versionLine(bi))
	bi.Settings[3].Value = "false"
	bi.Main.Version = "(devel)"
	require.Equal(t, "(devel) (commit 6e802f0a1b2c, 2026-11-28)", versionLine(bi))
	require.Contains(t, versionLine(&debug.BuildInfo{}), "no commit recorded")
	require.Contains(t, versionLine(nil), "no build information")
}

// TestVersionFlagMatchesVersionCommand: --version and version print the
// same line and succeed.
func TestVersionFlagMatchesVersionCommand(t *testing.T) {
	t.Parallel()
	var out1, out2, errs bytes.Buffer
	env := func(string) string { return "" }
	require.Equal(t, 0, execute(t.Context(), []string{"version"}, strings.NewReader(""), &out1, &errs, env), errs.String())
	require.Equal(t, 0, execute(t.Context(), []string{"--version"}, strings.NewReader(""), &out2, &errs, env),
		errs.String())
	require.Equal(t, "taskplatform "+buildVersion()+"\n", out1.String())
	require.Equal(t, out1.String(), out2.String())
}
