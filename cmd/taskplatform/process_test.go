package main

import (
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// closedPort is a local port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	return strconv.Itoa(port)
}

// requireOneLogLine checks stderr is exactly one JSON error log line whose
// message (and error) contain want, and that nothing panicked.
func requireOneLogLine(t *testing.T, r result, want string) {
	t.Helper()
	require.NotContains(t, r.stdout+r.stderr, "panic", "stderr: %s", r.stderr)
	require.NotContains(t, r.stdout+r.stderr, "goroutine ", "stderr: %s", r.stderr)
	require.Empty(t, r.stdout)
	ls := lines(r.stderr)
	require.Len(t, ls, 1, "exactly one log line, got:\n%s", r.stderr)
	var entry struct {
		Level string `json:"level"`
		Msg   string `json:"msg"`
		Error string `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &entry), "a JSON log line: %s", ls[0])
	require.Equal(t, "error", entry.Level)
	require.Contains(t, entry.Msg+" "+entry.Error, want)
}

func TestProductionProcessesRefuseToStart(t *testing.T) {
	t.Parallel()
	unreachable := "postgres://taskplatform@127.0.0.1:" + closedPort(
		t,
	) + "/taskplatform?sslmode=disable&connect_timeout=2"
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"api without TP_DATABASE_URL", []string{"api"}, nil, "TP_DATABASE_URL is required"},
		{"worker without TP_DATABASE_URL", []string{"worker"}, nil, "TP_DATABASE_URL is required"},
		{
			"api with unreachable database",
			[]string{"api"},
			[]string{"TP_DATABASE_URL=" + unreachable},
			"cannot open the stores",
		},
		{
			"worker with unreachable database",
			[]string{"worker"},
			[]string{"TP_DATABASE_URL=" + unreachable},
			"cannot open the stores",
		},
		// The dev switches are refused before anything is opened.
		{
			"api allowing private URLs",
			[]string{"api"},
			[]string{"TP_DATABASE_URL=" + unreachable, "TP_ALLOW_PRIVATE_URLS=true"},
			"TP_ALLOW_PRIVATE_URLS is for dev and tests only",
		},
		{
			"worker allowing private URLs",
			[]string{"worker"},
			[]string{"TP_DATABASE_URL=" + unreachable, "TP_ALLOW_PRIVATE_URLS=1"},
			"TP_ALLOW_PRIVATE_URLS is for dev and tests only",
		},
		{
			"api with a step delay",
			[]string{"api"},
			[]string{"TP_DATABASE_URL=" + unreachable, "TP_DEV_STEP_DELAY=2s"},
			"TP_DEV_STEP_DELAY is for dev and tests only",
		},
		{
			"worker with a step delay",
			[]string{"worker"},
			[]string{"TP_DATABASE_URL=" + unreachable, "TP_DEV_STEP_DELAY=500ms"},
			"TP_DEV_STEP_DELAY is for dev and tests only",
		},
		{
			"api with the switches off",
			[]string{"api"},
			[]string{"TP_DATABASE_URL=" + unreachable, "TP_ALLOW_PRIVATE_URLS=false", "TP_DEV_STEP_DELAY=0s"},
			"cannot open the stores",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runBinary(t, tt.env, tt.args...)
			require.NotZero(t, r.code)
			requireOneLogLine(t, r, tt.want)
		})
	}
}

func TestProductionProcessesNeedMigratedSchema(t *testing.T) {
	t.Parallel()
	env := []string{"TP_DATABASE_URL=" + testenv.PostgresSchemaURL(t)}
	for _, cmd := range []string{"api", "worker"} {
		t.Run(cmd, func(t *testing.T) {
			r := runBinary(t, env, cmd)
			require.Equal(t, 1, r.code)
			requireOneLogLine(t, r, "run `taskplatform migrate`")
		})
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		env    []string
		code   int
		stderr string
	}{
		{"no command", nil, nil, 2, "usage:"},
		{"unknown command", []string{"serve"}, nil, 2, `unknown command "serve"`},
		{
			"bad configuration",
			[]string{"api"},
			[]string{"TP_RATE_LIMIT=lots", "TP_HTTP_ADDR=8080"},
			2,
			"TP_RATE_LIMIT: must be a non-negative whole number",
		},
		{"admin without a command", []string{"admin"}, nil, 2, "taskplatform admin user create"},
		{
			"admin bad input",
			[]string{"admin", "user", "create", "--email", "not-an-email"},
			nil,
			2,
			"--email must be a valid email address",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runBinary(t, tt.env, tt.args...)
			require.Equal(t, tt.code, r.code, "stderr: %s", r.stderr)
			require.Contains(t, r.stderr, tt.stderr)
			require.Empty(t, r.stdout)
		})
	}
	r := runBinary(t, nil, "help")
	require.Zero(t, r.code)
	require.Contains(t, r.stdout, "taskplatform dev")
}

// TestMigrateAndAdminProcess runs migrate and the admin commands as a script
// would, against PostgreSQL and against the dev SQLite file.
func TestMigrateAndAdminProcess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  func(t *testing.T) []string
	}{
		{
			"postgres",
			func(t *testing.T) []string { return []string{"TP_DATABASE_URL=" + testenv.PostgresSchemaURL(t)} },
		},
		{"sqlite", func(t *testing.T) []string { return []string{"TP_DATA_DIR=" + t.TempDir()} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := tt.env(t)
			r := runBinary(t, env, "admin", "user", "create", "--email", "early@example.com")
			require.Equal(t, 1, r.code, "admin refuses an unmigrated PostgreSQL and a data dir without a database")
			require.Contains(t, r.stderr, "`taskplatform migrate`")

			r = runBinary(t, env, "migrate")
			require.Zero(t, r.code, "stderr: %s", r.stderr)
			require.Contains(t, r.stderr, "schema up to date")

			r = runBinary(t, env, "admin", "user", "create", "--email", "ops@example.com", "--credits", "5")
			require.Zero(t, r.code, "stderr: %s", r.stderr)
			require.Len(t, lines(r.stdout), 1)
			_, err := strconv.ParseUint(strings.TrimSpace(r.stdout), 10, 64)
			require.NoError(t, err, "prints the user id: %q", r.stdout)

			r = runBinary(t, env, "admin", "key", "create", "--user", "ops@example.com")
			require.Zero(t, r.code, "stderr: %s", r.stderr)
			require.Len(t, lines(r.stdout), 1)
			require.True(t, strings.HasPrefix(r.stdout, "tpk_"), "prints the key: %q", r.stdout)

			r = runBinary(t, env, "admin", "user", "create", "--email", "ops@example.com")
			require.Equal(t, 1, r.code, "a duplicate is an error, not a usage error")
			require.Contains(t, r.stderr, "already exists")
			require.Empty(t, r.stdout)
		})
	}
}
