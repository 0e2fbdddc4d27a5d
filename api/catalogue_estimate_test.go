package api

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestEstimateHonoursThePriceCeiling: an estimate reads
// X-Service-Max-Credits as the submit does — a hold above it answers 402
// max_credits_exceeded with the same ctx, a value that is not plain decimal
// digits ("+6", "6.0", "0x6") 422 naming the header — on both databases.
func TestEstimateHonoursThePriceCeiling(t *testing.T) {
	t.Parallel()
	const body = `{"kind":"stripes","colors":["#203040","#E0D0C0"],"count":2}`
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, b)
			call := func(path string, headers ...string) answer {
				return e.send(http.MethodPost, path, body, with(keyed(e.key), append([]string{"Content-Type",
					"application/json"}, headers...)...)...)
			}
			const estimate, submit = "/v1/tasks/pattern.generate/estimate", "/v1/tasks/pattern.generate"
			priced := call(estimate)
			require.Equal(t, http.StatusOK, priced.code, "%s", priced.body)
			credits := int64(priced.obj(t)["credits"].(float64))
			require.Positive(t, credits)

			under := strconv.FormatInt(credits-1, 10)
			for _, path := range []string{estimate, submit} {
				res := call(path, maxCreditsHeader, under)
				require.Equal(t, http.StatusPaymentRequired, res.code, "%s: %s", path, res.body)
				eo := res.errObj(t)
				require.Equal(t, "max_credits_exceeded", eo["code"])
				ctx := eo["ctx"].(map[string]any)
				require.EqualValues(t, credits, ctx["required"], "%s", res.body)
				require.EqualValues(t, credits-1, ctx["max_credits"], "%s", res.body)
			}
			require.Equal(
				t,
				http.StatusOK,
				call(estimate, maxCreditsHeader, strconv.FormatInt(credits, 10)).code,
				"at the ceiling",
			)
			require.Equal(t, http.StatusOK, call(estimate, maxCreditsHeader, "0"+strconv.FormatInt(credits, 10)).code)

			for _, bad := range []string{"+6", "6.0", "0x6", "6e0", "-1", "1_0", "٦", "6 6", "99999999999999999999"} {
				for _, path := range []string{estimate, submit} {
					res := call(path, maxCreditsHeader, bad)
					require.Equal(t, http.StatusUnprocessableEntity, res.code, "%s %q: %s", path, bad, res.body)
					require.Equal(t, maxCreditsHeader, res.errObj(t)["field"])
				}
				res := call(submit, "X-Service-Start-Timeout", bad)
				require.Equal(t, http.StatusUnprocessableEntity, res.code, "start timeout %q: %s", bad, res.body)
			}
		})
	}
}

// estimateRouter mounts the catalogue behind a stand-in identity so the
// estimate handler runs without a database.
func estimateRouter(scopes string) *gin.Engine {
	r := gin.New()
	d := &Deps{BaseURL: testBase, Catalogue: servedCatalogue()}
	r.Use(middleware.AssignRequestID(), middleware.RenderErrors(), func(c *gin.Context) {
		middleware.SetIdentity(c, &middleware.Identity{
			Key:  &models.APIKey{ID: "key_test", Scopes: scopes},
			User: &models.User{ID: 1, Plan: models.PlanStandard},
		})
	}, middleware.Authorize(servedTasks(), middleware.NewSessions(d.DB, d.now), ruleOf))
	register(r, newHandlers(d, middleware.NewLimiter(d.DB, d.RateLimit, d.RateWindow)))
	return r
}

func TestCatalogueEstimate(t *testing.T) {
	t.Parallel()
	r := estimateRouter(models.ScopeTasksRun)
	tests := []struct {
		task, body string
		status     int
		code       string
		credits    int64
		outputs    int
	}{
		{"pattern.generate", `{"colors":["#000000"],"count":4,"resolution":"2048"}`, 200, "", 16, 4},
		{"pattern.generate", `{"colors":["#000000"]}`, 200, "", 2, 1},
		{"palette.generate", `{"base_color":"#123456"}`, 200, "", 3, 3},
		{"pattern.stripes", `{"colors":["#000000"],"resolution":"512","count":2}`, 200, "", 2, 2},
		{
			"pattern.generate",
			`{"colors":["#000000"],"kind":"dots","stripe_angle":90}`,
			422,
			"field_not_supported",
			0,
			0,
		},
		{"pattern.generate", `{"colors":"#000000"`, 400, "malformed_request", 0, 0},
		{"pattern.legacy", `{}`, 410, "task_removed", 0, 0},
		{"no.such", `{}`, 404, "task_not_found", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.task+" "+tc.body, func(t *testing.T) {
			res := call(r, "POST", "/v1/tasks/"+tc.task+"/estimate", tc.body, "Content-Type", "application/json")
			require.Equal(t, tc.status, res.code, string(res.body))
			if tc.code != "" {
				require.Equal(t, tc.code, res.errCode(t))
				return
			}
			m := res.json(t)
			require.Equal(t, tc.task, m["task"])
			require.Equal(t, float64(tc.credits), m["credits"])
			require.Equal(t, contract.CreditService, m["credit_type"])
			require.Equal(t, float64(tc.outputs), m["outputs"])
		})
	}
	res := call(
		r,
		"POST",
		"/v1/tasks/pattern.generate/estimate",
		`{"colors":["#000000"]}`,
		"Content-Type",
		"text/plain",
	)
	require.Equal(t, 415, res.code)
	res = call(
		estimateRouter("jobs:read"),
		"POST",
		"/v1/tasks/pattern.generate/estimate",
		`{"colors":["#000000"]}`,
		"Content-Type",
		"application/json",
	)
	require.Equal(t, 403, res.code)
	require.Equal(t, "scope_missing", res.errCode(t))
	res = call(
		catalogueRouter(),
		"POST",
		"/v1/tasks/pattern.generate/estimate",
		`{"colors":["#000000"]}`,
		"Content-Type",
		"application/json",
	)
	require.Equal(t, 401, res.code)
	require.Equal(t, "unauthenticated", res.errCode(t))
}
