package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// deliverParallel runs outputs 1.. of a planned job side by side, at most
// stepsPerJob at once, so the workers of a fleet share one job.
// Output 0 (first, firstErr) came with the plan. Outputs are recorded in
// the task's order whatever order their steps end in. A cancel, an output
// that could not get its capacity in time, refused content or an engine
// that stayed busy (jobs started after versionParallelBusy) cancels every
// running step and waits for them all to end before the job settles, so
// settlement charges exactly the outputs that were delivered.
func (j *job) deliverParallel(ctx workflow.Context, run runStep, plan *contract.Plan, d *deliveries,
	first contract.StepResult, firstErr error) (contract.SettleInput, error) {
	if f := contentRefused(firstErr); f != nil {
		return j.fail(contract.OutcomeFailed, *f), nil
	}
	if f := d.busyNow(ctx, 0, firstErr); f != nil {
		return j.fail(contract.OutcomeFailed, *f), nil
	}
	n := plan.Steps
	outs, errs := make([]contract.StepResult, n), make([]error, n)
	outs[0], errs[0] = first, firstErr
	p := &parallel{n: n}
	if firstErr == nil {
		p.delivered = 1
	}
	sctx, stop := workflow.WithCancel(ctx)
	defer stop()
	sel := workflow.NewSelector(ctx)
	limit := j.stepsPerJob()
	for next := 1; ; {
		for p.open() && next < n && p.running < limit {
			i := next
			next++
			p.running++
			sel.AddFuture(run(sctx, i, plan), func(f workflow.Future) {
				p.running--
				outs[i], errs[i] = stepResult(ctx, f)
				if p.end(ctx, i, plan, d, errs[i]) {
					stop()
				}
			})
		}
		if p.running == 0 {
			break
		}
		sel.Select(ctx)
	}
	switch {
	case p.cancelled:
		return contract.SettleInput{}, temporal.NewCanceledError()
	case p.failure != nil:
		return j.fail(contract.OutcomeFailed, *p.failure), nil
	}
	for i := range n {
		if f := d.record(ctx, i, outs[i], errs[i]); f != nil {
			return j.fail(contract.OutcomeFailed, *f), nil
		}
	}
	settlement := d.settle(j.in.JobID)
	if settlement.Failure != nil {
		return j.fail(settlement.Outcome, *settlement.Failure), nil
	}
	return settlement, nil
}

// stepsPerJob is how many outputs the job runs at once: its admit's bound,
// at most the service's limit (contract.StepsPerJob, also the default).
func (j *job) stepsPerJob() int {
	if n := j.admitted.StepsPerJob; n > 0 && n < contract.StepsPerJob {
		return n
	}
	return contract.StepsPerJob
}

// parallel is the state of a job's outputs running side by side.
type parallel struct {
	n, running, delivered int
	// cancelled is true once the job was cancelled, failure is set once an
	// output ended the job: no further step starts.
	cancelled bool
	failure   *contract.Failure
}

// open says whether further steps may start.
func (p *parallel) open() bool { return !p.cancelled && p.failure == nil }

// end takes the answer of output i's step and says whether it ended the
// job (the running steps are then cancelled). Steps that end after that
// only drain. Any other failure leaves the output missing (d records it
// once every step has ended).
func (p *parallel) end(ctx workflow.Context, i int, plan *contract.Plan, d *deliveries, err error) bool {
	if !p.open() {
		return false
	}
	capacity, limited := plan.Capacity[i]
	switch {
	case temporal.IsCanceledError(err) || ctx.Err() != nil:
		p.cancelled = true
	case limited && scheduleToStart(err):
		p.failure = &contract.Failure{Code: contract.CodeCapacityBusy, Message: fmt.Sprintf(
			"Output %d of %d could not get %s capacity in time; submit again later.", i+1, p.n, capacity)}
	case contentRefused(err) != nil:
		p.failure = contentRefused(err)
	case err == nil:
		p.delivered++
		workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: %d of %d outputs delivered", p.delivered, p.n))
	default:
		p.failure = d.busyNow(ctx, i, err)
	}
	return !p.open()
}

// versionParallelBusy is the change that ends a job whose outputs run side
// by side as soon as a step's engine stayed busy (capacity_busy), as
// refused content does: its running steps are cancelled and no further
// one starts. Jobs started before it ran every output and failed
// capacity_busy only when their outputs were recorded. Like
// versionEngineBusy, the marker is asked for only when such a failure
// arrives.
const versionParallelBusy = "parallel-capacity-busy"

// busyNow is the failure of output i's step, run side by side with
// others, whose engine stayed busy, which ends the job at once; nil for
// any other answer, and in jobs started before versionParallelBusy.
func (d *deliveries) busyNow(ctx workflow.Context, i int, err error) *contract.Failure {
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != contract.ErrTypeCapacityBusy {
		return nil
	}
	if workflow.GetVersion(ctx, versionParallelBusy, workflow.DefaultVersion, 1) != 1 {
		return nil
	}
	return d.capacityBusy(ctx, i, err)
}
