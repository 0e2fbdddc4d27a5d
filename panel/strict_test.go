package panel

import (
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api"
)

// errorCode is the code of an answer in the API's error shape.
func errorCode(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &env), "not the error shape: %s", w.Body.String())
	return env.Error.Code
}

// from sends a request as the peer at addr, over TLS when tls is set.
func from(
	h http.Handler,
	addr string,
	overTLS bool,
	method, path string,
	form url.Values,
	headers ...string,
) *httptest.ResponseRecorder {
	body := strings.NewReader("")
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, "http://panel.test"+path, body)
	req.RemoteAddr = addr
	if overTLS {
		req.TLS = &tls.ConnectionState{Version: tls.VersionTLS13}
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// The panel's pages answer under the API's rules, in its error shape:
// plain HTTP in production, a key in the URL and a repeated credential or
// Origin header are refused before any page runs.
func TestPanelRefusesWhatTheAPIRefuses(t *testing.T) {
	t.Parallel()
	const proxy, stranger = "192.0.2.1:1234", "198.51.100.9:4000"
	prod, _ := newPanel(t, func(d *api.Deps) { d.Production, d.TrustedProxies = true, []string{"192.0.2.1"} })
	dev, _ := newPanel(t)
	signIn := url.Values{"email": {"ada@example.com"}, "password": {password}}
	https := []string{"X-Forwarded-Proto", "https"}
	const key = "tpk_0123456789abcdefghijklmnopqrstuv"
	tests := []struct {
		name    string
		h       http.Handler
		peer    string
		tls     bool
		method  string
		path    string
		form    url.Values
		headers []string
		status  int
		code    string
	}{
		{
			"sign-in page over plain HTTP",
			prod,
			stranger,
			false,
			"GET",
			"/app/sign-in",
			nil,
			nil,
			400,
			"insecure_transport",
		},
		{
			"password over plain HTTP",
			prod,
			stranger,
			false,
			"POST",
			"/app/sign-in",
			signIn,
			nil,
			400,
			"insecure_transport",
		},
		{"the root over plain HTTP", prod, stranger, false, "GET", "/", nil, nil, 400, "insecure_transport"},
		{
			"a stranger claiming https",
			prod,
			stranger,
			false,
			"POST",
			"/app/sign-in",
			signIn,
			https,
			400,
			"insecure_transport",
		},
		{"a page over TLS", prod, stranger, true, "GET", "/app/sign-in", nil, nil, 200, ""},
		{"a page through the TLS proxy", prod, proxy, false, "GET", "/app/sign-in", nil, https, 200, ""},
		{"a client's https before the proxy's http", prod, proxy, false, "GET", "/app/sign-in", nil,
			[]string{"X-Forwarded-Proto", "https, http"}, 400, "insecure_transport"},
		{"a password with the client's https before the proxy's http", prod, proxy, false, "POST", "/app/sign-in",
			signIn, []string{"X-Forwarded-Proto", "https", "X-Forwarded-Proto", "http"}, 400, "insecure_transport"},
		{"a key in the query", dev, stranger, false, "GET", "/app/keys?key=" + key, nil, nil, 400, "api_key_in_query"},
		{
			"a key in the next of sign-in",
			dev,
			stranger,
			false,
			"GET",
			"/app/sign-in?next=%2Fapp%2F%3Fk%3D" + key,
			nil,
			nil,
			400,
			"api_key_in_query",
		},
		{"two Origin headers", dev, stranger, false, "POST", "/app/sign-in", signIn,
			[]string{"Origin", "http://panel.test", "Origin", "https://evil.example"}, 400, "malformed_request"},
		{"two Authorization headers", dev, stranger, false, "GET", "/app/sign-in", nil,
			[]string{"Authorization", "Key " + key, "Authorization", "Key " + key}, 400, "malformed_request"},
		{
			"two x-api-key headers",
			dev,
			stranger,
			false,
			"GET",
			"/app/",
			nil,
			[]string{"X-Api-Key", key, "X-Api-Key", key},
			400,
			"malformed_request",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := from(tc.h, tc.peer, tc.tls, tc.method, tc.path, tc.form, tc.headers...)
			require.Equal(t, tc.status, w.Code, w.Body.String())
			if tc.code != "" {
				require.Equal(t, tc.code, errorCode(t, w))
				require.Empty(t, w.Header().Get("Location"), "refused, not redirected")
				require.Nil(t, sessionCookie(w), "no session is started")
				require.NotContains(t, w.Body.String(), key, "the key is not copied into the answer")
			}
		})
	}

	// A session cookie started in production is Secure, behind the proxy too.
	w := from(prod, proxy, false, "POST", "/app/sign-in", signIn, https...)
	require.Equal(t, http.StatusSeeOther, w.Code, w.Body.String())
	require.True(t, sessionCookie(w).Secure, "a production session cookie is Secure")
	w = from(dev, stranger, false, "POST", "/app/sign-in", signIn)
	require.Equal(t, http.StatusSeeOther, w.Code, w.Body.String())
	require.False(t, sessionCookie(w).Secure, "dev serves plain HTTP on loopback")
}

