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
// grouped by task, key and credit type, in that order.
func Usage(ctx context.Context, db *gorm.DB, userID uint64, start, end time.Time) ([]UsageRow, error) {
	var rows []struct {
		Task, APIKeyID, CreditType string
		Jobs, CreditsCharged       int64
	}
	err := db.WithContext(ctx).Model(&Job{}).
		Select("task, api_key_id, credit_type, COUNT(*) AS jobs, COALESCE(SUM(charged_credits), 0) AS credits_charged").
		Where("user_id = ? AND settled_at >= ? AND settled_at < ?", userID, start, end).
		Group("task, api_key_id, credit_type").Order("task, api_key_id, credit_type").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	out := make([]UsageRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, UsageRow{Task: r.Task, APIKeyID: nonEmpty(r.APIKeyID), CreditType: r.CreditType, Jobs: r.Jobs, CreditsCharged: r.CreditsCharged})
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
	P50 *int64 `json:"p50"`
	P95 *int64 `json:"p95"`
}

// MetricsRow is one group of the metrics report. Group is the day
// (YYYY-MM-DD, UTC), task name, key id ("" for the app) or error code.
type MetricsRow struct {
	Group          string      `json:"-"`
	Jobs           JobCounts   `json:"jobs"`
	QueueMS        Percentiles `json:"queue_ms"`
	RunMS          Percentiles `json:"run_ms"`
	CreditsCharged int64       `json:"credits_charged"`
	Calls          int64       `json:"calls"`
	CallErrors     int64       `json:"call_errors"`
}

// MetricsQuery is what a metrics report covers: jobs created in
// [Start, End) and calls made by keys in [CallsFrom, End).
type MetricsQuery struct {
	UserID     uint64
	GroupBy    string
	Start, End time.Time
	CallsFrom  time.Time
}

type metricsAcc struct {
	row          MetricsRow
	queue, runMS []int64
}

// Metrics reports a user's jobs (counts, outcomes, queue time created→started
// and run time started→ended, credits charged) and calls, one row per group
// ordered by group. Grouped by error, a row counts the jobs that ended with
// the code and the calls answered with it.
func Metrics(ctx context.Context, db *gorm.DB, q MetricsQuery) ([]MetricsRow, error) {
	groups := map[string]*metricsAcc{}
	acc := func(g string) *metricsAcc {
		if groups[g] == nil {
			groups[g] = &metricsAcc{row: MetricsRow{Group: g}}
		}
		return groups[g]
	}
	var jobs []Job
	err := db.WithContext(ctx).Select("id, task, api_key_id, lifecycle, outcome, error, charged_credits, created_at, started_at, ended_at").
		Where("user_id = ? AND created_at >= ? AND created_at < ?", q.UserID, q.Start, q.End).Find(&jobs).Error
	if err != nil {
		return nil, fmt.Errorf("metrics jobs: %w", err)
	}
	for i := range jobs {
		j := &jobs[i]
		g, ok := jobGroup(j, q.GroupBy)
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
		a.row.QueueMS, a.row.RunMS = percentiles(a.queue), percentiles(a.runMS)
		out = append(out, a.row)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Group < out[k].Group })
	return out, nil
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

// callCounts groups the calls of [CallsFrom, End) in SQL: the log can be large.
func callCounts(ctx context.Context, db *gorm.DB, q MetricsQuery) ([]callCount, error) {
	from := q.CallsFrom
	if from.Before(q.Start) {
		from = q.Start
	}
	if !from.Before(q.End) {
		return nil, nil
	}
	tx := db.WithContext(ctx).Model(&RequestLog{}).Where("user_id = ? AND created_at >= ? AND created_at < ?", q.UserID, from, q.End)
	var expr string
	switch q.GroupBy {
	case GroupTask:
		expr, tx = "task", tx.Where("task <> ''")
	case GroupKey:
		expr = "api_key_id"
	case GroupError:
		expr, tx = "error_code", tx.Where("error_code <> ''")
	default:
		expr = "substr(created_at, 1, 10)"
		if IsPostgres(db) {
			expr = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
		}
	}
	var out []callCount
	err := tx.Select(expr + " AS g, COUNT(*) AS calls, SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors").Group(expr).Scan(&out).Error
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
