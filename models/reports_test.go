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

// day0 is the first day of the reports' account history.
var day0 = time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)

// reportJob is one job of a report's history.
type reportJob struct {
	task, key  string
	created    time.Time
	queue, run time.Duration // -1: not started / not ended
	outcome    string        // "" while unfinished
	errorCode  string
	charged    int64
}

// history writes jobs for u as the activities leave them: settled jobs
// carry their settlement time (their end).
func history(t *testing.T, db *gorm.DB, u *models.User, jobs []reportJob) {
	t.Helper()
	for _, j := range jobs {
		row := &models.Job{
			ID:             models.NewID("j_"),
			UserID:         u.ID,
			APIKeyID:       j.key,
			Task:           j.task,
			Input:          "{}",
			Lifecycle:      contract.LifecycleQueued,
			CreditType:     contract.CreditService,
			HeldCredits:    10,
			PricePerOutput: 1,
			ChargedCredits: j.charged,
			CreatedAt:      j.created,
		}
		if j.queue >= 0 {
			started := j.created.Add(j.queue)
			row.StartedAt, row.Lifecycle = &started, contract.LifecycleRunning
			if j.run >= 0 {
				ended := started.Add(j.run)
				row.EndedAt, row.SettledAt, row.Lifecycle = &ended, &ended, contract.LifecycleTerminal
			}
		}
		if j.outcome != "" {
			o := j.outcome
			row.Outcome = &o
		}
		if j.errorCode != "" {
			e := `{"code":"` + j.errorCode + `","message":"x"}`
			row.Error = &e
		}
		require.NoError(t, db.Create(row).Error)
	}
}

// calls writes request-log rows for u.
func calls(t *testing.T, db *gorm.DB, u *models.User, rows ...models.RequestLog) {
	t.Helper()
	for i := range rows {
		rows[i].UserID = u.ID
		rows[i].RequestID = models.NewID("req_")
		rows[i].Method, rows[i].Path = "POST", "/v1/tasks/"+rows[i].Task
	}
	require.NoError(t, models.InsertRequestLogs(context.Background(), db, rows))
}

// reportHistory is the account the reports read, with a stranger's job and
// a job after the window beside it.
func reportHistory(t *testing.T, db *gorm.DB) *models.User {
	u := accountFor(t, db)
	history(t, db, u, []reportJob{
		{
			task:    "pattern.generate",
			key:     "key_a",
			created: day0.Add(10 * time.Hour),
			queue:   time.Second,
			run:     2 * time.Second,
			outcome: contract.OutcomeSucceeded,
			charged: 4,
		},
		{
			task:      "pattern.generate",
			key:       "key_b",
			created:   day0.Add(11 * time.Hour),
			queue:     2 * time.Second,
			run:       4 * time.Second,
			outcome:   contract.OutcomeFailed,
			errorCode: "processing_failed",
		},
		{
			task:    "palette.generate",
			key:     "",
			created: day0.Add(33 * time.Hour),
			queue:   500 * time.Millisecond,
			run:     time.Second,
			outcome: contract.OutcomeSucceeded,
			charged: 2,
		},
		{task: "palette.generate", key: "key_a", created: day0.Add(36 * time.Hour), queue: -1, run: -1},
		{
			task:      "pattern.generate",
			key:       "key_a",
			created:   day0.Add(37 * time.Hour),
			queue:     time.Second,
			run:       time.Second,
			outcome:   contract.OutcomeCancelled,
			errorCode: "cancelled",
			charged:   1,
		},
		{
			task:    "pattern.generate",
			key:     "key_a",
			created: day0.Add(72 * time.Hour),
			queue:   time.Second,
			run:     time.Second,
			outcome: contract.OutcomeSucceeded,
			charged: 9,
		},
	})
	calls(
		t,
		db,
		u,
		models.RequestLog{
			APIKeyID:  "key_a",
			Task:      "pattern.generate",
			Status:    202,
			CreatedAt: day0.Add(10 * time.Hour),
		},
		models.RequestLog{
			APIKeyID:  "key_a",
			Task:      "pattern.generate",
			Status:    422,
			ErrorCode: "invalid_request",
			CreatedAt: day0.Add(10*time.Hour + 5*time.Minute),
		},
		models.RequestLog{APIKeyID: "key_b", Status: 200, CreatedAt: day0.Add(33 * time.Hour)},
		models.RequestLog{APIKeyID: "key_b", Status: 200, CreatedAt: day0.Add(80 * time.Hour)}, // after the window
	)
	stranger := accountFor(t, db)
	history(
		t,
		db,
		stranger,
		[]reportJob{
			{
				task:    "pattern.generate",
				key:     "key_z",
				created: day0.Add(12 * time.Hour),
				queue:   time.Second,
				run:     time.Second,
				outcome: contract.OutcomeSucceeded,
				charged: 50,
			},
		},
	)
	calls(
		t,
		db,
		stranger,
		models.RequestLog{
			APIKeyID:  "key_z",
			Task:      "pattern.generate",
			Status:    500,
			ErrorCode: "internal",
			CreatedAt: day0.Add(12 * time.Hour),
		},
	)
	return u
}

