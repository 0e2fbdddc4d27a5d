package api

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

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
