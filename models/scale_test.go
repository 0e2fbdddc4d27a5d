package models_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// statements is a GORM logger that keeps every statement run through it,
// with its arguments written in, and the rows it affected.
type statements struct {
	mu   sync.Mutex
	sqls []string
	rows []int64
}

func (s *statements) LogMode(logger.LogLevel) logger.Interface { return s }
func (s *statements) Info(context.Context, string, ...any)     {}
func (s *statements) Warn(context.Context, string, ...any)     {}
func (s *statements) Error(context.Context, string, ...any)    {}
func (s *statements) reset()                                   { s.mu.Lock(); s.sqls, s.rows = nil, nil; s.mu.Unlock() }
func (s *statements) session(db *gorm.DB) *gorm.DB             { return db.Session(&gorm.Session{Logger: s}) }
func (s *statements) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.sqls...)
}
func (s *statements) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	sql, rows := fc()
	s.mu.Lock()
	s.sqls, s.rows = append(s.sqls, sql), append(s.rows, rows)
	s.mu.Unlock()
}

// seedScale bulk-loads a user with 50,000 jobs over the last year (a file
// each), 20,000 calls over the last 90 days and 1,000 credit batches, and
// 200 other accounts with 100 jobs, 100 calls and 50 batches each, then
// rebuilds the rollups and analyzes, as a bulk load does. It returns the
// user and the key most of its jobs were made with.
func seedScale(t *testing.T, db *gorm.DB) (*models.User, string) {
	t.Helper()
	ctx := context.Background()
	u := accountFor(t, db)
	key := fmt.Sprintf("key_s%d_1", u.ID)
	exec := func(sql string, args ...any) {
		t.Helper()
		require.NoError(t, db.Exec(sql, args...).Error, sql)
	}
	exec(
		`INSERT INTO users (email, plan, service_version, created_at) SELECT 'scale' || i || '-' || ?::bigint || `+
			`'@example.com', 'standard', '', now() FROM generate_series(1, 200) i`,
		u.ID,
	)
	exec("ALTER TABLE jobs DISABLE TRIGGER USER")
	exec("ALTER TABLE request_logs DISABLE TRIGGER USER")
	// Job i of user uid of n, created i/n of a year ago: every tenth failed.
	jobs := `INSERT INTO jobs (id, user_id, api_key_id, task, input, lifecycle, outcome, error, credit_type,
	held_credits, price_per_output,
	    charged_credits, progress_done, settled_at, started_at, ended_at, created_at, updated_at)
	SELECT 'j_s' || uid || '_' || i, uid, CASE WHEN i % 3 = 0 THEN '' ELSE 'key_s' || uid || '_' || (1 + i % 2) END,
	       (ARRAY['pattern.generate', 'palette.generate'])[1 + i % 2], '{}', 'terminal',
	       CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'succeeded' END,
	       CASE WHEN i % 10 = 0 THEN '{"code":"processing_failed","message":"x"}' END,
	       'service_credits', 4, 4, CASE WHEN i % 10 = 0 THEN 0 ELSE 4 END, 1,
	       t + (i % 7 + 2) * interval '1 second', t + (i % 5) * interval '100 milliseconds', t + (i % 7 + 2) *
	interval '1 second', t, t
	FROM (SELECT uid, i, now() - (i::float8 / n) * interval '365 days' AS t FROM {src}) s`
	exec(
		strings.ReplaceAll(jobs, "{src}", "(SELECT ?::bigint AS uid, 50000 AS n) u, generate_series(1, 50000) i"),
		u.ID,
	)
	exec(
		strings.ReplaceAll(
			jobs,
			"{src}",
			"(SELECT id AS uid, 100 AS n FROM users WHERE email LIKE 'scale%') u, generate_series(1, 100) i",
		),
	)
	exec(
		`INSERT INTO files (id, user_id, job_id, idx, task, media_type, blob_key, size, data, source_url, external_id,
	created_at)
	      SELECT 'f' || substr(id, 2), user_id, id, 0, task, 'image/png', 'k', 1, '{}', '', '', ended_at FROM jobs
	WHERE id LIKE 'j_s%'`,
	)
	calls := `INSERT INTO request_logs (request_id, user_id, api_key_id, method, route, path, task, status, error_code,
	 duration_ms, created_at)
	SELECT 'req_s' || uid || '_' || i, uid, 'key_s' || uid || '_' || (1 + i % 2), 'POST', '/v1/tasks/{name}',
	'/v1/tasks/x',
	       CASE WHEN i % 2 = 0 THEN 'pattern.generate' ELSE '' END, CASE WHEN i % 20 = 0 THEN 422 ELSE 202 END,
	       CASE WHEN i % 20 = 0 THEN 'invalid_request' ELSE '' END, 5, now() - (i::float8 / n) * interval '90 days'
	FROM {src}`
	exec(
		strings.ReplaceAll(calls, "{src}", "(SELECT ?::bigint AS uid, 20000 AS n) u, generate_series(1, 20000) i"),
		u.ID,
	)
	exec(
		strings.ReplaceAll(
			calls,
			"{src}",
			"(SELECT id AS uid, 100 AS n FROM users WHERE email LIKE 'scale%') u, generate_series(1, 100) i",
		),
	)
	exec(`INSERT INTO credit_batches (user_id, credit_type, amount, remaining, expires_at, source, created_at)
	      SELECT ?, 'service_credits', 10, 1 + k % 10, CASE WHEN k % 3 = 0 THEN NULL ELSE now() + k * interval '1 day'
	END, 'grant', now()
	      FROM generate_series(1, 1000) k`, u.ID)
	exec(`INSERT INTO credit_batches (user_id, credit_type, amount, remaining, expires_at, source, created_at)
	      SELECT id, 'service_credits', 10, 5, NULL, 'grant', now() FROM users, generate_series(1, 50) k WHERE email
	LIKE 'scale%'`)
	exec("ALTER TABLE jobs ENABLE TRIGGER USER")
	exec("ALTER TABLE request_logs ENABLE TRIGGER USER")
	require.NoError(t, models.RebuildRollups(ctx, db))
	exec("ANALYZE")
	return u, key
}

