package worker_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/worker"
)

// The start-up check sees priority and fairness on a dev server started
// with the service's dynamic config, and neither on one without it (first
// in, first out), whose line warns with the settings to set.
func TestCheckPrioritySeesTheServersDispatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	got, err := worker.CheckPriority(ctx, temporalServer(t).Client(), "default")
	require.NoError(t, err)
	require.Equal(t, worker.PriorityCheck{Priority: true, Fairness: true}, got)
	require.Contains(t, got.String(), "dispatches by priority and by account")

	fifo, err := testenv.StartTemporalFIFO()
	require.NoError(t, err)
	defer func() { _ = fifo.Stop() }()
	got, err = worker.CheckPriority(ctx, fifo.Client(), "default")
	require.NoError(t, err)
	require.Equal(t, worker.PriorityCheck{}, got)
	require.Contains(t, got.String(), "matching.useNewMatcher=true and matching.enableFairness=true")
}
