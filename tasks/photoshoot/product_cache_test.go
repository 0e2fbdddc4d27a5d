package photoshoot

import (
	"context"
	"errors"
	"image"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// TestProductCache: the shots of a job started together prepare their
// photo once; another job, or changed bytes, prepare their own; a failed
// preparation is not kept; the cache stays within its bytes.
func TestProductCache(t *testing.T) {
	const max = 3 * 100 * 100 * 4
	c := newProducts(max)
	var made atomic.Int32
	prepare := func() (product, error) {
		made.Add(1)
		return newProduct(image.NewNRGBA(image.Rect(0, 0, 100, 100)), true), nil
	}
	job := func(id string) context.Context { return tasks.WithEnv(context.Background(), tasks.Env{JobID: id}) }
	photo := []byte("photo")

	var wg sync.WaitGroup
	got := make([]*image.NRGBA, 4)
	for i := range got {
		wg.Go(func() {
			p, err := c.get(job("j_a"), photo, prepare)
			require.NoError(t, err)
			got[i] = p.img
		})
	}
	wg.Wait()
	require.EqualValues(t, 1, made.Load(), "4 shots of one job at once prepare the photo once")
	for _, img := range got {
		require.Same(t, got[0], img)
	}

	_, err := c.get(job("j_b"), photo, prepare)
	require.NoError(t, err)
	_, err = c.get(job("j_a"), []byte("photo, edited"), prepare)
	require.NoError(t, err)
	require.EqualValues(t, 3, made.Load(), "another job and other bytes prepare their own")

	failed := errors.New("cannot read")
	_, err = c.get(job("j_c"), photo, func() (product, error) { return product{}, failed })
	require.ErrorIs(t, err, failed)
	_, err = c.get(job("j_c"), photo, prepare)
	require.NoError(t, err)
	require.EqualValues(t, 4, made.Load(), "a failed preparation is not kept")

	require.Equal(t, 3, c.Len(), "the oldest product is dropped beyond the cache's bytes")
	require.LessOrEqual(t, c.Size(), max)
	_, err = c.get(job("j_a"), photo, prepare)
	require.NoError(t, err)
	require.EqualValues(t, 5, made.Load(), "the least recently used product was the one dropped")
}
