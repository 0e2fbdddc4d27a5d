package activities_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestRunStepHeartbeatsBeforeItsDatabaseWork: a step's first heartbeat is
// sent before anything else it does (here, moving the job to running), not
// half a second into its render: on a loaded machine a step's database
// work alone can outlast the heartbeat timeout, and a step silent that
// long is taken for one whose worker died.
func TestRunStepHeartbeatsBeforeItsDatabaseWork(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	acts := newActivities(t, db)
	env := newEnv(acts)
	u := newUser(t, db, 10)
	in := jobInput(u, 6, 3)
	admit(t, env, acts, in)
	var mu sync.Mutex
	var seen []string // the job's lifecycle at each heartbeat
	env.SetOnActivityHeartbeatListener(func(*activity.Info, converter.EncodedValues) {
		lifecycle := job(t, db, in.JobID).Lifecycle
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, lifecycle)
	})
	mustExec[contract.StepResult](t, env, acts.RunStep, leavingTheQueue(stepOf(in, 0)))
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, seen, "the step heartbeated")
	require.Equal(t, contract.LifecycleQueued, seen[0], "its first heartbeat came before it moved the job to running")
}

// TestAHeartbeatSaysWhatTheStepWaitsFor: a heartbeat's details are the
// step's note and, while it waits for an engine that answers busy, the
// failure that wait ends with (contract.StepWait), which the job workflow
// reads when the step's heartbeats stop.
func TestAHeartbeatSaysWhatTheStepWaitsFor(t *testing.T) {
	ctx, notes := tasks.WithStepNotes(t.Context())
	require.Empty(t, activities.BeatDetails(notes), "nothing said yet")
	tasks.StepNote(ctx, "engine sdxl (cog): waiting for the model server (busy or loading) for 1s")
	tasks.StepWaiting(ctx, &tasks.StepError{Code: contract.ErrTypeCapacityBusy, Message: "the model server stayed busy",
		Temporary: true})
	require.Equal(t, []any{"engine sdxl (cog): waiting for the model server (busy or loading) for 1s",
		contract.StepWait{Type: contract.ErrTypeCapacityBusy, Message: "the model server stayed busy"}},
		activities.BeatDetails(notes))
	tasks.StepNote(ctx, "engine sdxl (cog): prediction p1 processing")
	tasks.StepWaiting(ctx, nil)
	require.Equal(t, []any{"engine sdxl (cog): prediction p1 processing"}, activities.BeatDetails(notes),
		"the engine took the prediction: the step waits for nothing")
}
