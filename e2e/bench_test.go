package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkJobs is `make bench`: one run that prints, for 1, 16 and 64
// concurrent clients, the submit and `Prefer: wait` latencies and the end-
// to-end throughput of the API (a whole dev-like stack: the router over
// HTTP on loopback, the worker, PostgreSQL, the Temporal dev server) beside
// a baseline — a bare Temporal workflow of the naive job shape with no-op
// activities, started with the same client against the same server — and
// their ratios; then the cost of one job (history events, workflow tasks,
// CPU of this process and of the Temporal server, database round trips),
// each task's own work beside a bare PNG encode of the same pixels, and the
// process's memory after 1,000 and 10,000 completed jobs, heavy jobs of 8
// outputs with one output at a time and side by side and on two workers
// (heavy), and last each side's submits when no steps run at all
// (admitAlone). The API and the baseline run back to back, phase by phase,
// in this process.
//
// Run it alone (`make bench`); TP_BENCH_SCALE scales the job counts of the
// table (0.1 for a quick check), TP_BENCH_RSS_JOBS the memory phase
// (default 10000; 0 skips it), TP_BENCH_CLIENTS the concurrency levels,
// TP_BENCH_TASKS=0 skips the tasks table (TP_BENCH_TASKS=only runs nothing
// else, without Temporal), TP_BENCH_HEAVY=0 the heavy-jobs table
// (TP_BENCH_HEAVY=only runs nothing else), and TP_BENCH_INLINE=0 runs every
// API job's steps on the steps queue (no job inside its admit).
func BenchmarkJobs(b *testing.B) {
	cfg := benchConfigFromEnv(b)
	began := time.Now()
	if cfg.heavyOnly {
		temporalClient(b) // starts the package's dev server, whose CPU the table reads
		r := &benchRun{b: b, cfg: cfg, temporalPID: temporalPID()}
		heavy := r.heavy()
		r.report(os.Stdout, began)
		printHeavyTable(os.Stdout, heavy)
		r.printErrors(os.Stdout)
		return
	}
	var tasksRows []taskRow
	if cfg.tasks {
		tasksRows = benchTasks(b)
	}
	if cfg.tasksOnly { // no stack, no Temporal: the tasks table alone
		fmt.Fprintf(os.Stdout, "taskplatform bench · %s · %d CPUs · load average %s · took %s\n",
			time.Now().UTC().Format(time.RFC3339), runtime.NumCPU(), loadAverage(), time.Since(began).Round(time.Second))
		printTasksTable(os.Stdout, tasksRows)
		return
	}

	s := newBenchStack(b, slices.Max(cfg.clients), benchStackOptions{noInline: !cfg.inline})
	bl := newBaseline(b, s.temporal, false)
	r := &benchRun{b: b, cfg: cfg, stack: s, temporalPID: temporalPID()}
	apiSide := &benchSide{name: "API", queue: s.queue, submit: r.apiSubmit}
	baseSide := &benchSide{
		name:  "baseline",
		queue: bl.queue,
		submit: func(ctx context.Context, outputs int, wait bool) (string, error) {
			return bl.submit(ctx, r.patternBody(outputs), outputs, wait)
		},
	}
	sides := []*benchSide{apiSide, baseSide}

	// Warm both paths at the highest concurrency: connections and pools
	// (HTTP, PostgreSQL, gRPC) as wide as any phase needs, caches, the
	// workers' pollers — so no phase pays for opening them.
	peak := slices.Max(cfg.clients)
	for _, sd := range sides {
		_, errs := r.drive(
			peak,
			2*peak,
			func(ctx context.Context) error { _, err := sd.submit(ctx, 1, true); return err },
		)
		require.NoError(b, errs.first, "%s warm-up", sd.name)
	}

	for _, c := range cfg.clients {
		for _, sd := range sides {
			sd.at(c).one = r.throughput(sd, c, 1, cfg.count(40+4*c, c))
		}
		for _, sd := range sides {
			sd.at(c).eight = r.throughput(sd, c, 8, cfg.count(4+c/2, c))
		}
		for _, sd := range sides {
			sd.at(c).wait = r.waitRoundTrips(sd, c, cfg.count(10+c, c))
		}
	}
	hist := map[*benchSide][2]historyStats{}
	for _, sd := range sides {
		mid := sd.at(cfg.clients[len(cfg.clients)/2])
		hist[sd] = [2]historyStats{r.histories(mid.one.sample), r.histories(mid.eight.sample)}
	}

	var mem []memSample
	if cfg.rssJobs > 0 {
		mem = r.memory(cfg.rssJobs/10, cfg.rssJobs)
	}
	var heavy heavyResults
	if cfg.heavy {
		heavy = r.heavy()
	}
	admits := r.admitAlone() // last: its jobs stay open on their steps queues

	out := os.Stdout
	r.report(out, began)
	printLatencyTable(out, cfg, apiSide, baseSide)
	printCostTable(out, apiSide, baseSide, hist)
	printTasksTable(out, tasksRows)
	printMemory(out, mem)
	printHeavyTable(out, heavy)
	printAdmitTable(out, cfg, admits)
	r.printErrors(out)
}

// benchConfig is the size of one run.
type benchConfig struct {
	scale   float64
	rssJobs int
	clients []int
	// tasks is false when TP_BENCH_TASKS=0 skips the tasks table;
	// tasksOnly is true when TP_BENCH_TASKS=only runs nothing else.
	tasks, tasksOnly bool
	// inline is false when TP_BENCH_INLINE=0 keeps every API job's steps
	// on the steps queue.
	inline bool
	// heavy is false when TP_BENCH_HEAVY=0 skips the heavy-jobs table;
	// heavyOnly is true when TP_BENCH_HEAVY=only runs nothing else.
	heavy, heavyOnly bool
}

