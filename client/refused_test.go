package client_test

import (
	"context"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
)

func TestLoopbackRefusedFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())

	c := client.New("http://"+addr, "tpk_x", client.WithBackoff(2*time.Second, 5*time.Second))
	start := time.Now()
	_, err = c.Tasks(context.Background())
	require.ErrorIs(t, err, syscall.ECONNREFUSED)
	require.Less(t, time.Since(start), time.Second, "a refused loopback connection is not retried")
}
