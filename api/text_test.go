package api

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
)

// hostileInURL are bytes no database stores as text, escaped for a URL:
// NUL, a byte that starts no UTF-8 sequence, an overlong "/" and a lone
// surrogate encoded as UTF-8 would encode it.
var hostileInURL = []string{"%00", "a%00b", "%ff", "%c0%af", "%ed%a0%80"}

// hostileInJSON are the same as JSON string literals, plus the escapes a
// JSON decoder would turn into U+FFFD (lone surrogates) or into a NUL.
var hostileInJSON = []string{
	`"\u0000"`, `"a\u0000b"`, "\"\xff\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"",
	`"\ud800"`, `"\udc00"`, `"\ud800x"`, `"\ud800\u0041"`, "\"a\x00b\"",
}

// sweepEnv is a router serving every route of the table (metrics and the
// signer included) with a rate limit no sweep reaches.
func sweepEnv(t *testing.T, b testenv.Backend) *env {
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	return newEnv(t, b, func(d *Deps) {
		d.Metrics, d.Signer = middleware.NewHTTPMetrics(prometheus.NewRegistry()), signer.New(key)
		d.RateLimit, d.RateWindow = 1<<30, time.Hour
	})
}

// TestHostileTextAnswersMalformedOnEveryRoute sends, on both databases,
// every route of the route table NUL, %ff, overlong UTF-8 and lone
// surrogates in each path parameter, each documented query parameter and
// an undocumented one, and in a JSON body's strings: each answers 400
// malformed_request naming the field, in the error shape.
func TestHostileTextAnswersMalformedOnEveryRoute(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			e := sweepEnv(t, b)
			creds := map[middleware.Access][]string{middleware.AccessKey: keyed(e.key), middleware.AccessSession: e.signIn()}
			refused := func(t *testing.T, method, path, body, field string) {
				t.Helper()
				headers := creds[routeAccess(method, path)]
				if body != "" {
					headers = with(headers, "Content-Type", "application/json")
				}
				req := request(method, path, strings.NewReader(body), headers...)
				ctx, cancel := context.WithTimeout(req.Context(), 10*time.Second)
				defer cancel()
				res := serve(e.r, req.WithContext(ctx))
				require.Equal(t, http.StatusBadRequest, res.code, "%s %s %q: %s", method, path, body, res.body)
				require.Contains(t, res.head.Get("Content-Type"), "application/json")
				eo := res.errObj(t)
				require.Equal(t, "malformed_request", eo["code"], "%s %s: %s", method, path, res.body)
				require.Equal(t, false, eo["retryable"])
				if field != "" {
					require.Equal(t, field, eo["field"], "%s %s %q: %s", method, path, body, res.body)
				}
			}
			for _, rt := range routes {
				t.Run(rt.method+" "+rt.path, func(t *testing.T) {
					params := openapi.PathParams(rt.path)
					for _, bad := range hostileInURL {
						for i, name := range params {
							refused(t, rt.method, fillPath(rt.path, i, bad), "", name)
						}
						base := fillPath(rt.path, -1, "")
						refused(t, rt.method, base+"?other="+bad, "", "other")
						refused(t, rt.method, base+"?"+bad+"=1", "", "")
						for _, p := range rt.op.Params {
							if p["in"] == "query" {
								name := p["name"].(string)
								refused(t, rt.method, base+"?"+name+"="+bad, "", name)
							}
						}
					}
					if rt.op.Body["application/json"] == nil {
						return
					}
					base := fillPath(rt.path, -1, "")
					for _, bad := range hostileInJSON {
						refused(t, rt.method, base, `{"name":`+bad+`}`, "name")
						refused(t, rt.method, base, `{"items":[{"task":"a","input":{"name":["x",`+bad+`]}}]}`,
							"items[0].input.name[1]")
						refused(t, rt.method, base, `{`+bad+`:1}`, "")
					}
				})
			}
			t.Run("cursors that decode to hostile text", func(t *testing.T) {
				for _, rt := range routes {
					if rt.method != http.MethodGet || !slices.ContainsFunc(rt.op.Params,
						func(p oa) bool { return p["name"] == "cursor" }) {
						continue
					}
					base := fillPath(rt.path, -1, "")
					if strings.Contains(rt.path, "{job_id}") {
						base = strings.Replace(rt.path, "{job_id}", e.doneJob(t), 1)
					}
					for _, raw := range []string{"\x00", "a\x00b", "\xff", "\xc0\xaf", "\xed\xa0\x80",
						"2026-01-01T00:00:00Z|\xff", "\xff|j_x", "5\x00"} {
						cursor := base64.RawURLEncoding.EncodeToString([]byte(raw))
						headers := creds[rt.access]
						res := serve(e.r, request(rt.method, base+"?cursor="+cursor, nil, headers...))
						require.True(t, res.code == http.StatusBadRequest || res.code == http.StatusUnprocessableEntity,
							"%s %s cursor %q: %d %s", rt.method, base, raw, res.code, res.body)
						require.Equal(t, "cursor", res.errObj(t)["field"], "%s: %s", base, res.body)
					}
				}
			})
			t.Run("every task's name field", func(t *testing.T) {
				for _, def := range servedTasks().All() {
					for _, bad := range hostileInJSON {
						refused(t, http.MethodPost, "/v1/tasks/"+def.Name, `{"name":`+bad+`}`, "name")
						refused(t, http.MethodPost, "/v1/tasks/"+def.Name+"/estimate", `{"name":`+bad+`}`, "name")
					}
				}
			})
		})
	}
}

// fillPath writes a table path with x for its i-th parameter and a plain
// value for the others.
func fillPath(pattern string, i int, x string) string {
	parts := strings.Split(pattern, "/")
	n := 0
	for k, p := range parts {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			parts[k] = plainParam(p[1 : len(p)-1])
			if n == i {
				parts[k] = x
			}
			n++
		}
	}
	return strings.Join(parts, "/")
}

// plainParam is a readable value of a path parameter.
func plainParam(name string) string {
	switch name {
	case "name":
		return "pattern.generate"
	case "index":
		return "0"
	case "kind":
		return "file"
	}
	return "x1"
}

// routeAccess is what the route a request path matches needs.
func routeAccess(method, path string) middleware.Access {
	path, _, _ = strings.Cut(path, "?")
	for _, rt := range routes {
		if rt.method == method && matches(rt.path, path) {
			return rt.access
		}
	}
	return middleware.AccessPublic
}

// matches says whether a request path fits a table path.
func matches(pattern, path string) bool {
	a, b := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !strings.HasPrefix(a[i], "{") {
			return false
		}
	}
	return true
}

// doneJob makes a succeeded, settled job of the env's account and returns
// its id.
func (e *env) doneJob(t *testing.T) string {
	t.Helper()
	now, succeeded := time.Now().UTC(), contract.OutcomeSucceeded
	j := &models.Job{ID: models.NewID("j_"), UserID: e.user.ID, APIKeyID: e.keyID, Task: "pattern.generate",
		Input: "{}", Lifecycle: contract.LifecycleTerminal, Outcome: &succeeded, CreditType: contract.CreditService,
		CreatedAt: now.Add(-time.Minute), StartedAt: new(now.Add(-time.Minute)), EndedAt: new(now),
		SettledAt: new(now)}
	require.NoError(t, e.db.Create(j).Error)
	return j.ID
}
