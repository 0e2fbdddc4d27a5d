package models

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"gorm.io/gorm"
)

// UsageRow is the spend of one (task, key, credit type): jobs settled in the
// window and the credits they were charged. APIKeyID is nil for jobs started
// in the app.
type UsageRow struct {
	Task           string  `json:"task"`
	APIKeyID       *string `json:"api_key_id"`
	CreditType     string  `json:"credit_type"`
	Jobs           int64   `json:"jobs"`
	CreditsCharged int64   `json:"credits_charged"`
}

// Usage reports a user's spend in [start, end): jobs settled in the window,
// grouped by task, key and credit type, in that order. On PostgreSQL the
// whole UTC days of the window are read from usage_day_rollups and only the
// partial days at its ends from the jobs.
func Usage(ctx context.Context, db *gorm.DB, userID uint64, start, end time.Time) ([]UsageRow, error) {
	var rows []struct {
		Task, APIKeyID, CreditType string
		Jobs, CreditsCharged       int64
	}
	var err error
	if first, last := fullDays(start, end); IsPostgres(db) && first.Before(last) {
		err = db.WithContext(ctx).
			Raw(`SELECT task, api_key_id, credit_type, SUM(jobs) AS jobs, SUM(credits_charged) AS credits_charged FROM (
	SELECT task, api_key_id, credit_type, jobs, credits_charged FROM usage_day_rollups WHERE user_id = ? AND day >= ?
	AND day < ?
	UNION ALL SELECT task, api_key_id, credit_type, 1, charged_credits FROM jobs WHERE user_id = ? AND settled_at >= ?
	AND settled_at < ?
	UNION ALL SELECT task, api_key_id, credit_type, 1, charged_credits FROM jobs WHERE user_id = ? AND settled_at >= ?
	AND settled_at < ?
) u GROUP BY task, api_key_id, credit_type HAVING SUM(jobs) > 0 ORDER BY task, api_key_id, credit_type`,
				userID, first, last, userID, start, first, userID, last, end).
			Scan(&rows).
			Error
	} else {
		err = db.WithContext(ctx).Model(&Job{}).
			Select("task, api_key_id, credit_type, COUNT(*) AS jobs, COALESCE(SUM(charged_credits), 0) AS credits_charged").
			Where("user_id = ? AND settled_at >= ? AND settled_at < ?", userID, start, end).
			Group("task, api_key_id, credit_type").Order("task, api_key_id, credit_type").Scan(&rows).Error
	}
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	out := make([]UsageRow, 0, len(rows))
	for _, r := range rows {
		out = append(
			out,
			UsageRow{
				Task:           r.Task,
				APIKeyID:       nonEmpty(r.APIKeyID),
				CreditType:     r.CreditType,
				Jobs:           r.Jobs,
				CreditsCharged: r.CreditsCharged,
			},
		)
	}
	return out, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Metrics groupings.
const (
	GroupDay   = "day"
	GroupTask  = "task"
	GroupKey   = "key"
	GroupError = "error"
)

// JobCounts are the jobs of a metrics row by how they ended.
type JobCounts struct {
	Total      int64 `json:"total"`
	Succeeded  int64 `json:"succeeded"`
	Failed     int64 `json:"failed"`
	Cancelled  int64 `json:"cancelled"`
	Unfinished int64 `json:"unfinished"`
}

// Percentiles are p50 and p95 of durations in milliseconds; nil without samples.
type Percentiles struct {
	P50 *int64
	P95 *int64
}

// MetricsRow is one group of the metrics report. Group is the day
// (YYYY-MM-DD, UTC), task name, key id ("" for the app) or error code.
type MetricsRow struct {
	Group string    `json:"-"`
	Jobs  JobCounts `json:"jobs"`
	// QueueMSP50 … RunMSP95 are the percentiles of the group's queue and
	// run times, integer milliseconds as every *_ms field; null without
	// samples.
	QueueMSP50     *int64 `json:"queue_ms_p50"`
	QueueMSP95     *int64 `json:"queue_ms_p95"`
	RunMSP50       *int64 `json:"run_ms_p50"`
	RunMSP95       *int64 `json:"run_ms_p95"`
	CreditsCharged int64  `json:"credits_charged"`
	Calls          int64  `json:"calls"`
	CallErrors     int64  `json:"call_errors"`
}

// MetricsQuery is what a metrics report covers: jobs created in
// [Start, End) and calls made by keys in [CallsFrom, End).
type MetricsQuery struct {
	UserID     uint64
	GroupBy    string
	Start, End time.Time
	CallsFrom  time.Time
}

// exactJobs is the most jobs a metrics report reads row by row on
// PostgreSQL: past it, the whole days of the window come from the rollups
// and their durations from histograms.
const exactJobs = 2000

// metricsAcc is one group of a report being built: its row, and its
// durations as exact samples (rows read) and histogram buckets (rollups).
type metricsAcc struct {
	row          MetricsRow
	queue, runMS []int64
	hist         map[string][]int64 // kind (queue, run) → samples per bucket of bucketSQL
}

// Metrics reports a user's jobs (counts, outcomes, queue time created→started
// and run time started→ended, credits charged) and calls, one row per group
// ordered by group. Grouped by error, a row counts the jobs that ended with
// the code and the calls answered with it.
//
// On PostgreSQL, when the whole UTC days of the window hold more than
// exactJobs jobs, those days are read from job_day_rollups, and only the
// partial days at the window's ends aggregated from the jobs (rolledMetrics);
// the percentiles are then estimated from histograms
// (metricsAcc.percentiles). Call counts read call_hour_rollups for
// the whole hours of their window.
func Metrics(ctx context.Context, db *gorm.DB, q MetricsQuery) ([]MetricsRow, error) {
	groups := map[string]*metricsAcc{}
	acc := func(g string) *metricsAcc {
		if groups[g] == nil {
			groups[g] = &metricsAcc{row: MetricsRow{Group: g}}
		}
		return groups[g]
	}
	ranges := [][2]time.Time{{q.Start, q.End}}
	if first, last := fullDays(q.Start, q.End); IsPostgres(db) && first.Before(last) {
		rolled, err := rolledMetrics(ctx, db, q, first, last, acc)
		if err != nil {
			return nil, err
		}
		if rolled {
			ranges = nil
		}
	}
	for _, r := range ranges {
		if err := jobMetrics(ctx, db, q, r[0], r[1], acc); err != nil {
			return nil, err
		}
	}
	calls, err := callCounts(ctx, db, q)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		a := acc(c.G)
		a.row.Calls, a.row.CallErrors = c.Calls, c.Errors
	}
	out := make([]MetricsRow, 0, len(groups))
	for _, a := range groups {
		q, r := a.percentiles("queue", a.queue), a.percentiles("run", a.runMS)
		a.row.QueueMSP50, a.row.QueueMSP95, a.row.RunMSP50, a.row.RunMSP95 = q.P50, q.P95, r.P50, r.P95
		out = append(out, a.row)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Group < out[k].Group })
	return out, nil
}

