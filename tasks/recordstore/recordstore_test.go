package recordstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestRecordLifecycle opens, reads and completes the records jobs make,
// and reads one whose job ended without completing it as failed.
func TestRecordLifecycle(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	ctx, now := context.Background(), time.Now().UTC()
	u, err := models.CreateUser(ctx, db, "store@example.com", models.PlanStandard)
	require.NoError(t, err)
	job := func(lifecycle string) string {
		j := &models.Job{ID: models.NewID("j_"), UserID: u.ID, Task: "swatch_book.create", Input: "{}",
			Lifecycle: lifecycle, CreditType: contract.CreditService, CreatedAt: now}
		require.NoError(t, db.Create(j).Error)
		return j.ID
	}
	books := recordstore.Kind{Name: "swatch_book", IDPrefix: "sb_"}
	boards := recordstore.Kind{Name: "board", IDPrefix: "bd_", Analysed: true}
	env := func(jobID string) tasks.Env {
		return tasks.Env{UserID: u.ID, JobID: jobID, DB: db, Now: func() time.Time { return now }}
	}

	tests := []struct {
		name     string
		kind     recordstore.Kind
		job      string
		complete bool
		status   string
		reason   string
	}{
		{"a job's record is creating until completed", books, job(contract.LifecycleRunning), false,
			models.RecordCreating, ""},
		{"an analysed kind reads analysing", boards, job(contract.LifecycleRunning), false, models.RecordAnalysing, ""},
		{"a completed record is ready", books, job(contract.LifecycleRunning), true, models.RecordReady, ""},
		{"a record its ended job never completed is failed", books, job(contract.LifecycleTerminal), false,
			models.RecordFailed, "ended before the swatch_book was complete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := env(tt.job)
			require.NoError(t, tt.kind.Open(ctx, e, "Linen", map[string]any{"pages": 24}))
			require.NoError(t, tt.kind.Open(ctx, e, "Linen again", nil), "a retried submit keeps the first")
			if tt.complete {
				step := tasks.WithEnv(ctx, e)
				require.NoError(t, tt.kind.Complete(step, map[string]any{"pages": 25}, map[string]any{"ok": true}))
			}
			ref := tt.kind.HandleOf(tasks.WithEnv(ctx, e)).(string)
			require.Equal(t, tt.kind.Name+":"+tt.kind.ID(tt.job), ref)
			r, status, reason, err := recordstore.Read(ctx, e, tt.kind.Name, "book", ref)
			require.NoError(t, err)
			require.Equal(t, "Linen", r.Name)
			require.Equal(t, tt.status, status)
			require.Contains(t, reason, tt.reason)
			if tt.complete {
				require.JSONEq(t, `{"pages":25}`, r.Fields)
				require.JSONEq(t, `{"ok":true}`, r.Analysis)
			}
		})
	}
}

// TestReadRefusesOtherHandles answers invalid_request naming the field for
// a handle of another kind, a malformed one, another account's record and
// a record that does not exist.
func TestReadRefusesOtherHandles(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	ctx := context.Background()
	u, err := models.CreateUser(ctx, db, "mine@example.com", models.PlanStandard)
	require.NoError(t, err)
	other, err := models.CreateUser(ctx, db, "theirs@example.com", models.PlanStandard)
	require.NoError(t, err)
	require.NoError(t, models.CreateRecord(ctx, db, &models.Record{ID: "sb_theirs", Kind: "swatch_book",
		UserID: other.ID, Name: "Theirs", Status: models.RecordReady}, time.Now()))
	e := tasks.Env{UserID: u.ID, DB: db}
	dry := recordstore.Kind{Name: "swatch_book", IDPrefix: "sb_"}
	require.NoError(t, dry.Open(ctx, tasks.Env{UserID: u.ID, DB: db, DryRun: true}, "Estimate", nil))

	for _, ref := range []string{"board:sb_theirs", "swatch_book:", "swatch_book:sb_theirs", "swatch_book:sb_none",
		"swatch_book:sb_"} {
		_, _, _, err := recordstore.Read(ctx, e, "swatch_book", "books[0]", ref)
		var ae *apierr.Error
		require.True(t, errors.As(err, &ae), ref)
		require.Equal(t, apierr.InvalidRequest, ae.Code, ref)
		require.Equal(t, "books[0]", *ae.Field, ref)
	}
	var n int64
	require.NoError(t, db.Model(&models.Record{}).Where("user_id = ?", u.ID).Count(&n).Error)
	require.Zero(t, n, "an estimate writes no record")
}

func TestInStepFailsTheStepWithTheRefusal(t *testing.T) {
	t.Parallel()
	refusal := recordstore.NoRecord("fabric", "fabric:fb_gone")
	var se *tasks.StepError
	require.True(t, errors.As(tasks.InStep(refusal), &se))
	require.Equal(t, contract.ErrTypeProcessing, se.Code)
	require.Equal(t, refusal.Message, se.Message)
	plain := errors.New("database away")
	require.Equal(t, plain, tasks.InStep(plain), "other errors are retried as they are")
}
