package api

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestSessionSetsListsAndClearsSpendLimits: a panel session sets the
// account's and a key's spend limits (setting one again replaces it),
// lists them with their period's spend and removes one; bad bodies,
// another account's key or limit and an API key are refused. Every answer
// is as the panel's document says.
func TestSessionSetsListsAndClearsSpendLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	doc := everyRouteDoc(t, true)
	h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
	send := func(method, path, docPath, body string, status int, headers ...string) map[string]any {
		t.Helper()
		if headers == nil {
			headers = h
		}
		res := e.send(method, path, body, headers...)
		require.Equal(t, status, res.code, "%s %s %s: %s", method, path, body, res.body)
		var reqBody []byte
		if body != "" {
			reqBody = []byte(body)
		}
		openapicheck.CheckAnswer(t, doc, method, docPath, request(method, path, nil, headers...), reqBody, res.code,
			res.head, res.body)
		return res.obj(t)
	}
	const list, one = "/v1/account/spend-limits", "/v1/account/spend-limits/{limit_id}"

	day := send(http.MethodPut, list, list, `{"period":"day","credits":50}`, http.StatusOK)
	require.Equal(t, contract.SpendAccount, day["scope"])
	require.Nil(t, day["api_key_id"])
	require.Equal(t, contract.CreditService, day["credit_type"])
	again := send(http.MethodPut, list, list, `{"period":"day","credits":40}`, http.StatusOK)
	require.Equal(t, day["id"], again["id"], "the same limit, replaced")
	require.EqualValues(t, 40, again["credits"])
	key := send(http.MethodPut, list, list, `{"api_key_id":"`+e.keyID+`","period":"month","credits":7}`,
		http.StatusOK)
	require.Equal(t, contract.SpendKey, key["scope"])

	_, err := models.Grant(context.Background(), e.db, e.user.ID, contract.CreditService, 100, nil, "test")
	require.NoError(t, err)
	_, err = models.Admit(context.Background(), e.db, &models.Job{ID: models.NewID("j_"), UserID: e.user.ID,
		APIKeyID: e.keyID, Task: "pattern.generate", Input: "{}", CreditType: contract.CreditService,
		HeldCredits: 6, PricePerOutput: 3}, time.Now().UTC(), nil)
	require.NoError(t, err)
	items := send(http.MethodGet, list, list, "", http.StatusOK)["items"].([]any)
	require.Len(t, items, 2)
	require.Equal(t, day["id"], items[0].(map[string]any)["id"], "the account's first")
	for _, it := range items {
		require.EqualValues(t, 6, it.(map[string]any)["spent"])
	}

	cleared := send(http.MethodDelete, "/v1/account/spend-limits/"+key["id"].(string), one, "", http.StatusOK)
	require.EqualValues(t, 6, cleared["spent"])
	send(http.MethodDelete, "/v1/account/spend-limits/"+key["id"].(string), one, "", http.StatusNotFound)
	send(http.MethodDelete, "/v1/account/spend-limits/nope", one, "", http.StatusNotFound)
	require.Len(t, send(http.MethodGet, list, list, "", http.StatusOK)["items"], 1)

	other, _, _ := e.account(models.PlanStandard)
	_, otherKey := e.newKey(other.ID, nil, nil)
	for _, tc := range []struct {
		body   string
		status int
		field  string
	}{
		{`{"api_key_id":"` + otherKey + `","period":"day","credits":1}`, http.StatusNotFound, "api_key_id"},
		{`{"period":"week","credits":1}`, http.StatusUnprocessableEntity, "period"},
		{`{"period":"day","credits":-1}`, http.StatusUnprocessableEntity, "credits"},
		{`{"period":"day"}`, http.StatusUnprocessableEntity, "credits"},
		{`{"period":"day","credits":1,"credit_type":"gold"}`, http.StatusUnprocessableEntity, "credit_type"},
	} {
		res := send(http.MethodPut, list, list, tc.body, tc.status)
		require.Equal(t, tc.field, res["error"].(map[string]any)["field"], tc.body)
	}
	res := send(http.MethodGet, list, list, "", http.StatusForbidden, keyed(e.key)...)
	require.Equal(t, "session_required", res["error"].(map[string]any)["code"])
}
