package activities_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/enginehooks"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/testenv"
)

// slowTask declares image.slow on an async Cog server at URL whose
// webhooks go to the service's route.
const slowTask = `
engines:
  slow: {protocol: cog, url: URL, mode: async, upload_url: URL/files/}
tasks:
  - name: image.slow
    category: image_editing
    title: A slow model
    description: One prediction that prints its progress.
    price_per_output: 2
    outputs: {count: 1, phase: generating}
    media_types: [image/png]
    docs: {lead: A slow model., built_for: [progress], what_you_get: [one PNG image]}
    input_schema:
      type: object
      title: slow input
      description: Nothing.
      additionalProperties: false
      properties:
        seed: {type: integer, minimum: 0, maximum: 9, default: 0, description: A seed.}
    engine: slow
    input: {seed: $seed}
    examples: [{name: one, title: One, description: One file., input: {seed: 1}}]
`

// hookRoute is the API's webhook route on db (api/, enginehooks.Record).
func hookRoute(t *testing.T, db *gorm.DB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, _ := strings.CutPrefix(r.URL.Path, enginehooks.Path+"/")
		id, token, _ := strings.Cut(rest, "/")
		body, _ := io.ReadAll(r.Body)
		if err := enginehooks.Record(r.Context(), db, id, token, body); err != nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestAnEngineStepsModelProgressIsTheJobsPhase: while an async prediction
// runs, the progress its model prints (its logs webhooks) is the job's
// progress.phase, written at most every 2 s; once the step has its output
// the phase is the plan's again.
func TestAnEngineStepsModelProgressIsTheJobsPhase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		srv := cogtest.New(cogtest.Options{Run: 6 * time.Second, Progress: 12, AsURL: true})
		t.Cleanup(srv.Close)
		store, err := enginehooks.NewStore(func() *gorm.DB { return db }, hookRoute(t, db).URL)
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), "engines.yaml")
		require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(slowTask, "URL", srv.URL)), 0o600))
		cfg, err := engines.Load(path)
		require.NoError(t, err)
		reg, err := engines.Assemble(cfg, all.Families(), engines.Clients{
			Fetch: outbound.New(outbound.Options{AllowPrivate: true}), Completions: store}, zap.NewNop())
		require.NoError(t, err)

		acts := newActivities(t, db)
		acts.Tasks = reg
		env := newEnv(acts)
		u := newUser(t, db, 100)
		in := jobInput(u, 2, 2, withTask("image.slow", map[string]any{"seed": 1}))
		admit(t, env, acts, in)

		done := make(chan contract.StepResult, 1)
		go func() {
			done <- mustExec[contract.StepResult](t, env, acts.RunStep, leavingTheQueue(stepOf(in, 0)))
		}()
		var phases []string
		var out contract.StepResult
		for out.FileID == "" {
			select {
			case out = <-done:
			case <-time.After(100 * time.Millisecond):
				job, err := models.JobByIDAny(ctx, db, in.JobID)
				require.NoError(t, err)
				if len(phases) == 0 || phases[len(phases)-1] != job.Phase {
					phases = append(phases, job.Phase)
				}
			}
		}
		var shown []string
		for _, p := range phases {
			if strings.HasPrefix(p, "generating (model ") {
				require.Regexp(t, `^generating \(model \d+/12\)$`, p)
				shown = append(shown, p)
			}
		}
		require.GreaterOrEqual(t, len(shown), 2, "the model's progress was shown as it rose: %v", phases)
		require.LessOrEqual(t, len(shown), 4, "written at most every 2 s over 6 s: %v", phases)
		job, err := models.JobByIDAny(ctx, db, in.JobID)
		require.NoError(t, err)
		require.Equal(t, "generating", job.Phase, "the plan's phase once the step has its output")
		require.Len(t, srv.Inputs(), 1, "the model ran once")
	})
}
