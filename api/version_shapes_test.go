package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// The same request answered in both dated versions: a job refused for its
// credits carries required and balance only in ctx under 2026-06-30, and at
// the error's top level as well from 2026-09-29 on (the spec's error object,
// the current version) — chosen by Service-Version, else by the account's
// pin.
func TestServiceVersionsAnswerInTheirShape(t *testing.T) {
	const first, second = "2026-06-30", "2026-09-29"
	require.Equal(t, []string{first, second}, contract.Versions)
	require.Equal(t, second, contract.CurrentVersion, "the spec's current version")
	e := newEnv(t, testenv.SQLite)
	old, oldKey, oldKeyID := e.account(models.PlanStandard)
	require.Equal(t, second, old.ServiceVersion, "the first key pins the current version")
	require.NoError(t, e.db.Model(&models.User{}).Where("id = ?", old.ID).Update("service_version", first).Error)

	refusal, err := json.Marshal(
		apierr.New(apierr.InsufficientCredits, "The job needs 4 credits; the balance is 1.").WithCredits(4, 1),
	)
	require.NoError(t, err)
	stored := string(refusal)
	job := func(u *models.User, keyID string) string {
		out := contract.OutcomeFailed
		j := &models.Job{ID: models.NewID("j_"), UserID: u.ID, APIKeyID: keyID, Task: "pattern.generate", Input: "{}",
			Lifecycle: contract.LifecycleTerminal, Outcome: &out, Error: &stored, CreditType: contract.CreditService,
			ServiceVersion: first, CreatedAt: time.Now().UTC()}
		require.NoError(t, e.db.Create(j).Error)
		return j.ID
	}
	oldJob, newJob := job(old, oldKeyID), job(e.user, e.keyID)

	meta := e.send("GET", "/v1/meta", "")
	require.Equal(t, second, meta.head.Get("Service-Version"), "a keyless call gets the current version")
	require.Equal(t, second, meta.obj(t)["current_version"])

	tests := []struct {
		name    string
		key     string
		job     string
		headers []string
		version string
	}{
		{"pinned to the first version", oldKey, oldJob, nil, first},
		{"pinned to the second version", e.key, newJob, nil, second},
		{"header asks for the second", oldKey, oldJob, []string{"Service-Version", second}, second},
		{"header asks for the first", e.key, newJob, []string{"Service-Version", first}, first},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/v1/jobs/" + tc.job, "/v1/jobs"} {
				res := e.send("GET", path, "", append(keyed(tc.key), tc.headers...)...)
				require.Equal(t, 200, res.code, "%s", res.body)
				require.Equal(t, tc.version, res.head.Get("Service-Version"))
				obj := res.obj(t)
				if items, ok := obj["items"].([]any); ok {
					obj = items[0].(map[string]any)
				}
				jobErr := obj["error"].(map[string]any)
				require.Equal(
					t,
					map[string]any{"required": 4.0, "balance": 1.0},
					jobErr["ctx"],
					"ctx holds them in every version",
				)
				if tc.version == second {
					require.Equal(t, 4.0, jobErr["required"])
					require.Equal(t, 1.0, jobErr["balance"])
				} else {
					require.NotContains(t, jobErr, "required")
					require.NotContains(t, jobErr, "balance")
				}
			}
		})
	}
}
