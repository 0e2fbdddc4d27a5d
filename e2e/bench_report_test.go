package e2e_test

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

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
