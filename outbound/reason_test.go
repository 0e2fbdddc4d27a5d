package outbound

import (
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"code.dny.dev/ssrf"
	"github.com/stretchr/testify/require"
)

// TestReasonSaysWhyAFetchFailed: every way a fetch fails — a refused or
// dropped connection, a timeout, a name that does not resolve, each TLS
// failure, an address that is not public or not https, directly or after
// a redirect — is said in the caller's words, with whether a retry may
// pass, and without the error's own text (no address the service dialled
// or resolved through, no Go error wording).
func TestReasonSaysWhyAFetchFailed(t *testing.T) {
	quiet := func(s *httptest.Server) { s.Config.ErrorLog = log.New(io.Discard, "", 0) }
	var inner *httptest.Server
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			time.Sleep(2 * time.Second)
		case "/to-private":
			http.Redirect(w, r, inner.URL+"/", http.StatusFound)
		case "/to-http":
			http.Redirect(w, r, "http://example.com/x", http.StatusFound)
		case "/to-nowhere":
			http.Redirect(w, r, "https://nonexistent.invalid/x", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	}))
	quiet(srv)
	srv.StartTLS()
	t.Cleanup(srv.Close)

	// inner listens on 127.0.0.2, which the test's guard treats as private.
	inner = httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	require.NoError(t, err)
	inner.Listener = ln
	inner.StartTLS()
	t.Cleanup(inner.Close)

	plain := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(plain.Close)

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := closed.Addr().String()
	require.NoError(t, closed.Close())

	dropper, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = dropper.Close() })
	go func() {
		for {
			c, err := dropper.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()

	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	loopbackOnly := ssrf.New(ssrf.WithAnyPort(), ssrf.WithAllowedV4Prefixes(netip.MustParsePrefix("127.0.0.1/32")))
	// Only the timeout case is impatient: a TLS handshake on a loaded
	// machine (the race pass) may take longer than the slow handler's 2 s.
	client := func(o Options) *http.Client {
		o.FollowRedirects, o.Timeout = true, 30*time.Second
		return newClient(o, loopbackOnly)
	}
	impatient := newClient(Options{RootCAs: pool, FollowRedirects: true, Timeout: time.Second}, loopbackOnly)
	trusting, public := client(Options{RootCAs: pool}), New(Options{RootCAs: pool, FollowRedirects: true})
	const publicOnly = " (the service fetches public https addresses only)"

	for _, tc := range []struct {
		name      string
		client    *http.Client
		url       string
		reason    string
		temporary bool
	}{
		{"connection refused", trusting, "https://" + refused + "/a.png", "the connection was refused", true},
		{"connection dropped", trusting, "https://" + dropper.Addr().String() + "/a.png",
			"the connection was closed before the answer was complete", true},
		{"timeout", impatient, srv.URL + "/slow", "the server did not answer in time", true},
		{"unknown authority", client(Options{}), srv.URL + "/",
			"the server's TLS certificate is not issued by a trusted authority", false},
		{"wrong host", trusting, "https://localhost:" + port + "/",
			"the server's TLS certificate is not valid for localhost", false},
		{"not TLS", trusting, "https://" + plain.Listener.Addr().String() + "/",
			"the server does not answer TLS (https) on that port", false},
		{"not public", public, srv.URL + "/", "its address is not public" + publicOnly, false},
		{"redirect to a private address", trusting, srv.URL + "/to-private",
			"it redirects to an address that is not public" + publicOnly, false},
		{"redirect to http", trusting, srv.URL + "/to-http", "it redirects to an address that is not https://", false},
		{"not https", trusting, "http://example.com/a.png", "it is not an https:// address", false},
		{"redirect loop", trusting, srv.URL + "/loop", "it redirects too many times", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, tc.url, nil)
			require.NoError(t, err)
			res, err := tc.client.Do(req)
			if err == nil {
				_ = res.Body.Close()
			}
			require.Error(t, err)
			reason, temporary := Reason(err, req.URL)
			require.Equal(t, tc.reason, reason, "from %v", err)
			require.Equal(t, tc.temporary, temporary)
			requireCallerWords(t, reason)
		})
	}

	t.Run("host name that does not resolve", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/to-nowhere", nil)
		require.NoError(t, err)
		_, err = trusting.Do(req)
		require.Error(t, err)
		reason, _ := Reason(err, req.URL)
		require.Contains(t, reason, "the host name nonexistent.invalid ", "from %v", err)
		requireCallerWords(t, reason)
	})

	t.Run("certificates that expired", func(t *testing.T) {
		expired := x509.CertificateInvalidError{Reason: x509.Expired, Detail: "current time is after 2020-01-01"}
		err := &url.Error{Op: "Get", URL: "https://example.com/a.png",
			Err: fmt.Errorf("tls: failed to verify certificate: %w", expired)}
		reason, temporary := Reason(err, &url.URL{Scheme: "https", Host: "example.com", Path: "/a.png"})
		require.Equal(t, "the server's TLS certificate has expired or is not valid yet", reason)
		require.False(t, temporary)
	})

	t.Run("anything else", func(t *testing.T) {
		reason, temporary := Reason(fmt.Errorf("dial tcp 10.0.0.7:443: something new"), nil)
		require.Equal(t, "the server could not be reached", reason)
		require.True(t, temporary)
	})
}

// requireCallerWords: a reason carries no address and no Go error text.
func requireCallerWords(t *testing.T, reason string) {
	t.Helper()
	for _, internal := range []string{"127.0.0", "10.", ":53", "dial", "tcp", "x509", "tls:", "Get ", "lookup", "EOF"} {
		require.NotContains(t, reason, internal)
	}
}
