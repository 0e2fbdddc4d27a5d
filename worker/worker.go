// Package worker runs the job workflows and their activities on the task
// queues and the sweep of late jobs' admits, and builds the Temporal client
// every process shares.
package worker

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstart"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/workflows"
)

// Options tune a worker.
type Options struct {
	// MaxConcurrentSteps bounds the task steps run at once; 0 means
	// DefaultMaxSteps. Steps beyond it wait in the queue, where their start
	// deadline runs.
	MaxConcurrentSteps int
	// NoSteps runs workflows, holds and settlements but polls no task
	// steps (tests of the start deadline use it).
	NoSteps bool
	// TaskQueue is the queue to poll; empty means contract.TaskQueue.
	TaskQueue string
	// AnalysisCapacity bounds the analysis steps this worker runs at once
	// (TP_ANALYSIS_CAPACITY); 0 means DefaultAnalysisCapacity.
	AnalysisCapacity int
	// LateAdmits tunes the sweep of late jobs' admits the worker runs
	// (activities.LateAdmits); zero values mean its defaults.
	LateAdmits activities.LateAdmitOptions
}

// DefaultAnalysisCapacity is how many analysis steps a worker runs at once.
const DefaultAnalysisCapacity = 2

// Worker polls the job queue (workflows, hold, settle), its steps queue and
// its capacity-limited analysis queue, and sweeps late jobs' admits.
type Worker struct {
	jobs     sdkworker.Worker
	steps    sdkworker.Worker
	analysis sdkworker.Worker
	engines  []sdkworker.Worker // one per external engine, on its own queue
	late     *activities.LateAdmits
	// stopLate ends the sweep and waits for it; nil while it is not running.
	stopLate func()
}

// New registers JobWorkflow and the activities on the job queue and the
// steps queue.
func New(c client.Client, acts *activities.Activities, o Options) *Worker {
	queue := o.TaskQueue
	if queue == "" {
		queue = contract.TaskQueue
	}
	send := func(ctx context.Context, in contract.JobInput, queue string) error {
		_, err := jobstart.SendAdmit(ctx, c, in, queue, client.WorkflowUpdateStageAccepted)
		return err
	}
	w := &Worker{jobs: sdkworker.New(c, queue, JobsOptions())}
	if acts.DB != nil { // activities without a database (tests of polling) have no late admits
		w.late = activities.NewLateAdmits(acts, send, o.LateAdmits)
	}
	// A worker that polls no steps runs none inside an admit either.
	acts.NoInline = acts.NoInline || o.NoSteps
	Register(w.jobs, acts)
	if !o.NoSteps {
		if o.AnalysisCapacity <= 0 {
			o.AnalysisCapacity = DefaultAnalysisCapacity
		}
		if o.MaxConcurrentSteps <= 0 {
			o.MaxConcurrentSteps = DefaultMaxSteps(o.AnalysisCapacity)
		}
		w.steps = sdkworker.New(c, contract.StepsQueue(queue), StepsOptions(o.MaxConcurrentSteps))
		w.steps.RegisterActivity(acts)
		w.analysis = sdkworker.New(c, contract.CapacityQueue(queue, contract.QueueAnalysis), sdkworker.Options{
			MaxConcurrentActivityExecutionSize: o.AnalysisCapacity,
			// One poller per slot at most: a poll takes a task only when a slot is free.
			MaxConcurrentActivityTaskPollers: min(o.AnalysisCapacity, 2),
			DisableWorkflowWorker:            true,
			WorkerStopTimeout:                5 * time.Second,
			MaxHeartbeatThrottleInterval:     StepHeartbeatInterval,
		})
		w.analysis.RegisterActivity(acts)
		w.engines = engineWorkers(c, queue, acts)
	}
	return w
}

// JobsOptions are the options of a job queue's worker (job workflows and
// their local activities). `make bench` polls its baseline's queue with
// the same.
//
// DeadlockDetectionTimeout is raised from the SDK's 1 s: job workflows do
// no I/O, but they share the process with steps that render on every core,
// and a workflow goroutine left waiting for a CPU for a second was taken
// for a deadlock: the SDK failed the workflow task while that goroutine
// still ran (seen in tests on a loaded 2-core machine, as TMPRL1101 and a
// data race inside the SDK's dispatcher).
func JobsOptions() sdkworker.Options {
	return sdkworker.Options{
		MaxConcurrentWorkflowTaskPollers:        8,
		MaxConcurrentLocalActivityExecutionSize: 64,
		DeadlockDetectionTimeout:                5 * time.Second,
	}
}

