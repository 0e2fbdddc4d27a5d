package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// onEngine puts a step of a job whose task runs on an external engine (its
// plan at admit names one) on that engine's own task queue, so engine
// steps wait for a free model there and never take the built-in steps'
// slots. A step still waits at most the job's start deadline to leave the
// queue; the others wait for the engine as long as their job runs.
func (j *job) onEngine(o *workflow.ActivityOptions, queue string) {
	p := j.admitted.Plan
	if p == nil || p.Engine == "" {
		return
	}
	o.TaskQueue = contract.EngineQueue(queue, p.Engine)
}
