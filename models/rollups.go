package models

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Rollups (PostgreSQL only) keep the account reports flat as data grows:
// usage and metrics over 90 days read per-day (jobs) and per-hour (calls)
// sums instead of every row. Triggers keep them, so a rollup always equals
// the aggregate of the rows it summarises, whoever writes the rows:
//
//   - usage_day_rollups: jobs settled per (user, UTC day of settled_at,
//     task, key, credit type) and the credits charged.
//   - job_day_rollups: jobs created per (user, dimension, UTC day of
//     created_at, value) by how they ended, the credits charged, and their
//     queue (created→started) and run (started→ended) times in milliseconds
//     as histograms: queue_ms[b+1] is the number of samples in bucket b of
//     bucketSQL (exact below 16 ms, then 8 buckets per power of two, each
//     about 9 % of its values wide). The dimensions are the metrics
//     groupings: day (value ''), task, key and error (only jobs whose error
//     object has a code).
//   - call_hour_rollups: calls per (user, dimension, UTC hour, value) and
//     those answered with a status of 400 or more.
//
// SQLite (dev) has none of them: reports read the rows.

// rollupTables are the rollup tables, for RebuildRollups.
var rollupTables = []string{"usage_day_rollups", "job_day_rollups", "call_hour_rollups"}

// rollupDDL creates the rollup tables, the functions that say what a job or
// a call adds to them, and the triggers that keep them; running it again
// changes nothing (a migration re-applied after its record was lost).
const rollupDDL = `
CREATE TABLE IF NOT EXISTS usage_day_rollups (
	user_id bigint NOT NULL, day date NOT NULL, task text NOT NULL, api_key_id text NOT NULL, credit_type text NOT NULL,
	jobs bigint NOT NULL, credits_charged bigint NOT NULL,
	PRIMARY KEY (user_id, day, task, api_key_id, credit_type));
CREATE TABLE IF NOT EXISTS job_day_rollups (
	user_id bigint NOT NULL, dim text NOT NULL, day date NOT NULL, val text NOT NULL,
	total bigint NOT NULL, succeeded bigint NOT NULL, failed bigint NOT NULL, cancelled bigint NOT NULL, unfinished
	bigint NOT NULL,
	credits_charged bigint NOT NULL, queue_ms int[] NOT NULL, run_ms int[] NOT NULL,
	PRIMARY KEY (user_id, dim, day, val));
CREATE TABLE IF NOT EXISTS call_hour_rollups (
	user_id bigint NOT NULL, dim text NOT NULL, hour timestamptz NOT NULL, val text NOT NULL,
	calls bigint NOT NULL, errors bigint NOT NULL,
	PRIMARY KEY (user_id, dim, hour, val));

-- The code of a job's error object, as the metrics read it: NULL when the
-- text is not a JSON object with a string code.
CREATE OR REPLACE FUNCTION tp_error_code(e text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF e IS NULL OR left(ltrim(e), 1) <> '{' THEN
		RETURN NULL;
	END IF;
	BEGIN
		RETURN CASE WHEN jsonb_typeof(e::jsonb -> 'code') = 'string' THEN nullif(e::jsonb ->> 'code', '') END;
	EXCEPTION WHEN others THEN
		RETURN NULL;
	END;
END $$;

-- A histogram of n[i] samples in bucket b[i] (NULL buckets skipped). In
-- SQL: a PL/pgSQL loop over a large array costs several times more.
CREATE OR REPLACE FUNCTION tp_hist(b int[], n bigint[]) RETURNS int[] LANGUAGE sql IMMUTABLE AS $$
	SELECT COALESCE(array_agg(COALESCE(s.c, 0)::int ORDER BY i), '{}')
	FROM generate_series(0, (SELECT max(x) FROM unnest(b) x)) i
	LEFT JOIN (SELECT x, sum(y) AS c FROM unnest(b, n) u(x, y) WHERE x IS NOT NULL GROUP BY x) s ON s.x = i
$$;
-- What job j adds (s = 1) to or takes (s = -1) from the rollups.
CREATE OR REPLACE FUNCTION tp_job_usage(j jobs, s int) RETURNS TABLE (user_id bigint, day date, task text,
	api_key_id text, credit_type text, jobs bigint, credits bigint)
LANGUAGE sql STABLE AS $$
	SELECT j.user_id, (j.settled_at AT TIME ZONE 'UTC')::date, j.task, j.api_key_id, j.credit_type, s, s *
	j.charged_credits
	WHERE j.id IS NOT NULL AND j.settled_at IS NOT NULL
$$;
CREATE OR REPLACE FUNCTION tp_job_facts(j jobs, s int) RETURNS TABLE (user_id bigint, dim text, day date, val text,
	total bigint, succeeded bigint, failed bigint, cancelled bigint, unfinished bigint, credits bigint, queue_bucket
	int, run_bucket int)
LANGUAGE sql STABLE AS $$
	SELECT j.user_id, x.dim, (j.created_at AT TIME ZONE 'UTC')::date, x.val, s,
	       CASE WHEN j.outcome = 'succeeded' THEN s ELSE 0 END, CASE WHEN j.outcome = 'failed' THEN s ELSE 0 END,
	       CASE WHEN j.outcome = 'cancelled' THEN s ELSE 0 END, CASE WHEN j.outcome IS NULL THEN s ELSE 0 END, s *
	j.charged_credits,
	       {{bucket d.q}}, {{bucket d.r}}
	FROM (VALUES ('day', ''), ('task', j.task), ('key', j.api_key_id), ('error', tp_error_code(j.error))) x(dim, val),
	     (SELECT {{ms j.created_at j.started_at}} AS q, {{ms j.started_at j.ended_at}} AS r) d
	WHERE j.id IS NOT NULL AND x.val IS NOT NULL
$$;
-- What a call adds to call_hour_rollups.
CREATE OR REPLACE FUNCTION tp_call_facts(p_user bigint, p_at timestamptz, p_task text, p_key text, p_code text,
	p_status bigint)
RETURNS TABLE (user_id bigint, dim text, hour timestamptz, val text, errors bigint)
LANGUAGE sql IMMUTABLE AS $$
	SELECT p_user, x.dim, date_trunc('hour', p_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', x.val, CASE WHEN p_status >=
	400 THEN 1 ELSE 0 END
	FROM (VALUES ('day', ''), ('task', nullif(p_task, '')), ('key', p_key), ('error', nullif(p_code, ''))) x(dim, val)
	WHERE x.val IS NOT NULL
$$;

-- A histogram with s more samples in bucket b (none when b is NULL),
-- grown with empty buckets as needed.
CREATE OR REPLACE FUNCTION tp_hist_bump(h int[], b int, s int) RETURNS int[] LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF b IS NULL OR s = 0 THEN
		RETURN h;
	END IF;
	IF h IS NULL OR cardinality(h) = 0 THEN
		h := array_fill(0, ARRAY[b + 1]);
	ELSIF cardinality(h) < b + 1 THEN
		h := h || array_fill(0, ARRAY[b + 1 - cardinality(h)]);
	END IF;
	h[b + 1] := h[b + 1] + s;
	RETURN h;
END $$;

-- Adds counts to one cell of job_day_rollups and moves a queue and a run
-- sample between buckets (from: one less; to: one more; NULL: none).
CREATE OR REPLACE FUNCTION tp_job_cell(p_user bigint, p_dim text, p_day date, p_val text,
	d_total int, d_succeeded int, d_failed int, d_cancelled int, d_unfinished int, d_credits bigint,
	q_from int, q_to int, r_from int, r_to int) RETURNS void LANGUAGE sql AS $$
	INSERT INTO job_day_rollups AS t (user_id, dim, day, val, total, succeeded, failed, cancelled, unfinished,
	credits_charged, queue_ms, run_ms)
	VALUES (p_user, p_dim, p_day, p_val, d_total, d_succeeded, d_failed, d_cancelled, d_unfinished, d_credits,
	        tp_hist_bump(tp_hist_bump('{}', q_from, -1), q_to, 1), tp_hist_bump(tp_hist_bump('{}', r_from, -1), r_to, 1))
	ON CONFLICT (user_id, dim, day, val) DO UPDATE
	SET total = t.total + excluded.total, succeeded = t.succeeded + excluded.succeeded, failed = t.failed +
	excluded.failed,
	    cancelled = t.cancelled + excluded.cancelled, unfinished = t.unfinished + excluded.unfinished,
	    credits_charged = t.credits_charged + excluded.credits_charged,
	    queue_ms = tp_hist_bump(tp_hist_bump(t.queue_ms, q_from, -1), q_to, 1),
	    run_ms = tp_hist_bump(tp_hist_bump(t.run_ms, r_from, -1), r_to, 1)
$$;

-- Adds to one cell of usage_day_rollups.
CREATE OR REPLACE FUNCTION tp_usage_cell(p_user bigint, p_day date, p_task text, p_key text, p_type text, d_jobs
	int, d_credits bigint)
RETURNS void LANGUAGE sql AS $$
	INSERT INTO usage_day_rollups AS t (user_id, day, task, api_key_id, credit_type, jobs, credits_charged)
	VALUES (p_user, p_day, p_task, p_key, p_type, d_jobs, d_credits)
	ON CONFLICT (user_id, day, task, api_key_id, credit_type) DO UPDATE
	SET jobs = t.jobs + excluded.jobs, credits_charged = t.credits_charged + excluded.credits_charged
$$;

-- The row trigger: moves a job's contribution (tp_job_facts, tp_job_usage)
-- from its old row to its new one, writing only the cells that change —
-- one statement per cell, the cells in one order (day, task, key, error).
CREATE OR REPLACE FUNCTION tp_jobs_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	has_old bool := TG_OP <> 'INSERT';
	has_new bool := TG_OP <> 'DELETE';
	o_day date; n_day date;
	o_q int; n_q int; o_r int; n_r int;
	o_code text; n_code text;
	o_v int[]; n_v int[]; -- total, succeeded, failed, cancelled, unfinished
	o_c bigint := 0; n_c bigint := 0;
	o_val text; n_val text;
	dim text;
BEGIN
	IF has_old THEN
		o_day := (OLD.created_at AT TIME ZONE 'UTC')::date;
		o_q := {{bucket old queue}};
		o_r := {{bucket old run}};
		o_code := tp_error_code(OLD.error);
		o_v := ARRAY[1, (OLD.outcome = 'succeeded')::int, (OLD.outcome = 'failed')::int, (OLD.outcome = 'cancelled')::int,
	 (OLD.outcome IS NULL)::int];
		o_v := ARRAY[1, COALESCE(o_v[2], 0), COALESCE(o_v[3], 0), COALESCE(o_v[4], 0), o_v[5]];
		o_c := OLD.charged_credits;
	END IF;
	IF has_new THEN
		n_day := (NEW.created_at AT TIME ZONE 'UTC')::date;
		n_q := {{bucket new queue}};
		n_r := {{bucket new run}};
		n_code := tp_error_code(NEW.error);
		n_v := ARRAY[1, (NEW.outcome = 'succeeded')::int, (NEW.outcome = 'failed')::int, (NEW.outcome = 'cancelled')::int,
	 (NEW.outcome IS NULL)::int];
		n_v := ARRAY[1, COALESCE(n_v[2], 0), COALESCE(n_v[3], 0), COALESCE(n_v[4], 0), n_v[5]];
		n_c := NEW.charged_credits;
	END IF;
	FOREACH dim IN ARRAY ARRAY['day', 'task', 'key', 'error'] LOOP
		o_val := NULL; n_val := NULL;
		IF has_old THEN
			o_val := CASE dim WHEN 'day' THEN '' WHEN 'task' THEN OLD.task WHEN 'key' THEN OLD.api_key_id ELSE o_code END;
		END IF;
		IF has_new THEN
			n_val := CASE dim WHEN 'day' THEN '' WHEN 'task' THEN NEW.task WHEN 'key' THEN NEW.api_key_id ELSE n_code END;
		END IF;
		IF o_val IS NOT NULL AND n_val IS NOT NULL AND OLD.user_id = NEW.user_id AND o_day = n_day AND o_val = n_val THEN
			IF o_v <> n_v OR o_c <> n_c OR o_q IS DISTINCT FROM n_q OR o_r IS DISTINCT FROM n_r THEN
				PERFORM tp_job_cell(NEW.user_id, dim, n_day, n_val, 0, n_v[2] - o_v[2], n_v[3] - o_v[3], n_v[4] - o_v[4],
	n_v[5] - o_v[5], n_c - o_c,
					CASE WHEN o_q IS DISTINCT FROM n_q THEN o_q END, CASE WHEN o_q IS DISTINCT FROM n_q THEN n_q END,
					CASE WHEN o_r IS DISTINCT FROM n_r THEN o_r END, CASE WHEN o_r IS DISTINCT FROM n_r THEN n_r END);
			END IF;
		ELSE
			IF o_val IS NOT NULL THEN
				PERFORM tp_job_cell(OLD.user_id, dim, o_day, o_val, -1, -o_v[2], -o_v[3], -o_v[4], -o_v[5], -o_c, o_q, NULL,
	o_r, NULL);
			END IF;
			IF n_val IS NOT NULL THEN
				PERFORM tp_job_cell(NEW.user_id, dim, n_day, n_val, 1, n_v[2], n_v[3], n_v[4], n_v[5], n_c, NULL, n_q, NULL, n_r);
			END IF;
		END IF;
	END LOOP;
	IF has_old AND has_new AND OLD.settled_at IS NOT NULL AND NEW.settled_at IS NOT NULL AND OLD.user_id = NEW.user_id
	   AND (OLD.settled_at AT TIME ZONE 'UTC')::date = (NEW.settled_at AT TIME ZONE 'UTC')::date
	   AND OLD.task = NEW.task AND OLD.api_key_id = NEW.api_key_id AND OLD.credit_type = NEW.credit_type THEN
		IF o_c <> n_c THEN
			PERFORM tp_usage_cell(NEW.user_id, (NEW.settled_at AT TIME ZONE 'UTC')::date, NEW.task, NEW.api_key_id,
	NEW.credit_type, 0, n_c - o_c);
		END IF;
	ELSE
		IF has_old AND OLD.settled_at IS NOT NULL THEN
			PERFORM tp_usage_cell(OLD.user_id, (OLD.settled_at AT TIME ZONE 'UTC')::date, OLD.task, OLD.api_key_id,
	OLD.credit_type, -1, -o_c);
		END IF;
		IF has_new AND NEW.settled_at IS NOT NULL THEN
			PERFORM tp_usage_cell(NEW.user_id, (NEW.settled_at AT TIME ZONE 'UTC')::date, NEW.task, NEW.api_key_id,
	NEW.credit_type, 1, n_c);
		END IF;
	END IF;
	RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS jobs_rollup_insert_delete ON jobs;
CREATE TRIGGER jobs_rollup_insert_delete AFTER INSERT OR DELETE ON jobs FOR EACH ROW EXECUTE FUNCTION tp_jobs_rollup();
DROP TRIGGER IF EXISTS jobs_rollup_update ON jobs;
CREATE TRIGGER jobs_rollup_update AFTER UPDATE OF user_id, api_key_id, task, credit_type, outcome, error,
	charged_credits, settled_at, started_at, ended_at, created_at
	ON jobs FOR EACH ROW
	WHEN ((OLD.user_id, OLD.api_key_id, OLD.task, OLD.credit_type, OLD.outcome, OLD.error, OLD.charged_credits,
	OLD.settled_at, OLD.started_at, OLD.ended_at, OLD.created_at)
	      IS DISTINCT FROM (NEW.user_id, NEW.api_key_id, NEW.task, NEW.credit_type, NEW.outcome, NEW.error,
	NEW.charged_credits, NEW.settled_at, NEW.started_at, NEW.ended_at, NEW.created_at))
	EXECUTE FUNCTION tp_jobs_rollup();

-- Calls are written in batches: one upsert per statement, from its
-- transition tables. Rows a delete empties are removed.
CREATE OR REPLACE FUNCTION tp_request_logs_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO call_hour_rollups AS t (user_id, dim, hour, val, calls, errors)
		SELECT f.user_id, f.dim, f.hour, f.val, count(*), sum(f.errors)
		FROM new_rows r, LATERAL tp_call_facts(r.user_id, r.created_at, r.task, r.api_key_id, r.error_code, r.status) f
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (user_id, dim, hour, val) DO UPDATE SET calls = t.calls + excluded.calls, errors = t.errors +
	excluded.errors;
		RETURN NULL;
	END IF;
	INSERT INTO call_hour_rollups AS t (user_id, dim, hour, val, calls, errors)
	SELECT f.user_id, f.dim, f.hour, f.val, -count(*), -sum(f.errors)
	FROM old_rows r, LATERAL tp_call_facts(r.user_id, r.created_at, r.task, r.api_key_id, r.error_code, r.status) f
	GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT (user_id, dim, hour, val) DO UPDATE SET calls = t.calls + excluded.calls, errors = t.errors +
	excluded.errors;
	IF TG_OP = 'UPDATE' THEN
		INSERT INTO call_hour_rollups AS t (user_id, dim, hour, val, calls, errors)
		SELECT f.user_id, f.dim, f.hour, f.val, count(*), sum(f.errors)
		FROM new_rows r, LATERAL tp_call_facts(r.user_id, r.created_at, r.task, r.api_key_id, r.error_code, r.status) f
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT (user_id, dim, hour, val) DO UPDATE SET calls = t.calls + excluded.calls, errors = t.errors +
	excluded.errors;
	END IF;
	DELETE FROM call_hour_rollups t
	USING (SELECT DISTINCT f.user_id, f.dim, f.hour, f.val
	       FROM old_rows r, LATERAL tp_call_facts(r.user_id, r.created_at, r.task, r.api_key_id, r.error_code,
	r.status) f) d
	WHERE t.user_id = d.user_id AND t.dim = d.dim AND t.hour = d.hour AND t.val = d.val AND t.calls = 0;
	RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS request_logs_rollup_insert ON request_logs;
CREATE TRIGGER request_logs_rollup_insert AFTER INSERT ON request_logs REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tp_request_logs_rollup();
DROP TRIGGER IF EXISTS request_logs_rollup_delete ON request_logs;
CREATE TRIGGER request_logs_rollup_delete AFTER DELETE ON request_logs REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tp_request_logs_rollup();
DROP TRIGGER IF EXISTS request_logs_rollup_update ON request_logs;
CREATE TRIGGER request_logs_rollup_update AFTER UPDATE ON request_logs REFERENCING OLD TABLE AS old_rows NEW TABLE
	AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tp_request_logs_rollup();
`

