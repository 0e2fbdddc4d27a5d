package api

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestAuthKeyHeadersAllWork(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	other, _ := e.newKey(e.user.ID, nil, nil)
	tests := []struct {
		name    string
		headers []string
		status  int
		code    string
	}{
		{"Key", []string{"Authorization", "Key " + e.key}, 200, ""},
		{"Bearer", []string{"Authorization", "Bearer " + e.key}, 200, ""},
		{"x-api-key", []string{"x-api-key", e.key}, 200, ""},
		{"scheme any case", []string{"Authorization", "key " + e.key}, 200, ""},
		{"same key twice", []string{"Authorization", "Key " + e.key, "x-api-key", e.key}, 200, ""},
		{"two different keys", []string{"Authorization", "Key " + e.key, "x-api-key", other}, 400, "malformed_request"},
		{"other scheme", []string{"Authorization", "Basic " + e.key}, 401, "invalid_api_key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send("GET", "/v1/account/balance", "", tc.headers...)
			require.Equal(t, tc.status, res.code, "%s", res.body)
			if tc.code != "" {
				require.Equal(t, tc.code, res.errCode(t))
			}
		})
	}
}

func TestAuthFailureTable(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	ctx := context.Background()
	past := time.Now().Add(-time.Minute)
	expired, _ := e.newKey(e.user.ID, nil, &past)
	revoked, revokedID := e.newKey(e.user.ID, nil, nil)
	require.NoError(t, models.RevokeKey(ctx, e.db, revokedID, time.Now()))
	readOnly, _ := e.newKey(e.user.ID, []string{models.ScopeJobsRead}, nil)
	_, appOnly, _ := e.account(models.PlanAppOnly)
	_, starter, _ := e.account(models.PlanStarter)
	// The starter plan, for this test, does not run design tasks.
	saved := models.Plans[models.PlanStarter]
	models.Plans[models.PlanStarter] = models.PlanRules{
		APIAccess:          true,
		ExcludedCategories: []string{tasks.CategoryDesignGeneration},
	}
	t.Cleanup(func() { models.Plans[models.PlanStarter] = saved })
	body := `{"colors":["#000000"]}`
	jsonCT := []string{"Content-Type", "application/json"}

	tests := []struct {
		name, method, path string
		headers            []string
		status             int
		typ, code          string
	}{
		{"no key where needed", "GET", "/v1/account/balance", nil, 401, "authentication", "unauthenticated"},
		{
			"malformed key",
			"GET",
			"/v1/account/balance",
			keyed(models.KeyPrefix + "short"),
			401,
			"authentication",
			"invalid_api_key",
		},
		{
			"unknown key",
			"GET",
			"/v1/account/balance",
			keyed(models.KeyPrefix + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
			401,
			"authentication",
			"invalid_api_key",
		},
		{"revoked key", "GET", "/v1/account/balance", keyed(revoked), 401, "authentication", "invalid_api_key"},
		{"expired key", "GET", "/v1/account/balance", keyed(expired), 401, "authentication", "invalid_api_key"},
		{"key lacks scope", "GET", "/v1/account/balance", keyed(readOnly), 403, "permission", "scope_missing"},
		{
			"key lacks tasks:run",
			"POST",
			"/v1/tasks/pattern.generate/estimate",
			with(keyed(readOnly), jsonCT...),
			403,
			"permission",
			"scope_missing",
		},
		{"key management", "POST", "/v1/account/keys", keyed(e.key), 403, "permission", "session_required"},
		{"key listing", "GET", "/v1/account/keys", keyed(e.key), 403, "permission", "session_required"},
		{"webhook listing", "GET", "/v1/account/webhooks", keyed(e.key), 403, "permission", "session_required"},
		{
			"webhook registration",
			"POST",
			"/v1/account/webhooks",
			with(keyed(e.key), jsonCT...),
			403,
			"permission",
			"session_required",
		},
		{"session route without key", "GET", "/v1/account/webhooks", nil, 403, "permission", "session_required"},
		{
			"key from a browser",
			"GET",
			"/v1/account/balance",
			with(keyed(e.key), "Origin", "https://app.example"),
			403,
			"permission",
			"api_key_not_allowed_here",
		},
		{
			"key from a browser on a keyless read",
			"GET",
			"/v1/meta",
			with(keyed(e.key), "Origin", "https://app.example"),
			403,
			"permission",
			"api_key_not_allowed_here",
		},
		{
			"plan without API access",
			"GET",
			"/v1/account/balance",
			keyed(appOnly),
			403,
			"permission",
			"api_access_not_included",
		},
		{
			"plan does not run the task",
			"POST",
			"/v1/tasks/pattern.generate",
			with(keyed(starter), jsonCT...),
			403,
			"permission",
			"permission_denied",
		},
		{
			"plan does not estimate the task",
			"POST",
			"/v1/tasks/pattern.generate/estimate",
			with(keyed(starter), jsonCT...),
			403,
			"permission",
			"permission_denied",
		},
		{"keyless read checks a bad key", "GET", "/v1/tasks", keyed(revoked), 401, "authentication", "invalid_api_key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send(tc.method, tc.path, body, tc.headers...)
			require.Equal(t, tc.status, res.code, "%s", res.body)
			require.Equal(t, tc.code, res.errCode(t))
			require.Equal(t, tc.typ, res.errObj(t)["type"])
			require.Equal(t, tc.typ, res.head.Get("X-Service-Error-Type"))
			require.Equal(t, false, res.errObj(t)["retryable"])
		})
	}

	t.Run("the starter plan still runs what it includes", func(t *testing.T) {
		models.Plans[models.PlanStarter] = saved
		res := e.send("POST", "/v1/tasks/pattern.generate/estimate", body, with(keyed(starter), jsonCT...)...)
		require.Equal(t, http.StatusOK, res.code, "%s", res.body)
	})
	t.Run("a keyless read with a valid key answers", func(t *testing.T) {
		require.Equal(t, http.StatusOK, e.send("GET", "/v1/tasks", "", keyed(e.key)...).code)
	})
}

