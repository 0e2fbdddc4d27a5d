package e2e_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMaxCreditsIsACeilingOnTheHold: an estimate says how long its price
// holds; a submit whose hold would pass X-Service-Max-Credits answers 402
// max_credits_exceeded with both amounts and holds nothing, one at the
// estimate's credits runs and holds exactly them, and a ceiling that is
// not a number of credits is refused naming the header.
func TestMaxCreditsIsACeilingOnTheHold(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	est := s.do(http.MethodPost, "/v1/tasks/pattern.generate/estimate", pattern(3))
	require.Equal(t, http.StatusOK, est.status, "%s", est.body)
	credits := int64(est.json(t)["credits"].(float64))
	until, err := time.Parse(time.RFC3339, est.json(t)["valid_until"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(time.Hour), until, 5*time.Minute)

	res := s.submit(pattern(3), "X-Service-Max-Credits", strconv.FormatInt(credits-1, 10))
	require.Equal(t, http.StatusPaymentRequired, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "max_credits_exceeded", e["code"])
	require.Equal(t, map[string]any{"required": float64(credits), "max_credits": float64(credits - 1)}, e["ctx"])
	require.Empty(t, s.do(http.MethodGet, "/v1/jobs", nil).json(t)["items"], "no job was made")
	require.Equal(t, int64(100), s.balance(), "nothing was held")

	res = s.submit(pattern(3), "X-Service-Max-Credits", "many")
	require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
	require.Equal(t, "X-Service-Max-Credits", res.json(t)["error"].(map[string]any)["field"])

	res = s.submit(pattern(3), "X-Service-Max-Credits", strconv.FormatInt(credits, 10))
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	require.Equal(t, strconv.FormatInt(credits, 10), res.header.Get("X-Service-Credits"))
	s.waitTerminal(res.json(t)["job_id"].(string))
}
