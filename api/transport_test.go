package api

import (
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestTransportProductionRefusesPlainHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite, func(d *Deps) {
		d.Production, d.TrustedProxies = true, []string{"192.0.2.1", "2001:db8::/32"}
	})
	const proxy, stranger = "192.0.2.1:1234", "198.51.100.9:4000"
	https := []string{"X-Forwarded-Proto", "https"}
	tests := []struct {
		name    string
		path    string
		peer    string
		tls     bool
		headers []string
		status  int
	}{
		{"plain HTTP", "/v1/meta", stranger, false, nil, 400},
		{"plain HTTP with a key", "/v1/account/balance", stranger, false, keyed(e.key), 400},
		{"plain HTTP from a proxy that saw http", "/v1/meta", proxy, false, []string{"X-Forwarded-Proto", "http"}, 400},
		{"plain HTTP from a proxy that says nothing", "/v1/meta", proxy, false, nil, 400},
		{"TLS", "/v1/meta", stranger, true, nil, 200},
		{"TLS-terminating proxy", "/v1/meta", proxy, false, https, 200},
		{"TLS-terminating proxy in a trusted range", "/v1/meta", "[2001:db8::5]:443", false, https, 200},
		{
			"proxy chain: the trusted proxy appended https",
			"/v1/account/balance",
			proxy,
			false,
			with(keyed(e.key), "X-Forwarded-Proto", "http, HTTPS"),
			200,
		},
		{
			"proxy chain: the client said https, the trusted proxy appended http",
			"/v1/account/balance",
			proxy,
			false,
			with(keyed(e.key), "X-Forwarded-Proto", "https, http"),
			400,
		},
		{
			"two header lines, the trusted proxy's last says http",
			"/v1/meta",
			proxy,
			false,
			[]string{"X-Forwarded-Proto", "https", "X-Forwarded-Proto", "http"},
			400,
		},
		{
			"two header lines, the trusted proxy's last says https",
			"/v1/meta",
			proxy,
			false,
			[]string{"X-Forwarded-Proto", "http", "X-Forwarded-Proto", "https"},
			200,
		},
		{"untrusted peer claiming https", "/v1/meta", stranger, false, https, 400},
		{
			"untrusted peer claiming https with a key",
			"/v1/account/balance",
			stranger,
			false,
			with(keyed(e.key), https...),
			400,
		},
		{"untrusted IPv6 peer claiming https", "/v1/meta", "[2001:db9::1]:443", false, https, 400},
		{"probe over plain HTTP", "/healthz", stranger, false, nil, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := request("GET", tc.path, nil, tc.headers...)
			req.RemoteAddr = tc.peer
			if tc.tls {
				req.TLS = &tls.ConnectionState{Version: tls.VersionTLS13}
			}
			res := serve(e.r, req)
			require.Equal(t, tc.status, res.code, "%s", res.body)
			if tc.status == 400 {
				require.Equal(t, "insecure_transport", res.errCode(t))
				require.Empty(t, res.head.Get("Location"), "refused, not redirected")
			}
		})
	}
	dev := newEnv(t, testenv.SQLite)
	require.Equal(t, 200, dev.send("GET", "/v1/meta", "").code, "dev serves plain HTTP")
	noProxies := newEnv(t, testenv.SQLite, func(d *Deps) { d.Production = true })
	require.Equal(t, "insecure_transport", serve(noProxies.r, request("GET", "/v1/meta", nil, https...)).errCode(t),
		"without TP_TRUSTED_PROXIES no peer vouches for TLS")
}

// countingReader is an endless body that counts what was read from it.
type countingReader struct{ n int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	r.n += int64(len(p))
	return len(p), nil
}

