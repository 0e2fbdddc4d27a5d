package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOneRootPrintsHelpOnce: the binary is one command tree, so a group's
// help is printed once (admin's overview, without cobra's usage after it),
// a command's is cobra's, and the root's is the overview.
func TestOneRootPrintsHelpOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"admin", "--help"}, "taskplatform admin key create --user E"},
		{[]string{"admin", "-h"}, "taskplatform admin key create --user E"},
		{[]string{"admin", "key", "--help"}, "taskplatform admin key list --user E"},
		{[]string{"help", "admin"}, "taskplatform admin webhook add"},
		{[]string{"admin", "key", "create", "--help"}, "taskplatform admin key create --user E"},
		{[]string{"--help"}, "taskplatform webhooks listen"},
		{[]string{"help"}, "taskplatform dev"},
		{[]string{"run", "--help"}, "taskplatform run TASK [flags]"},
		{[]string{"webhooks", "listen", "--help"}, "--forward-to"},
		{[]string{"dev", "--help"}, "taskplatform dev [flags]"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			r := runBinary(t, nil, tt.args...)
			require.Zero(t, r.code, r.stderr)
			require.Empty(t, r.stderr)
			require.Contains(t, r.stdout, tt.want)
			require.Equal(t, 1, strings.Count(strings.ToLower(r.stdout), "usage:"), "usage once: %s", r.stdout)
		})
	}
}

// TestCompletion: `completion` writes each shell's script, and the tree
// completes commands at every level, admin's and the user commands alike.
func TestCompletion(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := runBinary(t, nil, "completion", shell)
		require.Zero(t, r.code, r.stderr)
		require.Contains(t, r.stdout, "taskplatform", shell)
		require.Contains(t, r.stdout, "__complete", "%s asks the binary for its words", shell)
	}
	words := func(args ...string) []string {
		r := runBinary(t, nil, append([]string{"__complete"}, args...)...)
		require.Zero(t, r.code, r.stderr)
		var out []string
		for _, l := range lines(r.stdout) {
			if !strings.HasPrefix(l, ":") {
				out = append(out, strings.SplitN(l, "\t", 2)[0])
			}
		}
		return out
	}
	require.Subset(t, words(""), []string{"dev", "api", "worker", "migrate", "admin", "run", "jobs", "files", "tasks",
		"estimate", "webhooks", "version", "completion"})
	require.Equal(t, []string{"key"}, words("admin", "k"))
	require.Equal(t, []string{"get", "cancel", "result"}, words("jobs", ""))
	require.Equal(t, []string{"upload", "list", "download"}, words("files", ""))
	require.Subset(t, words("run", "--"), []string{"--set", "--out", "--web", "--json"})
}
