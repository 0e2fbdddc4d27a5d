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

func TestRecordAttempt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := attemptCases(at)
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				d := newDelivery(1)
				require.NoError(t, models.CreateDelivery(ctx, db, d))
				for i, s := range tt.steps {
					checkAttemptStep(t, db, d.ID, i, s)
				}
			})
		}

		t.Run("attempt fields stored", func(t *testing.T) { recordsAttemptFields(t, db, at) })

		t.Run("refusals", func(t *testing.T) { refusesBadAttempts(t, db, at) })

		t.Run("concurrent attempts of one delivery", func(t *testing.T) { numbersConcurrentAttempts(t, db) })
	})
}

// attemptStep is one attempt recorded on a delivery and what the delivery
// and its attempts read after it.
type attemptStep struct {
	attempt    models.WebhookAttempt
	status     string
	next       *time.Time
	wantCount  int // attempts stored after the step
	wantStatus string
	wantCode   int
	wantError  string
	wantNext   *time.Time
}

// checkAttemptStep records step i's attempt on delivery id and checks the
// delivery and its attempts read what the step wants.
func checkAttemptStep(t *testing.T, db *gorm.DB, id string, i int, s attemptStep) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, models.RecordAttempt(ctx, db, id, s.attempt, s.status, s.next), "step %d", i)
	got, err := models.DeliveryByID(ctx, db, id)
	require.NoError(t, err)
	require.Equal(t, s.wantCount, got.Attempts, "step %d attempts", i)
	require.Equal(t, s.wantStatus, got.Status, "step %d status", i)
	require.Equal(t, s.wantCode, got.LastStatusCode, "step %d code", i)
	require.Equal(t, s.wantError, got.LastError, "step %d error", i)
	if s.wantNext == nil {
		require.Nil(t, got.NextAttemptAt, "step %d next", i)
	} else {
		require.NotNil(t, got.NextAttemptAt, "step %d next", i)
		require.True(t, s.wantNext.Equal(*got.NextAttemptAt), "step %d next: %s", i, got.NextAttemptAt)
	}
	list, err := models.DeliveryAttempts(ctx, db, id)
	require.NoError(t, err)
	require.Len(t, list, s.wantCount)
	for n, a := range list {
		require.Equal(t, n+1, a.Attempt)
		require.Equal(t, id, a.DeliveryID)
		require.False(t, a.At.IsZero())
	}
}

// recordsAttemptFields: the fields of an attempt read back as recorded.
func recordsAttemptFields(t *testing.T, db *gorm.DB, at time.Time) {
	ctx := context.Background()
	d := newDelivery(1)
	require.NoError(t, models.CreateDelivery(ctx, db, d))
	a := models.WebhookAttempt{Attempt: 4, At: at, StatusCode: 429, DurationMS: 1234, Error: "rate limited"}
	require.NoError(t, models.RecordAttempt(ctx, db, d.ID, a, models.DeliveryPending, nil))
	list, err := models.DeliveryAttempts(ctx, db, d.ID)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, 4, list[0].Attempt)
	require.True(t, at.Equal(list[0].At))
	require.Equal(t, 429, list[0].StatusCode)
	require.Equal(t, int64(1234), list[0].DurationMS)
	require.Equal(t, "rate limited", list[0].Error)
}

// refusesBadAttempts: an attempt of an unknown delivery or with an unknown status is refused.
func refusesBadAttempts(t *testing.T, db *gorm.DB, at time.Time) {
	ctx := context.Background()
	err := models.RecordAttempt(
		ctx,
		db,
		"whd_missing",
		models.WebhookAttempt{Attempt: 1, At: at},
		models.DeliveryPending,
		nil,
	)
	require.ErrorIs(t, err, models.ErrNotFound)
	var n int64
	require.NoError(
		t,
		db.Model(&models.WebhookAttempt{}).Where("delivery_id = ?", "whd_missing").Count(&n).Error,
	)
	require.Zero(t, n, "nothing recorded for an unknown delivery")

	d := newDelivery(1)
	require.NoError(t, models.CreateDelivery(ctx, db, d))
	require.Error(
		t,
		models.RecordAttempt(ctx, db, d.ID, models.WebhookAttempt{Attempt: 1, At: at}, "done", nil),
	)
}

