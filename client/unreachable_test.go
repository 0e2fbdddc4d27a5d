package client_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
)

// closedPort is a host:port on ip where nothing listens.
func closedPort(t *testing.T, ip string) string {
	l, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// noSuchHost is a transport whose every lookup answers NXDOMAIN, as a
// resolver does for a .invalid name, whatever DNS the machine has.
func noSuchHost() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(_ context.Context, network, addr string) (net.Conn, error) {
			host, _, _ := net.SplitHostPort(addr)
			return nil, &net.OpError{Op: "dial", Net: network,
				Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
		},
	}}
}

// TestUnreachableFailsAtOnce: a refused connection, to a loopback address
// or any other, and a host name that does not resolve fail the first try
// with *UnreachableError naming the address, instead of being retried with
// backoff; the network error stays readable with errors.Is and errors.As.
func TestUnreachableFailsAtOnce(t *testing.T) {
	t.Parallel()
	loopback, other := closedPort(t, "127.0.0.1"), closedPort(t, "127.0.0.2")
	for _, tc := range []struct {
		name, base, addr, message string
		opts                      []client.Option
		is                        error
	}{
		{name: "refused on loopback", base: "http://" + loopback, addr: loopback, is: syscall.ECONNREFUSED,
			message: "cannot reach " + loopback + ": connection refused (nothing listens there)"},
		{name: "refused on another address", base: "http://" + other, addr: other, is: syscall.ECONNREFUSED,
			message: "cannot reach " + other + ": connection refused (nothing listens there)"},
		{name: "host name that does not resolve", base: "http://api.taskplatform.invalid:8080",
			addr: "api.taskplatform.invalid", opts: []client.Option{client.WithHTTPClient(noSuchHost())},
			message: "cannot reach api.taskplatform.invalid: the host name does not resolve"},
		{name: "a .invalid name, looked up", base: "http://api.taskplatform.invalid:8080",
			addr: "api.taskplatform.invalid", message: "cannot reach api.taskplatform.invalid: the host name does not resolve"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.is == nil && tc.opts == nil {
				_, err := net.DefaultResolver.LookupHost(context.Background(), tc.addr)
				var dns *net.DNSError
				if !errors.As(err, &dns) || !dns.IsNotFound {
					t.Skipf("this machine's resolver does not answer NXDOMAIN for %s: %v", tc.addr, err)
				}
			}
			opts := append([]client.Option{client.WithBackoff(2*time.Second, 5*time.Second)}, tc.opts...)
			c := client.New(tc.base, "tpk_x", opts...)
			for _, call := range []struct {
				name string
				do   func(ctx context.Context) error
			}{
				{"Tasks", func(ctx context.Context) error { _, err := c.Tasks(ctx); return err }},
				{"Download", func(ctx context.Context) error {
					_, err := c.Download(ctx, tc.base+"/files/a.png", io.Discard)
					return err
				}},
				{"Stream", func(ctx context.Context) error {
					s := c.Stream(ctx, "j_1", 0)
					defer s.Close()
					_, err := s.Next()
					return err
				}},
			} {
				start := time.Now()
				err := call.do(context.Background())
				require.Less(t, time.Since(start), time.Second, "%s: not retried", call.name)
				var u *client.UnreachableError
				require.ErrorAs(t, err, &u, call.name)
				require.Equal(t, tc.addr, u.Addr, call.name)
				require.Equal(t, tc.message, u.Error(), call.name)
				if tc.is != nil {
					require.ErrorIs(t, err, tc.is, call.name)
				} else {
					var dns *net.DNSError
					require.ErrorAs(t, err, &dns, call.name)
					require.True(t, dns.IsNotFound, call.name)
				}
			}
		})
	}
}

// TestDNSFailureThatMayPassIsRetried: a lookup that failed without saying
// the name does not exist (a resolver that timed out) is retried.
func TestDNSFailureThatMayPassIsRetried(t *testing.T) {
	t.Parallel()
	tries := 0
	hc := &http.Client{Transport: &http.Transport{
		DialContext: func(_ context.Context, network, addr string) (net.Conn, error) {
			tries++
			host, _, _ := net.SplitHostPort(addr)
			return nil, &net.OpError{Op: "dial", Net: network,
				Err: &net.DNSError{Err: "i/o timeout", Name: host, IsTimeout: true}}
		},
	}}
	c := client.New("http://api.example.test", "tpk_x", client.WithHTTPClient(hc),
		client.WithBackoff(time.Millisecond, time.Millisecond), client.WithMaxAttempts(3))
	_, err := c.Tasks(context.Background())
	var u *client.UnreachableError
	require.False(t, errors.As(err, &u))
	require.Equal(t, 3, tries)
}
