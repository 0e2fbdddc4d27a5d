package activities_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/testenv"
)

// variantsTask declares image.variants on a Cog server at url whose
// predictions answer n files each, one prediction a job, 2 credits an
// output.
const variantsTask = `
engines:
  multi: {protocol: cog, url: URL, mode: sync}
tasks:
  - name: image.variants
    category: image_editing
    title: Variants of one prediction
    description: One prediction that answers n files, each an output.
    price_per_output: 2
    outputs: {count: 1}
    files_per_prediction: $n
    media_types: [image/png]
    docs: {lead: One prediction of n files., built_for: [lists], what_you_get: [n PNG images]}
    input_schema:
      type: object
      title: variants input
      description: How many files.
      additionalProperties: false
      properties:
        n: {type: integer, minimum: 1, maximum: 4, default: 3, description: Files in the prediction.}
    engine: multi
    input: {n: $n}
    examples: [{name: three, title: Three, description: Three files., input: {n: 3}}]
`

// TestAStepOfAListModelDeliversAndChargesEachFile: a job of one
// prediction of three files holds 3 × 2 credits, its one step records three
// outputs in order, and the job is charged for each; a prediction that
// answers two delivers and charges two.
func TestAStepOfAListModelDeliversAndChargesEachFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		files, delivered int
		missing          string
	}{
		{3, 3, ""},
		{2, 2, "the model answered 2 of the 3 files its prediction delivers for this task"},
	} {
		ctx := context.Background()
		srv := cogtest.New(cogtest.Options{Files: tc.files})
		t.Cleanup(srv.Close)
		path := filepath.Join(t.TempDir(), "engines.yaml")
		require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(variantsTask, "URL", srv.URL)), 0o600))
		cfg, err := engines.Load(path)
		require.NoError(t, err)
		reg, err := engines.Assemble(cfg, all.Families(), engines.Clients{Fetch: outbound.New(outbound.Options{})},
			zap.NewNop())
		require.NoError(t, err)
		_, err = reg.Lookup("image.variants")
		require.NoError(t, err)

		db := testenv.DB(t, testenv.SQLite)
		acts := newActivities(t, db)
		acts.Tasks = reg
		env := newEnv(acts)
		u := newUser(t, db, 100)
		in := jobInput(u, 6, 2, withTask("image.variants", map[string]any{"n": 3}))
		res := admit(t, env, acts, in)
		require.Equal(t, 3, res.Plan.Steps, "three outputs planned")
		require.Equal(t, 3, res.Plan.PerStep)

		step := leavingTheQueue(stepOf(in, 0))
		step.Outputs = 3
		out := mustExec[contract.StepResult](t, env, acts.RunStep, step)
		require.NotEmpty(t, out.FileID)
		require.Len(t, out.More, tc.delivered-1, "each further file is an output of its own")
		require.Equal(t, tc.missing, out.Missing)
		for k, id := range append([]string{out.FileID}, out.More...) {
			f, err := models.FileByID(ctx, db, id)
			require.NoError(t, err)
			require.Equal(t, k, f.Index, "in the model's order")
			require.Equal(t, "image/png", f.MediaType)
		}
		settled := mustExec[contract.SettleResult](t, env, acts.Settle,
			contract.SettleInput{JobID: in.JobID, Outcome: contract.OutcomeSucceeded})
		require.Equal(t, tc.delivered, settled.Delivered)
		require.EqualValues(t, 2*tc.delivered, settled.Charged, "each file charged, the missing one not")
		require.EqualValues(t, 100-2*tc.delivered, available(t, db, u))
	}
}