func TestUsage(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := reportHistory(t, db)
		keyA, keyB := "key_a", "key_b"
		tests := []struct {
			name       string
			start, end time.Time
			want       []models.UsageRow
		}{
			{name: "two whole days", start: day0, end: day0.Add(48 * time.Hour), want: []models.UsageRow{
				{
					Task:           "palette.generate",
					APIKeyID:       nil,
					CreditType:     contract.CreditService,
					Jobs:           1,
					CreditsCharged: 2,
				},
				{
					Task:           "pattern.generate",
					APIKeyID:       &keyA,
					CreditType:     contract.CreditService,
					Jobs:           2,
					CreditsCharged: 5,
				},
				{
					Task:           "pattern.generate",
					APIKeyID:       &keyB,
					CreditType:     contract.CreditService,
					Jobs:           1,
					CreditsCharged: 0,
				},
			}},
			{
				name:  "partial days at both ends",
				start: day0.Add(10*time.Hour + 30*time.Minute),
				end:   day0.Add(34 * time.Hour),
				want: []models.UsageRow{
					{
						Task:           "palette.generate",
						APIKeyID:       nil,
						CreditType:     contract.CreditService,
						Jobs:           1,
						CreditsCharged: 2,
					},
					{
						Task:           "pattern.generate",
						APIKeyID:       &keyB,
						CreditType:     contract.CreditService,
						Jobs:           1,
						CreditsCharged: 0,
					},
				},
			},
			{name: "nothing settled", start: day0.Add(-48 * time.Hour), end: day0, want: []models.UsageRow{}},
		}
		for _, tt := range tests {
			got, err := models.Usage(ctx, db, u.ID, tt.start, tt.end)
			require.NoError(t, err, tt.name)
			require.Equal(t, tt.want, got, tt.name)
		}
	})
}

// summary is what a test checks of a metrics row.
type summary struct {
	Jobs           models.JobCounts
	CreditsCharged int64
	Calls, Errors  int64
}

