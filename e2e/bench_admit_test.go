package e2e_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/require"
)

// admitPhase is one side's admit-alone phase at one concurrency: the
// submits' latencies and what they cost each process.
type admitPhase struct {
	submit                    []float64 // ms
	tpCPU, temporalCPU, pgCPU time.Duration
}

func (p admitPhase) perSubmit(d time.Duration) float64 {
	if len(p.submit) == 0 {
		return 0
	}
	return float64(d.Microseconds()) / 1000 / float64(len(p.submit))
}

// admitResults are both sides' admit-alone phases by concurrency.
type admitResults struct {
	api, base map[int]admitPhase
}

// admitAlone times submits when no worker polls either side's steps queue:
// each job is admitted (the API: authenticated, rate-limited, its credits
// held in PostgreSQL; the baseline: a no-op local activity) and then waits
// there, so a submit competes with nothing but other submits. It runs a
// stack and a baseline of their own, last, as their jobs stay open.
func (r *benchRun) admitAlone() admitResults {
	peak := slices.Max(r.cfg.clients)
	api := &benchRun{
		b:           r.b,
		cfg:         r.cfg,
		stack:       newBenchStack(r.b, peak, benchStackOptions{noSteps: true}),
		temporalPID: r.temporalPID,
	}
	bl := newBaseline(r.b, r.stack.temporal, true)
	sides := []struct {
		name   string
		submit func(ctx context.Context) error
		into   map[int]admitPhase
	}{
		{
			"API",
			func(ctx context.Context) error { _, err := api.apiSubmit(ctx, 1, false); return err },
			map[int]admitPhase{},
		},
		{
			"baseline",
			func(ctx context.Context) error { _, err := bl.submit(ctx, r.patternBody(1), 1, false); return err },
			map[int]admitPhase{},
		},
	}
	for _, sd := range sides {
		_, errs := r.drive(peak, 2*peak, sd.submit)
		require.NoError(r.b, errs.first, "%s admit-alone warm-up", sd.name)
	}
	for _, c := range r.cfg.clients {
		for _, sd := range sides {
			cpu0, tcpu0, pg0 := cpuTime("self"), r.temporalCPU(), postgresCPU()
			lat, errs := r.drive(c, r.cfg.count(40+4*c, c), sd.submit)
			r.noteErrors(&benchSide{name: sd.name}, fmt.Sprintf("admit alone at %d clients", c), errs)
			sd.into[c] = admitPhase{
				submit:      lat,
				tpCPU:       cpuTime("self") - cpu0,
				temporalCPU: r.temporalCPU() - tcpu0,
				pgCPU:       postgresSince(pg0),
			}
		}
	}
	return admitResults{api: sides[0].into, base: sides[1].into}
}

func printAdmitTable(out io.Writer, cfg benchConfig, res admitResults) {
	fmt.Fprintln(
		out,
		"\nAdmit alone (no worker polls either side's steps queue: each submit is admitted and its job waits there):",
	)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tclients\tAPI\tbaseline\tAPI/baseline\t")
	metrics := []struct {
		name string
		of   func(admitPhase) float64
		noDB bool
	}{
		{"submit p50 (ms)", func(p admitPhase) float64 { return pct(p.submit, 50) }, false},
		{"submit p99 (ms)", func(p admitPhase) float64 { return pct(p.submit, 99) }, false},
		{"taskplatform CPU per submit (ms)", func(p admitPhase) float64 { return p.perSubmit(p.tpCPU) }, false},
		{
			"Temporal server CPU per submit (ms)",
			func(p admitPhase) float64 { return p.perSubmit(p.temporalCPU) },
			false,
		},
		{"PostgreSQL CPU per submit (ms)", func(p admitPhase) float64 { return p.perSubmit(p.pgCPU) }, true},
	}
	for _, m := range metrics {
		for _, c := range cfg.clients {
			a, bb := m.of(res.api[c]), m.of(res.base[c])
			if m.noDB {
				fmt.Fprintf(tw, "%s\t%d\t%.1f\t-\t-\t\n", m.name, c, a)
				continue
			}
			fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%s\t\n", m.name, c, a, bb, ratio(a, bb))
		}
	}
	_ = tw.Flush()
	fmt.Fprintf(
		out,
		"submits per phase (API = baseline): %s\n",
		countsAt(cfg, func(c int) int { return len(res.api[c].submit) }),
	)
}
