package models

import (
	"context"
	"fmt"
	"math"
	"time"

	"gorm.io/gorm"
)

// rollupDims are the rollups' dimension of each grouping.
var rollupDims = map[string]string{GroupDay: "day", GroupTask: "task", GroupKey: "key", GroupError: "error"}

// rolledMetrics reports the jobs of the window on PostgreSQL when its
// whole days [first, last) hold more than exactJobs jobs: those days from
// job_day_rollups, the partial days at the ends aggregated from the jobs
// in the same statement. Otherwise it adds nothing and says false, and the
// caller reads the window's jobs row by row.
func rolledMetrics(
	ctx context.Context,
	db *gorm.DB,
	q MetricsQuery,
	first, last time.Time,
	acc func(string) *metricsAcc,
) (bool, error) {
	dim := rollupDims[q.GroupBy]
	if dim == "" {
		dim = "day"
	}
	cellGroup, edge := rolledSQL(dim)
	var cells []rolledCell
	// One statement: the jobs of the whole days, and only past exactJobs
	// (whole.n) the cells of those days and the aggregates of the partial
	// ones; otherwise one row of NULLs. The histograms travel as int[]
	// (binary: the server does not write them out as text) and reach Go
	// as "{1,0,3}".
	err := db.WithContext(ctx).Raw(`WITH whole AS (
	SELECT COALESCE(SUM(total), 0) AS n FROM job_day_rollups WHERE user_id = ? AND dim = 'day' AND day >= ? AND day < ?)
SELECT whole.n AS whole, c.* FROM whole LEFT JOIN LATERAL (
	SELECT `+cellGroup+` AS g, total, succeeded, failed, cancelled, unfinished, credits_charged AS c,
	queue_ms AS queue, run_ms AS run
		FROM job_day_rollups WHERE whole.n > ? AND user_id = ? AND dim = ? AND day >= ? AND day < ? AND total <> 0
	UNION ALL `+edge+`
	UNION ALL `+edge+`) c ON true`,
		q.UserID, first, last, exactJobs, q.UserID, dim, first, last, exactJobs, q.UserID, q.Start, first, exactJobs,
		q.UserID, last, q.End).
		Scan(&cells).Error
	if err != nil {
		return false, fmt.Errorf("metrics rollups: %w", err)
	}
	if len(cells) == 0 || cells[0].Whole <= exactJobs {
		return false, nil
	}
	for _, c := range cells {
		if c.G == nil {
			continue // no jobs at all
		}
		if err := acc(*c.G).addCell(c); err != nil {
			return false, fmt.Errorf("metrics rollups: %w", err)
		}
	}
	return true, nil
}

// rolledCell is one row rolledMetrics reads: a rollup cell of a whole day,
// or the aggregate of a group's jobs in a partial day at the window's
// ends. Whole is the jobs of the whole days; G is nil when there are none.
type rolledCell struct {
	Whole                                              int64
	G                                                  *string
	Total, Succeeded, Failed, Cancelled, Unfinished, C int64
	Queue, Run                                         *string
}

// rolledSQL is the group a rollup cell of dimension dim is read as, and
// the statement aggregating the jobs of one partial day into cells of the
// same shape.
func rolledSQL(dim string) (cellGroup, edge string) {
	cellGroup, jobGroup, jobWhere := "val", map[string]string{"task": "task", "key": "api_key_id",
		"error": "tp_error_code(error)"}[dim], ""
	switch dim {
	case "day":
		cellGroup, jobGroup = "to_char(day, 'YYYY-MM-DD')", "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
	case "error":
		jobWhere = " AND error IS NOT NULL AND tp_error_code(error) IS NOT NULL"
	}
	hist := func(ms string) string { return "tp_hist(array_agg(" + bucketSQL(ms) + "), array_agg(1::bigint))" }
	edge = `SELECT ` + jobGroup + ` AS g, COUNT(*) AS total, COUNT(*) FILTER (WHERE outcome = 'succeeded') AS succeeded,
		COUNT(*) FILTER (WHERE outcome = 'failed') AS failed, COUNT(*) FILTER (WHERE outcome = 'cancelled') AS cancelled,
		COUNT(*) FILTER (WHERE outcome IS NULL) AS unfinished, SUM(charged_credits) AS c, ` + hist(
		"d.q",
	) + ` AS queue, ` + hist(
		"d.r",
	) + ` AS run
		FROM jobs, LATERAL (SELECT ` + durationSQL(
		"created_at",
		"started_at",
	) + ` AS q, ` + durationSQL(
		"started_at",
		"ended_at",
	) + ` AS r) d
		WHERE whole.n > ? AND user_id = ? AND created_at >= ? AND created_at < ?` + jobWhere + ` GROUP BY 1`
	return cellGroup, edge
}