// The per-address sign-in limit counts the client a trusted proxy names,
// not the proxy: one client over the limit leaves every other client
// behind the same proxy able to sign in.
func TestSignInLimitCountsTheClientBehindTheProxy(t *testing.T) {
	t.Parallel()
	const proxy = "10.0.0.1:5555"
	h, _ := newPanel(t, func(d *api.Deps) { d.TrustedProxies = []string{"10.0.0.0/8"} })
	for i := range signInPerAddress {
		w := from(h, proxy, false, "POST", "/app/sign-in",
			url.Values{"email": {"guess" + strings.Repeat("x", i) + "@example.com"}, "password": {"wrong password"}},
			"X-Forwarded-For", "203.0.113.7")
		require.Equal(t, http.StatusUnauthorized, w.Code, "attempt %d", i+1)
	}
	over := from(
		h,
		proxy,
		false,
		"POST",
		"/app/sign-in",
		url.Values{"email": {"one-more@example.com"}, "password": {"wrong password"}},
		"X-Forwarded-For",
		"203.0.113.7",
	)
	require.Equal(t, http.StatusTooManyRequests, over.Code)
	require.NotEmpty(t, over.Header().Get("Retry-After"))

	owner := from(
		h,
		proxy,
		false,
		"POST",
		"/app/sign-in",
		url.Values{"email": {"ada@example.com"}, "password": {password}},
		"X-Forwarded-For",
		"203.0.113.8",
	)
	require.Equal(
		t,
		http.StatusSeeOther,
		owner.Code,
		"another client behind the proxy signs in: %s",
		owner.Body.String(),
	)
	spoofed := from(h, "198.51.100.9:4000", false, "POST", "/app/sign-in",
		url.Values{"email": {"ada@example.com"}, "password": {"wrong password"}}, "X-Forwarded-For", "203.0.113.99")
	require.Equal(
		t,
		http.StatusUnauthorized,
		spoofed.Code,
		"an untrusted peer's X-Forwarded-For is its own address anyway",
	)
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// Wrong passwords slow the next attempts on an account, doubling up to a
// minute, and are never checked meanwhile; the owner's right password
// signs in after at most that minute and clears them.
func TestWrongPasswordsSlowAnAccountWithoutLockingItsOwnerOut(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	h, _ := newPanel(t, func(d *api.Deps) { d.Now = clk.now })
	wrong := url.Values{"email": {"Ada@example.com"}, "password": {"wrong password"}}
	right := url.Values{"email": {"ada@example.com"}, "password": {password}}
	attempt := func(form url.Values) *httptest.ResponseRecorder {
		return from(h, "198.51.100.9:4000", false, "POST", "/app/sign-in", form)
	}
	for i := range signInBackoff.Free {
		require.Equal(t, http.StatusUnauthorized, attempt(wrong).Code, "free wrong password %d", i+1)
	}
	var waits []string
	for range 10 {
		require.Equal(t, http.StatusUnauthorized, attempt(wrong).Code, "checked after the wait")
		refused := attempt(right)
		require.Equal(t, http.StatusTooManyRequests, refused.Code, "no password is checked during the wait")
		require.Nil(t, sessionCookie(refused))
		require.Contains(t, refused.Body.String(), "Too many sign-in attempts")
		waits = append(waits, refused.Header().Get("Retry-After"))
		secs, err := time.ParseDuration(refused.Header().Get("Retry-After") + "s")
		require.NoError(t, err)
		clk.add(secs)
	}
	require.Equal(
		t,
		[]string{"1", "2", "4", "8", "16", "32", "60", "60", "60", "60"},
		waits,
		"the wait doubles up to a minute",
	)

	// The attacker's next wrong password waits a minute; the owner, after it, signs in.
	require.Equal(t, http.StatusUnauthorized, attempt(wrong).Code)
	clk.add(signInBackoff.Max)
	ok := attempt(right)
	require.Equal(t, http.StatusSeeOther, ok.Code, "the owner signs in after at most a minute: %s", ok.Body.String())
	require.NotNil(t, sessionCookie(ok))
	for range signInBackoff.Free {
		require.Equal(t, http.StatusUnauthorized, attempt(wrong).Code, "a right password cleared the failures")
	}
}

// The owner keeps their door: wrong passwords sent for the account from
// other addresses slow those addresses only. The owner's right password
// from an address that has not failed signs in at once; an attacker's
// address keeps its wait for that account, and a hostile email is refused
// in the page, never a 500.
func TestOthersWrongPasswordsDoNotSlowTheOwner(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	h, _ := newPanel(t, func(d *api.Deps) { d.Now = clk.now })
	wrong := url.Values{"email": {"ada@example.com"}, "password": {"wrong password"}}
	right := url.Values{"email": {"ada@example.com"}, "password": {password}}
	attackers := []string{"198.51.100.1:4000", "198.51.100.2:4000", "198.51.100.3:4000"}
	for _, a := range attackers {
		for range signInBackoff.Free + 3 {
			from(h, a, false, "POST", "/app/sign-in", wrong)
		}
		w := from(h, a, false, "POST", "/app/sign-in", right)
		require.Equal(t, http.StatusTooManyRequests, w.Code, "the attacking address waits: %s", w.Body.String())
	}
	owner := from(h, "203.0.113.5:5000", false, "POST", "/app/sign-in", right)
	require.Equal(t, http.StatusSeeOther, owner.Code, "the owner is not slowed: %s", owner.Body.String())
	require.NotNil(t, sessionCookie(owner))
	again := from(h, attackers[0], false, "POST", "/app/sign-in", right)
	require.Equal(t, http.StatusTooManyRequests, again.Code, "the owner's sign-in clears no attacker's wait")

	for _, email := range []string{"ada\x00@example.com", "ada\xff@example.com", "\xed\xa0\x80@example.com"} {
		w := from(h, "203.0.113.6:5000", false, "POST", "/app/sign-in",
			url.Values{"email": {email}, "password": {password}})
		require.Equal(t, http.StatusBadRequest, w.Code, "%q: %s", email, w.Body.String())
		require.Nil(t, sessionCookie(w))
	}
}
