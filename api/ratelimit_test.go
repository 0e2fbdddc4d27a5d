package api

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func rateLimited(limit int, window time.Duration) func(*Deps) {
	return func(d *Deps) { d.RateLimit, d.RateWindow = limit, window }
}

func TestRateLimitPerKeyCountsEveryRequestAndAnswers429(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newEnv(t, b, rateLimited(3, time.Hour))
			readOnly, _ := e.newKey(e.user.ID, []string{models.ScopeJobsRead}, nil)
			calls := []struct {
				path      string
				key       string
				status    int
				remaining string
			}{
				{"/v1/account/balance", e.key, 200, "2"},
				{"/v1/meta", e.key, 200, "1"},               // keyless reads made with a key count
				{"/v1/nowhere", e.key, 404, "0"},            // errors count and carry the headers
				{"/v1/account/balance", e.key, 429, "0"},    // one over
				{"/v1/account/balance", readOnly, 403, "2"}, // another key has its own window
			}
			for i, c := range calls {
				res := e.send("GET", c.path, "", keyed(c.key)...)
				require.Equal(t, c.status, res.code, "call %d: %s", i, res.body)
				require.Equal(t, "3", res.head.Get("X-RateLimit-Limit"), "call %d", i)
				require.Equal(t, c.remaining, res.head.Get("X-RateLimit-Remaining"), "call %d", i)
				reset, err := strconv.Atoi(res.head.Get("X-RateLimit-Reset"))
				require.NoError(t, err)
				require.True(t, reset >= 1 && reset <= 3600, "reset %d", reset)
				if c.status == 429 {
					require.Equal(t, "rate_limited", res.errCode(t))
					require.Equal(t, "rate_limited", res.errObj(t)["type"])
					require.Equal(t, true, res.errObj(t)["retryable"])
					require.Equal(t, res.head.Get("X-RateLimit-Reset"), res.head.Get("Retry-After"))
				}
			}
		})
	}
}

func TestRateLimitKeylessCallsPerAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite, rateLimited(2, time.Hour))
	from := func(addr string) answer {
		req := request("GET", "/v1/meta", nil)
		req.RemoteAddr = addr + ":5555"
		return serve(e.r, req)
	}
	require.Equal(t, 200, from("198.51.100.7").code)
	require.Equal(t, 200, from("198.51.100.7").code)
	over := from("198.51.100.7")
	require.Equal(t, http.StatusTooManyRequests, over.code)
	require.Equal(t, "rate_limited", over.errCode(t))
	require.NotEmpty(t, over.head.Get("Retry-After"))
	require.Equal(t, 200, from("198.51.100.8").code, "another address has its own window")
	for range 5 {
		req := request("GET", "/healthz", nil)
		req.RemoteAddr = "198.51.100.7:5555"
		require.Equal(t, 200, serve(e.r, req).code, "probes are not limited")
	}
}

// TestRateLimitIsSharedByAPIProcesses runs two routers (two API processes)
// on one PostgreSQL database: a limit of 100 lets exactly 100 of 150
// concurrent calls through.
func TestRateLimitIsSharedByAPIProcesses(t *testing.T) {
	t.Parallel()
	const limit, calls = 100, 150
	db := testenv.DB(t, testenv.Postgres)
	waitAwayFromWindowEnd(t, db, 24*time.Hour)
	u, err := models.CreateUser(context.Background(), db, "shared@example.com", models.PlanStandard)
	require.NoError(t, err)
	_, key, err := models.CreateKey(context.Background(), db, u.ID, nil, nil, CurrentVersion)
	require.NoError(t, err)
	procs := []http.Handler{
		NewRouter(Deps{DB: db, Log: zaptest.NewLogger(t), RateLimit: limit, RateWindow: 24 * time.Hour}),
		NewRouter(Deps{DB: db, Log: zaptest.NewLogger(t), RateLimit: limit, RateWindow: 24 * time.Hour}),
	}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		counts = map[int]int{}
	)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := serve(procs[i%2], request("GET", "/v1/account/balance", nil, keyed(key)...))
			mu.Lock()
			counts[res.code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	require.Equal(t, map[int]int{200: limit, 429: calls - limit}, counts)
}

// waitAwayFromWindowEnd sleeps past the end of the current window when it
// ends within a minute (by the database clock), so a test's calls share one.
func waitAwayFromWindowEnd(t *testing.T, db *gorm.DB, window time.Duration) {
	hit, err := models.HitRate(context.Background(), db, "probe", window)
	require.NoError(t, err)
	if hit.Reset < time.Minute {
		time.Sleep(hit.Reset + time.Second)
	}
}

func TestRateWindowsEndedAreCleanedUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite, rateLimited(10, time.Minute))
	old := time.Now().Add(-time.Hour).Unix() / 60 * 60
	require.NoError(t, e.db.Create(&models.RateWindow{Subject: "key:key_gone", WindowStart: old, Calls: 9}).Error)
	require.Equal(t, 200, e.send("GET", "/v1/account/balance", "", keyed(e.key)...).code)
	var n int64
	require.NoError(t, e.db.Model(&models.RateWindow{}).Where("subject = ?", "key:key_gone").Count(&n).Error)
	require.Zero(t, n)
}

func TestAccountLimitsAnswersTheWindows(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite, rateLimited(42, 90*time.Second))
	res := e.send("GET", "/v1/account/limits", "", keyed(e.key)...)
	require.Equal(t, 200, res.code, "%s", res.body)
	m := res.obj(t)
	require.NotEmpty(t, m["as_of"])
	require.Equal(t, []any{
		map[string]any{"per": "api_key", "limit": 42.0, "window_seconds": 90.0},
		map[string]any{"per": "ip", "limit": 42.0, "window_seconds": 90.0},
	}, m["rate_limits"])
	readOnly, _ := e.newKey(e.user.ID, []string{models.ScopeJobsRead}, nil)
	require.Equal(t, "scope_missing", e.send("GET", "/v1/account/limits", "", keyed(readOnly)...).errCode(t))
}

// TestRefusedKeysCountAgainstTheAddress: guessing keys, sending one from a
// browser or in the URL is limited like any keyless call from the address.
func TestRefusedKeysCountAgainstTheAddress(t *testing.T) {
	t.Parallel()
	const limit = 3
	bad := models.KeyPrefix + "0000000000000000000000000000000000000000000"
	tests := []struct {
		name    string
		path    string
		headers func(e *env) []string
		code    string
		over    string // the answer of call limit+1
	}{
		{"invalid key", "/v1/meta", func(*env) []string { return keyed(bad) }, "invalid_api_key", "rate_limited"},
		{
			"invalid key on a keyed route",
			"/v1/account/balance",
			func(*env) []string { return keyed(bad) },
			"invalid_api_key",
			"rate_limited",
		},
		{
			"unreadable Authorization",
			"/v1/meta",
			func(*env) []string { return []string{"Authorization", "Basic x"} },
			"invalid_api_key",
			"rate_limited",
		},
		{
			"valid key with an Origin",
			"/v1/meta",
			func(e *env) []string { return with(keyed(e.key), "Origin", "https://x.example") },
			"api_key_not_allowed_here",
			"rate_limited",
		},
		{
			"key in the URL",
			"/v1/meta?k=" + bad,
			func(*env) []string { return nil },
			"api_key_in_query",
			"api_key_in_query",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, testenv.SQLite, rateLimited(limit, time.Hour))
			from := func(path string, headers ...string) answer {
				req := request("GET", path, nil, headers...)
				req.RemoteAddr = "198.51.100.7:5555"
				return serve(e.r, req)
			}
			for i := range limit {
				res := from(tc.path, tc.headers(e)...)
				require.Equal(t, tc.code, res.errCode(t), "call %d", i)
				require.Equal(t, strconv.Itoa(limit-1-i), res.head.Get("X-RateLimit-Remaining"), "call %d", i)
			}
			over := from(tc.path, tc.headers(e)...)
			require.Equal(t, tc.over, over.errCode(t), "%s", over.body)
			for _, res := range []answer{over, from("/v1/meta")} {
				if res.errCode(t) == "api_key_in_query" {
					continue // always answered as such: the key must be rolled
				}
				require.Equal(t, http.StatusTooManyRequests, res.code, "%s", res.body)
				require.Equal(t, "rate_limited", res.errCode(t))
				require.NotEmpty(t, res.head.Get("Retry-After"))
				retry, ok := res.errObj(t)["ctx"].(map[string]any)["retry_after"].(float64)
				require.True(t, ok, "ctx.retry_after in %s", res.body)
				require.Equal(t, res.head.Get("Retry-After"), strconv.Itoa(int(retry)))
			}
			require.Equal(t, 200, from("/v1/meta", keyed(e.key)...).code, "a valid key has its own window")
		})
	}
}