// rebuildSQL fills empty rollups from the rows, each in the order of its
// key so a day's rows sit together (the migration's backfill, and after a
// bulk load made with the triggers disabled).
var rebuildSQL = []string{
	`INSERT INTO usage_day_rollups (user_id, day, task, api_key_id, credit_type, jobs, credits_charged)
	 SELECT f.user_id, f.day, f.task, f.api_key_id, f.credit_type, sum(f.jobs), sum(f.credits)
	 FROM jobs j, LATERAL tp_job_usage(j, 1) f GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
	`CREATE TEMPORARY TABLE tp_job_facts_rebuild ON COMMIT DROP AS SELECT f.* FROM jobs j, LATERAL tp_job_facts(j, 1) f`,
	`INSERT INTO job_day_rollups (user_id, dim, day, val, total, succeeded, failed, cancelled, unfinished,
	credits_charged, queue_ms, run_ms)
	 SELECT c.user_id, c.dim, c.day, c.val, c.total, c.succeeded, c.failed, c.cancelled, c.unfinished, c.credits,
	        COALESCE(q.h, '{}'), COALESCE(r.h, '{}')
	 FROM (SELECT user_id, dim, day, val, sum(total) AS total, sum(succeeded) AS succeeded, sum(failed) AS failed,
	              sum(cancelled) AS cancelled, sum(unfinished) AS unfinished, sum(credits) AS credits
	       FROM tp_job_facts_rebuild GROUP BY 1, 2, 3, 4) c
	 LEFT JOIN (SELECT user_id, dim, day, val, tp_hist(array_agg(b), array_agg(n)) AS h
	            FROM (SELECT user_id, dim, day, val, queue_bucket AS b, count(*) AS n FROM tp_job_facts_rebuild
	                  WHERE queue_bucket IS NOT NULL GROUP BY 1, 2, 3, 4, 5) s GROUP BY 1, 2, 3, 4) q USING (user_id,
	dim, day, val)
	 LEFT JOIN (SELECT user_id, dim, day, val, tp_hist(array_agg(b), array_agg(n)) AS h
	            FROM (SELECT user_id, dim, day, val, run_bucket AS b, count(*) AS n FROM tp_job_facts_rebuild
	                  WHERE run_bucket IS NOT NULL GROUP BY 1, 2, 3, 4, 5) s GROUP BY 1, 2, 3, 4) r USING (user_id,
	dim, day, val)
	 ORDER BY 1, 2, 3, 4`,
	`DROP TABLE tp_job_facts_rebuild`,
	`INSERT INTO call_hour_rollups (user_id, dim, hour, val, calls, errors)
	 SELECT f.user_id, f.dim, f.hour, f.val, count(*), sum(f.errors)
	 FROM request_logs r, LATERAL tp_call_facts(r.user_id, r.created_at, r.task, r.api_key_id, r.error_code, r.status) f
	 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
}

