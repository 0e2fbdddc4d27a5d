package middleware

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheckDevListenAddr(t *testing.T) {
	t.Parallel()
	for addr, ok := range map[string]bool{"127.0.0.1:8080": true, "[::1]:8080": true, "localhost:80": true,
		"0.0.0.0:8080": false, ":8080": false, "10.0.0.5:8080": false, "nonsense": false} {
		require.Equal(t, ok, CheckDevListenAddr(addr) == nil, addr)
	}
}
