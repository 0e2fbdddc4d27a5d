package submit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/submit"
	"github.com/taskplatform/taskplatform/testenv"
)

// batchRequest is a batch of f's account with Idempotency-Key key whose
// jobs (4 credits each, 2 per output) are the request's items at indexes.
func (f *fixture) batchRequest(key string, indexes ...int) submit.BatchRequest {
	req := submit.BatchRequest{Batch: models.Batch{ID: models.NewID("b_"), UserID: f.user.ID, APIKeyID: "key_test",
		Mode: models.BatchAll, Jobs: len(indexes)}, Indexes: indexes, IdempotencyKey: key, Fingerprint: "fp"}
	for range indexes {
		req.Jobs = append(req.Jobs, contract.JobInput{UserID: f.user.ID, APIKeyID: "key_test",
			Task: "pattern.generate", Input: []byte(`{"count":2}`), CreditType: contract.CreditService,
			HeldCredits: 4, PricePerOutput: 2})
	}
	return req
}

// TestABatchRefusedByASpendLimitSendsTheLimitReached: a batch a spend
// limit refuses answers 402 spend_limit_reached, holds nothing, releases
// its key and sends the limit's 100 % spend.threshold, which names the
// job the limit refused.
func TestABatchRefusedByASpendLimitSendsTheLimitReached(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.SQLite)
	ctx := context.Background()
	f := newFixture(t, db)
	_, err := models.SetSpendLimit(ctx, db, models.SpendLimit{UserID: f.user.ID, CreditType: contract.CreditService,
		Period: contract.SpendDay, Credits: 3})
	require.NoError(t, err)
	var sent []string
	f.svc.SendThresholds = func(_ context.Context, jobID string) error {
		sent = append(sent, jobID)
		return nil
	}
	req := f.batchRequest("k1", 3)
	_, err = f.svc.SubmitBatch(ctx, req)
	e := apiError(t, err)
	require.Equal(t, apierr.SpendLimitReached, e.Code)
	require.EqualValues(t, 3, *e.Ctx.Limit)
	refused := submit.BatchJobID(req.Batch.ID, 3)
	require.Equal(t, []string{refused}, sent)
	reached, err := models.ThresholdsOfJob(ctx, db, refused)
	require.NoError(t, err)
	require.Len(t, reached, 1)
	require.Equal(t, 100, reached[0].Percent)
	n, err := models.Available(ctx, db, f.user.ID, contract.CreditService, time.Now())
	require.NoError(t, err)
	require.EqualValues(t, 10, n, "nothing held")
	require.Empty(t, f.started, "no job started")

	_, err = f.svc.SubmitBatch(ctx, req)
	require.Equal(t, apierr.SpendLimitReached, apiError(t, err).Code, "the key was released: refused again")
}

// TestABatchThatFailsToBeWrittenReleasesItsKey: a batch whose write fails
// (not a refusal: here two jobs of one item index, so one id) answers the
// failure and releases its Idempotency-Key, so a retry with the key runs
// at once instead of answering 409 request_in_progress until the key's
// lease ends; nothing is held.
func TestABatchThatFailsToBeWrittenReleasesItsKey(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		req := f.batchRequest("k1", 0, 0)
		_, err := f.svc.SubmitBatch(ctx, req)
		require.Error(t, err)
		var e *apierr.Error
		require.False(t, errors.As(err, &e), "a failure, not an answer: %v", err)
		_, err = models.BatchByID(ctx, db, f.user.ID, req.Batch.ID)
		require.ErrorIs(t, err, models.ErrNotFound, "nothing written")

		_, err = f.svc.SubmitBatch(ctx, req)
		require.Error(t, err)
		if errors.As(err, &e) {
			require.NotEqual(t, apierr.RequestInProgress, e.Code, "the key was released")
		}
		n, err := models.Available(ctx, db, f.user.ID, contract.CreditService, time.Now())
		require.NoError(t, err)
		require.EqualValues(t, 10, n, "nothing held")
	})
}