// scaleIndexes are migration 0007's indexes: the listings newest first
// (jobs and calls of one key, a user's outputs and own files), usage by
// settlement time, a user's open holds (every balance and admit), and the
// request log by age (retention). PostgreSQL's also carry the held credits.
var scaleIndexes = []string{
	"CREATE INDEX IF NOT EXISTS idx_jobs_user_key_created ON jobs (user_id, api_key_id, created_at, id)",
	"CREATE INDEX IF NOT EXISTS idx_jobs_user_settled ON jobs (user_id, settled_at) WHERE settled_at IS NOT NULL",
	"CREATE INDEX IF NOT EXISTS idx_jobs_user_unsettled ON jobs (user_id, credit_type) %s WHERE settled_at IS NULL",
	"CREATE INDEX IF NOT EXISTS idx_request_logs_user_key_created ON request_logs (user_id, api_key_id, created_at, id)",
	"CREATE INDEX IF NOT EXISTS idx_request_logs_created ON request_logs (created_at)",
	"CREATE INDEX IF NOT EXISTS idx_files_user_outputs ON files (user_id, created_at, id) WHERE job_id <> '' AND " +
		"deleted_at IS NULL",
	"CREATE INDEX IF NOT EXISTS idx_files_user_own ON files (user_id, created_at, id) WHERE job_id = '' AND deleted_at " +
		"IS NULL",
}

