package models_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestRateWindowCountsEveryCallOfOneSubject(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		var last models.RateHit
		for i := 1; i <= 3; i++ {
			h, err := models.HitRate(ctx, db, "key:a", time.Hour)
			require.NoError(t, err)
			require.Equal(t, int64(i), h.Calls)
			require.Greater(t, h.Reset, time.Duration(0))
			require.LessOrEqual(t, h.Reset, time.Hour)
			last = h
		}
		require.GreaterOrEqual(t, last.ResetSeconds(), int64(1))
		other, err := models.HitRate(ctx, db, "key:b", time.Hour)
		require.NoError(t, err)
		require.Equal(t, int64(1), other.Calls, "another subject has its own window")
	})
}

func TestRateWindowIsSharedUnderConcurrency(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		const n = 40
		var wg sync.WaitGroup
		seen := make(chan int64, n)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				h, err := models.HitRate(context.Background(), db, "key:c", 24*time.Hour)
				if err == nil {
					seen <- h.Calls
				}
			}()
		}
		wg.Wait()
		close(seen)
		got := map[int64]bool{}
		for c := range seen {
			got[c] = true
		}
		require.Len(t, got, n, "every call got its own count: no lost update")
		for i := int64(1); i <= n; i++ {
			require.True(t, got[i], "count %d missing", i)
		}
	})
}

func TestPruneRateWindowsDeletesEndedWindowsOnly(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		_, err := models.HitRate(ctx, db, "key:live", 24*time.Hour)
		require.NoError(t, err)
		old := time.Now().Add(-72*time.Hour).Unix() / 86400 * 86400
		require.NoError(t, db.Create(&models.RateWindow{Subject: "key:old", WindowStart: old, Calls: 7}).Error)

		n, err := models.PruneRateWindows(ctx, db, 24*time.Hour)
		require.NoError(t, err)
		require.Equal(t, int64(1), n)
		var subjects []string
		require.NoError(t, db.Model(&models.RateWindow{}).Pluck("subject", &subjects).Error)
		require.Equal(t, []string{"key:live"}, subjects)
	})
}
