package jobstream_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/wire"
)

func TestQueueMovedOnlyMaterially(t *testing.T) {
	q := func(pos int64, eta ...int64) *wire.Queue {
		out := &wire.Queue{Position: pos}
		if len(eta) > 0 {
			out.ETASeconds = &eta[0]
		}
		return out
	}
	for _, tc := range []struct {
		name       string
		prev, next *wire.Queue
		moved      bool
	}{
		{"the first state is always sent", nil, q(3), true},
		{"nothing to send", q(3), nil, false},
		{"same place", q(3, 60), q(3, 60), false},
		{"position fell", q(3, 60), q(2, 60), true},
		{"an estimate appeared", q(3), q(3, 60), true},
		{"the estimate vanished", q(3, 60), q(3), true},
		{"still no estimate", q(3), q(3), false},
		{"within 20 %", q(3, 60), q(3, 49), false},
		{"beyond 20 % and 5 s", q(3, 60), q(3, 47), true},
		{"beyond 20 % but within 5 s", q(3, 10), q(3, 15), false},
		{"beyond 5 s and 20 % upwards", q(3, 10), q(3, 16), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.moved, jobstream.QueueMoved(tc.prev, tc.next))
		})
	}
}

// TestQueuedStreamsLearnWhereTheyStand: a stream of a queued job reads where
// it stands when it opens, and again, without its own job changing, when
// another job starts; once its job has started it hears of the queue no
// more. On both backends (on PostgreSQL the jobs table's trigger notifies).
func TestQueuedStreamsLearnWhereTheyStand(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		base := time.Now().UTC().Add(-time.Minute).Truncate(time.Millisecond)
		add := func(at time.Time, lifecycle string) *models.Job {
			j := &models.Job{ID: models.NewID("j_"), UserID: u.ID, Task: "pattern.generate", Input: "{}",
				Lifecycle: lifecycle, CreditType: contract.CreditService, CreatedAt: at}
			if lifecycle == contract.LifecycleTerminal {
				j.StartedAt, j.EndedAt = new(at), new(at.Add(10*time.Second))
			}
			require.NoError(t, db.Create(j).Error)
			return j
		}
		add(base, contract.LifecycleTerminal) // ran 10 s: the mean run time
		first := add(base.Add(time.Second), contract.LifecycleQueued)
		mine := add(base.Add(2*time.Second), contract.LifecycleQueued)

		sub, err := jobstream.Subscribe(ctx, db, mine.ID, "")
		require.NoError(t, err)
		defer sub.Close()
		snap, err := jobstream.Load(ctx, db, mine.ID)
		require.NoError(t, err)
		require.Equal(t, &wire.Queue{Position: 2}, snap.Queue.Queue, "second, and nothing runs: no estimate")
		f, ok := snap.QueueFrame(snap.Queue)
		require.True(t, ok)
		require.Equal(t, jobstream.SeqQueue, f.Seq)
		require.Equal(t, contract.EventQueue, f.Event.Event)
		require.Equal(t, contract.LifecycleQueued, f.Event.Lifecycle)
		require.Equal(t, snap.Queue.Queue, f.Event.Queue)

		require.NoError(t, models.MarkRunning(ctx, db, first.ID, 1, "rendering", time.Now()))
		require.NoError(t, jobstream.Notify(ctx, db, first.ID))
		select {
		case st := <-sub.Queue:
			require.Equal(t, &wire.Queue{Position: 1, ETASeconds: new(int64(10))}, st.Queue,
				"next, one job running, jobs take 10 s")
		case <-time.After(10 * time.Second):
			t.Fatal("no queue state after another job started")
		}

		require.NoError(t, models.MarkRunning(ctx, db, mine.ID, 1, "rendering", time.Now()))
		require.NoError(t, jobstream.Notify(ctx, db, mine.ID))
		select {
		case snap := <-sub.C:
			require.Equal(t, contract.LifecycleRunning, snap.Job.Lifecycle)
			_, ok := snap.QueueFrame(snap.Queue)
			require.False(t, ok, "a running job has no queue event")
		case <-time.After(10 * time.Second):
			t.Fatal("no snapshot after the job started")
		}
		require.NoError(t, db.Model(&models.Job{}).Where("id = ?", first.ID).Update("progress_done", 1).Error)
		require.NoError(t, jobstream.Notify(ctx, db, first.ID))
		select {
		case st := <-sub.Queue:
			t.Fatalf("a started job's stream was told of the queue: %+v", st.Queue)
		case <-time.After(jobstream.QueueRefresh + 500*time.Millisecond):
		}
	})
}
