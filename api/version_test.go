package api

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// withVersions makes the known versions vs for one test.
func withVersions(t *testing.T, vs ...string) {
	saved := contract.Versions
	contract.Versions = vs
	t.Cleanup(func() { contract.Versions = saved })
}

func TestServiceVersionHeaderPinAndEcho(t *testing.T) {
	const older = "2026-01-15"
	withVersions(t, older, CurrentVersion)
	e := newEnv(t, testenv.SQLite)
	pinned, pinnedKey, _ := e.account(models.PlanStandard)
	require.NoError(t, e.db.Model(&models.User{}).Where("id = ?", pinned.ID).Update("service_version", older).Error)

	tests := []struct {
		name    string
		path    string
		headers []string
		status  int
		echoed  string
	}{
		{"no header, no key: current", "/v1/meta", nil, 200, CurrentVersion},
		{"no header: the account's pin", "/v1/account/balance", keyed(pinnedKey), 200, older},
		{"no header on a keyless read: the account's pin", "/v1/meta", keyed(pinnedKey), 200, older},
		{"first key pinned the current version", "/v1/account/balance", keyed(e.key), 200, CurrentVersion},
		{
			"header beats the pin",
			"/v1/account/balance",
			with(keyed(pinnedKey), "Service-Version", CurrentVersion),
			200,
			CurrentVersion,
		},
		{"header pins an older version", "/v1/meta", []string{"Service-Version", older}, 200, older},
		{"echoed on errors", "/v1/account/balance", []string{"Service-Version", older}, 401, older},
		{"echoed on 404", "/v1/nowhere", keyed(pinnedKey), 404, older},
		{"unknown date", "/v1/meta", []string{"Service-Version", "2025-01-01"}, 400, CurrentVersion},
		{"not a date", "/v1/meta", []string{"Service-Version", "2026-13-45"}, 400, CurrentVersion},
		{"malformed", "/v1/meta", []string{"Service-Version", "2026-9-29"}, 400, CurrentVersion},
		{
			"two headers",
			"/v1/meta",
			[]string{"Service-Version", older, "Service-Version", CurrentVersion},
			400,
			CurrentVersion,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send("GET", tc.path, "", tc.headers...)
			require.Equal(t, tc.status, res.code, "%s", res.body)
			require.Equal(t, tc.echoed, res.head.Get("Service-Version"))
			if tc.status == 400 {
				require.Equal(t, "unsupported_version", res.errCode(t))
				require.Equal(t, "Service-Version", res.errObj(t)["field"])
			}
		})
	}
}

func TestServiceVersionEchoedOnRateLimitRefusal(t *testing.T) {
	const older = "2026-01-15"
	withVersions(t, older, CurrentVersion)
	e := newEnv(t, testenv.SQLite, rateLimited(1, time.Hour))
	require.NoError(t, e.db.Model(&models.User{}).Where("id = ?", e.user.ID).Update("service_version", older).Error)
	require.Equal(t, older, e.send("GET", "/v1/account/balance", "", keyed(e.key)...).head.Get("Service-Version"))
	res := e.send("GET", "/v1/account/balance", "", keyed(e.key)...)
	require.Equal(t, 429, res.code)
	require.Equal(t, older, res.head.Get("Service-Version"))
}
