package outbound_test

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/outbound"
)

// server is an https test server on loopback counting the requests it got.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

func newTLSServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // handshakes the tests make fail on purpose
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func newPlainServer(t *testing.T) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.hits.Add(1)
		_, _ = io.WriteString(w, "plain")
	}))
	t.Cleanup(s.Close)
	return s
}

func roots(s *server) *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(s.Certificate())
	return pool
}

func get(t *testing.T, c *http.Client, url string) (*http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel) // the body is read after get returns
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	require.NoError(t, err)
	res, err := c.Do(req)
	if err == nil {
		t.Cleanup(func() { _ = res.Body.Close() })
	}
	return res, err
}

func ok(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hello") }

func TestPlainHTTPRefused(t *testing.T) {
	plain := newPlainServer(t)
	for _, private := range []bool{false, true} {
		c := outbound.New(outbound.Options{AllowPrivate: private})
		_, err := get(t, c, plain.URL)
		require.ErrorIs(t, err, outbound.ErrNotHTTPS, "allow private %v", private)

		req, err := http.NewRequest(http.MethodPost, plain.URL, strings.NewReader(`{}`))
		require.NoError(t, err)
		_, err = c.Do(req)
		require.ErrorIs(t, err, outbound.ErrNotHTTPS)
	}
	require.Zero(t, plain.hits.Load(), "nothing reached the plain server")
}

func TestLoopback(t *testing.T) {
	s := newTLSServer(t, ok)

	_, err := get(t, outbound.New(outbound.Options{RootCAs: roots(s)}), s.URL)
	require.ErrorIs(t, err, outbound.ErrNotPublic, "loopback is refused by default")
	require.Zero(t, s.hits.Load())

	res, err := get(t, outbound.New(outbound.Options{AllowPrivate: true, RootCAs: roots(s)}), s.URL)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, "hello", string(body))

	_, err = get(t, outbound.New(outbound.Options{AllowPrivate: true}), s.URL)
	var unknown x509.UnknownAuthorityError
	require.True(t, errors.As(err, &unknown), "the certificate is verified: got %v", err)
}

func TestRedirects(t *testing.T) {
	plain := newPlainServer(t)
	s := newTLSServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/final":
			_, _ = io.WriteString(w, "final")
		case "/to-final":
			http.Redirect(w, r, "/final", http.StatusFound)
		case "/to-plain":
			http.Redirect(w, r, plain.URL+"/x", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/two":
			http.Redirect(w, r, "/to-final", http.StatusMovedPermanently)
		}
	})

	tests := []struct {
		name       string
		follow     bool
		max        int
		path       string
		wantStatus int
		wantBody   string
		wantErr    error
	}{
		{name: "not followed", path: "/to-final", wantStatus: http.StatusFound},
		{name: "not followed to http", path: "/to-plain", wantStatus: http.StatusFound},
		{name: "followed", follow: true, max: 5, path: "/to-final", wantStatus: http.StatusOK, wantBody: "final"},
		{
			name:       "two hops within limit",
			follow:     true,
			max:        2,
			path:       "/two",
			wantStatus: http.StatusOK,
			wantBody:   "final",
		},
		{name: "two hops over limit", follow: true, max: 1, path: "/two", wantErr: outbound.ErrTooManyRedirects},
		{name: "loop", follow: true, max: 3, path: "/loop", wantErr: outbound.ErrTooManyRedirects},
		{name: "followed hop to http refused", follow: true, max: 5, path: "/to-plain", wantErr: outbound.ErrNotHTTPS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := s.hits.Load()
			c := outbound.New(
				outbound.Options{
					AllowPrivate:    true,
					RootCAs:         roots(s),
					FollowRedirects: tt.follow,
					MaxRedirects:    tt.max,
				},
			)
			res, err := get(t, c, s.URL+tt.path)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantStatus, res.StatusCode)
			if !tt.follow {
				require.Equal(t, int64(1), s.hits.Load()-before, "one request, no hop")
				require.NotEmpty(t, res.Header.Get("Location"))
			}
			if tt.wantBody != "" {
				body, err := io.ReadAll(res.Body)
				require.NoError(t, err)
				require.Equal(t, tt.wantBody, string(body))
			}
		})
	}
	require.Zero(t, plain.hits.Load(), "no hop reached the plain server")
}

