package models_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// rollups reads every rollup row that counts something, histograms without
// their trailing empty buckets, in key order.
func rollups(t *testing.T, db *gorm.DB) []string {
	t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT concat_ws(' ', 'usage', user_id, day, task, quote_literal(api_key_id), credit_type, jobs,
	credits_charged) FROM usage_day_rollups
		 WHERE jobs <> 0 OR credits_charged <> 0 ORDER BY user_id, day, task, api_key_id, credit_type`,
		`SELECT concat_ws(' ', 'jobs', user_id, dim, day, quote_literal(val), total, succeeded, failed, cancelled,
	unfinished, credits_charged,
		        array_to_string(queue_ms, ','), array_to_string(run_ms, ',')) FROM job_day_rollups
		 WHERE total <> 0 OR succeeded <> 0 OR failed <> 0 OR cancelled <> 0 OR unfinished <> 0 OR credits_charged <> 0
		    OR 0 <> ANY (queue_ms) OR 0 <> ANY (run_ms) ORDER BY user_id, dim, day, val`,
		`SELECT concat_ws(' ', 'calls', user_id, dim, hour, val, calls, errors) FROM call_hour_rollups ORDER BY user_id, ` +
			`dim, hour, val`,
	} {
		var rows []string
		require.NoError(t, db.Raw(q).Scan(&rows).Error)
		for _, r := range rows {
			fields := strings.Split(r, " ")
			if fields[0] == "jobs" { // the histograms are the last two fields
				for i := len(fields) - 2; i < len(fields); i++ {
					counts := strings.Split(fields[i], ",")
					for len(counts) > 0 && (counts[len(counts)-1] == "0" || counts[len(counts)-1] == "") {
						counts = counts[:len(counts)-1]
					}
					fields[i] = strings.Join(counts, ",")
				}
			}
			out = append(out, strings.Join(fields, " "))
		}
	}
	return out
}

// TestRollupsFollowEveryWrite drives jobs through admit, start, outputs and
// settlement (succeeded, failed, cancelled, refused, pending), changes and
// deletes rows directly, writes, updates and prunes calls, and checks that
// the rollups the triggers kept are exactly those recomputed from the rows.
func TestRollupsFollowEveryWrite(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.Postgres)
	ctx := context.Background()
	u, other := accountFor(t, db), accountFor(t, db)
	_, err := models.Grant(ctx, db, u.ID, contract.CreditService, 1000, nil, "test")
	require.NoError(t, err)
	t0 := time.Now().UTC().Truncate(24 * time.Hour).Add(-3 * 24 * time.Hour)
	failure := func(*models.AdmitRefusal) []byte { return []byte(`{"code":"insufficient_credits","message":"x"}`) }

	for i := range 12 {
		created := t0.Add(time.Duration(i) * 5 * time.Hour)
		j := newJob(u, 4, 2)
		j.APIKeyID = []string{"", "key_a", "key_b"}[i%3]
		if i%4 == 0 {
			j.Task = "palette.generate"
		}
		_, err := models.Admit(ctx, db, j, created, failure)
		require.NoError(t, err)
		if i%6 == 5 {
			continue // still queued
		}
		require.NoError(
			t,
			models.MarkRunning(ctx, db, j.ID, 2, "drawing", created.Add(time.Duration(100*i+7)*time.Millisecond)),
		)
		if i%6 == 4 {
			continue // still running
		}
		deliver(t, db, j, i%3, created.Add(time.Second))
		s := models.Settlement{Outcome: contract.OutcomeSucceeded}
		switch i % 6 {
		case 1:
			s = models.Settlement{
				Outcome: contract.OutcomeFailed,
				Error:   []byte(`{"code":"processing_failed","message":"x"}`),
			}
		case 3:
			s = models.Settlement{
				Outcome: contract.OutcomeCancelled,
				Error:   []byte(`{"code":"cancelled","message":"x"}`),
			}
		}
		_, _, err = models.Settle(ctx, db, j.ID, s, created.Add(time.Duration(i+2)*time.Second))
		require.NoError(t, err)
	}
	pending := newJob(u, 4000, 1) // more than the balance: refused once pending
	_, _, err = models.PendJob(ctx, db, pending, contract.TaskQueue, t0.Add(30*time.Hour))
	require.NoError(t, err)
	_, err = models.Admit(ctx, db, pending, t0.Add(30*time.Hour), failure)
	require.Error(t, err)
	history(t, db, other, []reportJob{
		{
			task:    "pattern.generate",
			key:     "key_z",
			created: t0.Add(2 * time.Hour),
			queue:   time.Second,
			run:     3 * time.Second,
			outcome: contract.OutcomeSucceeded,
			charged: 5,
		},
		{task: "pattern.generate", key: "key_z", created: t0.Add(3 * time.Hour), queue: -1, run: -1},
		{
			task:      "pattern.generate",
			created:   t0.Add(4 * time.Hour),
			queue:     time.Second,
			run:       time.Second,
			outcome:   contract.OutcomeFailed,
			errorCode: "start_timeout",
		},
	})
	// Direct changes: a job moved to another task and day, a job deleted, an
	// error that is not JSON.
	require.NoError(
		t,
		db.Exec(
			"UPDATE jobs SET task = 'pattern.repeat', created_at = created_at + interval '1 day' WHERE user_id = ? AND "+
				"api_key_id = 'key_a'",
			u.ID,
		).Error,
	)
	require.NoError(
		t,
		db.Exec(
			"DELETE FROM jobs WHERE id = (SELECT id FROM jobs WHERE user_id = ? AND outcome = 'failed' LIMIT 1)",
			u.ID,
		).Error,
	)
	require.NoError(
		t,
		db.Exec("UPDATE jobs SET error = 'not json' WHERE user_id = ? AND outcome = 'failed'", other.ID).Error,
	)

	calls(
		t,
		db,
		u,
		models.RequestLog{APIKeyID: "key_a", Task: "pattern.generate", Status: 202, CreatedAt: t0.Add(time.Hour)},
		models.RequestLog{
			APIKeyID:  "key_a",
			Task:      "pattern.generate",
			Status:    422,
			ErrorCode: "invalid_request",
			CreatedAt: t0.Add(time.Hour + time.Minute),
		},
		models.RequestLog{APIKeyID: "key_b", Status: 200, CreatedAt: t0.Add(26 * time.Hour)},
		models.RequestLog{APIKeyID: "key_b", Status: 429, ErrorCode: "rate_limited", CreatedAt: t0.Add(50 * time.Hour)},
	)
	calls(t, db, other, models.RequestLog{APIKeyID: "key_z", Status: 200, CreatedAt: t0.Add(time.Hour)})
	require.NoError(
		t,
		db.Exec(
			"UPDATE request_logs SET status = 500, error_code = 'internal' WHERE user_id = ? AND status = 200",
			u.ID,
		).Error,
	)
	pruned, err := models.PruneRequestLogs(ctx, db, t0.Add(2*time.Hour), 1)
	require.NoError(t, err)
	require.EqualValues(t, 3, pruned)

	kept := rollups(t, db)
	require.NotEmpty(t, kept)
	require.NoError(t, models.RebuildRollups(ctx, db))
	require.Equal(t, rollups(t, db), kept, "the triggers keep the rollups equal to the rows")
}

// TestMetricsFromRollupsAgreeWithTheRows writes the same 6,000 jobs and
// calls to PostgreSQL and SQLite: PostgreSQL reports a window whose whole
// day holds more than 2,000 jobs from the rollups, SQLite from the rows.
// Counts, credits and calls agree exactly, percentiles within their
// bucket's width; usage agrees exactly.
func TestMetricsFromRollupsAgreeWithTheRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	day0 := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	fill := func(db *gorm.DB) *models.User {
		u := accountFor(t, db)
		var jobs []models.Job
		for i := range 6000 {
			created := day0.Add(12*time.Hour + time.Duration(i)*30*time.Second)
			j := models.Job{
				ID:             fmt.Sprintf("j_agree_%d", i),
				UserID:         u.ID,
				APIKeyID:       []string{"", "key_a", "key_b", "key_c"}[i%4],
				Task:           []string{"pattern.generate", "palette.generate", "pattern.repeat"}[i%3],
				Input:          "{}",
				Lifecycle:      contract.LifecycleTerminal,
				CreditType:     contract.CreditService,
				HeldCredits:    4,
				PricePerOutput: 2,
				CreatedAt:      created,
			}
			if i%50 != 0 { // every fiftieth still queued
				started := created.Add(time.Duration(5+(i*37)%3000) * time.Millisecond)
				ended := started.Add(time.Duration(200+(i*7919)%60000) * time.Millisecond)
				j.StartedAt, j.EndedAt, j.SettledAt = &started, &ended, &ended
				outcome, code := contract.OutcomeSucceeded, ""
				switch {
				case i%10 == 3:
					outcome, code = contract.OutcomeFailed, "processing_failed"
				case i%10 == 7:
					outcome, code = contract.OutcomeCancelled, "cancelled"
				default:
					j.ChargedCredits = 2
				}
				j.Outcome = &outcome
				if code != "" {
					e := `{"code":"` + code + `","message":"x"}`
					j.Error = &e
				}
			}
			jobs = append(jobs, j)
		}
		require.NoError(t, db.CreateInBatches(jobs, 500).Error)
		var logs []models.RequestLog
		for i := range 3000 {
			logs = append(
				logs,
				models.RequestLog{
					RequestID: fmt.Sprintf("req_agree_%d", i),
					UserID:    u.ID,
					APIKeyID:  []string{"key_a", "key_b"}[i%2],
					Method:    "POST",
					Path:      "/v1/tasks/x",
					Task:      []string{"", "pattern.generate"}[i%2],
					Status:    []int{202, 202, 202, 422, 429}[i%5],
					ErrorCode: []string{"", "", "", "invalid_request", "rate_limited"}[i%5],
					CreatedAt: day0.Add(12*time.Hour + time.Duration(i)*time.Minute),
				},
			)
		}
		require.NoError(t, models.InsertRequestLogs(ctx, db, logs))
		return u
	}
	pg, lite := testenv.DB(t, testenv.Postgres), testenv.DB(t, testenv.SQLite)
	pgUser, liteUser := fill(pg), fill(lite)
	var total int64
	require.NoError(
		t,
		pg.Raw("SELECT COALESCE(SUM(total), 0) FROM job_day_rollups WHERE user_id = ? AND dim = 'day'", pgUser.ID).
			Scan(&total).
			Error,
	)
	require.EqualValues(t, 6000, total, "the triggers counted every job")

	start, end := day0.Add(13*time.Hour+17*time.Minute), day0.Add(2*24*time.Hour+13*time.Hour)
	log := &statements{}
	for _, by := range []string{models.GroupDay, models.GroupTask, models.GroupKey, models.GroupError} {
		log.reset()
		got, err := models.Metrics(
			ctx,
			log.session(pg),
			models.MetricsQuery{UserID: pgUser.ID, GroupBy: by, Start: start, End: end, CallsFrom: start},
		)
		require.NoError(t, err)
		require.Contains(t, strings.Join(log.all(), "\n"), "queue_ms AS queue", "%s: read from the rollups", by)
		want, err := models.Metrics(
			ctx,
			lite,
			models.MetricsQuery{UserID: liteUser.ID, GroupBy: by, Start: start, End: end, CallsFrom: start},
		)
		require.NoError(t, err)
		require.Len(t, got, len(want), by)
		for i := range want {
			g, w := got[i], want[i]
			require.Equal(t, w.Group, g.Group, by)
			require.Equal(t, w.Jobs, g.Jobs, "%s %s", by, w.Group)
			require.Equal(t, w.CreditsCharged, g.CreditsCharged, "%s %s", by, w.Group)
			require.Equal(t, [2]int64{w.Calls, w.CallErrors}, [2]int64{g.Calls, g.CallErrors}, "%s %s", by, w.Group)
			for _, p := range [][2]*int64{{w.QueueMSP50, g.QueueMSP50}, {w.QueueMSP95, g.QueueMSP95}, {w.RunMSP50, g.RunMSP50},
				{w.RunMSP95, g.RunMSP95}} {
				require.Equal(t, p[0] == nil, p[1] == nil, "%s %s", by, w.Group)
				if p[0] != nil {
					require.LessOrEqual(
						t,
						math.Abs(float64(*p[1]-*p[0])),
						0.1*float64(*p[0])+1,
						"%s %s: %d estimated as %d",
						by,
						w.Group,
						*p[0],
						*p[1],
					)
				}
			}
		}
	}
	got, err := models.Usage(ctx, pg, pgUser.ID, start, end)
	require.NoError(t, err)
	want, err := models.Usage(ctx, lite, liteUser.ID, start, end)
	require.NoError(t, err)
	require.Equal(t, want, got)
}
