package main

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDevServerLostAPort: dev starts the Temporal dev server again only
// when this child's own lines in the shared log say a port was taken — an
// earlier start's lines do not count, a panic after the line does not hide
// it — and reports at most the last 4 KiB of them.
func TestDevServerLostAPort(t *testing.T) {
	earlier := "level=ERROR msg=\"listen tcp 127.0.0.1:7233: bind: address already in use\"\n"
	tests := []struct {
		name string
		own  string
		lost bool
	}{
		{
			name: "a port taken",
			own: "level=ERROR msg=\"can't set frontend HTTP port 53407: listen tcp 127.0.0.1:53407: bind: address already " +
				"in use\"\n",
			lost: true,
		},
		{
			name: "a port taken, then a long panic",
			own: "level=ERROR msg=\"listen tcp 127.0.0.1:53407: bind: address already in use\"\n" +
				"panic: server failed\n" + strings.Repeat("\tgo.temporal.io/server/temporal.(*ServerImpl).Start()\n", 200),
			lost: true,
		},
		{name: "another failure", own: "level=ERROR msg=\"unable to open database file\"\n", lost: false},
		{name: "nothing written", own: "", lost: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "temporal.log")
			require.NoError(t, os.WriteFile(log, []byte(earlier+tt.own), 0o644))
			d := &devServer{log: log, logStart: int64(len(earlier))}
			require.Equal(t, tt.lost, d.lostAPort())
			if len(tt.own) <= 4<<10 {
				require.Equal(t, strings.TrimSpace(tt.own), d.exitedLog())
			}
		})
	}

	log := filepath.Join(t.TempDir(), "temporal.log")
	require.NoError(t, os.WriteFile(log, []byte(strings.Repeat("x", 10<<10)+"last line"), 0o644))
	out := (&devServer{log: log}).exitedLog()
	require.Len(t, out, 4<<10)
	require.True(t, strings.HasSuffix(out, "last line"))
	require.Empty(t, (&devServer{log: filepath.Join(t.TempDir(), "missing.log")}).exitedLog())
}

// TestDevRefusesATakenAPIAddress: dev whose TP_HTTP_ADDR another process
// holds (often a dev started earlier) stops at once, naming the address and
// the variable to change, before it prints a banner or writes a dev.env
// that would point at the other process.
func TestDevRefusesATakenAPIAddress(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	dataDir := t.TempDir()
	r := runBinary(t, []string{
		"TP_HTTP_ADDR=" + ln.Addr().String(),
		"TP_TEMPORAL_PORT=" + strconv.Itoa(freePort(t)),
		"TP_TEMPORAL_UI_PORT=" + strconv.Itoa(freePort(t)),
		"TP_DATA_DIR=" + dataDir,
		"TP_TEMPORAL_CLI=/nonexistent/temporal",
	}, "dev")
	require.Equal(t, 1, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	out := r.stdout + r.stderr
	require.Contains(t, out, ln.Addr().String()+" is in use")
	require.Contains(t, out, "set TP_HTTP_ADDR")
	require.NotContains(t, out, "dev is running")
	require.NoFileExists(t, filepath.Join(dataDir, devEnvFile))
}
