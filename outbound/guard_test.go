package outbound

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"

	"code.dny.dev/ssrf"
	"github.com/stretchr/testify/require"
)

func TestTransportSettings(t *testing.T) {
	for _, follow := range []bool{false, true} {
		c := New(Options{FollowRedirects: follow})
		tr, ok := c.Transport.(*transport)
		require.True(t, ok)
		require.Nil(t, tr.base.Proxy, "no proxy from the environment")
		require.Equal(t, uint16(tls.VersionTLS12), tr.base.TLSClientConfig.MinVersion)
		require.Equal(t, DefaultTimeout, c.Timeout)
		require.NotNil(t, c.CheckRedirect)
	}
}

// TestRedirectHopDialChecked: every hop of a followed redirect passes the
// dial guard again. The guard here admits 127.0.0.1 only; the first server
// listens there and redirects to a second one on 127.0.0.2, which must never
// be reached — as a public name that redirects (or rebinds) to a private
// address is refused in production.
func TestRedirectHopDialChecked(t *testing.T) {
	var innerHits atomic.Int64
	inner := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		innerHits.Add(1)
		_, _ = io.WriteString(w, "inner")
	}))
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	require.NoError(t, err)
	inner.Listener = ln
	inner.StartTLS()
	t.Cleanup(inner.Close)

	outer := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+"/", http.StatusFound)
	}))
	t.Cleanup(outer.Close)
	pool := x509.NewCertPool()
	pool.AddCert(outer.Certificate())

	guard := ssrf.New(ssrf.WithAnyPort(), ssrf.WithAllowedV4Prefixes(netip.MustParsePrefix("127.0.0.1/32")))
	c := newClient(Options{RootCAs: pool, FollowRedirects: true, MaxRedirects: 5}, guard)
	_, err = c.Get(outer.URL)
	require.ErrorIs(t, err, ErrNotPublic)
	require.ErrorIs(t, err, ssrf.ErrProhibitedIP)
	require.Zero(t, innerHits.Load())

	// The same hop, not followed, answers the redirect itself.
	c = newClient(Options{RootCAs: pool}, guard)
	res, err := c.Get(outer.URL)
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, http.StatusFound, res.StatusCode)
	require.Zero(t, innerHits.Load())
}