func benchConfigFromEnv(b *testing.B) benchConfig {
	cfg := benchConfig{scale: 1, rssJobs: 10000, clients: []int{1, 16, 64}, tasks: os.Getenv("TP_BENCH_TASKS") != "0",
		inline: os.Getenv("TP_BENCH_INLINE") != "0", heavy: os.Getenv("TP_BENCH_HEAVY") != "0",
		heavyOnly: os.Getenv("TP_BENCH_HEAVY") == "only", tasksOnly: os.Getenv("TP_BENCH_TASKS") == "only"}
	if v := os.Getenv("TP_BENCH_SCALE"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		require.NoError(b, err, "TP_BENCH_SCALE")
		cfg.scale = f
	}
	if v := os.Getenv("TP_BENCH_RSS_JOBS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(b, err, "TP_BENCH_RSS_JOBS")
		cfg.rssJobs = n
	}
	if v := os.Getenv("TP_BENCH_CLIENTS"); v != "" {
		cfg.clients = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			require.NoError(b, err, "TP_BENCH_CLIENTS")
			cfg.clients = append(cfg.clients, n)
		}
	}
	return cfg
}

// count is n jobs scaled, and at least one per client.
func (c benchConfig) count(n, clients int) int {
	return max(clients, int(math.Round(float64(n)*c.scale)))
}

// benchSide is the API or the baseline, and what each phase measured.
type benchSide struct {
	name   string
	queue  string
	submit func(ctx context.Context, outputs int, wait bool) (string, error)
	levels map[int]*levelResult
}

func (s *benchSide) at(c int) *levelResult {
	if s.levels == nil {
		s.levels = map[int]*levelResult{}
	}
	if s.levels[c] == nil {
		s.levels[c] = &levelResult{}
	}
	return s.levels[c]
}

// levelResult is what one side measured at one concurrency.
type levelResult struct {
	one, eight phaseResult
	wait       []float64
}

// phaseResult is one throughput phase: n jobs submitted by c clients, timed
// from the first submit until the last workflow closed.
type phaseResult struct {
	jobs         int
	submit       []float64 // submit latencies, ms
	elapsed      time.Duration
	tpCPU        time.Duration // this process
	temporalCPU  time.Duration // the dev server
	pgCPU        time.Duration // PostgreSQL
	apiQueries   int64
	workerQuerie int64
	sample       []string // workflow ids of finished jobs
}

func (p phaseResult) rate() float64 {
	if p.elapsed <= 0 {
		return 0
	}
	return float64(p.jobs) / p.elapsed.Seconds()
}

type benchRun struct {
	b           *testing.B
	cfg         benchConfig
	stack       *benchStack
	temporalPID string
	seed        atomic.Int64
	// apiJobs counts the API jobs this process has completed.
	apiJobs atomic.Int64
	// errors are the failures of every phase, for the report.
	errors []string
}

// patternBody is a one-tile (or n-tile) 512 px pattern.generate input with a seed of its own.
func (r *benchRun) patternBody(outputs int) []byte {
	raw, _ := json.Marshal(map[string]any{"kind": "stripes", "colors": []string{"#1F3A5F", "#F2C14E"}, "count": outputs,
		"resolution": "512", "seed": r.seed.Add(1)})
	return raw
}

// apiSubmit submits a pattern.generate job over HTTP; with wait, with
// `Prefer: wait` until it succeeded.
func (r *benchRun) apiSubmit(ctx context.Context, outputs int, wait bool) (string, error) {
	return r.apiPost(ctx, "pattern.generate", r.patternBody(outputs), wait)
}

func (r *benchRun) apiPost(ctx context.Context, task string, body []byte, wait bool) (string, error) {
	status, raw, err := r.stack.post(ctx, task, body, wait)
	if err != nil {
		return "", err
	}
	want := http.StatusAccepted
	if wait {
		want = http.StatusOK
	}
	if status != want {
		return "", fmt.Errorf("submit %s: status %d, want %d: %s", task, status, want, raw)
	}
	var job struct {
		JobID string `json:"job_id"`
	}
	if err := json.Unmarshal(raw, &job); err != nil || job.JobID == "" {
		return "", fmt.Errorf("submit %s: no job_id in %s", task, raw)
	}
	if wait {
		r.apiJobs.Add(1)
	}
	return job.JobID, nil
}

// drive makes n calls over c concurrent clients and returns the latencies
// of the calls that succeeded, in milliseconds, and what failed.
func (r *benchRun) drive(c, n int, call func(ctx context.Context) error) ([]float64, callErrors) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	var (
		mu   sync.Mutex
		lat  = make([]float64, 0, n)
		errs callErrors
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) && ctx.Err() == nil {
				t0 := time.Now()
				err := call(ctx)
				d := float64(time.Since(t0).Microseconds()) / 1000
				mu.Lock()
				if err != nil {
					errs.add(err)
				} else {
					lat = append(lat, d)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return lat, errs
}

// callErrors counts the calls of a phase that failed and keeps the first.
type callErrors struct {
	n     int
	first error
}

func (e *callErrors) add(err error) {
	if e.n == 0 {
		e.first = err
	}
	e.n++
}
