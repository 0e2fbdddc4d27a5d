package workflows

import (
	"errors"
	"fmt"
	"slices"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// versionAdmitPlan is the change that plans a queued job at its admit
// (contract.AdmitResult.Plan) and starts its first outputs together, each
// leaving the queue under the job's start deadline, instead of planning in
// output 1's step and starting the others once it ended. Only jobs planned
// at admit with more than one output ask for it.
const versionAdmitPlan = "outputs-from-admit"

// deliverAll runs every output of a job planned at admit side by side, at
// most stepsPerJob at once, so the workers of a fleet share one job from
// its start. The outputs started before any step ended each leave the
// queue under the job's start deadline; the job fails start_timeout when
// every one of them missed it. One that missed it while another ran is
// started again once the job is known to have left the queue, without a
// deadline, as are capacity-limited outputs (never started before then).
func (j *job) deliverAll(ctx workflow.Context, run runStep, plan *contract.Plan) (contract.SettleInput, error) {
	return j.runParallel(ctx, run, plan, newParallel(plan.Steps, 0), &deliveries{steps: plan.Steps})
}

// deliverParallel runs outputs 1.. of a job its first step planned side by
// side, at most stepsPerJob at once. Output 0 (first, firstErr) came with
// the plan.
func (j *job) deliverParallel(ctx workflow.Context, run runStep, plan *contract.Plan, d *deliveries,
	first contract.StepResult, firstErr error) (contract.SettleInput, error) {
	if f := contentRefused(firstErr); f != nil {
		return j.fail(contract.OutcomeFailed, *f), nil
	}
	if f := d.busyNow(ctx, 0, firstErr); f != nil {
		return j.fail(contract.OutcomeFailed, *f), nil
	}
	p := newParallel(plan.Steps, 1)
	p.outs[0], p.errs[0], p.started = first, firstErr, true
	if firstErr == nil {
		p.delivered = 1
	}
	return j.runParallel(ctx, run, plan, p, d)
}

// runParallel runs p's pending outputs side by side, at most stepsPerJob
// at once, and answers how to settle, recording every output in d. Outputs are recorded in the task's
// order whatever order their steps end in. A cancel, an output that could
// not get its capacity in time, refused content or an engine that stayed
// busy (jobs started after versionParallelBusy) cancels every running step
// and waits for them all to end before the job settles, so settlement
// charges exactly the outputs that were delivered.
func (j *job) runParallel(ctx workflow.Context, run runStep, plan *contract.Plan,
	p *parallel, d *deliveries) (contract.SettleInput, error) {
	sctx, stop := workflow.WithCancel(ctx)
	defer stop()
	sel := workflow.NewSelector(ctx)
	limit := j.stepsPerJob()
	for {
		for p.open() && p.running < limit {
			i, start, ok := p.next(plan)
			if !ok {
				break
			}
			p.running++
			sel.AddFuture(run(sctx, i, plan, start), func(f workflow.Future) {
				p.running--
				p.outs[i], p.errs[i] = stepResult(ctx, f)
				if p.end(ctx, i, plan, d, start) {
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
	case !p.started:
		return j.startTimeout(), nil
	}
	for i := range p.n {
		if f := d.record(ctx, i, p.outs[i], p.errs[i]); f != nil {
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
	// outs and errs are each output's answer, by index.
	outs []contract.StepResult
	errs []error
	// pending are the outputs still to start, in order; late are outputs
	// that missed the start deadline before the job was known to have
	// left the queue.
	pending, late []int
	// started is true once a step ended that had left the queue: steps
	// started after it need no start deadline.
	started bool
	// cancelled is true once the job was cancelled, failure is set once an
	// output ended the job: no further step starts.
	cancelled bool
	failure   *contract.Failure
}

// newParallel is the state of a job of n outputs whose outputs from..n-1
// are still to run.
func newParallel(n, from int) *parallel {
	p := &parallel{n: n, outs: make([]contract.StepResult, n), errs: make([]error, n)}
	for i := from; i < n; i++ {
		p.pending = append(p.pending, i)
	}
	return p
}

// open says whether further steps may start.
func (p *parallel) open() bool { return !p.cancelled && p.failure == nil }

// next is the output to start now, and whether its step leaves the queue
// (no step that left the queue has ended yet); ok is false when none may
// start now. Before the job is known to have left the queue,
// capacity-limited outputs wait, as do all but the first when the first
// prepares what they share (FirstAlone), and once a step missed the start
// deadline no further step starts (it would wait under a deadline of its
// own).
func (p *parallel) next(plan *contract.Plan) (i int, start, ok bool) {
	if !p.started && len(p.late) > 0 {
		return 0, false, false
	}
	for k, i := range p.pending {
		if _, limited := plan.Capacity[i]; !p.started && (limited || plan.FirstAlone && i > 0) {
			continue
		}
		p.pending = slices.Delete(p.pending, k, k+1)
		return i, !p.started, true
	}
	return 0, false, false
}

// end takes the answer of output i's step and says whether it ended the
// job (the running steps are then cancelled). Steps that end after that
// only drain. Any other failure leaves the output missing (d records it
// once every step has ended). A step that left the queue (start) and
// missed the start deadline is started again once the job has left the
// queue.
func (p *parallel) end(ctx workflow.Context, i int, plan *contract.Plan, d *deliveries, start bool) bool {
	if !p.open() {
		return false
	}
	err := p.errs[i]
	capacity, limited := plan.Capacity[i]
	switch {
	case temporal.IsCanceledError(err) || ctx.Err() != nil:
		p.cancelled = true
		return true
	case start && scheduleToStart(err):
		p.late = append(p.late, i)
		if p.started {
			p.requeueLate()
		}
		return false
	}
	if !p.started {
		p.started = true
		p.requeueLate()
	}
	switch {
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

// requeueLate puts the outputs that missed the start deadline back among
// the pending ones, in order.
func (p *parallel) requeueLate() {
	p.pending = append(p.pending, p.late...)
	p.late = nil
	slices.Sort(p.pending)
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
