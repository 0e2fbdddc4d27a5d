package worker

import (
	"context"
	"fmt"
	"strconv"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/contract"
)

// PriorityCheck is what the Temporal server was seen to honour.
type PriorityCheck struct {
	// Priority: a task of a lower priority key was dispatched before older
	// ones of a higher key.
	Priority bool
	// Fairness: a task of a second fairness key was dispatched before the
	// older tasks of a first key's backlog.
	Fairness bool
}

// probeOrder is the probe's workflows in start order: three of one fairness
// key, one of a second, then one of a higher priority.
var probeOrder = []temporal.Priority{
	{PriorityKey: 3, FairnessKey: "a"}, {PriorityKey: 3, FairnessKey: "a"}, {PriorityKey: 3, FairnessKey: "a"},
	{PriorityKey: 3, FairnessKey: "b"}, {PriorityKey: 1, FairnessKey: "c"},
}

// CheckPriority sees whether the server dispatches by priority and
// fairness: it starts probeOrder's workflows (a type no worker runs) on a
// task queue of its own with nobody polling, then takes three workflow
// tasks itself. First-in-first-out hands out a, a, a; with priority the
// last-started c comes among the first three (first, once the server has
// read its backlog); with fairness b comes among them too.
// The probe's workflows are terminated. It takes a second or so.
func CheckPriority(ctx context.Context, c client.Client, namespace string) (PriorityCheck, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	suffix := strconv.FormatInt(time.Now().UnixNano(), 36)
	queue := "taskplatform-priority-probe-" + suffix
	ids := make([]string, len(probeOrder))
	defer func() {
		for _, id := range ids {
			if id != "" {
				_ = c.TerminateWorkflow(context.WithoutCancel(ctx), id, "", "priority probe done")
			}
		}
	}()
	for i, p := range probeOrder {
		id := queue + "-" + p.FairnessKey + strconv.Itoa(i)
		_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue, Priority: p,
			WorkflowExecutionTimeout: time.Minute, StaticSummary: "taskplatform's priority probe"}, "PriorityProbe")
		if err != nil {
			return PriorityCheck{}, fmt.Errorf("start the priority probe: %w", err)
		}
		ids[i] = id
	}
	first := make([]string, 0, 3)
	for len(first) < 3 {
		resp, err := c.WorkflowService().PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{
			Namespace: namespace, Identity: "taskplatform-priority-probe",
			TaskQueue: &taskqueuepb.TaskQueue{Name: queue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		})
		if err != nil {
			return PriorityCheck{}, fmt.Errorf("poll the priority probe: %w", err)
		}
		first = append(first, probeKey(resp.GetWorkflowExecution(), ids))
	}
	// First in, first out hands out a, a, a. The server's matcher may take
	// the first poll before it has read the last-started c from its backlog
	// (seen on a loaded machine), so c anywhere among the first three is
	// priority honoured.
	var out PriorityCheck
	for _, k := range first {
		out.Priority = out.Priority || k == "c"
		out.Fairness = out.Fairness || k == "b"
	}
	return out, nil
}

// probeKey is the fairness key of the probe workflow of execution e ("" for
// none of ids: an empty poll).
func probeKey(e *commonpb.WorkflowExecution, ids []string) string {
	for i, id := range ids {
		if e.GetWorkflowId() == id {
			return probeOrder[i].FairnessKey
		}
	}
	return ""
}

// String is the one line a worker logs on start: which priority
// levels and fairness the server honours.
func (p PriorityCheck) String() string {
	switch {
	case p.Priority && p.Fairness:
		return "the Temporal server dispatches by priority and by account (fairness): " + levels
	case p.Priority:
		return "the Temporal server dispatches by priority but not by account: set matching.enableFairness=true " +
			"in its dynamic config (one account's backlog delays every other account's jobs)"
	default:
		return "the Temporal server dispatches first-in-first-out: set matching.useNewMatcher=true and " +
			"matching.enableFairness=true in its dynamic config (server 1.29 or later); until then one account's " +
			"backlog delays every other account's jobs and Prefer: wait jobs wait behind batches"
	}
}

// levels names the priority levels in order.
var levels = "Prefer: wait " + strconv.Itoa(contract.LevelWait) + ", submit " + strconv.Itoa(contract.LevelSubmit) +
	", webhook deliveries " + strconv.Itoa(contract.LevelDelivery) + ", batches " + strconv.Itoa(contract.LevelBatch) +
	", housekeeping " + strconv.Itoa(contract.LevelHousekeeping)
