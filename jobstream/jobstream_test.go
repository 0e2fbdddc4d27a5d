package jobstream_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// seqs are the sequence numbers of frames.
func seqs(fs []jobstream.Frame) []int64 {
	out := make([]int64, len(fs))
	for i, f := range fs {
		out[i] = f.Seq
	}
	return out
}

func snapshot(lifecycle string, done int, outcome *string) *jobstream.Snapshot {
	now := time.Date(2026, 9, 29, 10, 0, 0, 0, time.UTC)
	j := models.Job{
		ID:             "j_x",
		Task:           "pattern.generate",
		Lifecycle:      lifecycle,
		Outcome:        outcome,
		ProgressDone:   done,
		ProgressTotal:  new(3),
		Phase:          "rendering",
		ServiceVersion: contract.CurrentVersion,
		UpdatedAt:      now,
	}
	if lifecycle != contract.LifecycleQueued {
		j.StartedAt = new(now.Add(-time.Minute))
	}
	s := &jobstream.Snapshot{Job: j}
	for i := range done {
		s.Files = append(
			s.Files,
			models.File{ID: "f" + string(rune('a'+i)), JobID: j.ID, Index: i, MediaType: "image/png",
				CreatedAt: now.Add(time.Duration(i-done) * time.Second)},
		)
	}
	if outcome != nil {
		j.EndedAt = new(now)
		s.Job = j
	}
	return s
}

func TestEventsResumeWithoutGapsOrRepeats(t *testing.T) {
	succeeded := contract.OutcomeSucceeded
	running, ended := snapshot(contract.LifecycleRunning, 2, nil), snapshot(contract.LifecycleTerminal, 3, &succeeded)
	queued := snapshot(contract.LifecycleQueued, 0, nil)
	p := jobstream.ProgressSeq
	T := jobstream.SeqTerminal

	require.Empty(t, queued.Events(0, true, ""))
	require.Equal(t, []int64{1, p(2)}, seqs(running.Events(0, true, "")), "fresh: started and the latest progress")
	require.Equal(t, []int64{1, p(1), p(2)}, seqs(running.Events(0, false, "")), "from the beginning")
	require.Equal(t, []int64{p(2)}, seqs(running.Events(p(1), false, "")))
	require.Empty(t, running.Events(p(2), false, ""))
	require.Equal(t, []int64{T}, seqs(ended.Events(0, true, "")), "an ended job: its terminal event at once")
	require.Equal(t, []int64{p(2), p(3), T}, seqs(ended.Events(p(1), false, "")))
	require.Empty(t, ended.Events(T, false, ""))

	fs := ended.Events(p(2), false, "https://files.test")
	require.Equal(t, contract.EventProgress, fs[0].Event.Event)
	require.Equal(t, 3, fs[0].Event.Progress.Done)
	require.Equal(t, contract.LifecycleRunning, fs[0].Event.Lifecycle)
	require.Nil(t, fs[0].Event.Outcome)
	require.Equal(
		t,
		ended.Files[2].CreatedAt,
		fs[0].Event.OccurredAt,
		"a progress event occurred when its output was delivered",
	)
	term := fs[1].Event
	require.Equal(t, contract.EventSucceeded, term.Event)
	require.True(t, fs[1].Terminal())
	require.Len(t, term.Result.Files, 3)
	require.Equal(t, "https://files.test/files/fa.png", term.Result.Files[0].URL)
	require.Equal(t, jobstream.EventID("j_x", contract.EventSucceeded, 0), term.ID)
	require.Equal(t, jobstream.SeqTerminal, jobstream.Seq(term))
	require.Equal(t, p(3), jobstream.Seq(fs[0].Event))

	failed := contract.OutcomeFailed
	f := snapshot(contract.LifecycleTerminal, 0, &failed)
	f.Job.StartedAt = nil
	f.Job.Error = new(`{"code":"start_timeout"}`)
	fs = f.Events(0, false, "")
	require.Equal(t, []int64{T}, seqs(fs), "a job that never started has no job.started")
	require.JSONEq(t, `{"code":"start_timeout"}`, string(fs[0].Event.Error))
	raw, err := json.Marshal(fs[0].Event)
	require.NoError(t, err)
	require.NotContains(t, string(raw), `"result"`)
}

// A terminal event's error follows the contract version its body names
// (api_version, the job's): a job refused its credits carries required and
// balance at the error's top level under 2026-09-29 (the current version),
// in ctx only under 2026-06-30; a job of a version no longer served reads
// as the current one.
func TestTerminalErrorFollowsTheVersion(t *testing.T) {
	failed := contract.OutcomeFailed
	stored := `{"code":"insufficient_credits","required":6,"balance":2,"ctx":{"required":6,"balance":2}}`
	for _, tc := range []struct{ job, want string }{
		{"2026-09-29", "2026-09-29"}, {"2026-06-30", "2026-06-30"}, {"2026-11-17", "2026-09-29"}, {"", "2026-09-29"},
	} {
		f := snapshot(contract.LifecycleTerminal, 0, &failed)
		f.Job.ServiceVersion, f.Job.Error, f.Job.StartedAt = tc.job, new(stored), nil
		ev := f.Events(0, false, "")[0].Event
		require.Equal(t, tc.want, ev.APIVersion, tc.job)
		if tc.want == "2026-09-29" {
			require.JSONEq(t, stored, string(ev.Error), tc.job)
		} else {
			require.JSONEq(t, `{"code":"insufficient_credits","ctx":{"required":6,"balance":2}}`, string(ev.Error), tc.job)
		}
	}
}

// TestNotifyWakesSubscribers: one change reaches every stream of the job,
// on both backends (on PostgreSQL the jobs table's trigger notifies, with
// no call of Notify), and nothing else.
func TestNotifyWakesSubscribers(t *testing.T) {
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		j := &models.Job{
			ID:         models.NewID("j_"),
			UserID:     u.ID,
			Task:       "pattern.generate",
			Input:      "{}",
			Lifecycle:  contract.LifecycleQueued,
			CreditType: contract.CreditService,
		}
		require.NoError(t, db.Create(j).Error)
		a, err := jobstream.Subscribe(ctx, db, j.ID, "")
		require.NoError(t, err)
		defer a.Close()
		b, err := jobstream.Subscribe(ctx, db, j.ID, "")
		require.NoError(t, err)
		other, err := jobstream.Subscribe(ctx, db, "j_other", "")
		require.NoError(t, err)
		defer other.Close()

		require.NoError(t, models.MarkRunning(ctx, db, j.ID, 2, "rendering", time.Now()))
		require.NoError(t, jobstream.Notify(ctx, db, j.ID))
		for _, s := range []*jobstream.Sub{a, b} {
			select {
			case snap := <-s.C:
				require.NoError(t, snap.Err)
				require.Equal(t, []int64{jobstream.SeqStarted}, seqs(snap.Events(0, false, "")))
			case <-time.After(10 * time.Second):
				t.Fatal("no snapshot after Notify")
			}
		}
		select {
		case <-other.C:
			t.Fatal("a stream of another job was woken")
		case <-time.After(200 * time.Millisecond):
		}
		b.Close()
		b.Close()
		require.NoError(t, db.Model(&models.Job{}).Where("id = ?", j.ID).Update("progress_done", 1).Error)
		if !models.IsPostgres(db) {
			require.NoError(t, jobstream.Notify(ctx, db, j.ID))
		}
		select {
		case snap := <-a.C:
			require.Equal(t, 1, snap.Job.ProgressDone)
		case <-time.After(10 * time.Second):
			t.Fatal("no snapshot after the second change")
		}
	})
}
