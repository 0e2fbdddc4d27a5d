package e2e_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/wire"
)

// TestClientSubmitsABatch: the Go client's SubmitBatch answers a refused
// batch as *Error batch_refused naming the item, and a partial one as the
// batch, which Batch follows to its end.
func TestClientSubmitsABatch(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	c := client.New(s.srv.URL, s.key)
	ctx := context.Background()
	items := []client.BatchItem{
		{Task: "pattern.generate", Input: pattern(1)},
		{Task: "pattern.generate", Input: map[string]any{"colors": "red"}},
		{Task: "pattern.generate", Input: pattern(2)},
	}
	_, err := c.SubmitBatch(ctx, items, nil)
	var e *client.Error
	require.True(t, errors.As(err, &e), "%v", err)
	require.Equal(t, "batch_refused", e.Code)
	require.Len(t, e.Ctx.Items, 1)
	require.Equal(t, 1, e.Ctx.Items[0].Index)
	require.Equal(t, "colors", e.Ctx.Items[0].Error.Field)

	b, err := c.SubmitBatch(ctx, items, &client.BatchOptions{Partial: true})
	require.NoError(t, err)
	require.Len(t, b.Jobs, 2)
	require.Equal(t, []int{0, 2}, []int{b.Jobs[0].Index, b.Jobs[1].Index})
	require.Eventually(t, func() bool {
		b, err = c.Batch(ctx, b.BatchID)
		require.NoError(t, err)
		return b.Status == wire.BatchCompleted
	}, time.Minute, 100*time.Millisecond)
	require.Equal(t, wire.BatchOutputs{Done: 3, Total: 3}, b.Outputs)
	require.Equal(t, 2, b.Counts.Succeeded)
}
