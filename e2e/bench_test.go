package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
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
// TP_BENCH_TASKS=0 skips the tasks table, TP_BENCH_HEAVY=0 the heavy-jobs
// table (TP_BENCH_HEAVY=only runs nothing else), and TP_BENCH_INLINE=0 runs
// every API job's steps on the steps queue (no job inside its admit).
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

// report prints the run's first line: when, on what, the load average,
// how long it took and its knobs.
func (r *benchRun) report(out io.Writer, began time.Time) {
	fmt.Fprintf(
		out,
		"\ntaskplatform bench · %s · %d CPUs · load average %s · Temporal pid %s · took %s (TP_BENCH_SCALE=%g, "+
			"TP_BENCH_RSS_JOBS=%d)\n",
		time.Now().UTC().Format(time.RFC3339),
		runtime.NumCPU(),
		loadAverage(),
		or(r.temporalPID, "not found"),
		time.Since(began).Round(time.Second),
		r.cfg.scale,
		r.cfg.rssJobs,
	)
}

// printErrors lists the failures of every phase, if any.
func (r *benchRun) printErrors(out io.Writer) {
	if len(r.errors) > 0 {
		fmt.Fprintln(out, "\nFailures (the figures above count only what succeeded):")
		for _, e := range r.errors {
			fmt.Fprintln(out, "  "+e)
		}
	}
}

// benchConfig is the size of one run.
type benchConfig struct {
	scale   float64
	rssJobs int
	clients []int
	// tasks is false when TP_BENCH_TASKS=0 skips the tasks table.
	tasks bool
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
		heavyOnly: os.Getenv("TP_BENCH_HEAVY") == "only"}
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

// throughput submits n jobs of outputs outputs over c clients (each client
// submits its next job when its last submit answered) and waits until every
// job's workflow closed.
func (r *benchRun) throughput(sd *benchSide, c, outputs, n int) phaseResult {
	ctx := context.Background()
	since := time.Now().Add(-time.Millisecond)
	cpu0, tcpu0, pg0 := cpuTime("self"), r.temporalCPU(), postgresCPU()
	api0, worker0 := r.stack.apiQueries.Load(), r.stack.workerQueries.Load()
	lat, errs := r.drive(c, n, func(ctx context.Context) error { _, err := sd.submit(ctx, outputs, false); return err })
	r.noteErrors(sd, fmt.Sprintf("%d-output jobs at %d clients: submit", outputs, c), errs)
	n = len(lat)
	last, sample := r.waitClosed(ctx, sd, since, n, fmt.Sprintf("%d-output jobs at %d clients", outputs, c))
	p := phaseResult{jobs: n, submit: lat, elapsed: last.Sub(since), sample: sample,
		tpCPU: cpuTime("self") - cpu0, temporalCPU: r.temporalCPU() - tcpu0, pgCPU: postgresSince(pg0),
		apiQueries: r.stack.apiQueries.Load() - api0, workerQuerie: r.stack.workerQueries.Load() - worker0}
	if sd.queue == r.stack.queue {
		r.apiJobs.Add(int64(n))
	}
	fmt.Fprintf(
		os.Stderr,
		"bench: %-8s %d-output jobs, %2d clients: %4d jobs in %5.1fs = %6.1f jobs/s, submit p50 %.1f ms\n",
		sd.name,
		outputs,
		c,
		n,
		p.elapsed.Seconds(),
		p.rate(),
		pct(lat, 50),
	)
	return p
}

// waitRoundTrips times n `Prefer: wait` submits of one-output jobs over c clients.
func (r *benchRun) waitRoundTrips(sd *benchSide, c, n int) []float64 {
	lat, errs := r.drive(c, n, func(ctx context.Context) error { _, err := sd.submit(ctx, 1, true); return err })
	r.noteErrors(sd, fmt.Sprintf("Prefer: wait at %d clients", c), errs)
	fmt.Fprintf(
		os.Stderr,
		"bench: %-8s Prefer: wait,    %2d clients: %4d jobs, p50 %.1f ms\n",
		sd.name,
		c,
		n,
		pct(lat, 50),
	)
	return lat
}