// numbersConcurrentAttempts: concurrent attempts of one delivery each get their own number.
func numbersConcurrentAttempts(t *testing.T, db *gorm.DB) {
	ctx := context.Background()
	d := newDelivery(1)
	require.NoError(t, models.CreateDelivery(ctx, db, d))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			errs[i] = models.RecordAttempt(
				ctx,
				db,
				d.ID,
				models.WebhookAttempt{StatusCode: 500},
				models.DeliveryPending,
				nil,
			)
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	got, err := models.DeliveryByID(ctx, db, d.ID)
	require.NoError(t, err)
	require.Equal(t, 4, got.Attempts)
	list, err := models.DeliveryAttempts(ctx, db, d.ID)
	require.NoError(t, err)
	require.Len(t, list, 4)
}

// attemptCase is a run of attempts on one delivery.
type attemptCase struct {
	name  string
	steps []attemptStep
}

// attemptCases are the runs TestRecordAttempt records, their attempts at
// and after at.
func attemptCases(at time.Time) []attemptCase {
	next1 := at.Add(10 * time.Second)
	next2 := at.Add(2 * time.Minute)

	return []attemptCase{
		{name: "retried then delivered", steps: []attemptStep{
			{
				attempt:    models.WebhookAttempt{Attempt: 1, At: at, StatusCode: 503, DurationMS: 12},
				status:     models.DeliveryPending,
				next:       &next1,
				wantCount:  1,
				wantStatus: models.DeliveryPending,
				wantCode:   503,
				wantNext:   &next1,
			},
			{
				attempt: models.WebhookAttempt{
					Attempt:    2,
					At:         at.Add(time.Second),
					Error:      "no answer: timeout",
					DurationMS: 3000,
				},
				status:     models.DeliveryPending,
				next:       &next2,
				wantCount:  2,
				wantStatus: models.DeliveryPending,
				wantError:  "no answer: timeout",
				wantNext:   &next2,
			},
			{
				attempt: models.WebhookAttempt{
					Attempt:    3,
					At:         at.Add(2 * time.Second),
					StatusCode: 204,
					DurationMS: 5,
				},
				status:     models.DeliveryDelivered,
				wantCount:  3,
				wantStatus: models.DeliveryDelivered,
				wantCode:   204,
			},
		}},
		{name: "permanent failure", steps: []attemptStep{
			{attempt: models.WebhookAttempt{Attempt: 1, At: at, StatusCode: 410}, status: models.DeliveryFailed,
				wantCount: 1, wantStatus: models.DeliveryFailed, wantCode: 410},
		}},
		{name: "same attempt recorded twice changes nothing", steps: []attemptStep{
			{
				attempt:    models.WebhookAttempt{Attempt: 1, At: at, StatusCode: 500},
				status:     models.DeliveryPending,
				next:       &next1,
				wantCount:  1,
				wantStatus: models.DeliveryPending,
				wantCode:   500,
				wantNext:   &next1,
			},
			{attempt: models.WebhookAttempt{Attempt: 1, At: at, StatusCode: 200}, status: models.DeliveryDelivered,
				wantCount: 1, wantStatus: models.DeliveryPending, wantCode: 500, wantNext: &next1},
		}},
		{name: "attempt 0 takes the next number", steps: []attemptStep{
			{attempt: models.WebhookAttempt{StatusCode: 500}, status: models.DeliveryPending,
				wantCount: 1, wantStatus: models.DeliveryPending, wantCode: 500},
			{attempt: models.WebhookAttempt{StatusCode: 200}, status: models.DeliveryDelivered,
				wantCount: 2, wantStatus: models.DeliveryDelivered, wantCode: 200},
		}},
	}
}
