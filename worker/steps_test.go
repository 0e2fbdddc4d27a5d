package worker_test

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/worker"
)

// TestStepsAreSizedFromTheMemoryLimit: without TP_WORKER_MAX_STEPS a
// worker runs two steps per CPU, and no more than its memory limit
// (GOMEMLIMIT) holds at tasks.StepMemoryBytes a step beside its own memory
// and its analysis steps — a worker in 3 GiB runs 2 steps beside 2
// analyses, not 2 per CPU, so no burst of large images can exhaust it.
func TestStepsAreSizedFromTheMemoryLimit(t *testing.T) {
	saved := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(saved) })
	cpus := 2 * runtime.NumCPU()

	debug.SetMemoryLimit(math.MaxInt64)
	require.Equal(t, cpus, worker.DefaultMaxSteps(2), "no limit: two per CPU")
	for _, tc := range []struct {
		limit    int64
		analysis int
		want     int
	}{
		{3 << 30, 2, 2}, // (3072 − 200) / 600 = 4 steps in all, 2 of them analyses
		{3 << 30, 0, 4}, // no analyses
		{1 << 30, 2, 1}, // at least one
		{64 << 30, 2, cpus},
	} {
		debug.SetMemoryLimit(tc.limit)
		got := worker.DefaultMaxSteps(tc.analysis)
		require.Equal(t, min(tc.want, cpus), got, "limit %d MiB, %d analyses", tc.limit>>20, tc.analysis)
		if got > 1 {
			need := worker.WorkerBaseBytes + int64(got+tc.analysis)*tasks.StepMemoryBytes
			require.LessOrEqual(t, need, tc.limit, "the steps fit the limit")
		}
	}
}
