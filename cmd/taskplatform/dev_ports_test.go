package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDevServerLostAPort: dev starts the Temporal dev server again only
// when this child's own lines in the shared log say a port was taken — an
// earlier start's lines do not count — and reports at most the last 4 KiB
// of them.
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
		{name: "another failure", own: "level=ERROR msg=\"unable to open database file\"\n", lost: false},
		{name: "nothing written", own: "", lost: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "temporal.log")
			require.NoError(t, os.WriteFile(log, []byte(earlier+tt.own), 0o644))
			d := &devServer{log: log, logStart: int64(len(earlier))}
			require.Equal(t, tt.lost, d.lostAPort())
			require.Equal(t, strings.TrimSpace(tt.own), d.exitedLog())
		})
	}

	log := filepath.Join(t.TempDir(), "temporal.log")
	require.NoError(t, os.WriteFile(log, []byte(strings.Repeat("x", 10<<10)+"last line"), 0o644))
	out := (&devServer{log: log}).exitedLog()
	require.Len(t, out, 4<<10)
	require.True(t, strings.HasSuffix(out, "last line"))
	require.Empty(t, (&devServer{log: filepath.Join(t.TempDir(), "missing.log")}).exitedLog())
}
