package models_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestQueuePositionCountsTheAccountsQueuedJobsInSubmitOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base := time.Now().UTC().Truncate(time.Millisecond)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		u, other := accountFor(t, db), accountFor(t, db)
		add := func(owner *models.User, at time.Time, lifecycle string) *models.Job {
			j := newJob(owner, 2, 2)
			j.Lifecycle, j.CreatedAt = lifecycle, at
			require.NoError(t, db.Create(j).Error)
			return j
		}
		add(other, base, contract.LifecycleQueued)
		first := add(u, base.Add(time.Millisecond), contract.LifecycleQueued)
		running := add(u, base.Add(2*time.Millisecond), contract.LifecycleRunning)
		add(u, base.Add(3*time.Millisecond), contract.LifecycleTerminal)
		second := add(u, base.Add(4*time.Millisecond), contract.LifecycleQueued)
		spots, err := models.QueueSpots(ctx, db, []string{first.ID, second.ID, running.ID})
		require.NoError(t, err)
		require.NotContains(t, spots, running.ID, "a running job has no spot")
		for _, tc := range []struct {
			job      *models.Job
			position int64
			minAhead int64
		}{{first, 1, 1}, {second, 2, 2}} {
			spot, err := models.QueuePosition(ctx, db, tc.job)
			require.NoError(t, err)
			require.Equal(t, tc.position, spot.Position, "only the account's queued jobs count")
			require.GreaterOrEqual(t, spot.Ahead, tc.minAhead, "every account's older queued jobs are ahead")
			require.Equal(t, spot, spots[tc.job.ID], "the streams' read of many jobs agrees with a job's own")
		}
		require.NoError(t, db.Model(first).Update("lifecycle", contract.LifecycleRunning).Error)
		spot, err := models.QueuePosition(ctx, db, second)
		require.NoError(t, err)
		require.Equal(t, int64(1), spot.Position, "a job's position falls as the one ahead starts")
		spots, err = models.QueueSpots(ctx, db, []string{first.ID, second.ID})
		require.NoError(t, err)
		require.Equal(t, map[string]models.QueueSpot{second.ID: spot}, spots)
	})
}

func TestQueueETAIsRoundsOfTheMeasuredConcurrency(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fleet models.QueueFleet
		ahead int64
		want  int64
		known bool
	}{
		{"next with one slot", models.QueueFleet{Running: 1, MeanSeconds: 10}, 0, 10, true},
		{"third with one slot", models.QueueFleet{Running: 1, MeanSeconds: 10}, 2, 30, true},
		{"within the first round of four", models.QueueFleet{Running: 4, MeanSeconds: 10}, 3, 10, true},
		{"second round of four", models.QueueFleet{Running: 4, MeanSeconds: 10}, 4, 20, true},
		{"nothing runs", models.QueueFleet{Running: 0, MeanSeconds: 10}, 0, 0, false},
		{"nothing ended", models.QueueFleet{Running: 2}, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.fleet.ETA(tc.ahead)
			require.Equal(t, tc.known, ok)
			require.Equal(t, tc.want, got)
		})
	}
}
