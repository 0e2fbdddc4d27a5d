package worker

import (
	"maps"
	"slices"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// engineSlots are the external engines the registry's tasks run on, each
// with how many of its steps one worker runs at once.
func engineSlots(r *tasks.Registry) map[string]int {
	out := map[string]int{}
	if r == nil {
		return out
	}
	for _, d := range r.Runnable() {
		er, ok := d.Runner.(interface {
			EngineName() string
			EngineSlots() int
		})
		if ok {
			out[er.EngineName()] = max(out[er.EngineName()], er.EngineSlots(), 1)
		}
	}
	return out
}

// engineWorkers poll each engine's steps queue (contract.EngineQueue) with
// the engine's capacity: its steps wait there for a free model instead of
// holding the built-in steps' slots.
func engineWorkers(c client.Client, queue string, acts *activities.Activities) []sdkworker.Worker {
	slots := engineSlots(acts.Tasks)
	var out []sdkworker.Worker
	for _, name := range slices.Sorted(maps.Keys(slots)) {
		w := sdkworker.New(c, contract.EngineQueue(queue, name), sdkworker.Options{
			MaxConcurrentActivityExecutionSize: slots[name],
			MaxConcurrentActivityTaskPollers:   min(slots[name], 2),
			DisableWorkflowWorker:              true,
			WorkerStopTimeout:                  5 * time.Second,
			MaxHeartbeatThrottleInterval:       StepHeartbeatInterval,
		})
		w.RegisterActivity(acts)
		out = append(out, w)
	}
	return out
}