// waitClosed waits until n workflows started on sd's queue since then have
// closed, notes those that did not complete, and returns the last close
// time and a sample of the completed workflows' ids.
func (r *benchRun) waitClosed(
	ctx context.Context,
	sd *benchSide,
	since time.Time,
	n int,
	phase string,
) (time.Time, []string) {
	query := fmt.Sprintf(
		"TaskQueue = '%s' AND StartTime >= '%s' AND ExecutionStatus != 'Running'",
		sd.queue,
		since.UTC().Format(time.RFC3339Nano),
	)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		res, err := r.stack.temporal.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query})
		require.NoError(r.b, err)
		if res.GetCount() >= int64(n) {
			break
		}
		require.True(
			r.b,
			time.Now().Before(deadline),
			"%s, %s: %d of %d workflows closed after 5 minutes",
			sd.name,
			phase,
			res.GetCount(),
			n,
		)
		time.Sleep(50 * time.Millisecond)
	}
	var (
		last   time.Time
		sample []string
		token  []byte
		errs   callErrors
	)
	for {
		res, err := r.stack.temporal.ListWorkflow(
			ctx,
			&workflowservice.ListWorkflowExecutionsRequest{Query: query, PageSize: 1000, NextPageToken: token},
		)
		require.NoError(r.b, err)
		for _, e := range res.GetExecutions() {
			if t := e.GetCloseTime().AsTime(); t.After(last) {
				last = t
			}
			if e.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
				errs.add(fmt.Errorf("workflow %s ended %s", e.GetExecution().GetWorkflowId(), e.GetStatus()))
			} else if len(sample) < 10 {
				sample = append(sample, e.GetExecution().GetWorkflowId())
			}
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	r.noteErrors(sd, phase+": workflows", errs)
	return last, sample
}

// noteErrors keeps a phase's failures for the report (and says so at once).
func (r *benchRun) noteErrors(sd *benchSide, phase string, errs callErrors) {
	if errs.n == 0 {
		return
	}
	line := fmt.Sprintf("%s, %s: %d failed; first: %v", sd.name, phase, errs.n, errs.first)
	fmt.Fprintln(os.Stderr, "bench: "+line)
	r.errors = append(r.errors, line)
}

func (r *benchRun) temporalCPU() time.Duration {
	if r.temporalPID == "" {
		return 0
	}
	return cpuTime(r.temporalPID)
}

// historyStats is the mean history of a sample of finished jobs.
type historyStats struct {
	events, workflowTasks float64
}

// histories reads the histories of finished workflows through the client.
func (r *benchRun) histories(ids []string) historyStats {
	var hs historyStats
	if len(ids) == 0 {
		return hs
	}
	for _, id := range ids {
		it := r.stack.temporal.GetWorkflowHistory(
			context.Background(),
			id,
			"",
			false,
			enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT,
		)
		for it.HasNext() {
			e, err := it.Next()
			require.NoError(r.b, err)
			hs.events++
			if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				hs.workflowTasks++
			}
		}
	}
	hs.events /= float64(len(ids))
	hs.workflowTasks /= float64(len(ids))
	return hs
}

// memory runs the cheapest job (one palette sheet, an SVG) with `Prefer:
// wait` over many clients until the process has completed first and then
// total API jobs, and samples its memory at both points.
func (r *benchRun) memory(first, total int) []memSample {
	const clients = 64
	body := []byte(`{"base_color":"#1F3A5F","schemes":["complementary"]}`)
	var out []memSample
	for _, target := range []int{first, total} {
		for round := 0; round < 3 && int(r.apiJobs.Load()) < target; round++ {
			n := target - int(r.apiJobs.Load())
			t0 := time.Now()
			_, errs := r.drive(clients, n, func(ctx context.Context) error {
				_, err := r.apiPost(ctx, "palette.generate", body, true)
				return err
			})
			r.noteErrors(&benchSide{name: "API"}, "memory phase", errs)
			d := time.Since(t0)
			fmt.Fprintf(
				os.Stderr,
				"bench: memory   palette jobs,     %d clients: %4d jobs in %5.1fs = %6.1f jobs/s\n",
				clients,
				n,
				d.Seconds(),
				float64(n)/d.Seconds(),
			)
		}
		out = append(out, sampleMemory(int(r.apiJobs.Load())))
	}
	return out
}

func printLatencyTable(out io.Writer, cfg benchConfig, api, base *benchSide) {
	fmt.Fprintln(
		out,
		"\nAPI (HTTP on loopback, api, worker, PostgreSQL, Temporal dev server) beside the baseline (bare naive-shape "+
			"workflow, no-op activities):",
	)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tclients\tAPI\tbaseline\tAPI/baseline\t")
	metrics := []struct {
		name string
		of   func(*levelResult) float64
	}{
		{"submit p50 (ms)", func(l *levelResult) float64 { return pct(l.one.submit, 50) }},
		{"submit p99 (ms)", func(l *levelResult) float64 { return pct(l.one.submit, 99) }},
		{"Prefer: wait p50 (ms)", func(l *levelResult) float64 { return pct(l.wait, 50) }},
		{"Prefer: wait p99 (ms)", func(l *levelResult) float64 { return pct(l.wait, 99) }},
		{"jobs/s, 1 output", func(l *levelResult) float64 { return l.one.rate() }},
		{"jobs/s, 8 outputs", func(l *levelResult) float64 { return l.eight.rate() }},
	}
	for _, m := range metrics {
		for _, c := range cfg.clients {
			a, bb := m.of(api.at(c)), m.of(base.at(c))
			fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%s\t\n", m.name, c, a, bb, ratio(a, bb))
		}
	}
	_ = tw.Flush()
	fmt.Fprintf(out, "jobs per phase (API = baseline): 1 output %s; 8 outputs %s; Prefer: wait %s\n",
		phaseCounts(cfg, api, func(l *levelResult) int { return l.one.jobs }),
		phaseCounts(cfg, api, func(l *levelResult) int { return l.eight.jobs }),
		phaseCounts(cfg, api, func(l *levelResult) int { return len(l.wait) }))
}

