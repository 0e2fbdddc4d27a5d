package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// blob URLs, as dev
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
	"github.com/taskplatform/taskplatform/telemetry"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/worker"
)

// benchStack is the process `taskplatform dev` runs, in this process: the
// API router served over HTTP on loopback, the worker, PostgreSQL and a
// file blob store, on the package's Temporal dev server — with the same
// client, metrics and logging dev builds (logs encoded at info level and
// discarded; errors also written to stderr). The API has a database handle of its own so its queries can
// be counted apart from the worker's.
type benchStack struct {
	temporal client.Client
	srv      *httptest.Server
	http     *http.Client
	queue    string
	key      string
	apiDB    *gorm.DB
	// apiQueries and workerQueries count the database round trips (each
	// statement, BEGIN, COMMIT and ROLLBACK) of the API and of the worker.
	apiQueries, workerQueries *atomic.Int64
}

// benchStackOptions shape the worker of a bench stack.
type benchStackOptions struct {
	// noInline runs every job's steps on the steps queue
	// (activities.Activities.NoInline): TP_BENCH_INLINE=0.
	noInline bool
	// noSteps polls no steps queue, so jobs are admitted and wait there:
	// the admit-alone phases.
	noSteps bool
	// stepsPerJob bounds each job's outputs at once
	// (activities.Activities.StepsPerJob): 1 times jobs as they ran before
	// parallel outputs; 0 is the service's default.
	stepsPerJob int
	// photoshoots writes the photoshoots library (backgrounds, poses).
	photoshoots bool
	// secondWorker starts a second worker in this process on the same task
	// queue, as a second worker process of a fleet would poll it: its own
	// activity slots, pollers and database pool, the same Temporal client.
	secondWorker bool
}

func newBenchStack(b *testing.B, clients int, opts benchStackOptions) *benchStack {
	ctx := context.Background()
	temporalClient(b) // starts the package's dev server
	enc := zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
	log := zap.New(zapcore.NewTee(zapcore.NewCore(enc, zapcore.AddSync(io.Discard), zap.InfoLevel),
		zapcore.NewCore(enc, zapcore.Lock(os.Stderr), zap.ErrorLevel)))
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	tel, err := telemetry.New(ctx, telemetry.Options{Registry: reg})
	require.NoError(b, err)
	tc, err := worker.Dial(ctx, devServer.FrontendHostPort(), "default", log, tel)
	require.NoError(b, err)
	b.Cleanup(tc.Close)

	dsn := testenv.PostgresSchemaURL(b)
	s := &benchStack{
		temporal:      tc,
		queue:         "bench-" + models.NewID(""),
		apiQueries:    new(atomic.Int64),
		workerQueries: new(atomic.Int64),
	}
	db := openCounted(b, dsn, s.workerQueries, models.DefaultWorkerConns)
	require.NoError(b, models.Migrate(ctx, db))
	s.apiDB = openCounted(b, dsn, s.apiQueries, models.DefaultAPIConns)

	bucket, err := blob.OpenBucket(
		ctx,
		"file://"+b.TempDir()+"/blobs?create_dir=true&metadata=skip&no_tmp_dir=true",
	) // as dev opens its data dir
	require.NoError(b, err)
	b.Cleanup(func() { _ = bucket.Close() })
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(b, err)
	sg := signer.New(key)

	var handler http.Handler
	s.srv = httptest.NewServer(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }),
	)
	b.Cleanup(s.srv.Close)
	requests := middleware.NewRequestLog(s.apiDB, log)
	b.Cleanup(func() { _ = requests.Close() })
	handler = api.NewRouter(api.Deps{DB: s.apiDB, Temporal: tc, Blob: bucket, Log: log, BaseURL: s.srv.URL,
		RateLimit: 1 << 30, RateWindow: time.Minute, Metrics: middleware.NewHTTPMetrics(reg), RequestLog: requests,
		TaskQueue: s.queue, Signer: sg, AllowPrivateURLs: true, Catalogue: catalogue.New(all.Registry())})
	acts := &activities.Activities{DB: db, Blob: bucket, Log: log, FilesBaseURL: s.srv.URL, Signer: sg,
		Tasks: all.Registry(),
		HTTP:  outbound.New(outbound.Options{AllowPrivate: true, Timeout: 15 * time.Second}),
		Fetch: outbound.New(outbound.Options{AllowPrivate: true, FollowRedirects: true, Timeout: 15 * time.Second})}
	acts.NoInline, acts.StepsPerJob = opts.noInline, opts.stepsPerJob
	if opts.photoshoots {
		require.NoError(b, photoshoot.SeedLibrary(ctx, db, bucket))
	}
	w := worker.New(tc, acts, worker.Options{TaskQueue: s.queue, NoSteps: opts.noSteps})
	require.NoError(b, w.Start())
	b.Cleanup(w.Stop)
	if opts.secondWorker {
		second := *acts
		second.DB = openCounted(b, dsn, s.workerQueries, models.DefaultWorkerConns)
		w2 := worker.New(tc, &second, worker.Options{TaskQueue: s.queue, NoSteps: opts.noSteps})
		require.NoError(b, w2.Start())
		b.Cleanup(w2.Stop)
	}

	s.http = &http.Client{
		Transport: &http.Transport{MaxIdleConns: 2 * clients, MaxIdleConnsPerHost: 2 * clients},
		Timeout:   2 * time.Minute,
	}
	u, err := models.CreateUser(ctx, db, models.NewID("")+"@example.com", models.PlanStandard)
	require.NoError(b, err)
	_, err = models.Grant(ctx, db, u.ID, contract.CreditService, 1<<40, nil, "bench")
	require.NoError(b, err)
	_, s.key, err = models.CreateKey(ctx, db, u.ID, nil, nil, api.CurrentVersion)
	require.NoError(b, err)
	return s
}

