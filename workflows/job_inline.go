package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// inlineSteps delivers the outputs of a quick job (AdmitResult.Inline)
// inside the workflow task that admitted it: each output is RunStep as a
// local activity, so the job asks Temporal for no activity task and no
// further workflow task. The steps are the ones the steps queue runs
// (recorded exactly once per output), retried by the local activity's
// policy; a job that is not quick never comes here.
func (s *jobState) inlineSteps(ctx workflow.Context) (contract.SettleInput, error) {
	queue := workflow.GetInfo(ctx).TaskQueueName
	opts := workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 2 * time.Minute,
		StartToCloseTimeout:    30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second, MaximumAttempts: 3,
			NonRetryableErrorTypes: []string{contract.ErrTypeProcessing, contract.ErrTypeContentRefused}},
	}
	run := func(i int, summary string) (contract.StepResult, error) {
		o := opts
		o.Summary = summary
		in := s.stepInput(i, queue)
		in.Start = i == 0
		var out contract.StepResult
		err := workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, o), contract.ActivityRunStep, in).Get(ctx, &out)
		return out, err
	}
	out, err := run(0, "leave the queue, plan, output 1 (inline)")
	if temporal.IsCanceledError(err) || ctx.Err() != nil {
		return contract.SettleInput{}, temporal.NewCanceledError()
	}
	base := workflow.ActivityOptions{TaskQueue: contract.StepsQueue(queue), StartToCloseTimeout: time.Minute}
	plan, d, end := s.firstOutput(ctx, base, out, err)
	if end != nil {
		return *end, nil
	}
	for i := 1; i < plan.Steps; i++ {
		out, err := run(i, fmt.Sprintf("output %d of %d (inline)", i+1, plan.Steps))
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			return contract.SettleInput{}, temporal.NewCanceledError()
		}
		if f := d.record(ctx, i, out, err); f != nil {
			return s.failure(ctx, contract.OutcomeFailed, *f), nil
		}
	}
	return s.settleDelivered(ctx, d), nil
}
