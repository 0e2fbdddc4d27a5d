// Package outbound is the one HTTP client the service uses to reach
// addresses its users name (webhook deliveries, URL fetches). It speaks
// https only, ignores proxies from the environment, and checks every address
// it dials — after DNS resolution, so a name that rebinds to a private
// address is still refused — with the code.dny.dev/ssrf guard.
package outbound

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Errors of the client and of CheckURL; test them with errors.Is.
var (
	// ErrNotHTTPS: the URL (or a redirect target) is not https://.
	ErrNotHTTPS = errors.New("only https:// URLs are allowed")
	// ErrNotPublic: the host is or resolves to an address that is not
	// public (private, loopback, link-local, metadata, CGNAT, unspecified,
	// multicast, documentation, …).
	ErrNotPublic = errors.New("address is not public")
	// ErrUnresolvable: the host name does not resolve.
	ErrUnresolvable = errors.New("host does not resolve")
	// ErrInvalidURL: the URL does not parse or names no host.
	ErrInvalidURL = errors.New("invalid URL")
	// ErrTooManyRedirects: more redirects than Options.MaxRedirects.
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrTooLarge: the response body is longer than Options.MaxBytes.
	ErrTooLarge = errors.New("response body too large")
)

// Defaults used for zero Options fields.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultTimeout        = 30 * time.Second
	DefaultMaxRedirects   = 5
)

// Options configures a client.
type Options struct {
	// AllowPrivate lets the client reach loopback and private addresses
	// (dev and tests only: TP_ALLOW_PRIVATE_URLS). The client stays https only.
	AllowPrivate bool
	// RootCAs replaces the system roots when set (tests: the httptest
	// server's certificate). Nil means the system roots, which honour
	// SSL_CERT_FILE.
	RootCAs *x509.CertPool
	// FollowRedirects false returns a 3xx response as it is (webhooks);
	// true follows up to MaxRedirects hops, each checked again (fetches).
	FollowRedirects bool
	// MaxRedirects caps the hops followed; zero means DefaultMaxRedirects.
	MaxRedirects int
	// ConnectTimeout bounds the TCP connect and the TLS handshake; zero
	// means DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// Timeout bounds the whole exchange including reading the body; zero
	// means DefaultTimeout.
	Timeout time.Duration
	// MaxBytes caps a response body: reading past it fails with ErrTooLarge,
	// and a declared longer Content-Length fails at once. Zero means no cap.
	MaxBytes int64
	// Tracing, when set, gives every request a client span under the
	// caller's context. The span context is not sent: the addresses are
	// the users', outside the service's traces.
	Tracing trace.TracerProvider
}

// New returns the SSRF-safe client for o.
func New(o Options) *http.Client {
	return newClient(o, guardFor(o.AllowPrivate))
}

// guardFor is the dial-time address check: the ssrf package's deny lists on
// any port, or every address when private ones are allowed.
func guardFor(allowPrivate bool) *ssrf.Guardian {
	if allowPrivate {
		return ssrf.New(ssrf.WithAnyPort(),
			ssrf.WithAllowedV4Prefixes(netip.MustParsePrefix("0.0.0.0/0")),
			ssrf.WithAllowedV6Prefixes(netip.MustParsePrefix("::/0")))
	}
	return ssrf.New(ssrf.WithAnyPort())
}

func newClient(o Options, guard *ssrf.Guardian) *http.Client {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	dialer := &net.Dialer{
		Timeout:   o.ConnectTimeout,
		KeepAlive: 30 * time.Second,
		Control: func(network, address string, _ syscall.RawConn) error {
			if err := guard.Safe(network, address, nil); err != nil {
				return fmt.Errorf("%w: %w", ErrNotPublic, err)
			}
			return nil
		},
	}
	base := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: o.RootCAs},
		TLSHandshakeTimeout:    o.ConnectTimeout,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	var next http.RoundTripper = base
	if o.Tracing != nil {
		next = otelhttp.NewTransport(
			base,
			otelhttp.WithTracerProvider(o.Tracing),
			otelhttp.WithPropagators(propagation.NewCompositeTextMapPropagator()),
		)
	}
	c := &http.Client{Transport: &transport{base: base, next: next, maxBytes: o.MaxBytes}, Timeout: o.Timeout}
	if !o.FollowRedirects {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	} else {
		limit := o.MaxRedirects
		c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if len(via) > limit {
				return fmt.Errorf("%w: stopped after %d", ErrTooManyRedirects, limit)
			}
			if req.URL.Scheme != "https" {
				return fmt.Errorf("%w: redirect to %s://", ErrNotHTTPS, req.URL.Scheme)
			}
			return nil
		}
	}
	return c
}

// transport refuses every request that is not https (every hop of a
// redirect passes here) and caps response bodies. Requests go to next: base,
// or base under a client span.
type transport struct {
	base     *http.Transport
	next     http.RoundTripper
	maxBytes int64
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "https" {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, fmt.Errorf("%w: %s://%s", ErrNotHTTPS, req.URL.Scheme, req.URL.Host)
	}
	res, err := t.next.RoundTrip(req)
	if err != nil || t.maxBytes <= 0 {
		return res, err
	}
	if res.ContentLength > t.maxBytes {
		_ = res.Body.Close()
		return nil, fmt.Errorf("%w: %d bytes declared, at most %d", ErrTooLarge, res.ContentLength, t.maxBytes)
	}
	res.Body = &cappedBody{rc: res.Body, left: t.maxBytes, max: t.maxBytes}
	return res, nil
}

// cappedBody reads at most max bytes and fails with ErrTooLarge when more
// follow.
type cappedBody struct {
	rc        io.ReadCloser
	left, max int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, b.max)
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// CheckURL validates a URL a user registers or submits: it must parse, be
// https, and its host must resolve (net.DefaultResolver) to public
// addresses only — every address, unless allowPrivate. A literal IP is
// checked without a lookup. Errors wrap ErrInvalidURL, ErrNotHTTPS,
// ErrUnresolvable or ErrNotPublic. The client checks again at dial time;
// this check is for a clear answer at registration.
func CheckURL(ctx context.Context, raw string, allowPrivate bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	if u.Scheme != "https" {
		return fmt.Errorf("%w: got %q", ErrNotHTTPS, u.Scheme)
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("%w: no host", ErrInvalidURL)
	}
	if u.Port() != "" {
		if _, err := netip.ParseAddrPort("0.0.0.0:" + u.Port()); err != nil {
			return fmt.Errorf("%w: port %q", ErrInvalidURL, u.Port())
		}
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		name := strings.ToLower(strings.TrimSuffix(host, "."))
		if !allowPrivate && (name == "localhost" || strings.HasSuffix(name, ".localhost")) {
			return fmt.Errorf("%w: %s", ErrNotPublic, host)
		}
		addrs, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrUnresolvable, host, err)
		}
		if len(addrs) == 0 {
			return fmt.Errorf("%w: %s has no address", ErrUnresolvable, host)
		}
	}
	if allowPrivate {
		return nil
	}
	guard := guardFor(false)
	for _, a := range addrs {
		if err := guard.SafeAddr(a.Unmap().WithZone("")); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrNotPublic, host, err)
		}
	}
	return nil
}
