package api

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
)

// job is a job row of the report tests.
type job struct {
	task, key, outcome, code string
	created                  time.Time
	queued, ran              time.Duration // 0 ran: not ended; 0 queued: not started
	charged                  int64
	settled                  *time.Time
}

func (e *env) addJobs(t *testing.T, userID uint64, jobs ...job) {
	t.Helper()
	for _, j := range jobs {
		row := models.Job{
			ID:             models.NewID("j_"),
			UserID:         userID,
			APIKeyID:       j.key,
			Task:           j.task,
			Input:          "{}",
			Lifecycle:      contract.LifecycleQueued,
			CreditType:     contract.CreditService,
			ChargedCredits: j.charged,
			CreatedAt:      j.created,
			SettledAt:      j.settled,
		}
		if j.queued > 0 {
			s := j.created.Add(j.queued)
			row.StartedAt, row.Lifecycle = &s, contract.LifecycleRunning
			if j.ran > 0 {
				end := s.Add(j.ran)
				row.EndedAt, row.Lifecycle, row.Outcome = &end, contract.LifecycleTerminal, &j.outcome
				if row.SettledAt == nil {
					row.SettledAt = &end
				}
			}
		}
		if j.code != "" {
			msg := `{"code":"` + j.code + `"}`
			row.Error = &msg
		}
		require.NoError(t, e.db.Create(&row).Error)
	}
}

func (e *env) addCalls(t *testing.T, rows ...models.RequestLog) {
	t.Helper()
	for i := range rows {
		rows[i].RequestID = models.NewID("req_")
		if rows[i].UserID == 0 {
			rows[i].UserID = e.user.ID
		}
		rows[i].Method, rows[i].Path = "GET", "/v1/jobs"
	}
	require.NoError(t, models.InsertRequestLogs(context.Background(), e.db, rows))
}

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func TestAccountUsageIsSpendPerTaskKeyAndCreditType(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newEnv(t, b)
			other, _, _ := e.account(models.PlanStandard)
			day := time.Date(2026, 5, 10, 0, 0, 0, 0, time.UTC)
			before := day.Add(-time.Hour)
			e.addJobs(
				t,
				e.user.ID,
				job{
					task:    "pattern.generate",
					key:     e.keyID,
					outcome: "succeeded",
					created: day,
					queued:  time.Second,
					ran:     time.Second,
					charged: 4,
				},
				job{
					task:    "pattern.generate",
					key:     e.keyID,
					outcome: "failed",
					created: day.Add(time.Hour),
					queued:  time.Second,
					ran:     time.Second,
					charged: 2,
				},
				job{
					task:    "palette.generate",
					outcome: "succeeded",
					created: day.Add(2 * time.Hour),
					queued:  time.Second,
					ran:     time.Second,
					charged: 3,
				},
				job{
					task:    "palette.generate",
					outcome: "succeeded",
					created: before.Add(-time.Hour),
					queued:  time.Second,
					ran:     time.Second,
					charged: 9,
					settled: &before,
				},
				job{
					task:    "palette.generate",
					key:     e.keyID,
					created: day,
					queued:  time.Second,
				}, // running: nothing spent yet
			)
			e.addJobs(
				t,
				other.ID,
				job{
					task:    "palette.generate",
					outcome: "succeeded",
					created: day,
					queued:  time.Second,
					ran:     time.Second,
					charged: 5,
				},
			)

			q := url.Values{"start": {iso(day)}, "end": {iso(day.Add(24 * time.Hour))}}
			res := e.send("GET", "/v1/account/usage?"+q.Encode(), "", keyed(e.key)...)
			require.Equal(t, 200, res.code, "%s", res.body)
			m := res.obj(t)
			require.Equal(t, iso(day), m["start"])
			require.Equal(t, []any{
				map[string]any{
					"task":            "palette.generate",
					"api_key_id":      nil,
					"credit_type":     "service_credits",
					"jobs":            1.0,
					"credits_charged": 3.0,
				},
				map[string]any{
					"task":            "pattern.generate",
					"api_key_id":      e.keyID,
					"credit_type":     "service_credits",
					"jobs":            2.0,
					"credits_charged": 6.0,
				},
			}, m["items"])
		})
	}
}