// migrateScale is migration 0007: the indexes, and on PostgreSQL the
// rollups of the account reports.
func migrateScale(tx *gorm.DB) error {
	include := ""
	if IsPostgres(tx) {
		include = "INCLUDE (held_credits)"
	}
	for _, ddl := range scaleIndexes {
		if strings.Contains(ddl, "%s") {
			ddl = fmt.Sprintf(ddl, include)
		}
		if err := tx.Exec(ddl).Error; err != nil {
			return fmt.Errorf("0007: %w", err)
		}
	}
	if !IsPostgres(tx) {
		return nil
	}
	return createRollups(tx)
}

// rollupSQL is rollupDDL with the duration and bucket expressions written in.
func rollupSQL() string {
	return strings.NewReplacer("{{bucket d.q}}", bucketSQL("d.q"), "{{bucket d.r}}", bucketSQL("d.r"),
		"{{bucket old queue}}", bucketSQL(durationSQL("OLD.created_at", "OLD.started_at")),
		"{{bucket old run}}", bucketSQL(durationSQL("OLD.started_at", "OLD.ended_at")),
		"{{bucket new queue}}", bucketSQL(durationSQL("NEW.created_at", "NEW.started_at")),
		"{{bucket new run}}", bucketSQL(durationSQL("NEW.started_at", "NEW.ended_at")),
		"{{ms j.created_at j.started_at}}", durationSQL("j.created_at", "j.started_at"),
		"{{ms j.started_at j.ended_at}}", durationSQL("j.started_at", "j.ended_at")).Replace(rollupDDL)
}

