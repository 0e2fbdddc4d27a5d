package models_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestAnEngineLaneHandsOutNoMoreSlotsThanItHas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		// Twelve acquirers at once, as the pollers of several workers: three
		// slots, three holders.
		var mu sync.Mutex
		got := map[int]string{}
		var wg sync.WaitGroup
		for i := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				holder := fmt.Sprintf("h%d", i)
				slot, ok, err := models.AcquireEngineLease(ctx, db, "gpu", "queue", 3, holder, now, time.Minute)
				if err != nil {
					t.Errorf("acquire: %v", err)
					return
				}
				if ok {
					mu.Lock()
					defer mu.Unlock()
					if other, taken := got[slot]; taken {
						t.Errorf("slot %d given to %s and %s", slot, other, holder)
					}
					got[slot] = holder
				}
			}()
		}
		wg.Wait()
		require.Len(t, got, 3, "every slot is taken, none twice")
		inUse, err := models.EngineLanesInUse(ctx, db, "gpu", now)
		require.NoError(t, err)
		require.Equal(t, map[string]int{"queue": 3}, inUse)

		_, ok, err := models.AcquireEngineLease(ctx, db, "gpu", "queue", 3, "late", now, time.Minute)
		require.NoError(t, err)
		require.False(t, ok, "a full lane gives no slot")
		_, ok, err = models.AcquireEngineLease(ctx, db, "other", "queue", 3, "late", now, time.Minute)
		require.NoError(t, err)
		require.True(t, ok, "another engine's slots are its own")

		// Freed, the slot is the next acquirer's.
		require.NoError(t, models.ReleaseEngineLease(ctx, db, "gpu", "queue", 1, got[1]))
		slot, ok, err := models.AcquireEngineLease(ctx, db, "gpu", "queue", 3, "late", now, time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, 1, slot)
		require.ErrorIs(t, models.RenewEngineLease(ctx, db, "gpu", "queue", 1, got[1], now, time.Minute),
			models.ErrLeaseLost, "the released holder has it no more")
	})
}

func TestAnExpiredLeaseIsFreeAndAHolderTakesBackItsOwn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Now()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		slot, ok, err := models.AcquireEngineLease(ctx, db, "gpu", "http://r1", 2, "pred-a", now, 30*time.Second)
		require.NoError(t, err)
		require.True(t, ok)
		_, ok, err = models.AcquireEngineLease(ctx, db, "gpu", "http://r1", 2, "pred-b", now, 30*time.Second)
		require.NoError(t, err)
		require.True(t, ok)

		// pred-a's worker died; its next attempt takes back its slot at once,
		// though the lease has not run out.
		again, ok, err := models.AcquireEngineLease(ctx, db, "gpu", "http://r1", 2, "pred-a", now.Add(time.Second),
			30*time.Second)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, slot, again, "a retried step goes back to its own slot")
		lanes, err := models.HeldEngineLanes(ctx, db, "gpu", "pred-a")
		require.NoError(t, err)
		require.Equal(t, []string{"http://r1"}, lanes)

		_, ok, err = models.AcquireEngineLease(ctx, db, "gpu", "http://r1", 2, "pred-c", now.Add(10*time.Second),
			30*time.Second)
		require.NoError(t, err)
		require.False(t, ok, "leases not run out: the lane is full")
		_, ok, err = models.AcquireEngineLease(ctx, db, "gpu", "http://r1", 2, "pred-c", now.Add(time.Minute),
			30*time.Second)
		require.NoError(t, err)
		require.True(t, ok, "a lease that ran out (its holder died) frees the slot")

		require.NoError(t, models.RenewEngineLease(ctx, db, "gpu", "http://r1", 0, "pred-c", now, time.Minute),
			"renewed by its holder")
	})
}
