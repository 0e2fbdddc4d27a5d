package workflows

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// parallelSteps mocks a job of len(delays) outputs whose step i takes
// delays[i] (workflow time) and answers errs[i], and watches them run.
type parallelSteps struct {
	mu sync.Mutex
	// started and ended are step indexes in the order the steps started
	// and ended; running are the steps running now (by activity id), most
	// the most that ran at once; cancelled are the steps cancelled (the
	// test environment may say so before it says they started).
	started, ended, delivered []int
	running, cancelled        map[string]bool
	most                      int
	// runningAtSettle is how many steps were still running when the job
	// settled, settledAt when (workflow time).
	runningAtSettle int
	settledAt       time.Time
	// leaving are the steps started to leave the queue (StepInput.Start),
	// in order.
	leaving []int
	// capacity names the outputs the plan puts on a capacity-limited queue.
	capacity map[int]string
	// late are the outputs whose step, sent to leave the queue, misses the
	// job's start deadline.
	late map[int]bool
	// firstAlone is the plan's FirstAlone.
	firstAlone bool
}

// plan is the plan of a job of n outputs.
func (p *parallelSteps) plan(n int) contract.Plan {
	return contract.Plan{Steps: n, Phase: "drawing", Capacity: p.capacity, CapacityDeadline: time.Minute,
		FirstAlone: p.firstAlone}
}

// env is a job environment for a job of n outputs, planned at admit, run
// at most stepsPerJob at once (0: the service's limit).
func (p *parallelSteps) env(t *testing.T, n, stepsPerJob int) *jobEnv {
	plan := p.plan(n)
	return newJobEnvAdmitting(t, contract.AdmitResult{Admitted: true, Required: 6, StepsPerJob: stepsPerJob,
		Plan: &plan})
}

func (p *parallelSteps) mock(e *jobEnv, delays []time.Duration, errs []error) {
	p.running, p.cancelled = map[string]bool{}, map[string]bool{}
	for i, d := range delays {
		e.OnActivity(a.RunStep, mock.Anything, mock.MatchedBy(func(in contract.StepInput) bool { return in.Index == i })).
			After(d).
			Return(func(ctx context.Context, in contract.StepInput) (contract.StepResult, error) {
				p.mu.Lock()
				defer p.mu.Unlock()
				delete(p.running, activity.GetInfo(ctx).ActivityID)
				p.ended = append(p.ended, in.Index)
				if in.Start && p.late[in.Index] {
					return contract.StepResult{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil)
				}
				if errs[in.Index] != nil {
					return contract.StepResult{}, errs[in.Index]
				}
				p.delivered = append(p.delivered, in.Index)
				return contract.StepResult{FileID: "f"}, nil
			})
	}
	e.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, args converter.EncodedValues) {
		if info.ActivityType.Name != contract.ActivityRunStep {
			return
		}
		var in contract.StepInput
		require.NoError(e.t, args.Get(&in))
		p.mu.Lock()
		defer p.mu.Unlock()
		p.started = append(p.started, in.Index)
		if in.Start {
			p.leaving = append(p.leaving, in.Index)
		}
		if !p.cancelled[info.ActivityID] {
			p.running[info.ActivityID] = true
		}
		p.most = max(p.most, len(p.running))
	})
	e.SetOnActivityCanceledListener(func(info *activity.Info) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.cancelled[info.ActivityID] = true
		delete(p.running, info.ActivityID)
	})
	e.onSettle = func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.runningAtSettle = len(p.running)
		p.settledAt = e.Now()
	}
}

func minutes(ms ...int) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, m := range ms {
		out[i] = time.Duration(m) * time.Minute
	}
	return out
}

func TestParallelOutputsKeepTheTasksOrder(t *testing.T) {
	permanent := temporal.NewNonRetryableApplicationError("cannot draw", contract.ErrTypeProcessing, nil)
	var p parallelSteps
	e := p.env(t, 7, 0)
	// Later outputs end first; outputs 3 and 5 fail, 5 before 3.
	p.mock(e, minutes(0, 7, 6, 5, 4, 3, 2), []error{nil, nil, permanent, nil, permanent, nil, nil})
	e.admitAt(0)
	res, err := e.run()
	require.NoError(t, err)
	require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
	require.Equal(t, contract.StepsPerJob, p.most, "outputs run side by side, bounded per job")
	require.NotEqual(t, p.started, p.ended, "steps ended out of order")
	require.Equal(t, 0, p.runningAtSettle)
	sum := e.settled.Summary
	require.NotNil(t, sum)
	require.Equal(t, 7, sum.Requested)
	require.Equal(t, 5, sum.Delivered)
	require.Len(t, sum.Warnings, 2)
	require.Contains(t, sum.Warnings[0].Message, "Output 3 of 7", "warnings follow the task's order")
	require.Contains(t, sum.Warnings[1].Message, "Output 5 of 7")
}

