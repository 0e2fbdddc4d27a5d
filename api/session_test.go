package api

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// signIn starts a panel session for the env's account and returns the
// cookie header pair.
func (e *env) signIn() []string {
	e.t.Helper()
	token, _, err := models.StartSession(context.Background(), e.db, e.user.ID, "", "192.0.2.1", time.Now())
	require.NoError(e.t, err)
	return []string{"Cookie", middleware.SessionCookie + "=" + token}
}

func TestSessionRoutesAnswerSessionsOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	cookie := e.signIn()
	tests := []struct {
		name    string
		method  string
		path    string
		body    string
		headers []string
		status  int
		code    string
	}{
		{"key on list", http.MethodGet, "/v1/account/keys", "", keyed(e.key), http.StatusForbidden, "session_required"},
		{
			"key on create",
			http.MethodPost,
			"/v1/account/keys",
			`{}`,
			with(keyed(e.key), "Content-Type", "application/json"),
			http.StatusForbidden,
			"session_required",
		},
		{"nothing sent", http.MethodGet, "/v1/account/webhooks", "", nil, http.StatusForbidden, "session_required"},
		{
			"unknown session",
			http.MethodGet,
			"/v1/account/webhook-deliveries",
			"",
			[]string{"Cookie", middleware.SessionCookie + "=forged"},
			http.StatusForbidden,
			"session_required",
		},
		{
			"cross-site post",
			http.MethodPost,
			"/v1/account/keys",
			`{}`,
			with(
				cookie,
				"Content-Type",
				"application/json",
				"Sec-Fetch-Site",
				"cross-site",
				"Origin",
				"https://evil.example",
			),
			http.StatusForbidden,
			"permission_denied",
		},
		{"session list", http.MethodGet, "/v1/account/keys", "", cookie, http.StatusOK, ""},
		{
			"session deliveries",
			http.MethodGet,
			"/v1/account/webhook-deliveries?status=failed",
			"",
			cookie,
			http.StatusOK,
			"",
		},
		{
			"bad scope named",
			http.MethodPost,
			"/v1/account/keys",
			`{"scopes":["jobs:fly"]}`,
			with(cookie, "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin"),
			http.StatusUnprocessableEntity,
			"invalid_option",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := e.send(tc.method, tc.path, tc.body, tc.headers...)
			require.Equal(t, tc.status, a.code, "%s", a.body)
			if tc.code != "" {
				require.Equal(t, tc.code, a.errCode(t))
			}
		})
	}
}

func TestSessionCreatesRollsAndRevokesKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
	created := e.send(http.MethodPost, "/v1/account/keys", `{"scopes":["jobs:read"]}`, h...)
	require.Equal(t, http.StatusCreated, created.code, "%s", created.body)
	secret := created.obj(t)["key"].(string)
	id := created.obj(t)["id"].(string)
	require.Equal(t, http.StatusOK, e.send(http.MethodGet, "/v1/jobs", "", keyed(secret)...).code)

	rolled := e.send(http.MethodPost, "/v1/account/keys/"+id+"/roll", `{"grace_period_seconds":0}`, h...)
	require.Equal(t, http.StatusCreated, rolled.code, "%s", rolled.body)
	next := rolled.obj(t)["key"].(string)
	require.Equal(
		t,
		http.StatusUnauthorized,
		e.send(http.MethodGet, "/v1/jobs", "", keyed(secret)...).code,
		"the rolled key ends with no grace",
	)
	require.Equal(t, http.StatusOK, e.send(http.MethodGet, "/v1/jobs", "", keyed(next)...).code)

	nextID := rolled.obj(t)["id"].(string)
	revoked := e.send(http.MethodDelete, "/v1/account/keys/"+nextID, "", h...)
	require.Equal(t, http.StatusOK, revoked.code, "%s", revoked.body)
	require.Equal(t, "revoked", revoked.obj(t)["state"])
	require.Equal(t, http.StatusUnauthorized, e.send(http.MethodGet, "/v1/jobs", "", keyed(next)...).code)

	other, _, _ := e.account(models.PlanStandard)
	_, otherKeyID := e.newKey(other.ID, nil, nil)
	require.Equal(
		t,
		http.StatusNotFound,
		e.send(http.MethodDelete, "/v1/account/keys/"+otherKeyID, "", h...).code,
		"another account's key",
	)
}