func TestPlansExcludeOnlyRealCategories(t *testing.T) {
	t.Parallel()
	known := map[string]bool{}
	for _, c := range []string{tasks.CategoryDesignGeneration, tasks.CategoryImageEditing, tasks.CategoryPhotoshoots,
		tasks.CategoryVideo, tasks.CategoryProductionPrep, tasks.CategoryRecordsLibraries} {
		known[c] = true
	}
	for name, p := range models.Plans {
		for _, c := range p.ExcludedCategories {
			require.True(t, known[c], "plan %s excludes unknown category %s", name, c)
		}
	}
	require.False(t, models.PlanOf("no_such_plan").APIAccess, "an unknown plan includes nothing")
}

func TestKeyInQueryIsRefusedFirstOnEveryPath(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite, func(d *Deps) { d.Production = true })
	leak := "?token=" + models.KeyPrefix + "leaked"
	for _, tc := range []struct{ method, path string }{
		{"GET", "/healthz"}, {"GET", "/readyz"}, {"GET", "/v1/tasks"}, {"GET", "/v1/account/balance"}, {"GET",
			"/no/such/path"},
		{"DELETE", "/v1/meta"}, {"POST", "/v1/tasks/pattern.generate"}, {"POST", "/v1/account/keys"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			// Plain HTTP in production, an Origin and a bad version: the key
			// in the URL still wins, before anything else runs.
			res := e.send(
				tc.method,
				tc.path+leak,
				"{}",
				with(keyed(e.key), "Origin", "https://x.example", "Service-Version", "bad")...)
			require.Equal(t, http.StatusBadRequest, res.code, "%s", res.body)
			require.Equal(t, "api_key_in_query", res.errCode(t))
			require.NotEmpty(t, res.head.Get("X-RateLimit-Limit"), "counted against the address")
		})
	}
	for _, q := range []string{"?" + models.KeyPrefix + "bare", "?a=%zz&k=" + models.KeyPrefix + "x", "?k=tpk%5Fencoded"} {
		require.Equal(t, "api_key_in_query", e.send("GET", "/v1/meta"+q, "").errCode(t), q)
	}
}

func TestRolledKeyWorksForItsGraceAndRevokedKeyAtOnceNot(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	ctx := context.Background()
	ok := func(secret string) int { return e.send("GET", "/v1/account/balance", "", keyed(secret)...).code }

	_, rolled, err := models.RollKey(ctx, e.db, e.keyID, time.Hour, time.Now(), CurrentVersion)
	require.NoError(t, err)
	require.Equal(t, 200, ok(e.key), "old key valid during grace")
	require.Equal(t, 200, ok(rolled))

	nk, _, err := models.SecretKeyAuth(ctx, e.db, rolled, time.Now())
	require.NoError(t, err)
	_, again, err := models.RollKey(ctx, e.db, nk.ID, 0, time.Now(), CurrentVersion)
	require.NoError(t, err)
	require.Equal(t, 401, ok(rolled), "no grace: the old key stops at once")
	require.Equal(t, 200, ok(again))

	last, _, err := models.SecretKeyAuth(ctx, e.db, again, time.Now())
	require.NoError(t, err)
	require.NoError(t, models.RevokeKey(ctx, e.db, last.ID, time.Now()))
	require.Equal(t, 401, ok(again), "revocation is immediate")
}
