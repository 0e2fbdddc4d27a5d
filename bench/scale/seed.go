package main

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// sizes are the rows seeded: the heavy account's, and the other accounts'.
type sizes struct {
	Jobs, LedgerPerJob, Requests, Batches int
	Others, OtherJobs, OtherRequests      int
}

// fullSizes are the figures: one account with 1,000,000 jobs
// (a delivered file each), 5,000,000 ledger rows, 2,000,000 request-log
// rows and 1,000 credit batches; 100 other accounts with 2,000 jobs and
// 4,000 calls each.
var fullSizes = sizes{
	Jobs:          1_000_000,
	LedgerPerJob:  5,
	Requests:      2_000_000,
	Batches:       1_000,
	Others:        100,
	OtherJobs:     2_000,
	OtherRequests: 4_000,
}

// scaled shrinks the figures by f (quick runs while developing).
func (s sizes) scaled(f float64) sizes {
	n := func(v int) int { return max(1, int(float64(v)*f)) }
	return sizes{Jobs: n(s.Jobs), LedgerPerJob: s.LedgerPerJob, Requests: n(s.Requests), Batches: s.Batches,
		Others: n(s.Others), OtherJobs: n(s.OtherJobs), OtherRequests: n(s.OtherRequests)}
}

// Spans of the seeded history: jobs over the last year, calls over the
// request log's 90-day retention.
const (
	jobSpanSeconds     = 365 * 24 * 3600
	requestSpanSeconds = 90 * 24 * 3600
	heavyEmail         = "heavy@bench.test"
)

// seeded is what the measurements need to know of the seed.
type seeded struct {
	UserID  uint64
	KeyIDs  []string // the keys the heavy account's jobs and calls were made with
	AsOf    time.Time
	Elapsed time.Duration
}

// seed fills an empty, migrated schema with INSERT … SELECT generate_series
// statements (no row crosses the network), as a bulk load: the rollup
// triggers off, then models.RebuildRollups.
func seed(ctx context.Context, db *gorm.DB, sz sizes, logf func(string, ...any)) (*seeded, error) {
	began := time.Now()
	asOf := time.Now().UTC().Truncate(time.Second)
	u, err := models.CreateUser(ctx, db, heavyEmail, models.PlanStandard)
	if err != nil {
		return nil, err
	}
	out := &seeded{UserID: u.ID, AsOf: asOf}
	for range 3 {
		k, _, err := models.CreateKey(ctx, db, u.ID, nil, nil, contract.CurrentVersion)
		if err != nil {
			return nil, err
		}
		out.KeyIDs = append(out.KeyIDs, k.ID)
	}
	// keys: the jobs and calls of the heavy account, the first key the
	// busiest, '' the app (jobs only).
	keys := fmt.Sprintf("ARRAY['%s','%s','%s','%s','']", out.KeyIDs[0], out.KeyIDs[0], out.KeyIDs[1], out.KeyIDs[2])
	step := func(what string, sql string, args ...any) error {
		t := time.Now()
		res := db.WithContext(ctx).Exec(sql, args...)
		if res.Error != nil {
			return fmt.Errorf("seed %s: %w", what, res.Error)
		}
		logf("seeded %-28s %9d rows in %s", what, res.RowsAffected, time.Since(t).Round(time.Millisecond))
		return nil
	}
	heavy := fmt.Sprintf("SELECT %d::bigint AS uid, %s AS keys", u.ID, keys)
	others := fmt.Sprintf("SELECT id AS uid, ARRAY['key_other' || id] AS keys FROM users WHERE id <> %d", u.ID)
	steps := []struct {
		what string
		sql  string
		args []any
	}{
		{"other users", `INSERT INTO users (email, plan, service_version, created_at)
			SELECT 'other' || i || '@bench.test', 'standard', ?, ? FROM generate_series(1, ?) i`, []any{contract.CurrentVersion,
			asOf, sz.Others}},
		{"other keys", `INSERT INTO api_keys (id, user_id, hash, hint, scopes, replaced_by, created_at)
			SELECT 'key_other' || u.id, u.id, md5('other' || u.id), 'tpk_xxxx…', 'jobs:read', '', ? FROM users u WHERE u.id
	<> ?`, []any{asOf, u.ID}},
		{"credit batches", batchesSQL, []any{u.ID, asOf, asOf, sz.Batches}},
		{
			"other credit batches",
			`INSERT INTO credit_batches (user_id, credit_type, amount, remaining, expires_at, source, created_at)
			SELECT u.id, 'service_credits', 1000, 500, ?::timestamptz + interval '30 days', 'grant', ? FROM users u,
	generate_series(1, 5) k WHERE u.id <> ?`,
			[]any{asOf, asOf, u.ID},
		},
		{"grants", `INSERT INTO ledger_entries (user_id, credit_type, kind, amount, batch_id, job_id, note, created_at)
			SELECT user_id, credit_type, 'grant', amount, id, '', source, created_at FROM credit_batches`, nil},
		{"jobs", jobsSQL(heavy), []any{sz.Jobs, asOf, jobSpanSeconds}},
		{"other jobs", jobsSQL(others), []any{sz.OtherJobs, asOf, jobSpanSeconds}},
		{"files", filesSQL, nil},
		{"ledger", ledgerSQL, []any{u.ID, sz.LedgerPerJob}},
		{"request log", requestsSQL(heavy), []any{sz.Requests, asOf, requestSpanSeconds}},
		{"other request log", requestsSQL(others), []any{sz.OtherRequests, asOf, requestSpanSeconds}},
	}
	// A bulk load: the rollup triggers are off while the rows go in, and the
	// rollups are computed from the rows once at the end.
	for _, table := range []string{"jobs", "request_logs"} {
		if err := db.WithContext(ctx).Exec("ALTER TABLE " + table + " DISABLE TRIGGER USER").Error; err != nil {
			return nil, err
		}
	}
	for _, s := range steps {
		if err := step(s.what, s.sql, s.args...); err != nil {
			return nil, err
		}
	}
	for _, table := range []string{"jobs", "request_logs"} {
		if err := db.WithContext(ctx).Exec("ALTER TABLE " + table + " ENABLE TRIGGER USER").Error; err != nil {
			return nil, err
		}
	}
	t := time.Now()
	if err := models.RebuildRollups(ctx, db); err != nil {
		return nil, err
	}
	logf("rebuilt the report rollups in %s", time.Since(t).Round(time.Millisecond))
	t = time.Now()
	for _, table := range []string{"users", "api_keys", "credit_batches", "jobs", "files", "ledger_entries",
		"request_logs",
		"usage_day_rollups", "job_day_rollups", "call_hour_rollups"} {
		if err := db.WithContext(ctx).Exec("VACUUM (ANALYZE) " + table).Error; err != nil {
			return nil, fmt.Errorf("vacuum %s: %w", table, err)
		}
	}
	logf("vacuumed and analyzed in %s", time.Since(t).Round(time.Millisecond))
	out.Elapsed = time.Since(began)
	return out, nil
}

