package workflows

import (
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// runParallel runs every output of plan side by side, at most stepsPerJob
// at once, so the workers of a fleet share one job from its start, and
// answers how to settle. The outputs started before any step ended each
// leave the queue under the job's start deadline; the job fails
// start_timeout when every one of them missed it. One that missed it while
// another ran is started again once the job is known to have left the
// queue, without a deadline, as are capacity-limited outputs and, when the
// first output prepares what the others share (plan.FirstAlone), every
// other output (none starts before then).
//
// An output whose built-in step handed it off (StepResult.HandOff: its
// confidence was under the route's threshold) runs a second step on the
// plan's Fallback engine, before any output still to start; only that
// step's answer counts, so it is stored and charged once.
//
// Outputs are recorded in the task's order whatever order their steps end
// in. A cancel, or an output that ends the job (stepFailure: refused
// content, an engine that stayed busy, no capacity before the deadline),
// cancels every running step and waits for them all to end before the job
// settles, so settlement charges exactly the outputs that were delivered.
func (j *job) runParallel(ctx workflow.Context, run runStep, plan *contract.Plan) (contract.SettleInput, error) {
	sctx, stop := workflow.WithCancel(ctx)
	defer stop()
	sel := workflow.NewSelector(ctx)
	p := newParallel(plan)
	p.startDeadline = j.startDeadline()
	limit := j.stepsPerJob()
	for {
		for p.open() && p.running < limit {
			i, start, onEngine, ok := p.next()
			if !ok {
				break
			}
			p.running++
			sel.AddFuture(run(sctx, i, start, onEngine), func(f workflow.Future) {
				p.running--
				p.errs[i] = f.Get(ctx, &p.outs[i])
				p.spread(i)
				if p.end(ctx, i, start) {
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
	case p.cancelled: // what was delivered before the cancel is charged, less these
		return contract.SettleInput{Uncharged: uncharged(p.outs, p.errs)}, temporal.NewCanceledError()
	case p.failure != nil:
		s := j.fail(contract.OutcomeFailed, *p.failure)
		s.Uncharged = uncharged(p.outs, p.errs) // what was delivered is charged, less these
		return s, nil
	case !p.started:
		return j.startTimeout(), nil
	}
	s := settleOutputs(ctx, j.in.JobID, p.outs, p.errs)
	if s.Failure != nil {
		return j.fail(s.Outcome, *s.Failure), nil
	}
	return s, nil
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
	plan                  *contract.Plan
	n, running, delivered int
	// outs and errs are each output's answer, by index.
	outs []contract.StepResult
	errs []error
	// pending are the outputs still to start, in order; late are outputs
	// that missed the start deadline before the job was known to have
	// left the queue; handed are outputs a built-in step handed off, still
	// to start on the Fallback engine.
	pending, late, handed []int
	// started is true once a step ended that had left the queue: steps
	// started after it need no start deadline.
	started bool
	// cancelled is true once the job was cancelled, failure is set once an
	// output ended the job: no further step starts.
	cancelled bool
	failure   *contract.Failure
	// startDeadline is the job's (X-Service-Start-Timeout), 0 for none.
	startDeadline time.Duration
}

// newParallel is the state of a job whose outputs are all still to run.
func newParallel(plan *contract.Plan) *parallel {
	n := plan.Steps
	p := &parallel{plan: plan, n: n, outs: make([]contract.StepResult, n), errs: make([]error, n)}
	for i := 0; i < n; i += plan.Group() {
		p.pending = append(p.pending, i)
	}
	return p
}

// spread gives each further output of the step of output i (one that
// makes several, plan.PerStep) its answer: its file, or the step's error,
// or — past the files the step made — a processing failure in the step's
// words (not produced, not charged).
func (p *parallel) spread(i int) {
	for k := 1; k < p.plan.Group() && i+k < p.n; k++ {
		switch more := p.outs[i].More; {
		case p.errs[i] != nil:
			p.errs[i+k] = p.errs[i]
		case k <= len(more):
			p.outs[i+k] = contract.StepResult{FileID: more[k-1], Engine: p.outs[i].Engine}
		default:
			reason := p.outs[i].Missing
			if reason == "" {
				reason = "the step made fewer outputs than planned"
			}
			p.errs[i+k] = temporal.NewNonRetryableApplicationError(reason, contract.ErrTypeProcessing, nil)
		}
	}
}

// open says whether further steps may start.
func (p *parallel) open() bool { return !p.cancelled && p.failure == nil }

// next is the output to start now, whether its step leaves the queue
// (no step that left the queue has ended yet) and whether it runs on the
// Fallback engine (an output handed off, started first); ok is false when
// none may start now. Before the job is known to have left the queue,
// capacity-limited outputs wait, as do all but the first when the first
// prepares what they share (FirstAlone), and once a step missed the start
// deadline no further step starts (it would wait under a deadline of its
// own).
func (p *parallel) next() (i int, start, onEngine, ok bool) {
	if len(p.handed) > 0 {
		i, p.handed = p.handed[0], p.handed[1:]
		return i, false, true, true
	}
	if !p.started && len(p.late) > 0 {
		return 0, false, false, false
	}
	for k, i := range p.pending {
		if _, limited := p.plan.Capacity[i]; !p.started && (limited || p.plan.FirstAlone && i > 0) {
			continue
		}
		p.pending = slices.Delete(p.pending, k, k+1)
		return i, !p.started, false, true
	}
	return 0, false, false, false
}

// end takes the answer of output i's step and says whether it ended the
// job (the running steps are then cancelled). Steps that end after that
// only drain. Any other failure leaves the output missing (settleOutputs
// records it once every step has ended). A step that left the queue
// (start) and missed the start deadline is started again once the job has
// left the queue.
func (p *parallel) end(ctx workflow.Context, i int, start bool) bool {
	if !p.open() {
		return false
	}
	err := p.errs[i]
	switch {
	case temporal.IsCanceledError(err) || ctx.Err() != nil:
		p.cancelled = true
		return true
	case start && scheduleToStart(err) && p.startMissed():
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
	if err == nil && p.outs[i].HandOff != "" && p.plan.Fallback != "" {
		p.handed = append(p.handed, i)
		p.outs[i] = contract.StepResult{}
		return false
	}
	if err == nil {
		for k := range p.plan.Group() {
			if i+k < p.n && p.errs[i+k] == nil {
				p.delivered++
			}
		}
		workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: %d of %d outputs delivered", p.delivered, p.n))
	}
	p.failure = stepFailure(i, p.n, p.plan, err)
	return !p.open()
}

// startMissed says whether a step that leaves the queue and did not start
// in time missed the job's start deadline: always, but for a job on an
// external engine whose queue wait is the shorter (that fails the job
// capacity_busy, stepFailure).
func (p *parallel) startMissed() bool {
	if p.plan.Engine == "" {
		return true
	}
	_, start := engineWait(p.plan, true, p.startDeadline)
	return start
}

// requeueLate puts the outputs that missed the start deadline back among
// the pending ones, in order.
func (p *parallel) requeueLate() {
	p.pending = append(p.pending, p.late...)
	p.late = nil
	slices.Sort(p.pending)
}