// WorkerBaseBytes is the memory a worker takes besides its steps: the
// Temporal SDK, its workflow cache and local activities, the database pool.
const WorkerBaseBytes = 200 << 20

// DefaultMaxSteps is how many steps a worker runs at once when
// TP_WORKER_MAX_STEPS is unset: two per CPU, as steps render images, but no
// more than the process's memory limit (GOMEMLIMIT) holds at
// tasks.StepMemoryBytes a step beside WorkerBaseBytes and its analysis
// steps; at least one.
func DefaultMaxSteps(analysis int) int {
	n := 2 * runtime.NumCPU()
	if limit := debug.SetMemoryLimit(-1); limit < math.MaxInt64 {
		n = min(n, int((limit-WorkerBaseBytes)/tasks.StepMemoryBytes)-analysis)
	}
	return max(n, 1)
}

// StepsOptions are the options of a steps queue's worker running at most
// maxSteps steps at once; 0 means DefaultMaxSteps beside
// DefaultAnalysisCapacity analysis steps.
func StepsOptions(maxSteps int) sdkworker.Options {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps(DefaultAnalysisCapacity)
	}
	return sdkworker.Options{
		MaxConcurrentActivityExecutionSize: maxSteps,
		DisableWorkflowWorker:              true,
		// On a clean stop, running steps get a moment to deliver.
		WorkerStopTimeout:            5 * time.Second,
		MaxHeartbeatThrottleInterval: StepHeartbeatInterval,
	}
}

// StepHeartbeatInterval is the longest a running step's heartbeat waits
// to be sent (the SDK's default is 0.8 × the 3 s heartbeat timeout). A
// cancel reaches a step only in a heartbeat's answer, so a cancelled job's
// running steps — up to contract.StepsPerJob of them — stop within about
// this long instead of delivering outputs nobody wants; a step heartbeats
// every 500 ms (activities.heartbeating), so this costs at most two
// heartbeats a second per step that runs that long.
const StepHeartbeatInterval = 500 * time.Millisecond

// Register adds every workflow and activity to a registry (a worker or a
// test environment).
func Register(r interface {
	RegisterWorkflowWithOptions(any, workflow.RegisterOptions)
	RegisterActivity(any)
}, acts *activities.Activities) {
	r.RegisterWorkflowWithOptions(workflows.JobWorkflow, workflow.RegisterOptions{Name: contract.JobWorkflow})
	r.RegisterWorkflowWithOptions(
		workflows.WebhookDeliveryWorkflow,
		workflow.RegisterOptions{Name: contract.WebhookDeliveryWorkflow},
	)
	r.RegisterWorkflowWithOptions(
		workflows.DeprecationNoticesWorkflow,
		workflow.RegisterOptions{Name: contract.NoticesWorkflow},
	)
	r.RegisterActivity(acts)
}

// Start starts polling, and the sweep of late admits.
func (w *Worker) Start() error {
	if err := w.jobs.Start(); err != nil {
		return fmt.Errorf("start job worker: %w", err)
	}
	if w.steps != nil {
		if err := w.steps.Start(); err != nil {
			w.jobs.Stop()
			return fmt.Errorf("start steps worker: %w", err)
		}
		if err := w.analysis.Start(); err != nil {
			w.steps.Stop()
			w.jobs.Stop()
			return fmt.Errorf("start analysis worker: %w", err)
		}
		for k, ew := range w.engines {
			if err := ew.Start(); err != nil {
				for _, started := range w.engines[:k] {
					started.Stop()
				}
				w.analysis.Stop()
				w.steps.Stop()
				w.jobs.Stop()
				return fmt.Errorf("start engine worker: %w", err)
			}
		}
	}
	if w.late == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { w.late.Run(ctx) })
	w.stopLate = func() {
		cancel()
		wg.Wait()
	}
	return nil
}

// Stop stops polling and waits for running activities to finish or time out.
func (w *Worker) Stop() {
	if w.stopLate != nil {
		w.stopLate()
		w.stopLate = nil
	}
	for _, ew := range w.engines {
		ew.Stop()
	}
	if w.steps != nil {
		w.analysis.Stop()
		w.steps.Stop()
	}
	w.jobs.Stop()
}