// largeTables are the tables no listing or report may read whole.
var largeTables = regexp.MustCompile(`Seq Scan on (jobs|ledger_entries|request_logs|credit_batches|files)\b`)

// TestScaleQueriesUseIndexes runs the listings and reports behind GET
// /v1/jobs, /v1/account/{usage,metrics,requests,balance} and /v1/refs/art,
// and the retention deletes, on an analyzed account of 50,000 jobs, and
// checks the plan of every statement they ran: none reads a large table
// sequentially, and the reports read the rollups.
func TestScaleQueriesUseIndexes(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t, testenv.Postgres)
	u, key := seedScale(t, db)
	ctx := context.Background()
	log := &statements{}
	q := log.session(db)
	now := time.Now().UTC()
	window := models.MetricsQuery{
		UserID:    u.ID,
		Start:     now.Add(-90 * 24 * time.Hour),
		End:       now,
		CallsFrom: now.Add(-30 * 24 * time.Hour),
	}

	page, err := models.ListJobs(ctx, q, u.ID, key, nil, 20)
	require.NoError(t, err)
	require.NotNil(t, page.Next)
	for range 50 {
		page, err = models.ListJobs(ctx, q, u.ID, key, page.Next, 20)
		require.NoError(t, err)
	}
	_, err = models.ListJobs(ctx, q, u.ID, "", nil, 20)
	require.NoError(t, err)
	usage, err := models.Usage(ctx, q, u.ID, window.Start, window.End)
	require.NoError(t, err)
	require.NotEmpty(t, usage)
	for _, by := range []string{models.GroupDay, models.GroupTask, models.GroupKey, models.GroupError} {
		window.GroupBy = by
		rows, err := models.Metrics(ctx, q, window)
		require.NoError(t, err)
		require.NotEmpty(t, rows, by)
	}
	reqs, err := models.ListRequests(ctx, q, u.ID, models.RequestFilter{}, nil, 20)
	require.NoError(t, err)
	_, err = models.ListRequests(ctx, q, u.ID, models.RequestFilter{APIKeyID: key}, reqs.Next, 20)
	require.NoError(t, err)
	bals, err := models.Balances(ctx, q, u.ID, now)
	require.NoError(t, err)
	require.Len(t, bals[0].Expiring, 1000)
	for _, outputs := range []bool{true, false} {
		_, err = models.ListFiles(ctx, q, models.FileQuery{UserID: u.ID, Outputs: outputs, Limit: 20})
		require.NoError(t, err)
	}
	_, err = models.PruneRequestLogs(ctx, q, now.Add(-365*24*time.Hour), 5000)
	require.NoError(t, err)

	run := strings.Join(log.all(), "\n")
	for _, table := range []string{"usage_day_rollups", "job_day_rollups", "call_hour_rollups"} {
		require.Contains(t, run, table, "the reports read the rollups")
	}
	checked := 0
	for _, sql := range log.all() {
		verb := strings.ToUpper(strings.Fields(sql)[0])
		if verb != "SELECT" && verb != "DELETE" {
			continue
		}
		var plan []string
		require.NoError(t, db.Raw("EXPLAIN "+sql).Scan(&plan).Error, sql)
		text := strings.Join(plan, "\n")
		require.False(t, largeTables.MatchString(text), "a sequential scan of a large table:\n%s\n%s", sql, text)
		checked++
	}
	require.Greater(t, checked, 20)
}