func TestMaxBytes(t *testing.T) {
	big := strings.Repeat("x", 1000)
	s := newTLSServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked" {
			w.(http.Flusher).Flush() // no Content-Length
		}
		_, _ = io.WriteString(w, big)
	})
	tests := []struct {
		name    string
		max     int64
		path    string
		wantErr error
	}{
		{name: "under the cap", max: 1000, path: "/"},
		{name: "no cap", max: 0, path: "/chunked"},
		{name: "declared length over the cap", max: 999, path: "/", wantErr: outbound.ErrTooLarge},
		{name: "streamed over the cap", max: 999, path: "/chunked", wantErr: outbound.ErrTooLarge},
		{name: "streamed at the cap", max: 1000, path: "/chunked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := outbound.New(outbound.Options{AllowPrivate: true, RootCAs: roots(s), MaxBytes: tt.max})
			res, err := get(t, c, s.URL+tt.path)
			if err == nil {
				var body []byte
				body, err = io.ReadAll(res.Body)
				if err == nil {
					require.Equal(t, big, string(body))
				}
			}
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
		})
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		name         string
		url          string
		allowPrivate bool
		wantErr      error
	}{
		{name: "public literal", url: "https://93.184.216.34/hook"},
		{name: "public literal with port", url: "https://93.184.216.34:8443/hook"},
		{name: "public IPv6 literal", url: "https://[2606:2800:220:1:248:1893:25c8:1946]/hook"},
		{name: "http", url: "http://93.184.216.34/hook", wantErr: outbound.ErrNotHTTPS},
		{
			name:         "http even when private allowed",
			url:          "http://127.0.0.1/hook",
			allowPrivate: true,
			wantErr:      outbound.ErrNotHTTPS,
		},
		{name: "no scheme", url: "93.184.216.34/hook", wantErr: outbound.ErrNotHTTPS},
		{name: "ftp", url: "ftp://93.184.216.34/", wantErr: outbound.ErrNotHTTPS},
		{name: "no host", url: "https:///hook", wantErr: outbound.ErrInvalidURL},
		{name: "unparsable", url: "https://[::1/hook", wantErr: outbound.ErrInvalidURL},
		{name: "loopback", url: "https://127.0.0.1/hook", wantErr: outbound.ErrNotPublic},
		{name: "loopback allowed", url: "https://127.0.0.1:8443/hook", allowPrivate: true},
		{name: "IPv6 loopback", url: "https://[::1]/hook", wantErr: outbound.ErrNotPublic},
		{name: "IPv4-mapped loopback", url: "https://[::ffff:127.0.0.1]/hook", wantErr: outbound.ErrNotPublic},
		{name: "private 10/8", url: "https://10.1.2.3/hook", wantErr: outbound.ErrNotPublic},
		{name: "private 172.16/12", url: "https://172.16.0.1/hook", wantErr: outbound.ErrNotPublic},
		{name: "private 192.168/16", url: "https://192.168.1.1/hook", wantErr: outbound.ErrNotPublic},
		{name: "private allowed", url: "https://10.1.2.3/hook", allowPrivate: true},
		{name: "metadata", url: "https://169.254.169.254/latest/meta-data", wantErr: outbound.ErrNotPublic},
		{name: "link-local IPv6", url: "https://[fe80::1]/", wantErr: outbound.ErrNotPublic},
		{name: "unique local IPv6", url: "https://[fd00:ec2::254]/", wantErr: outbound.ErrNotPublic},
		{name: "unspecified", url: "https://0.0.0.0/", wantErr: outbound.ErrNotPublic},
		{name: "unspecified IPv6", url: "https://[::]/", wantErr: outbound.ErrNotPublic},
		{name: "CGNAT", url: "https://100.64.0.1/", wantErr: outbound.ErrNotPublic},
		{name: "multicast", url: "https://224.0.0.1/", wantErr: outbound.ErrNotPublic},
		{name: "localhost", url: "https://localhost/hook", wantErr: outbound.ErrNotPublic},
		{name: "localhost uppercase with dot", url: "https://LOCALHOST./hook", wantErr: outbound.ErrNotPublic},
		{name: "localhost subdomain", url: "https://api.localhost:8443/hook", wantErr: outbound.ErrNotPublic},
		{name: "unresolvable", url: "https://no-such-host.invalid/hook", wantErr: outbound.ErrUnresolvable},
		{
			name:         "unresolvable even when private allowed",
			url:          "https://no-such-host.invalid/hook",
			allowPrivate: true,
			wantErr:      outbound.ErrUnresolvable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := outbound.CheckURL(ctx, tt.url, tt.allowPrivate)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
		})
	}
}