// createRollups is the PostgreSQL part of migration 0007: the rollups,
// their triggers, and a backfill from the rows already there.
func createRollups(tx *gorm.DB) error {
	if err := tx.Exec(rollupSQL()).Error; err != nil {
		return fmt.Errorf("create rollups: %w", err)
	}
	return rebuild(tx)
}

func rebuild(tx *gorm.DB) error {
	if err := tx.Exec("LOCK TABLE jobs, request_logs IN SHARE MODE").Error; err != nil {
		return fmt.Errorf("lock for the rollups: %w", err)
	}
	if err := tx.Exec("TRUNCATE " + strings.Join(rollupTables, ", ")).Error; err != nil {
		return fmt.Errorf("empty the rollups: %w", err)
	}
	for _, q := range rebuildSQL {
		if err := tx.Exec(q).Error; err != nil {
			return fmt.Errorf("fill the rollups: %w", err)
		}
	}
	return nil
}

// RebuildRollups recomputes every rollup from the rows, writes to jobs and
// the request log waiting meanwhile. It is for after a bulk load made with
// the triggers disabled (ALTER TABLE … DISABLE TRIGGER USER); on SQLite it
// does nothing.
func RebuildRollups(ctx context.Context, db *gorm.DB) error {
	if !IsPostgres(db) {
		return nil
	}
	return db.WithContext(ctx).Transaction(rebuild)
}