// TestEarlyRefusalsCarryRateLimitHeaders sends what the middleware refuses
// before it reads who is calling — headers too large, plain HTTP in
// production, an unreadable header, a body or an upload over the limit.
// Each answer carries X-RateLimit-Limit, -Remaining and -Reset, and the
// refused call counts, as every call does: against its valid key, else
// against the calling address. Over the limit it answers 429.
func TestEarlyRefusalsCarryRateLimitHeaders(t *testing.T) {
	t.Parallel()
	const limit = 5
	e := newEnv(t, testenv.SQLite, rateLimited(limit, time.Hour), func(d *Deps) { d.Production = true })
	bad := models.KeyPrefix + "0000000000000000000000000000000000000000000"
	overBody := contract.DefaultLimits().Request.MaxBodyBytes + 1
	overUpload := contract.DefaultLimits().Upload.MaxBytes + middleware.MultipartOverhead + 1
	filler := []string{"X-Filler", strings.Repeat("a", middleware.MaxHeaderBytes)}
	multipart := []string{"Content-Type", "multipart/form-data; boundary=x"}
	const submit, estimate = "/v1/tasks/pattern.generate", "/v1/tasks/pattern.generate/estimate"
	tests := []struct {
		name   string
		method string
		path   string
		key    string // valid, invalid, twice (one valid key in two headers) or none
		plain  bool   // plain HTTP, not TLS
		header []string
		length int64 // a Content-Length over the limit, when set
		status int
		code   string
	}{
		{"headers too large", "GET", "/v1/meta", "valid", false, filler, 0, 431, "headers_too_large"},
		{"headers too large, keyless", "GET", "/v1/meta", "none", false, filler, 0, 431, "headers_too_large"},
		{"plain HTTP", "GET", "/v1/account/balance", "valid", true, nil, 0, 400, "insecure_transport"},
		{"plain HTTP, keyless", "GET", "/v1/meta", "none", true, nil, 0, 400, "insecure_transport"},
		{"plain HTTP, invalid key", "GET", "/v1/meta", "invalid", true, nil, 0, 400, "insecure_transport"},
		{"key sent twice", "GET", "/v1/meta", "twice", false, nil, 0, 400, "malformed_request"},
		{"unreadable Content-Type", "POST", estimate, "valid", false, []string{"Content-Type", "text/plain; ="}, 0, 400,
			"malformed_request"},
		{"header not UTF-8", "POST", submit, "valid", false, []string{"Idempotency-Key", "\xff"}, 0, 400,
			"malformed_request"},
		{
			"body over the limit",
			"POST",
			submit,
			"valid",
			false,
			[]string{"Content-Type", "application/json"},
			overBody,
			413,
			"body_too_large",
		},
		{"body over the limit, keyless", "POST", submit, "none", false, nil, overBody, 413, "body_too_large"},
		{"body over the limit, invalid key", "POST", submit, "invalid", false, nil, overBody, 413, "body_too_large"},
		{"upload over the limit", "POST", "/v1/files", "valid", false, multipart, overUpload, 413, "file_too_large"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			secret, _ := e.newKey(e.user.ID, nil, nil)
			addr := "198.51.100." + strconv.Itoa(10+i) + ":5555"
			send := func(method, path string, plain bool, length int64, headers ...string) answer {
				var body io.Reader
				if method == http.MethodPost {
					body = strings.NewReader("{}")
				}
				req := request(method, path, body, headers...)
				req.RemoteAddr = addr
				if !plain {
					req.TLS = &tls.ConnectionState{}
				}
				if length > 0 {
					req.ContentLength = length
				}
				return serve(e.r, req)
			}
			var auth []string
			switch tc.key {
			case "valid":
				auth = keyed(secret)
			case "invalid":
				auth = keyed(bad)
			case "twice":
				auth = with(keyed(secret), keyed(secret)...)
			}
			res := send(tc.method, tc.path, tc.plain, tc.length, with(auth, tc.header...)...)
			require.Equal(t, tc.status, res.code, "%s", res.body)
			require.Equal(t, tc.code, res.errCode(t))
			requireRateLimitHeaders(t, res, limit, limit-1)

			// The refusal counted against the key, or the address.
			again := auth
			if tc.key == "invalid" || tc.key == "twice" {
				again = nil // the address's window
			}
			next := send("GET", "/v1/meta", false, 0, again...)
			require.Equal(t, http.StatusOK, next.code)
			requireRateLimitHeaders(t, next, limit, limit-2)

			// One call over the limit answers 429.
			for range limit - 2 {
				send("GET", "/v1/meta", false, 0, again...)
			}
			over := send(tc.method, tc.path, tc.plain, tc.length, with(auth, tc.header...)...)
			require.Equal(t, http.StatusTooManyRequests, over.code, "%s", over.body)
			require.Equal(t, "rate_limited", over.errCode(t))
			require.Equal(t, over.head.Get("X-RateLimit-Reset"), over.head.Get("Retry-After"))
			requireRateLimitHeaders(t, over, limit, 0)
		})
	}
}

// requireRateLimitHeaders checks the rate-limit headers of an answer.
func requireRateLimitHeaders(t *testing.T, res answer, limit, remaining int) {
	t.Helper()
	require.Equal(t, strconv.Itoa(limit), res.head.Get("X-RateLimit-Limit"), "%s", res.body)
	require.Equal(t, strconv.Itoa(remaining), res.head.Get("X-RateLimit-Remaining"), "%s", res.body)
	reset, err := strconv.Atoi(res.head.Get("X-RateLimit-Reset"))
	require.NoError(t, err, "X-RateLimit-Reset")
	require.True(t, reset >= 1 && reset <= 3600, "reset %d", reset)
}