// TestAdmitBoundsTheStepsPerJob: the admitting worker's bound on a job's
// outputs at once (1 runs them one after another, as before parallel
// outputs) holds, and never exceeds the service's limit.
func TestAdmitBoundsTheStepsPerJob(t *testing.T) {
	for _, tc := range []struct{ bound, most int }{
		{0, contract.StepsPerJob}, {1, 1}, {2, 2}, {contract.StepsPerJob + 5, contract.StepsPerJob},
	} {
		t.Run(fmt.Sprint(tc.bound), func(t *testing.T) {
			var p parallelSteps
			e := p.env(t, 9, tc.bound)
			p.mock(e, minutes(1, 1, 1, 1, 1, 1, 1, 1, 1), make([]error, 9))
			e.admitAt(0)
			res, err := e.run()
			require.NoError(t, err)
			require.Equal(t, contract.OutcomeSucceeded, res.Outcome)
			require.Len(t, p.delivered, 9)
			require.Equal(t, tc.most, p.most, "outputs at once")
		})
	}
}

func TestParallelCancelStopsEveryStep(t *testing.T) {
	var p parallelSteps
	e := p.env(t, 8, 0)
	// Outputs 1 to 3 deliver before the cancel; 4 to 7 are running then, 8 never starts.
	p.mock(e, minutes(0, 1, 2, 10, 10, 10, 10, 10), make([]error, 8))
	e.admitAt(0)
	e.RegisterDelayedCallback(e.CancelWorkflow, 150*time.Second)
	_, err := e.run()
	e.requireCancelled(err)
	require.Equal(t, []int{0, 1, 2}, p.delivered, "only what was delivered before the cancel")
	require.ElementsMatch(t, []int{0, 1, 2, 3, 4, 5, 6}, p.started)
	require.Equal(t, 0, p.runningAtSettle, "every running step ended before the job settled")
}

func TestParallelRefusedContentStopsTheOtherSteps(t *testing.T) {
	refused := temporal.NewNonRetryableApplicationError("refused", contract.ErrTypeContentRefused, nil)
	var p parallelSteps
	e := p.env(t, 6, 0)
	p.mock(e, minutes(0, 10, 1, 10, 10, 10), []error{nil, nil, refused, nil, nil, nil})
	e.admitAt(0)
	_, err := e.run()
	var ae *temporal.ApplicationError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, string(apierr.ContentRefused), ae.Type())
	require.Equal(t, string(apierr.ContentRefused), e.settledError().Code)
	require.Equal(t, []int{0}, p.delivered)
	require.ElementsMatch(t, []int{0, 1, 2, 3, 4}, p.started, "no step starts after the job failed")
	require.Equal(t, 0, p.runningAtSettle)
}

// TestParallelCapacityBusyStopsTheOtherSteps: an output that cannot get
// capacity — its engine stayed busy through its retries, or its analysis
// slot did not free up before the capacity deadline — fails the job
// capacity_busy at once, as refused content does: the running steps are
// cancelled, no further step starts, and nothing but what was delivered
// before is charged.
func TestParallelCapacityBusyStopsTheOtherSteps(t *testing.T) {
	busy := temporal.NewNonRetryableApplicationError("the model server stayed busy", contract.ErrTypeCapacityBusy, nil)
	noSlot := temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil)
	for _, tc := range []struct {
		name     string
		errs     []error
		capacity map[int]string
		// started are the outputs whose step ever started (mayStart: the
		// ones that may have, when they differ: those started with the
		// first may be cancelled before their steps start), ended the
		// ones whose step ended by itself (the others were cancelled).
		started, mayStart, ended []int
		message                  string
	}{
		{
			name:    "an engine stays busy for output 3",
			errs:    []error{nil, nil, busy, nil, nil, nil},
			started: []int{0, 1, 2, 3, 4},
			ended:   []int{0, 2},
			message: "Output 3 of 6 could not get the model server's capacity in time",
		},
		{
			name:     "an engine stays busy for the first output",
			errs:     []error{busy, nil, nil, nil, nil, nil},
			started:  []int{0},
			mayStart: []int{0, 1, 2, 3},
			ended:    []int{0},
			message:  "Output 1 of 6 could not get the model server's capacity in time",
		},
		{
			name:     "output 3's analysis gets no slot before the capacity deadline",
			errs:     []error{nil, nil, noSlot, nil, nil, nil},
			capacity: map[int]string{2: "analysis"},
			started:  []int{0, 1, 2, 3, 4},
			ended:    []int{0, 2},
			message:  "Output 3 of 6 could not get analysis capacity in time",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parallelSteps{capacity: tc.capacity}
			e := p.env(t, 6, 0)
			p.mock(e, minutes(0, 10, 1, 10, 10, 10), tc.errs)
			e.admitAt(0)
			_, err := e.run()
			var ae *temporal.ApplicationError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, string(apierr.CapacityBusy), ae.Type())
			f := e.settledError()
			require.Equal(t, string(apierr.CapacityBusy), f.Code)
			require.Contains(t, f.Message, tc.message)
			require.Equal(t, tc.ended, p.ended, "the running steps are cancelled, not waited for")
			if tc.mayStart != nil {
				require.Subset(t, tc.mayStart, p.started, "no step starts after the job failed")
				require.Subset(t, p.started, tc.started)
			} else {
				require.ElementsMatch(t, tc.started, p.started, "no step starts after the job failed")
			}
			require.Equal(t, 0, p.runningAtSettle, "every running step ended before the job settled")
		})
	}
}