// jobMetrics adds the jobs created in [from, to) row by row.
func jobMetrics(
	ctx context.Context,
	db *gorm.DB,
	q MetricsQuery,
	from, to time.Time,
	acc func(string) *metricsAcc,
) error {
	if !from.Before(to) {
		return nil
	}
	rows, err := db.WithContext(ctx).
		Model(&Job{}).
		Select("task, api_key_id, outcome, error, charged_credits, created_at, started_at, ended_at").
		Where("user_id = ? AND created_at >= ? AND created_at < ?", q.UserID, from, to).
		Rows()
	if err != nil {
		return fmt.Errorf("metrics jobs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var j Job
		if err := rows.Scan(&j.Task, &j.APIKeyID, &j.Outcome, &j.Error, &j.ChargedCredits, &j.CreatedAt, &j.StartedAt,
			&j.EndedAt); err != nil {
			return fmt.Errorf("metrics jobs: %w", err)
		}
		g, ok := jobGroup(&j, q.GroupBy)
		if !ok {
			continue
		}
		a := acc(g)
		a.row.Jobs.Total++
		switch {
		case j.Outcome == nil:
			a.row.Jobs.Unfinished++
		case *j.Outcome == contract.OutcomeSucceeded:
			a.row.Jobs.Succeeded++
		case *j.Outcome == contract.OutcomeFailed:
			a.row.Jobs.Failed++
		case *j.Outcome == contract.OutcomeCancelled:
			a.row.Jobs.Cancelled++
		}
		a.row.CreditsCharged += j.ChargedCredits
		if j.StartedAt != nil {
			a.queue = append(a.queue, j.StartedAt.Sub(j.CreatedAt).Milliseconds())
			if j.EndedAt != nil {
				a.runMS = append(a.runMS, j.EndedAt.Sub(*j.StartedAt).Milliseconds())
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("metrics jobs: %w", err)
	}
	return nil
}

// jobGroup is the group of a job, and false when the job has none (no error
// when grouping by error).
func jobGroup(j *Job, by string) (string, bool) {
	switch by {
	case GroupTask:
		return j.Task, true
	case GroupKey:
		return j.APIKeyID, true
	case GroupError:
		if j.Error == nil {
			return "", false
		}
		var e struct {
			Code string `json:"code"`
		}
		if json.Unmarshal([]byte(*j.Error), &e) != nil || e.Code == "" {
			return "", false
		}
		return e.Code, true
	}
	return j.CreatedAt.UTC().Format(time.DateOnly), true
}

type callCount struct {
	G             string
	Calls, Errors int64
}

// callCounts groups the calls of [CallsFrom, End) in SQL: the log can be
// large. On PostgreSQL the whole UTC hours come from call_hour_rollups and
// only the partial hours at the ends from the log.
func callCounts(ctx context.Context, db *gorm.DB, q MetricsQuery) ([]callCount, error) {
	from := q.CallsFrom
	if from.Before(q.Start) {
		from = q.Start
	}
	if !from.Before(q.End) {
		return nil, nil
	}
	var expr, where string
	switch q.GroupBy {
	case GroupTask:
		expr, where = "task", " AND task <> ''"
	case GroupKey:
		expr = "api_key_id"
	case GroupError:
		expr, where = "error_code", " AND error_code <> ''"
	default:
		expr = "substr(created_at, 1, 10)"
		if IsPostgres(db) {
			expr = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
		}
	}
	logged := "SELECT " + expr + " AS g, 1 AS calls, CASE WHEN status >= 400 THEN 1 ELSE 0 END AS errors FROM " +
		"request_logs WHERE user_id = ? AND created_at >= ? AND created_at < ?" + where
	var out []callCount
	var err error
	if first, last := fullHours(from, q.End); IsPostgres(db) && first.Before(last) {
		dim := rollupDims[q.GroupBy]
		g := "val"
		if dim == "" {
			dim, g = "day", "to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
		} else if dim == "day" {
			g = "to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
		}
		err = db.WithContext(ctx).Raw(`SELECT g, SUM(calls) AS calls, SUM(errors) AS errors FROM (
	SELECT `+g+` AS g, calls, errors FROM call_hour_rollups WHERE user_id = ? AND dim = ? AND hour >= ? AND hour < ?
	UNION ALL `+logged+`
	UNION ALL `+logged+`
) c GROUP BY g HAVING SUM(calls) > 0`, q.UserID, dim, first, last, q.UserID, from, first, q.UserID, last, q.End).Scan(
			&out).Error
	} else {
		err = db.WithContext(ctx).Raw("SELECT g, COUNT(*) AS calls, SUM(errors) AS errors FROM ("+logged+") c GROUP BY g",
			q.UserID, from, q.End).Scan(&out).Error
	}
	if err != nil {
		return nil, fmt.Errorf("metrics calls: %w", err)
	}
	return out, nil
}

// percentiles are the nearest-rank p50 and p95 of samples.
func percentiles(samples []int64) Percentiles {
	if len(samples) == 0 {
		return Percentiles{}
	}
	sort.Slice(samples, func(i, k int) bool { return samples[i] < samples[k] })
	rank := func(p float64) *int64 {
		v := samples[max(0, int(math.Ceil(p*float64(len(samples))))-1)]
		return &v
	}
	return Percentiles{P50: rank(0.50), P95: rank(0.95)}
}
