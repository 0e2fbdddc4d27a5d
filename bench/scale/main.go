// Command scale is the data-scale benchmark (`make bench-scale`): it seeds a
// PostgreSQL schema of its own with one account holding 1,000,000 jobs,
// 5,000,000 ledger rows, 2,000,000 request-log rows and 1,000 credit
// batches (plus 100 other accounts), then calls the account's listings and
// reports through the real API router (no Temporal: these are reads) and
// prints p50/p99 per call against the 50 ms target.
//
//	go run ./bench/scale                      # fresh schema, dropped at the end
//	go run ./bench/scale -schema scale_keep   # seed once, keep, and reuse on the next run
//	go run ./bench/scale -scale 0.05          # a twentieth of the rows, for a quick look
//
// The database is TP_BENCH_DATABASE_URL, else TP_TEST_DATABASE_URL, else
// the test default (postgres://postgres@127.0.0.1:5432/test).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// target is the p99 each call must stay under.
const target = 50 * time.Millisecond

func main() {
	os.Exit(run())
}

func run() int {
	dsn := flag.String(
		"db",
		firstSet(
			os.Getenv("TP_BENCH_DATABASE_URL"),
			os.Getenv("TP_TEST_DATABASE_URL"),
			"postgres://postgres@127.0.0.1:5432/test?sslmode=disable",
		),
		"PostgreSQL DSN",
	)
	schema := flag.String(
		"schema",
		"",
		"schema to seed and keep (reused when already seeded); empty: a fresh one, dropped at the end",
	)
	scale := flag.Float64("scale", 1, "fraction of the issue's row counts to seed")
	calls := flag.Int("calls", 200, "measured calls per request")
	only := flag.String("only", "", "measure only the requests whose name contains this")
	flag.Parse()
	ctx := context.Background()
	logf := func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }

	admin, err := models.Open(ctx, models.OpenConfig{URL: *dsn})
	if err != nil {
		logf("open %s: %v", *dsn, err)
		return 1
	}
	defer models.Close(admin)
	name, keep := *schema, *schema != ""
	if name == "" {
		name = "scale_" + strings.ToLower(models.NewID(""))
	}
	if err := admin.Exec("CREATE SCHEMA IF NOT EXISTS " + name).Error; err != nil {
		logf("create schema: %v", err)
		return 1
	}
	if !keep {
		defer admin.Exec("DROP SCHEMA " + name + " CASCADE")
	}
	schemaURL, err := withSearchPath(*dsn, name)
	if err != nil {
		logf("%v", err)
		return 1
	}
	db, err := models.Open(ctx, models.OpenConfig{URL: schemaURL})
	if err != nil {
		logf("open schema: %v", err)
		return 1
	}
	defer models.Close(db)
	t := time.Now()
	if err := models.Migrate(ctx, db); err != nil {
		logf("%v", err)
		return 1
	}
	logf("migrated schema %s in %s", name, time.Since(t).Round(time.Millisecond))

	sd, err := existing(ctx, db)
	if err != nil {
		logf("%v", err)
		return 1
	}
	if sd == nil {
		sz := fullSizes.scaled(*scale)
		logf("seeding %s: %d jobs, %d ledger rows, %d calls, %d batches for one account; %d other accounts",
			name, sz.Jobs, sz.Jobs*sz.LedgerPerJob, sz.Requests, sz.Batches, sz.Others)
		if sd, err = seed(ctx, db, sz, logf); err != nil {
			logf("%v", err)
			return 1
		}
		logf("seeded in %s", sd.Elapsed.Round(time.Second))
	} else {
		logf("reusing the seed of schema %s (as of %s)", name, sd.AsOf.Format(time.RFC3339))
	}
	if err := printCounts(ctx, db, sd.UserID); err != nil {
		logf("%v", err)
		return 1
	}
	results, err := measure(ctx, db, sd, *calls, *only, logf)
	if err != nil {
		logf("%v", err)
		return 1
	}
	fmt.Printf(
		"\n%-52s %8s %8s %8s  %s\n",
		"request (through api.NewRouter)",
		"p50 ms",
		"p99 ms",
		"max ms",
		"≤ 50 ms p99",
	)
	failed := 0
	for _, r := range results {
		ok := "yes"
		if r.p99 > target {
			ok, failed = "NO", failed+1
		}
		fmt.Printf("%-52s %8.1f %8.1f %8.1f  %s\n", r.name, ms(r.p50), ms(r.p99), ms(r.max), ok)
	}
	if failed > 0 {
		fmt.Printf("\n%d of %d requests over the %s p99 target\n", failed, len(results), target)
		return 2
	}
	return 0
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func withSearchPath(dsn, schema string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("the database URL must be a postgres:// URL: %w", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// existing finds the seed of a kept schema; nil when it has none.
func existing(ctx context.Context, db *gorm.DB) (*seeded, error) {
	u, err := models.UserByEmail(ctx, db, heavyEmail)
	if errors.Is(err, models.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sd := &seeded{UserID: u.ID, AsOf: u.CreatedAt}
	if err := db.WithContext(ctx).Raw(`SELECT api_key_id FROM jobs WHERE user_id = ? AND api_key_id <> ''
		GROUP BY api_key_id ORDER BY count(*) DESC`, u.ID).Scan(&sd.KeyIDs).Error; err != nil {
		return nil, err
	}
	if len(sd.KeyIDs) == 0 {
		return nil, fmt.Errorf("schema holds %s but no jobs: drop it and seed again", heavyEmail)
	}
	return sd, nil
}

// printCounts prints the rows of the large tables, the heavy account's and all.
func printCounts(ctx context.Context, db *gorm.DB, userID uint64) error {
	fmt.Printf("%-16s %12s %12s\n", "table", "account", "all")
	for _, table := range []string{"jobs", "ledger_entries", "request_logs", "credit_batches", "files"} {
		var mine, all int64
		err := db.WithContext(ctx).
			Raw("SELECT count(*) FILTER (WHERE user_id = ?), count(*) FROM "+table, userID).
			Row().
			Scan(&mine, &all)
		if err != nil {
			return fmt.Errorf("count %s: %w", table, err)
		}
		fmt.Printf("%-16s %12d %12d\n", table, mine, all)
	}
	return nil
}

type result struct {
	name          string
	p50, p99, max time.Duration
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// measure calls each request calls times (after a few warm-up calls)
// through the real router, with the background request log of the api
// process and a rate limit high enough not to refuse the benchmark.
func measure(
	ctx context.Context,
	db *gorm.DB,
	sd *seeded,
	calls int,
	only string,
	logf func(string, ...any),
) ([]result, error) {
	_, secret, err := models.CreateKey(ctx, db, sd.UserID, nil, nil, contract.CurrentVersion)
	if err != nil {
		return nil, err
	}
	rl := middleware.NewRequestLog(db, nil)
	defer rl.Close()
	r := api.NewRouter(api.Deps{DB: db, BaseURL: "https://bench.test", RateLimit: 1 << 30, RequestLog: rl})
	get := func(path string) (map[string]any, error) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Key "+secret)
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %d %s", path, rec.Code, rec.Body.String())
		}
		var m map[string]any
		return m, json.Unmarshal(rec.Body.Bytes(), &m)
	}
	key := sd.KeyIDs[0]
	// The cursor of page 1,000 of the busiest key's jobs, walked page by page.
	t := time.Now()
	path, cursor, page := "/v1/jobs?api_key_id="+key, "", 1
	for ; page < 1000 && strings.Contains("GET /v1/jobs?api_key_id= page", only); page++ {
		m, err := get(path)
		if err != nil {
			return nil, err
		}
		next, _ := m["next_cursor"].(string)
		if next == "" {
			break // a scaled-down seed
		}
		cursor, path = next, "/v1/jobs?api_key_id="+key+"&cursor="+url.QueryEscape(next)
	}
	logf("walked to page %d of %s's jobs in %s", page, key, time.Since(t).Round(time.Millisecond))
	window := func(extra string) func() string {
		return func() string {
			end := time.Now().UTC().Truncate(time.Second)
			q := url.Values{
				"start": {end.Add(-90 * 24 * time.Hour).Format(time.RFC3339)},
				"end":   {end.Format(time.RFC3339)},
			}
			return "?" + q.Encode() + extra
		}
	}
	fixed := func(s string) func() string { return func() string { return "" + s } }
	cases := []struct {
		name, path string
		query      func() string
	}{
		{"GET /v1/jobs?api_key_id= first page", "/v1/jobs", fixed("?api_key_id=" + key)},
		{
			fmt.Sprintf("GET /v1/jobs?api_key_id= page %d (cursor)", page),
			"/v1/jobs",
			fixed("?api_key_id=" + key + "&cursor=" + url.QueryEscape(cursor)),
		},
		{"GET /v1/jobs first page (every key)", "/v1/jobs", fixed("")},
		{"GET /v1/account/usage 90 days", "/v1/account/usage", window("")},
		{"GET /v1/account/metrics 90 days group_by=day", "/v1/account/metrics", window("&group_by=day")},
		{"GET /v1/account/metrics 90 days group_by=task", "/v1/account/metrics", window("&group_by=task")},
		{"GET /v1/account/metrics 90 days group_by=key", "/v1/account/metrics", window("&group_by=key")},
		{"GET /v1/account/metrics 90 days group_by=error", "/v1/account/metrics", window("&group_by=error")},
		{"GET /v1/account/metrics (default: 30 days, by day)", "/v1/account/metrics", fixed("")},
		{"GET /v1/account/requests", "/v1/account/requests", fixed("")},
		{"GET /v1/account/requests?api_key_id=", "/v1/account/requests", fixed("?api_key_id=" + key)},
		{"GET /v1/account/balance (1,000 batches)", "/v1/account/balance", fixed("")},
		{"GET /v1/refs/art", "/v1/refs/art", fixed("")},
	}
	var out []result
	for _, c := range cases {
		if !strings.Contains(c.name, only) {
			continue
		}
		for range 5 {
			if _, err := get(c.path + c.query()); err != nil {
				return nil, err
			}
		}
		lat := make([]time.Duration, 0, calls)
		for range calls {
			p := c.path + c.query()
			t := time.Now()
			if _, err := get(p); err != nil {
				return nil, err
			}
			lat = append(lat, time.Since(t))
		}
		slices.Sort(lat)
		rank := func(p float64) time.Duration { return lat[max(0, int(p*float64(len(lat)))-1)] }
		out = append(out, result{name: c.name, p50: rank(0.50), p99: rank(0.99), max: lat[len(lat)-1]})
		logf("%-52s p99 %.1f ms", c.name, ms(out[len(out)-1].p99))
	}
	return out, nil
}
