package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// adminFlags is every flag of the admin commands.
var adminFlags = []string{"--email", "--user", "--credits", "--plan", "--type", "--expires-at", "--scopes", "--key-id",
	"--grace-period-seconds", "--url", "--events", "--endpoint-id", "--delivery-id"}

// runAdminMain runs adminMain against an empty data dir and returns what it
// did.
func runAdminMain(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := adminMain(context.Background(), config{DataDir: t.TempDir()}, args, &stdout, &stderr)
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

func TestAdminHelpListsOnlyItsFlags(t *testing.T) {
	tests := []struct {
		command string
		flags   []string
	}{
		{"user create", []string{"--email", "--credits", "--plan"}},
		{"credits grant", []string{"--user", "--credits", "--type", "--expires-at"}},
		{"key create", []string{"--user", "--scopes", "--expires-at"}},
		{"key roll", []string{"--key-id", "--grace-period-seconds"}},
		{"key revoke", []string{"--key-id"}},
		{"key list", []string{"--user"}},
		{"webhook add", []string{"--user", "--url", "--events"}},
		{"webhook ping", []string{"--endpoint-id"}},
		{"webhook replay", []string{"--delivery-id"}},
		{"webhook enable", []string{"--endpoint-id"}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			r := runAdminMain(t, append(strings.Fields(tt.command), "--help")...)
			require.Zero(t, r.code, "stderr: %s", r.stderr)
			require.Empty(t, r.stderr)
			require.Contains(t, r.stdout, "taskplatform admin "+tt.command)
			for _, f := range adminFlags {
				if !slices.Contains(tt.flags, f) {
					require.NotContains(t, r.stdout, f+" ", "help of %s lists %s", tt.command, f)
					continue
				}
				line := helpLine(r.stdout, f)
				require.NotEmpty(t, line, "help of %s lists %s", tt.command, f)
				require.Greater(t, len(strings.Fields(line)), 2, "%s has a description: %q", f, line)
			}
		})
	}
}

// helpLine is the line of a help text that describes a flag.
func helpLine(help, flag string) string {
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), flag+" ") {
			return l
		}
	}
	return ""
}

func TestAdminRefusesUnknownFlags(t *testing.T) {
	tests := []struct {
		name, line, refused string
	}{
		{"unknown flag", "user create --email a@example.com --nope", "unknown flag: --nope"},
		{"another command's flag", "user create --email a@example.com --user a@example.com", "unknown flag: --user"},
		{
			"expiry on revoke",
			"key revoke --key-id key_x --expires-at 2030-01-01T00:00:00Z",
			"unknown flag: --expires-at",
		},
		{"scopes on list", "key list --user a@example.com --scopes jobs:read", "unknown flag: --scopes"},
		{"url on enable", "webhook enable --endpoint-id whe_x --url https://93.184.216.34/h", "unknown flag: --url"},
		{"single dash", "key list -user a@example.com", "unknown shorthand flag"},
		{"bad number", "credits grant --user a@example.com --credits five", `invalid argument "five"`},
		{"long key name", "key create --user a@example.com --name " + strings.Repeat("n", 65), "--name: at most 64"},
		{"stray argument", "key list --user a@example.com extra", `unexpected argument "extra"`},
		{"unknown command", "key delete --key-id key_x", "unknown flag: --key-id"},
		{"unknown command without flags", "key delete", `unknown command "delete"`},
		{"group alone", "webhook", "missing command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runAdminMain(t, strings.Fields(tt.line)...)
			require.Equal(t, 2, r.code, "stderr: %s", r.stderr)
			require.Empty(t, r.stdout)
			require.Contains(t, lines(r.stderr)[0], tt.refused)
			require.Contains(t, strings.ToLower(r.stderr), "usage:", "the usage follows the error")
		})
	}
}

func TestAdminKeyList(t *testing.T) {
	ctx := context.Background()
	expires := time.Now().UTC().Add(48 * time.Hour).Truncate(time.Second)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		adminOK(t, db, "user create --email keys@example.com")
		adminOK(t, db, "user create --email other@example.com")
		out, err := runAdminLine(t, db, "key list --user keys@example.com")
		require.NoError(t, err)
		require.Empty(t, out, "no keys, no lines")

		secrets := []string{
			adminOK(
				t,
				db,
				"key create --user keys@example.com --scopes jobs:read,files:read --expires-at "+expires.Format(
					time.RFC3339,
				),
			),
			adminOK(t, db, "key create --user keys@example.com --name deploy"),
			adminOK(t, db, "key create --user other@example.com"),
		}
		var ids []string
		for _, s := range secrets {
			k, _, err := models.SecretKeyAuth(ctx, db, s, time.Now())
			require.NoError(t, err)
			ids = append(ids, k.ID)
		}
		adminOK(t, db, "key revoke --key-id "+ids[1])

		out, err = runAdminLine(t, db, "key list --user keys@example.com")
		require.NoError(t, err)
		for _, s := range secrets {
			require.NotContains(t, out, s, "never a secret")
			require.NotContains(t, out, s[:len(models.KeyPrefix)+8], "no more of a secret than its stored prefix")
		}
		got := map[string][]string{}
		for _, l := range strings.Split(out, "\n") {
			f := strings.Split(l, "\t")
			require.Len(t, f, 6, "id, prefix, scopes, expiry, state, name: %q", l)
			got[f[0]] = f[1:]
		}
		require.Equal(t, map[string][]string{
			ids[0]: {
				secrets[0][:len(models.KeyPrefix)+4] + "…",
				"jobs:read,files:read",
				expires.Format(time.RFC3339),
				"active",
				"",
			},
			ids[1]: {
				secrets[1][:len(models.KeyPrefix)+4] + "…",
				strings.Join(models.AllScopes, ","),
				"never",
				"revoked",
				"deploy",
			},
		}, got, "this user's keys only")

		_, err = runAdminLine(t, db, "key list --user nobody@example.com")
		require.ErrorIs(t, err, models.ErrNotFound)
	})
}

func TestAdminRefusesEmptyDataDir(t *testing.T) {
	tests := []struct {
		name string
		dir  func(t *testing.T) string
		args []string
	}{
		{
			"missing dir",
			func(t *testing.T) string { return filepath.Join(t.TempDir(), "data") },
			[]string{"user", "create", "--email", "a@example.com"},
		},
		{
			"empty dir",
			func(t *testing.T) string { return t.TempDir() },
			[]string{"key", "list", "--user", "a@example.com"},
		},
		{
			"empty dir, webhook",
			func(t *testing.T) string { return t.TempDir() },
			[]string{"webhook", "enable", "--endpoint-id", "whe_x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir(t)
			r := runBinary(t, []string{"TP_DATA_DIR=" + dir}, append([]string{"admin"}, tt.args...)...)
			require.Equal(t, 1, r.code, "stderr: %s", r.stderr)
			require.Empty(t, r.stdout)
			require.Len(t, lines(r.stderr), 1, "one line: %s", r.stderr)
			require.Contains(t, r.stderr, filepath.Join(dir, "taskplatform.db"))
			require.Contains(t, r.stderr, "run `taskplatform dev` or `taskplatform migrate` first")
			entries, err := os.ReadDir(dir)
			if err == nil {
				require.Empty(t, entries, "no file created")
			} else {
				require.ErrorIs(t, err, os.ErrNotExist, "no dir created")
			}
		})
	}
}