// addCell adds one rolled cell to the group's row and histograms.
func (a *metricsAcc) addCell(c rolledCell) error {
	a.row.Jobs.Total += c.Total
	a.row.Jobs.Succeeded += c.Succeeded
	a.row.Jobs.Failed += c.Failed
	a.row.Jobs.Cancelled += c.Cancelled
	a.row.Jobs.Unfinished += c.Unfinished
	a.row.CreditsCharged += c.C
	for kind, h := range map[string]*string{"queue": c.Queue, "run": c.Run} {
		if h == nil {
			continue
		}
		if err := a.addHist(kind, *h); err != nil {
			return err
		}
	}
	return nil
}

// addHist adds a histogram written as an array of counts per bucket,
// "{1,0,3}" (a few hundred cells of a few hundred buckets per report: read
// byte by byte, without allocating).
func (a *metricsAcc) addHist(kind, counts string) error {
	if a.hist == nil {
		a.hist = map[string][]int64{}
	}
	h := a.hist[kind]
	if h == nil {
		h = []int64{} // the group has a histogram, even if empty
	}
	i, n, digits, neg := 0, int64(0), false, false
	add := func() {
		if digits {
			for len(h) <= i {
				h = append(h, 0)
			}
			if neg {
				n = -n
			}
			h[i] += n
		}
		i, n, digits, neg = i+1, 0, false, false
	}
	for k := 0; k < len(counts); k++ {
		switch c := counts[k]; {
		case c >= '0' && c <= '9':
			n, digits = n*10+int64(c-'0'), true
		case c == '-':
			neg = true
		case c == ',':
			add()
		case c == '{' || c == '}' || c == ' ' || c == 'N' || c == 'U' || c == 'L': // NULL counts nothing
		default:
			return fmt.Errorf("histogram %q: unexpected %q", counts, c)
		}
	}
	if digits {
		add()
	}
	a.hist[kind] = h
	return nil
}

// percentiles are the group's p50 and p95 of one kind of duration: exact
// (nearest rank) over the samples read, or, for a group read from the
// rollups, estimated from its histogram: the value at the rank is placed
// inside its bucket by the rank's place among the bucket's samples —
// exact below 16 ms, and never further from the true value than the bucket
// is wide (about 9 % of the value).
func (a *metricsAcc) percentiles(kind string, samples []int64) Percentiles {
	h, ok := a.hist[kind]
	if !ok {
		return percentiles(samples)
	}
	var n int64
	for _, c := range h {
		n += max(c, 0)
	}
	if n == 0 {
		return Percentiles{}
	}
	rank := func(p float64) *int64 {
		r := max(1, int64(math.Ceil(p*float64(n))))
		var seen int64
		for b, c := range h {
			if c <= 0 {
				continue
			}
			if seen+c < r {
				seen += c
				continue
			}
			lo, width := bucketBounds(b)
			v := int64(lo + width*(float64(r-seen)-0.5)/float64(c))
			return &v
		}
		return nil
	}
	return Percentiles{P50: rank(0.50), P95: rank(0.95)}
}