func TestBodyOverTheLimitIs413WithoutBeingReadWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	limit := contract.DefaultLimits().Request.MaxBodyBytes
	for _, path := range []string{"/v1/tasks/pattern.generate", "/v1/tasks/pattern.generate/estimate"} {
		t.Run("Content-Length "+path, func(t *testing.T) {
			body := &countingReader{}
			req := request(
				"POST",
				path,
				io.LimitReader(body, limit+1),
				with(keyed(e.key), "Content-Type", "application/json")...)
			req.ContentLength = limit + 1
			res := serve(e.r, req)
			require.Equal(t, http.StatusRequestEntityTooLarge, res.code, "%s", res.body)
			require.Equal(t, "body_too_large", res.errCode(t))
			require.Zero(t, body.n, "refused before reading")
		})
	}
	t.Run("chunked", func(t *testing.T) {
		body := &countingReader{}
		req := request(
			"POST",
			"/v1/tasks/pattern.generate/estimate",
			body,
			with(keyed(e.key), "Content-Type", "application/json")...)
		req.ContentLength = -1 // chunked: no length announced
		res := serve(e.r, req)
		require.Equal(t, http.StatusRequestEntityTooLarge, res.code, "%s", res.body)
		require.Equal(t, "body_too_large", res.errCode(t))
		require.Less(t, body.n, limit+64<<10, "reading stopped at the limit")
	})
	t.Run("at the limit is read", func(t *testing.T) {
		req := request(
			"POST",
			"/v1/tasks/pattern.generate/estimate",
			strings.NewReader(`{"colors":["#000000"]}`+strings.Repeat(" ", int(limit)-22)),
			with(keyed(e.key), "Content-Type", "application/json")...)
		res := serve(e.r, req)
		require.Equal(t, http.StatusOK, res.code, "%s", res.body)
	})
}

func TestUnreadableRequestsAndMediaTypes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	body := `{"colors":["#000000"]}`
	path := "/v1/tasks/pattern.generate/estimate"
	tests := []struct {
		name    string
		headers []string
		status  int
		code    string
	}{
		{"JSON", []string{"Content-Type", "application/json; charset=utf-8"}, 200, ""},
		{"+json", []string{"Content-Type", "application/vnd.api+json"}, 200, ""},
		{"text", []string{"Content-Type", "text/plain"}, 415, "unsupported_media_type"},
		{"form", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "unsupported_media_type"},
		{
			"multipart is for uploads only",
			[]string{"Content-Type", "multipart/form-data; boundary=x"},
			415,
			"unsupported_media_type",
		},
		{"no content type", nil, 415, "unsupported_media_type"},
		{"unparsable content type", []string{"Content-Type", "application/json; ==="}, 400, "malformed_request"},
		{
			"key header not UTF-8",
			[]string{"Content-Type", "application/json", "Idempotency-Key", "\xff\xfe"},
			400,
			"malformed_request",
		},
		{
			"other header not UTF-8 is passed over",
			[]string{"Content-Type", "application/json", "X-Note", "\xff\xfe"},
			200,
			"",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send("POST", path, body, with(keyed(e.key), tc.headers...)...)
			require.Equal(t, tc.status, res.code, "%s", res.body)
			if tc.code != "" {
				require.Equal(t, tc.code, res.errCode(t))
			}
		})
	}
}

// A header that says who is calling, or from where, sent twice is refused
// rather than read: the key check and the origin check could each read
// another copy.
func TestRepeatedCredentialAndOriginHeadersAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	other, _ := e.newKey(e.user.ID, nil, nil)
	session := []string{"Cookie", middleware.SessionCookie + "=anything", "Sec-Fetch-Site", "same-origin"}
	tests := []struct {
		name    string
		method  string
		path    string
		headers []string
		field   string
	}{
		{
			"Authorization twice",
			"GET",
			"/v1/jobs",
			[]string{"Authorization", "Key " + e.key, "Authorization", "Key " + other},
			"Authorization",
		},
		{"the same Authorization twice", "GET", "/v1/jobs", with(keyed(e.key), keyed(e.key)...), "Authorization"},
		{"x-api-key twice", "GET", "/v1/jobs", []string{"x-api-key", e.key, "x-api-key", "tpk_guess"}, "X-Api-Key"},
		{
			"Origin twice on a keyless read",
			"GET",
			"/v1/meta",
			[]string{"Origin", "https://app.example", "Origin", "https://evil.example"},
			"Origin",
		},
		{
			"Origin twice on a session route",
			"POST",
			"/v1/account/keys",
			with(session, "Origin", "http://example.com", "Origin", "https://evil.example"),
			"Origin",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send(tc.method, tc.path, "", tc.headers...)
			require.Equal(t, http.StatusBadRequest, res.code, "%s", res.body)
			require.Equal(t, "malformed_request", res.errCode(t))
			require.Equal(t, tc.field, res.errObj(t)["field"])
			require.NotEmpty(t, res.errObj(t)["request_id"])
		})
	}
	require.Equal(t, http.StatusOK, e.send("GET", "/v1/jobs", "", keyed(e.key)...).code, "one Authorization is read")
}
