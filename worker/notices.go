package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstart"
)

// EnsureNoticeSchedule creates the weekly schedule that runs the
// deprecation notices (id contract.NoticesScheduleID unless id is set) on
// the jobs queue, unless it exists; `dev` and `worker` call it on start.
// `temporal schedule trigger --schedule-id deprecation-notices` runs it at
// once.
func EnsureNoticeSchedule(ctx context.Context, c client.Client, id, queue string) error {
	if id == "" {
		id = contract.NoticesScheduleID
	}
	if queue == "" {
		queue = contract.TaskQueue
	}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:   id,
		Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: 7 * 24 * time.Hour}}},
		Action: &client.ScheduleWorkflowAction{ID: id + "-run", Workflow: contract.NoticesWorkflow, TaskQueue: queue,
			WorkflowExecutionTimeout: 24 * time.Hour,
			Priority:                 jobstart.TemporalPriority(contract.HousekeepingPriority())},
	})
	var exists *serviceerror.AlreadyExists
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) || errors.As(err, &exists) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create schedule %s: %w", id, err)
	}
	return nil
}
