package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestSessionNamesKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
	created := e.send(http.MethodPost, "/v1/account/keys", `{"name":"  ci deploys  "}`, h...)
	require.Equal(t, http.StatusCreated, created.code, "%s", created.body)
	require.Equal(t, "ci deploys", created.obj(t)["name"], "trimmed")
	id := created.obj(t)["id"].(string)

	listed := e.send(http.MethodGet, "/v1/account/keys", "", h...)
	require.Equal(t, http.StatusOK, listed.code, "%s", listed.body)
	require.Contains(t, string(listed.body), `"name":"ci deploys"`)

	rolled := e.send(http.MethodPost, "/v1/account/keys/"+id+"/roll", `{"grace_period_seconds":0}`, h...)
	require.Equal(t, http.StatusCreated, rolled.code, "%s", rolled.body)
	require.Equal(t, "ci deploys", rolled.obj(t)["name"], "the successor keeps the name")
	nextID := rolled.obj(t)["id"].(string)

	tooLong := `{"name":"` + strings.Repeat("é", models.MaxKeyNameLen+1) + `"}`
	other, _, _ := e.account(models.PlanStandard)
	_, otherKeyID := e.newKey(other.ID, nil, nil)
	for _, tc := range []struct {
		name, path, body string
		status           int
		want             any
	}{
		{"rename", "/v1/account/keys/" + nextID, `{"name":"staging"}`, http.StatusOK, "staging"},
		{"64 characters", "/v1/account/keys/" + nextID,
			`{"name":"` + strings.Repeat("é", models.MaxKeyNameLen) + `"}`, http.StatusOK,
			strings.Repeat("é", models.MaxKeyNameLen)},
		{"clear: no name is null", "/v1/account/keys/" + nextID, `{"name":" "}`, http.StatusOK, nil},
		{"too long", "/v1/account/keys/" + nextID, tooLong, http.StatusUnprocessableEntity, ""},
		{"missing name", "/v1/account/keys/" + nextID, `{}`, http.StatusUnprocessableEntity, ""},
		{"another account's key", "/v1/account/keys/" + otherKeyID, `{"name":"x"}`, http.StatusNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := e.send(http.MethodPatch, tc.path, tc.body, h...)
			require.Equal(t, tc.status, a.code, "%s", a.body)
			if tc.status == http.StatusOK {
				require.Equal(t, tc.want, a.obj(t)["name"])
			}
		})
	}
	refused := e.send(http.MethodPost, "/v1/account/keys", tooLong, h...)
	require.Equal(t, http.StatusUnprocessableEntity, refused.code, "%s", refused.body)
	require.Equal(t, "invalid_request", refused.errCode(t))
}