func TestAccountRequestsNewestFirstFilteredAndPaged(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.Postgres)
	other, _, _ := e.account(models.PlanStandard)
	_, secondID := e.newKey(e.user.ID, nil, nil)
	t0 := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var want []string
	for i := range 5 {
		key := e.keyID
		if i%2 == 1 {
			key = secondID
		}
		e.addCalls(t, models.RequestLog{APIKeyID: key, Status: 200, CreatedAt: t0.Add(time.Duration(i) * time.Minute)})
		want = append([]string{key}, want...)
	}
	e.addCalls(t, models.RequestLog{UserID: other.ID, APIKeyID: "key_other", Status: 200, CreatedAt: t0})

	var got []string
	var times []string
	path := "/v1/account/requests?limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5)
		res := e.send("GET", path, "", keyed(e.key)...)
		require.Equal(t, 200, res.code, "%s", res.body)
		m := res.obj(t)
		for _, it := range m["items"].([]any) {
			row := it.(map[string]any)
			got = append(got, row["api_key_id"].(string))
			times = append(times, row["created_at"].(string))
		}
		if m["has_more"] == false {
			require.NotContains(t, m, "next_cursor")
			break
		}
		path = "/v1/account/requests?limit=2&cursor=" + m["next_cursor"].(string)
	}
	require.Equal(t, want, got, "every call of the account once, newest first")
	require.Equal(t, iso(t0.Add(4*time.Minute)), times[0])

	res := e.send("GET", "/v1/account/requests?api_key_id="+secondID, "", keyed(e.key)...)
	require.Len(t, res.obj(t)["items"], 2)
	q := url.Values{"start": {iso(t0.Add(time.Minute))}, "end": {iso(t0.Add(3 * time.Minute))}}
	res = e.send("GET", "/v1/account/requests?"+q.Encode(), "", keyed(e.key)...)
	require.Len(t, res.obj(t)["items"], 2, "[start, end)")

	for _, bad := range []string{"api_key_id=j_123", "cursor=!!", "cursor=bm9wZQ", "limit=0", "start=yesterday"} {
		res := e.send("GET", "/v1/account/requests?"+bad, "", keyed(e.key)...)
		require.Equal(t, 422, res.code, bad)
	}
}