func phaseCounts(cfg benchConfig, sd *benchSide, of func(*levelResult) int) string {
	return countsAt(cfg, func(c int) int { return of(sd.at(c)) })
}

// countsAt lists n(c) for each concurrency c of the run: "44 at 1, 104 at 16".
func countsAt(cfg benchConfig, n func(c int) int) string {
	var parts []string
	for _, c := range cfg.clients {
		parts = append(parts, fmt.Sprintf("%d at %d", n(c), c))
	}
	return strings.Join(parts, ", ")
}

// costs sums the throughput phases of one side for one output count.
type costs struct {
	jobs                      int
	tpCPU, temporalCPU, pgCPU time.Duration
	apiQueries, workerQuerie  int64
}

func sumCosts(sd *benchSide, eight bool) costs {
	var c costs
	for _, l := range sd.levels {
		p := l.one
		if eight {
			p = l.eight
		}
		c.jobs += p.jobs
		c.tpCPU += p.tpCPU
		c.temporalCPU += p.temporalCPU
		c.pgCPU += p.pgCPU
		c.apiQueries += p.apiQueries
		c.workerQuerie += p.workerQuerie
	}
	return c
}

func (c costs) perJob(v float64) float64 {
	if c.jobs == 0 {
		return 0
	}
	return v / float64(c.jobs)
}

func printCostTable(out io.Writer, api, base *benchSide, hist map[*benchSide][2]historyStats) {
	fmt.Fprintln(
		out,
		"\nPer job (histories: mean of finished jobs read through the client; CPU and queries: every throughput phase):",
	)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "per job\tAPI 1 output\tbaseline\tAPI/baseline\tAPI 8 outputs\tbaseline\tAPI/baseline\t")
	row := func(name string, of func(sd *benchSide, eight bool) float64, baseToo bool) {
		fmt.Fprintf(tw, "%s", name)
		for _, eight := range []bool{false, true} {
			a := of(api, eight)
			if baseToo {
				bb := of(base, eight)
				fmt.Fprintf(tw, "\t%.1f\t%.1f\t%s", a, bb, ratio(a, bb))
			} else {
				fmt.Fprintf(tw, "\t%.1f\t-\t-", a)
			}
		}
		fmt.Fprintln(tw, "\t")
	}
	idx := func(eight bool) int {
		if eight {
			return 1
		}
		return 0
	}
	row("history events", func(sd *benchSide, e bool) float64 { return hist[sd][idx(e)].events }, true)
	row("workflow tasks", func(sd *benchSide, e bool) float64 { return hist[sd][idx(e)].workflowTasks }, true)
	row("taskplatform CPU (ms)", func(sd *benchSide, e bool) float64 {
		c := sumCosts(sd, e)
		return c.perJob(float64(c.tpCPU.Microseconds()) / 1000)
	}, true)
	row("Temporal server CPU (ms)", func(sd *benchSide, e bool) float64 {
		c := sumCosts(sd, e)
		return c.perJob(float64(c.temporalCPU.Microseconds()) / 1000)
	}, true)
	row("PostgreSQL CPU (ms)", func(sd *benchSide, e bool) float64 {
		c := sumCosts(sd, e)
		return c.perJob(float64(c.pgCPU.Microseconds()) / 1000)
	}, false) // the baseline has no database
	row(
		"API DB queries per submit",
		func(sd *benchSide, e bool) float64 { c := sumCosts(sd, e); return c.perJob(float64(c.apiQueries)) },
		false,
	)
	row(
		"worker DB queries per job",
		func(sd *benchSide, e bool) float64 { c := sumCosts(sd, e); return c.perJob(float64(c.workerQuerie)) },
		false,
	)
	_ = tw.Flush()
	further := func(sd *benchSide) float64 { return (hist[sd][1].events - hist[sd][0].events) / 7 }
	fmt.Fprintf(out, "history events per further output: API %.1f, baseline %.1f\n", further(api), further(base))
}

func printMemory(out io.Writer, mem []memSample) {
	if len(mem) < 2 {
		fmt.Fprintln(out, "\nMemory: skipped (TP_BENCH_RSS_JOBS=0)")
		return
	}
	fmt.Fprintf(
		out,
		"\nMemory of this process (VmRSS after a forced GC that returns freed memory to the OS):\n  after %s\n  after "+
			"%s\n  RSS ratio %.2f\n",
		mem[0],
		mem[1],
		mem[1].rssMB/mem[0].rssMB,
	)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func pct(v []float64, p int) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(raw))[:3], " ")
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
