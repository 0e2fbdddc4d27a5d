package api

import (
	"crypto/ed25519"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestManifestOutlivesADelete: a job's manifest proves what it delivered,
// so deleting one of its outputs leaves the manifest byte for byte the
// same (the output is still listed, as delivered), on both databases,
// while the deleted output's handle answers 404.
func TestManifestOutlivesADelete(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			_, key, err := ed25519.GenerateKey(nil)
			require.NoError(t, err)
			e := newFileEnv(t, b, func(d *Deps) { d.Signer = signer.New(key) })
			now := time.Now().UTC().Truncate(time.Second)
			succeeded := contract.OutcomeSucceeded
			j := &models.Job{ID: models.NewID("j_"), UserID: e.user.ID, APIKeyID: e.keyID, Task: "pattern.generate",
				Input: `{"count":2}`, Lifecycle: contract.LifecycleTerminal, Outcome: &succeeded,
				CreditType: contract.CreditService, HeldCredits: 20, ChargedCredits: 20, ProgressDone: 2,
				CreatedAt: now.Add(-time.Minute), StartedAt: new(now.Add(-50 * time.Second)), EndedAt: new(now),
				SettledAt: new(now)}
			require.NoError(t, e.db.Create(j).Error)
			arts := e.addOutputs(e.user.ID, j.ID, 2, now)
			manifest := func(accept ...string) string {
				res := e.send(http.MethodGet, "/v1/jobs/"+j.ID+"/manifest", "", with(keyed(e.key), accept...)...)
				require.Equal(t, http.StatusOK, res.code, "%s", res.body)
				return string(res.body)
			}
			before, compact := manifest(), manifest("Accept", joseMediaType)
			require.Contains(t, before, `"signature"`)

			del := e.send(http.MethodDelete, "/v1/files/art:"+arts[1], "", keyed(e.key)...)
			require.Equal(t, http.StatusOK, del.code, "%s", del.body)
			require.Equal(t, http.StatusNotFound, e.send(http.MethodGet, "/v1/files/art:"+arts[1], "", keyed(e.key)...).code)

			listed := e.send(http.MethodGet, "/v1/jobs/"+j.ID+"/files", "", keyed(e.key)...)
			require.Len(t, listed.obj(t)["items"], 1, "the job's files list no longer lists it")
			require.Equal(t, before, manifest(), "the same job gives the same manifest after a delete")
			require.Equal(t, compact, manifest("Accept", joseMediaType))
		})
	}
}
