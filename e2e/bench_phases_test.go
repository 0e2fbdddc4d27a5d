package e2e_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
)

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
