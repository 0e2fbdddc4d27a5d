package activities_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestAJobBeyondItsEnginesQueueLimitFailsAtOnceUncharged: an engine of one
// slot with queue_limit 1 lets one job wait beyond the one about to take
// its slot; the next fails capacity_busy at admit (no step), its hold
// given back once settled. Once the first job's prediction holds the slot,
// a second waiting job is again one too many; without a limit, jobs wait.
func TestAJobBeyondItsEnginesQueueLimitFailsAtOnceUncharged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const url = "http://127.0.0.1:1"
	path := filepath.Join(t.TempDir(), "engines.yaml")
	cfg := strings.ReplaceAll(slowTask, "URL", url)
	cfg = strings.Replace(cfg, "mode: async, upload_url: "+url+"/files/", "queue_limit: 1", 1)
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	loaded, err := engines.Load(path)
	require.NoError(t, err)
	require.Equal(t, 1, loaded.Engines["slow"].QueueLimit)
	reg, err := engines.Assemble(loaded, all.Families(), engines.Clients{Fetch: outbound.New(outbound.Options{})},
		zap.NewNop())
	require.NoError(t, err)

	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		acts.Tasks = reg
		env := newEnv(acts)
		u := newUser(t, db, 100)
		submit := func() (contract.JobInput, contract.AdmitResult) {
			in := jobInput(u, 2, 2, withTask("image.slow", map[string]any{"seed": 1}))
			return in, admit(t, env, acts, in)
		}
		a, res := submit()
		require.Nil(t, res.Busy, "the first job takes the free slot")
		_, res = submit()
		require.Nil(t, res.Busy, "one job may wait")
		c, res := submit()
		require.NotNil(t, res.Busy, "a second waiting job is beyond the limit")
		require.Equal(t, contract.CodeCapacityBusy, res.Busy.Code)
		require.Equal(t, "The model server is busy: 1 job already waits for it; submit again later.", res.Busy.Message)
		require.EqualValues(t, 94, available(t, db, u), "three holds of 2")
		settled := mustExec[contract.SettleResult](t, env, acts.Settle,
			contract.SettleInput{JobID: c.JobID, Outcome: contract.OutcomeFailed, Failure: res.Busy})
		require.Zero(t, settled.Charged)
		require.EqualValues(t, 96, available(t, db, u), "the refused job's hold given back")
		require.Contains(t, *job(t, db, c.JobID).Error, "capacity_busy")

		// The first job runs, its prediction holding the engine's one slot.
		markRunning(t, db, a.JobID, 1)
		_, ok, err := models.AcquireEngineLease(ctx, db, "slow", url, 1, "p_a", time.Now(), time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		_, res = submit()
		require.NotNil(t, res.Busy, "one job waits for the busy slot already")

		// Without a limit the same job waits.
		loaded.Engines["slow"] = withQueueLimit(loaded.Engines["slow"], 0)
		acts.Tasks, err = engines.Assemble(loaded, all.Families(), engines.Clients{Fetch: outbound.New(outbound.Options{})},
			zap.NewNop())
		require.NoError(t, err)
		_, res = submit()
		require.Nil(t, res.Busy)
	})
}

func withQueueLimit(e engines.EngineConfig, n int) engines.EngineConfig {
	e.QueueLimit = n
	return e
}

// TestAFullEngineQueueRefusesTheFloodingAccountNotAnother: the queue limit
// is shared by account as the queue dispatches. Account A fills an engine
// of one slot and queue_limit 2 (real Cog behind it; the service refused
// B's first job capacity_busy while A's three waited, B having nothing
// queued); B's first job is admitted, B's jobs beyond its share are not.
func TestAFullEngineQueueRefusesTheFloodingAccountNotAnother(t *testing.T) {
	t.Parallel()
	const url = "http://127.0.0.1:1"
	path := filepath.Join(t.TempDir(), "engines.yaml")
	cfg := strings.ReplaceAll(slowTask, "URL", url)
	cfg = strings.Replace(cfg, "mode: async, upload_url: "+url+"/files/", "queue_limit: 2", 1)
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	loaded, err := engines.Load(path)
	require.NoError(t, err)
	reg, err := engines.Assemble(loaded, all.Families(), engines.Clients{Fetch: outbound.New(outbound.Options{})},
		zap.NewNop())
	require.NoError(t, err)

	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		acts := newActivities(t, db)
		acts.Tasks = reg
		env := newEnv(acts)
		a, b := newUser(t, db, 100), newUser(t, db, 100)
		submit := func(u *models.User) *contract.Failure {
			return admit(t, env, acts, jobInput(u, 2, 2, withTask("image.slow", map[string]any{"seed": 1}))).Busy
		}
		for k := range 3 {
			require.Nil(t, submit(a), "A's job %d: the free slot, then two waiting", k)
		}
		require.NotNil(t, submit(a), "A's fourth is beyond the limit")
		require.Nil(t, submit(b), "B has nothing waiting: A's flood does not refuse it")
		busy := submit(b)
		require.NotNil(t, busy, "B's second is beyond its share (2 ÷ 2 accounts)")
		require.Equal(t, contract.CodeCapacityBusy, busy.Code)
		require.NotNil(t, submit(a), "A is still refused")
	})
}
