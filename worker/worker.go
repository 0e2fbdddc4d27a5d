// Package worker runs the job workflows and their activities on the task
// queue, and builds the Temporal client every process shares.
package worker

import (
	"fmt"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/workflows"
)

// Options tune a worker.
type Options struct {
	// MaxConcurrentSteps bounds the activities run at once (0: SDK default).
	MaxConcurrentSteps int
	// LocalActivityOnly runs workflows and the admit but no steps (tests of
	// the start deadline use it).
	LocalActivityOnly bool
}

// New registers JobWorkflow and the activities on the task queue.
func New(c client.Client, acts *activities.Activities, o Options) sdkworker.Worker {
	w := sdkworker.New(c, workflows.TaskQueue, sdkworker.Options{
		MaxConcurrentActivityExecutionSize: o.MaxConcurrentSteps,
		LocalActivityWorkerOnly:            o.LocalActivityOnly,
	})
	Register(w, acts)
	return w
}

// Register adds every workflow and activity to a registry (a worker or a
// test environment).
func Register(r interface {
	RegisterWorkflowWithOptions(any, workflow.RegisterOptions)
	RegisterActivity(any)
}, acts *activities.Activities) {
	r.RegisterWorkflowWithOptions(workflows.JobWorkflow, workflow.RegisterOptions{Name: "JobWorkflow"})
	r.RegisterActivity(acts)
}

// Start runs w until Stop; it returns the start error with context.
func Start(w sdkworker.Worker) error {
	if err := w.Start(); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	return nil
}
