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

// Under fairness an account's older backlog is not all ahead: of another
// account's queued jobs, only as many as its plan's weight takes while the
// job's own account's start are, submitted before or after.
func TestQueueAheadFollowsFairDispatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base := time.Now().UTC().Truncate(time.Millisecond)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		flood := accountFor(t, db) // standard: weight 2
		starter, err := models.CreateUser(ctx, db, models.NewID("u_")+"@example.com", models.PlanStarter)
		require.NoError(t, err) // weight 1
		u := accountFor(t, db)
		add := func(owner *models.User, at time.Time) *models.Job {
			j := newJob(owner, 2, 2)
			j.Lifecycle, j.CreatedAt = contract.LifecycleQueued, at
			require.NoError(t, db.Create(j).Error)
			return j
		}
		for i := range 10 {
			add(flood, base.Add(time.Duration(i)*time.Millisecond))
			add(starter, base.Add(time.Duration(i)*time.Millisecond))
		}
		first := add(u, base.Add(time.Second))
		second := add(u, base.Add(2*time.Second))
		starterNext := add(starter, base.Add(3*time.Second)) // its 11th
		for _, tc := range []struct {
			job             *models.Job
			position, ahead int64
		}{
			{first, 1, 0 + 1 + 0},          // of the flood 1 (same weight), of the starter 1 × 1/2
			{second, 2, 1 + 2 + 1},         // its own first, the flood's 2, the starter's 2 × 1/2
			{starterNext, 11, 10 + 10 + 2}, // its own 10, the flood's 10 (all), u's 2 (all)
		} {
			spot, err := models.QueuePosition(ctx, db, tc.job)
			require.NoError(t, err)
			require.Equal(t, models.QueueSpot{Position: tc.position, Ahead: tc.ahead}, spot)
			spots, err := models.QueueSpots(ctx, db, []string{tc.job.ID})
			require.NoError(t, err)
			require.Equal(t, spot, spots[tc.job.ID], "the streams' read agrees")
		}
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
