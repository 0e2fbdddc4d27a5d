package cancel_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/api/serviceerror"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/cancel"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// temporal records the workflows a cancel asked to stop; workflows it
// does not know answer NotFound.
type temporal struct {
	mu        sync.Mutex
	open      map[string]bool
	cancelled []string
}

func (t *temporal) CancelWorkflow(_ context.Context, id, _ string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.open[id] {
		return serviceerror.NewNotFound("workflow " + id)
	}
	t.cancelled = append(t.cancelled, id)
	return nil
}

func apiCode(t *testing.T, err error) apierr.Code {
	t.Helper()
	var e *apierr.Error
	require.True(t, errors.As(err, &e), "%v", err)
	return e.Code
}

// TestCancelEndsEachJobByWhatBecameOfIt: on both databases, a batch's job
// no workflow admitted ends cancelled in the store without asking
// Temporal, charged nothing; a late job too; an admitted job has its
// workflow cancelled and is answered as it was; an ended job answers
// job_already_ended, another account's or an unknown id job_not_found.
func TestCancelEndsEachJobByWhatBecameOfIt(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx, now := context.Background(), time.Now().UTC()
		u, err := models.CreateUser(ctx, db, models.NewID("u_")+"@example.com", models.PlanStandard)
		require.NoError(t, err)
		_, err = models.Grant(ctx, db, u.ID, contract.CreditService, 40, nil, "test")
		require.NoError(t, err)
		job := func() *models.Job {
			return &models.Job{ID: models.NewID("j_"), UserID: u.ID, Task: "pattern.generate", Input: "{}",
				CreditType: contract.CreditService, HeldCredits: 10, PricePerOutput: 10}
		}
		unadmitted, admitted := job(), job()
		b := &models.Batch{ID: models.NewID("b_"), UserID: u.ID, Mode: models.BatchAll, Jobs: 2, Queue: "q1"}
		_, err = models.CreateBatch(ctx, db, b, []*models.Job{unadmitted, admitted}, []int{0, 1}, now)
		require.NoError(t, err)
		_, err = models.Admit(ctx, db, models.JobRow(admitted.AdmitInput()), now, nil)
		require.NoError(t, err)
		late := job()
		_, _, err = models.PendJob(ctx, db, late, "q1", now)
		require.NoError(t, err)
		tc := &temporal{open: map[string]bool{admitted.ID: true}}
		svc := &cancel.Service{DB: db, Temporal: tc}

		got, err := svc.Cancel(ctx, u.ID, unadmitted.ID, nil)
		require.NoError(t, err)
		require.Equal(t, contract.LifecycleTerminal, got.Lifecycle)
		require.Equal(t, contract.OutcomeCancelled, *got.Outcome)
		require.Zero(t, got.ChargedCredits)
		avail, err := models.Available(ctx, db, u.ID, contract.CreditService, now)
		require.NoError(t, err)
		require.EqualValues(t, 30, avail, "its hold is back; the admitted job's is held")

		got, err = svc.Cancel(ctx, u.ID, late.ID, nil)
		require.NoError(t, err)
		require.Equal(t, contract.OutcomeCancelled, *got.Outcome)

		got, err = svc.Cancel(ctx, u.ID, admitted.ID, nil)
		require.NoError(t, err)
		require.Equal(t, contract.LifecycleQueued, got.Lifecycle, "the lifecycle at that moment")
		require.Equal(t, []string{admitted.ID}, tc.cancelled, "only the admitted job's workflow is asked")

		_, err = svc.Cancel(ctx, u.ID, unadmitted.ID, nil)
		require.Equal(t, apierr.JobAlreadyEnded, apiCode(t, err))
		_, err = svc.Cancel(ctx, u.ID+1000000, admitted.ID, nil)
		require.Equal(t, apierr.JobNotFound, apiCode(t, err))
		_, err = svc.Cancel(ctx, u.ID, "j_unknown", nil)
		require.Equal(t, apierr.JobNotFound, apiCode(t, err))
	})
}