// batchesSQL: 1,000 batches of the heavy account, 9 in 10 service credits;
// two in three expire (over the next two years), the rest never do.
const batchesSQL = `INSERT INTO credit_batches (user_id, credit_type, amount, remaining, expires_at, source, created_at)
SELECT ?, CASE WHEN k % 10 = 0 THEN 'model_credits' ELSE 'service_credits' END, 10000, 1 + (k * 7919) % 10000,
       CASE WHEN k % 3 = 0 THEN NULL ELSE ?::timestamptz + (k % 700 + 1) * interval '1 day' END, 'grant',
       ?::timestamptz - (k * interval '1 hour')
FROM generate_series(1, ?) k`

// jobColumns are written by jobsSQL.
const jobColumns = `id, user_id, api_key_id, task, input, lifecycle, outcome, progress_done, progress_total, phase,
	error,
	credit_type, held_credits, price_per_output, charged_credits, start_timeout_seconds, webhook_url, request_id,
	service_version,
	pending, settled_at, started_at, ended_at, created_at, updated_at`

// jobsSQL inserts, for every account of src (uid, keys), jobs 1 (newest)
// to total (the first argument), job i created asof - i*span/total seconds
// ago: queue time log-uniform in 20 ms..8 s, run time in 300 ms..45 s;
// 90 % succeed, 7 % fail (two codes), 3 % are cancelled; the newest 200
// are still queued or running and hold credits.
func jobsSQL(src string) string {
	return `WITH src AS (` + src + `), p AS (SELECT ?::int AS total, ?::timestamptz AS asof, ?::float8 AS span)
INSERT INTO jobs (` + jobColumns + `)
SELECT 'j_' || uid || '_' || i, uid, keys[1 + (i / 4) % cardinality(keys)],
       (ARRAY['pattern.generate','palette.generate','pattern.repeat','pattern.stripes'])[1 + i % 4],
       '{"kind":"houndstooth","colors":["#1F3A5F","#F2C14E"],"count":1,"seed":' || i || '}',
       CASE WHEN i <= 200 THEN (CASE WHEN i % 2 = 0 THEN 'queued' ELSE 'running' END) ELSE 'terminal' END,
       CASE WHEN i <= 200 THEN NULL WHEN i % 100 < 90 THEN 'succeeded' WHEN i % 100 < 97 THEN 'failed' ELSE
	'cancelled' END,
       CASE WHEN i <= 200 OR i % 100 >= 90 THEN 0 ELSE 1 END, 1, 'done',
       CASE WHEN i <= 200 OR i % 100 < 90 THEN NULL
            WHEN i % 100 < 94 THEN
              '{"type":"processing","code":"processing_failed","message":"The task could not produce an output."}'
            WHEN i % 100 < 97 THEN
              '{"type":"unavailable","code":"start_timeout","message":"The job did not start in time."}'
            ELSE '{"type":"conflict","code":"cancelled","message":"The job was cancelled."}' END,
       CASE WHEN i % 10 = 0 THEN 'model_credits' ELSE 'service_credits' END,
       4, 4,
       CASE WHEN i <= 200 OR i % 100 >= 90 THEN 0 ELSE 4 END, 0, '', 'req_' || uid || '_j' || i, '2026-01-01',
       false,
       CASE WHEN i <= 200 THEN NULL ELSE created + q + r END,
       CASE WHEN i <= 200 AND i % 2 = 0 THEN NULL ELSE created + q END,
       CASE WHEN i <= 200 THEN NULL ELSE created + q + r END,
       created, created + q + r
FROM (SELECT uid, keys, i, p.asof - (i::float8 * p.span / p.total) * interval '1 second' AS created,
             (20 * exp(random() * 6)) * interval '1 millisecond' AS q,
             (300 * exp(random() * 5)) * interval '1 millisecond' AS r
      FROM src, p, generate_series(1, p.total) i) s`
}