func TestAccountMetrics(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newEnv(t, b)
			_, keyBID := e.newKey(e.user.ID, nil, nil)
			reporter, _ := e.newKey(e.user.ID, nil, nil) // its own calls land in the log too
			base := time.Now().UTC().Truncate(24 * time.Hour).Add(-3 * 24 * time.Hour)
			day2 := base.Add(24 * time.Hour)
			e.addJobs(
				t,
				e.user.ID,
				job{
					task:    "pattern.generate",
					key:     e.keyID,
					outcome: "succeeded",
					created: base.Add(time.Hour),
					queued:  2 * time.Second,
					ran:     8 * time.Second,
					charged: 4,
				},
				job{
					task:    "pattern.generate",
					key:     e.keyID,
					outcome: "failed",
					code:    "processing_failed",
					created: base.Add(2 * time.Hour),
					queued:  4 * time.Second,
					ran:     26 * time.Second,
				},
				job{
					task:    "palette.generate",
					outcome: "cancelled",
					code:    "cancelled",
					created: day2,
					queued:  time.Second,
					ran:     4 * time.Second,
					charged: 1,
				},
				job{task: "palette.generate", key: keyBID, created: day2.Add(time.Hour)},
			)
			e.addCalls(
				t,
				models.RequestLog{
					APIKeyID:  e.keyID,
					Task:      "pattern.generate",
					Status:    202,
					CreatedAt: base.Add(time.Hour),
				},
				models.RequestLog{
					APIKeyID:  e.keyID,
					Status:    422,
					ErrorCode: "invalid_request",
					CreatedAt: day2.Add(time.Minute),
				},
				models.RequestLog{APIKeyID: keyBID, Status: 200, CreatedAt: time.Now().UTC().Add(-40 * 24 * time.Hour)},
			)
			window := url.Values{
				"start": {base.Format("2006-01-02T15:04:05")},
				"end":   {iso(base.Add(2 * 24 * time.Hour))},
			}
			get := func(groupBy string, q url.Values) map[string]any {
				t.Helper()
				q = url.Values(cloneValues(q))
				if groupBy != "" {
					q.Set("group_by", groupBy)
				}
				res := e.send("GET", "/v1/account/metrics?"+q.Encode(), "", keyed(reporter)...)
				require.Equal(t, 200, res.code, "%s", res.body)
				return res.obj(t)
			}
			counts := func(total, ok, failed, cancelled, unfinished float64) map[string]any {
				return map[string]any{
					"total":      total,
					"succeeded":  ok,
					"failed":     failed,
					"cancelled":  cancelled,
					"unfinished": unfinished,
				}
			}

			m := get("", window)
			require.Equal(t, "day", m["group_by"])
			require.Equal(t, iso(base), m["start"], "a time without a zone is UTC")
			require.Equal(t, []any{
				map[string]any{"day": base.Format(time.DateOnly), "jobs": counts(2, 1, 1, 0, 0),
					"queue_ms_p50": 2000.0, "queue_ms_p95": 4000.0, "run_ms_p50": 8000.0, "run_ms_p95": 26000.0,
					"credits_charged": 4.0, "calls": 1.0, "call_errors": 0.0},
				map[string]any{"day": day2.Format(time.DateOnly), "jobs": counts(2, 0, 0, 1, 1),
					"queue_ms_p50": 1000.0, "queue_ms_p95": 1000.0, "run_ms_p50": 4000.0, "run_ms_p95": 4000.0,
					"credits_charged": 1.0, "calls": 1.0, "call_errors": 1.0},
			}, m["items"])

			m = get("task", window)
			require.Equal(t, []any{
				map[string]any{"task": "palette.generate", "jobs": counts(2, 0, 0, 1, 1),
					"queue_ms_p50": 1000.0, "queue_ms_p95": 1000.0, "run_ms_p50": 4000.0, "run_ms_p95": 4000.0,
					"credits_charged": 1.0, "calls": 0.0, "call_errors": 0.0},
				map[string]any{"task": "pattern.generate", "jobs": counts(2, 1, 1, 0, 0),
					"queue_ms_p50": 2000.0, "queue_ms_p95": 4000.0, "run_ms_p50": 8000.0, "run_ms_p95": 26000.0,
					"credits_charged": 4.0, "calls": 1.0, "call_errors": 0.0},
			}, m["items"])

			m = get("error", window)
			items := m["items"].([]any)
			require.Len(t, items, 3)
			require.Equal(
				t,
				[]any{"cancelled", "invalid_request", "processing_failed"},
				[]any{
					items[0].(map[string]any)["code"],
					items[1].(map[string]any)["code"],
					items[2].(map[string]any)["code"],
				},
			)
			require.Equal(t, 1.0, items[1].(map[string]any)["call_errors"])
			require.Equal(t, counts(1, 0, 1, 0, 0), items[2].(map[string]any)["jobs"])

			long := url.Values{"start": {iso(time.Now().Add(-60 * 24 * time.Hour))}}
			m = get("key", long)
			items = m["items"].([]any)
			require.Len(t, items, 4, "the app, two keys with jobs, the reporting key")
			require.Nil(t, items[0].(map[string]any)["api_key_id"], "jobs started in the app")
			byKey := map[any]map[string]any{}
			for _, it := range items {
				byKey[it.(map[string]any)["api_key_id"]] = it.(map[string]any)
			}
			require.Equal(t, 0.0, byKey[keyBID]["calls"], "calls older than 30 days are not counted")
			for _, f := range []string{"queue_ms_p50", "queue_ms_p95", "run_ms_p50", "run_ms_p95"} {
				require.Contains(t, byKey[keyBID], f)
				require.Nil(t, byKey[keyBID][f], "no samples: null percentiles")
			}
			require.Equal(t, 2.0, byKey[e.keyID]["calls"])
		})
	}
}

func cloneValues(q url.Values) map[string][]string {
	out := map[string][]string{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

func TestAccountMetricsRefusesBadWindowsAndGroups(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.SQLite)
	now := time.Now().UTC()
	tests := []struct {
		name, query, code, field string
	}{
		{"window over 90 days", "start=" + iso(now.Add(-91*24*time.Hour)), "invalid_request", "start"},
		{"end before start", "start=2026-05-02T00:00:00Z&end=2026-05-01T00:00:00Z", "invalid_request", "start"},
		{"not a date", "end=soon", "invalid_request", "end"},
		{"unknown group", "group_by=week", "invalid_option", "group_by"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.send("GET", "/v1/account/metrics?"+tc.query, "", keyed(e.key)...)
			require.Equal(t, 422, res.code, "%s", res.body)
			require.Equal(t, tc.code, res.errCode(t))
			require.Equal(t, tc.field, res.errObj(t)["field"])
		})
	}
	q := url.Values{"start": {iso(now.Add(-90 * 24 * time.Hour))}, "end": {iso(now)}}
	res := e.send("GET", "/v1/account/metrics?"+q.Encode(), "", keyed(e.key)...)
	require.Equal(t, 200, res.code, "exactly 90 days is allowed: %s", res.body)
	require.Equal(t, []any{}, res.obj(t)["items"])
	m := e.send("GET", "/v1/account/metrics", "", keyed(e.key)...).obj(t)
	require.Equal(t, m["as_of"], m["end"], "end is as_of when not sent")
}