// bucketSQL is the histogram bucket of the duration in milliseconds x (a
// bigint expression, NULL for none) in SQL: the value itself below 16, then
// 8 buckets per power of two (bucketBounds). The rollup triggers and the
// metrics queries use it spelled out, not through a function: a function
// call per row costs more than the rest of the query.
func bucketSQL(x string) string {
	return "CASE WHEN " + x + " < 16 THEN greatest(" + x + ", 0)::int ELSE floor(8 * ln((" + x + ")::float8) / " +
		"ln(2::float8))::int - 16 END"
}

// durationSQL is the milliseconds from one timestamp expression to another
// (NULL when either is), truncated as time.Duration.Milliseconds does:
// whole microseconds from a float8 epoch (exact to 2^53), then an integer
// division. Numeric arithmetic (extract) costs ten times more per row.
func durationSQL(from, to string) string {
	return "((date_part('epoch', " + to + " - " + from + ") * 1000000)::bigint / 1000)"
}

// bucketBounds are the least value of bucket b of bucketSQL and its width.
func bucketBounds(b int) (lo, width float64) {
	if b < 16 {
		return float64(b), 1
	}
	lo = math.Exp2(float64(b+16) / 8)
	return lo, math.Exp2(float64(b+17)/8) - lo
}

// fullDays is the run of whole UTC days inside [start, end): from the
// first midnight at or after start to the last midnight at or before end.
// first is not before last when there is none.
func fullDays(start, end time.Time) (first, last time.Time) {
	return ceilTo(start, 24*time.Hour), end.UTC().Truncate(24 * time.Hour)
}

// fullHours is fullDays for whole UTC hours.
func fullHours(start, end time.Time) (first, last time.Time) {
	return ceilTo(start, time.Hour), end.UTC().Truncate(time.Hour)
}

func ceilTo(t time.Time, d time.Duration) time.Time {
	f := t.UTC().Truncate(d)
	if f.Before(t) {
		f = f.Add(d)
	}
	return f
}