// filesSQL: one delivered output per job that delivered.
const filesSQL = `INSERT INTO files (id, user_id, job_id, idx, task, media_type, blob_key, size, data, source_url,
	external_id, created_at)
SELECT 'f' || substr(j.id, 2), j.user_id, j.id, 0, j.task, 'image/png', 'out/' || j.id || '/0.png', 123456,
	'{"width":512,"height":512}', '', '', j.ended_at
FROM jobs j WHERE j.progress_done > 0`

// ledgerSQL: the heavy account's entries: per job a hold, a release and
// charges from LedgerPerJob-2 batches (an unfinished job: its hold only);
// every other account's job a hold, release and charge.
const ledgerSQL = `INSERT INTO ledger_entries (user_id, credit_type, kind, amount, batch_id, job_id, note, created_at)
SELECT j.user_id, j.credit_type,
       CASE k WHEN 1 THEN 'hold' WHEN 2 THEN 'release' ELSE 'charge' END,
       CASE k WHEN 1 THEN -j.held_credits WHEN 2 THEN j.held_credits ELSE -1 END,
       CASE WHEN k <= 2 THEN 0 ELSE k END, j.id, '', COALESCE(j.settled_at, j.created_at)
FROM jobs j, generate_series(1, CASE WHEN j.user_id = ? THEN ?::int ELSE 3 END) k
WHERE k = 1 OR j.settled_at IS NOT NULL`

const requestColumns = `request_id, user_id, api_key_id, method, route, path, task, status, error_code, duration_ms,` +
	` client_request_id, service_version, created_at`

// requestsSQL inserts, for every account of src, calls 1 (newest) to
// total: a third submit a task, the rest read jobs; 4 % are refused
// invalid_request, 1 % rate_limited. Calls are made with keys only.
func requestsSQL(src string) string {
	return `WITH src AS (` + src + `), p AS (SELECT ?::int AS total, ?::timestamptz AS asof, ?::float8 AS span)
INSERT INTO request_logs (` + requestColumns + `)
SELECT 'req_' || uid || '_' || i, uid, keys[1 + (i / 3) % (cardinality(keys) - CASE WHEN keys[cardinality(keys)] =
	'' THEN 1 ELSE 0 END)],
       CASE WHEN i % 3 = 0 THEN 'POST' ELSE 'GET' END,
       CASE WHEN i % 3 = 0 THEN '/v1/tasks/{name}' ELSE '/v1/jobs/{job_id}' END,
       CASE WHEN i % 3 = 0 THEN '/v1/tasks/pattern.generate' ELSE '/v1/jobs/j_' || uid || '_' || i END,
       CASE WHEN i % 3 = 0 THEN (ARRAY['pattern.generate','palette.generate','pattern.repeat','pattern.stripes'])[1
	+ (i / 3) % 4] ELSE '' END,
       CASE WHEN i % 100 < 95 THEN (CASE WHEN i % 3 = 0 THEN 202 ELSE 200 END) WHEN i % 100 < 99 THEN 422 ELSE 429 END,
       CASE WHEN i % 100 < 95 THEN '' WHEN i % 100 < 99 THEN 'invalid_request' ELSE 'rate_limited' END,
       5 + i % 40, '', '2026-01-01', p.asof - (i::float8 * p.span / p.total) * interval '1 second'
FROM src, p, generate_series(1, p.total) i`
}