func summaries(rows []models.MetricsRow) map[string]summary {
	out := map[string]summary{}
	for _, r := range rows {
		out[r.Group] = summary{Jobs: r.Jobs, CreditsCharged: r.CreditsCharged, Calls: r.Calls, Errors: r.CallErrors}
	}
	return out
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	ms := func(n int64) *int64 { return &n }
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := reportHistory(t, db)
		q := models.MetricsQuery{UserID: u.ID, Start: day0, End: day0.Add(48 * time.Hour), CallsFrom: day0}

		q.GroupBy = models.GroupDay
		byDay, err := models.Metrics(ctx, db, q)
		require.NoError(t, err)
		require.Equal(t, []models.MetricsRow{
			{
				Group:          "2025-03-03",
				Jobs:           models.JobCounts{Total: 2, Succeeded: 1, Failed: 1},
				CreditsCharged: 4,
				Calls:          2,
				CallErrors:     1,
				QueueMSP50:     ms(1000),
				QueueMSP95:     ms(2000),
				RunMSP50:       ms(2000),
				RunMSP95:       ms(4000),
			},
			{
				Group:          "2025-03-04",
				Jobs:           models.JobCounts{Total: 3, Succeeded: 1, Cancelled: 1, Unfinished: 1},
				CreditsCharged: 3,
				Calls:          1,
				QueueMSP50:     ms(500),
				QueueMSP95:     ms(1000),
				RunMSP50:       ms(1000),
				RunMSP95:       ms(1000),
			},
		}, byDay, "ordered by day; nearest-rank percentiles; unstarted jobs have no durations")

		for _, tc := range []struct {
			by   string
			want map[string]summary
		}{
			{by: models.GroupTask, want: map[string]summary{
				"palette.generate": {Jobs: models.JobCounts{Total: 2, Succeeded: 1, Unfinished: 1}, CreditsCharged: 2},
				"pattern.generate": {Jobs: models.JobCounts{Total: 3, Succeeded: 1, Failed: 1, Cancelled: 1}, CreditsCharged: 5,
					Calls: 2, Errors: 1},
			}},
			{by: models.GroupKey, want: map[string]summary{
				"": {Jobs: models.JobCounts{Total: 1, Succeeded: 1}, CreditsCharged: 2},
				"key_a": {Jobs: models.JobCounts{Total: 3, Succeeded: 1, Cancelled: 1, Unfinished: 1}, CreditsCharged: 5, Calls: 2,
					Errors: 1},
				"key_b": {Jobs: models.JobCounts{Total: 1, Failed: 1}, Calls: 1},
			}},
			{by: models.GroupError, want: map[string]summary{
				"processing_failed": {Jobs: models.JobCounts{Total: 1, Failed: 1}},
				"cancelled":         {Jobs: models.JobCounts{Total: 1, Cancelled: 1}, CreditsCharged: 1},
				"invalid_request":   {Calls: 1, Errors: 1},
			}},
		} {
			q.GroupBy = tc.by
			rows, err := models.Metrics(ctx, db, q)
			require.NoError(t, err, tc.by)
			require.Equal(t, tc.want, summaries(rows), tc.by)
		}

		// Calls are counted from CallsFrom on; jobs over the whole window.
		q.GroupBy, q.CallsFrom = models.GroupDay, day0.Add(24*time.Hour)
		rows, err := models.Metrics(ctx, db, q)
		require.NoError(t, err)
		require.Equal(t, map[string]summary{
			"2025-03-03": {Jobs: models.JobCounts{Total: 2, Succeeded: 1, Failed: 1}, CreditsCharged: 4},
			"2025-03-04": {
				Jobs:           models.JobCounts{Total: 3, Succeeded: 1, Cancelled: 1, Unfinished: 1},
				CreditsCharged: 3,
				Calls:          1,
			},
		}, summaries(rows))

		q.CallsFrom = q.End
		q.Start = day0.Add(-72 * time.Hour)
		q.End = day0
		rows, err = models.Metrics(ctx, db, q)
		require.NoError(t, err)
		require.Empty(t, rows, "an empty window")
	})
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		u := reportHistory(t, db)
		require.NoError(t, models.InsertRequestLogs(ctx, db, nil), "an empty batch writes nothing")

		paths := func(p models.Page[models.RequestLog]) []time.Time {
			var out []time.Time
			for _, r := range p.Items {
				out = append(out, r.CreatedAt.UTC())
			}
			return out
		}
		first, err := models.ListRequests(ctx, db, u.ID, models.RequestFilter{}, nil, 3)
		require.NoError(t, err)
		require.Equal(
			t,
			[]time.Time{day0.Add(80 * time.Hour), day0.Add(33 * time.Hour), day0.Add(10*time.Hour + 5*time.Minute)},
			paths(first),
			"newest first",
		)
		require.NotNil(t, first.Next)
		rest, err := models.ListRequests(ctx, db, u.ID, models.RequestFilter{}, first.Next, 3)
		require.NoError(t, err)
		require.Equal(t, []time.Time{day0.Add(10 * time.Hour)}, paths(rest))
		require.Nil(t, rest.Next, "the last page")

		filtered, err := models.ListRequests(
			ctx,
			db,
			u.ID,
			models.RequestFilter{APIKeyID: "key_b", Start: day0, End: day0.Add(48 * time.Hour)},
			nil,
			10,
		)
		require.NoError(t, err)
		require.Equal(t, []time.Time{day0.Add(33 * time.Hour)}, paths(filtered))

		_, err = models.ListRequests(
			ctx,
			db,
			u.ID,
			models.RequestFilter{},
			&models.Position{At: day0, ID: "not-a-number"},
			10,
		)
		require.ErrorIs(t, err, models.ErrBadPosition)

		pruned, err := models.PruneRequestLogs(ctx, db, day0.Add(24*time.Hour), 2)
		require.NoError(t, err)
		require.EqualValues(t, 3, pruned, "two of the account's calls and the stranger's one")
		left, err := models.ListRequests(ctx, db, u.ID, models.RequestFilter{}, nil, 10)
		require.NoError(t, err)
		require.Equal(t, []time.Time{day0.Add(80 * time.Hour), day0.Add(33 * time.Hour)}, paths(left))
	})
}