// post submits a task and answers the status and body.
func (s *benchStack) post(ctx context.Context, task string, body []byte, wait bool) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.srv.URL+"/v1/tasks/"+task, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Key "+s.key)
	req.Header.Set("Content-Type", "application/json")
	if wait {
		req.Header.Set("Prefer", "wait=60")
	}
	res, err := s.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}

// openCounted opens a database handle whose round trips are counted in n,
// with the pool of the process it stands for (maxConns, as
// TP_DATABASE_MAX_CONNS sizes it).
func openCounted(b *testing.B, dsn string, n *atomic.Int64, maxConns int) *gorm.DB {
	db, err := models.Open(context.Background(), models.OpenConfig{URL: dsn, MaxConns: maxConns})
	require.NoError(b, err)
	b.Cleanup(func() { _ = models.Close(db) })
	sqlDB, err := db.DB()
	require.NoError(b, err)
	pool := countingPool{db: sqlDB, n: n}
	db.ConnPool, db.Statement.ConnPool = pool, pool
	return db
}

// countingPool counts every round trip GORM makes through a pool:
// statements, and BEGIN, COMMIT and ROLLBACK of its transactions.
type countingPool struct {
	db *sql.DB
	n  *atomic.Int64
}

func (p countingPool) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	p.n.Add(1)
	return p.db.PrepareContext(ctx, q)
}

func (p countingPool) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	p.n.Add(1)
	return p.db.ExecContext(ctx, q, args...)
}

func (p countingPool) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	p.n.Add(1)
	return p.db.QueryContext(ctx, q, args...)
}

func (p countingPool) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	p.n.Add(1)
	return p.db.QueryRowContext(ctx, q, args...)
}

// BeginTx implements gorm.ConnPoolBeginner, so statements in transactions
// are counted too.
func (p countingPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (gorm.ConnPool, error) {
	p.n.Add(1)
	tx, err := p.db.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &countingTx{tx: tx, n: p.n}, nil
}

// GetDBConn implements gorm.GetDBConnector (db.DB() and models.Close).
func (p countingPool) GetDBConn() (*sql.DB, error) { return p.db, nil }

type countingTx struct {
	tx *sql.Tx
	n  *atomic.Int64
}

func (t *countingTx) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	t.n.Add(1)
	return t.tx.PrepareContext(ctx, q)
}

func (t *countingTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	t.n.Add(1)
	return t.tx.ExecContext(ctx, q, args...)
}

func (t *countingTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	t.n.Add(1)
	return t.tx.QueryContext(ctx, q, args...)
}

func (t *countingTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	t.n.Add(1)
	return t.tx.QueryRowContext(ctx, q, args...)
}

func (t *countingTx) Commit() error {
	t.n.Add(1)
	return t.tx.Commit()
}

func (t *countingTx) Rollback() error {
	t.n.Add(1)
	return t.tx.Rollback()
}

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat
// (100 on every Linux architecture Go supports).
const clockTicks = 100

// cpuTime is the user+system CPU a process has used, from /proc/<pid>/stat
// ("self" for this process); zero when it cannot be read.
func cpuTime(pid string) time.Duration {
	raw, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0
	}
	// The command name may hold spaces: fields start after its closing ')'.
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / clockTicks
}

// temporalPID finds the dev server testenv.StartTemporal started: the child
// of this process running the Temporal CLI. Empty when none is found.
func temporalPID() string {
	cli, err := testenv.TemporalCLI()
	if err != nil {
		return ""
	}
	if abs, err := filepath.EvalSymlinks(cli); err == nil {
		cli = abs
	}
	self := strconv.Itoa(os.Getpid())
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe"))
		if err != nil || exe != cli {
			continue
		}
		if procField(d.Name(), "PPid") == self {
			return d.Name()
		}
	}
	return ""
}

// postgresCPU is the CPU time of every running PostgreSQL process (the
// server's backends and helpers, read from /proc), by pid.
func postgresCPU() map[string]time.Duration {
	out := map[string]time.Duration{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		if comm, err := os.ReadFile(filepath.Join("/proc", d.Name(), "comm")); err == nil &&
			strings.TrimSpace(string(comm)) == "postgres" {
			out[d.Name()] = cpuTime(d.Name())
		}
	}
	return out
}

// postgresSince is what PostgreSQL's processes spent since before: what
// a phase's database work cost the database itself. A process that
// started meanwhile counts whole; one that exited drops out (the stacks'
// pools keep theirs open).
func postgresSince(before map[string]time.Duration) time.Duration {
	var sum time.Duration
	for pid, cpu := range postgresCPU() {
		sum += max(cpu-before[pid], 0)
	}
	return sum
}

// procField is one field of /proc/<pid>/status ("VmRSS", "PPid").
func procField(pid, name string) string {
	f, err := os.Open(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// memSample is this process's memory after a forced collection.
type memSample struct {
	jobs       int
	rssMB      float64
	heapMB     float64
	goroutines int
}

// sampleMemory collects garbage, returns freed memory to the OS
// (debug.FreeOSMemory runs runtime.GC first) and reads VmRSS.
func sampleMemory(jobs int) memSample {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	kb, _ := strconv.ParseFloat(strings.TrimSuffix(procField("self", "VmRSS"), " kB"), 64)
	return memSample{
		jobs:       jobs,
		rssMB:      kb / 1024,
		heapMB:     float64(ms.HeapAlloc) / (1 << 20),
		goroutines: runtime.NumGoroutine(),
	}
}

func (m memSample) String() string {
	return fmt.Sprintf("%d jobs: RSS %.1f MB (Go heap %.1f MB, %d goroutines)", m.jobs, m.rssMB, m.heapMB, m.goroutines)
}
