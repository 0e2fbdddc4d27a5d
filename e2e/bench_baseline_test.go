package e2e_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/worker"
)

// The baseline of `make bench`: a bare Temporal workflow of the naive job
// shape — update-with-start whose admit handler runs a no-op local activity,
// then a start activity, one activity per output and a settle activity, all
// no-ops — on its own pair of task queues laid out as the job's (start and
// steps on the steps queue, settle on the workflow's queue), polled with
// the worker options worker.New uses.
const (
	baselineWorkflow = "BenchBaselineJob"
	baselineHold     = "BenchBaselineHold"
	baselineStart    = "BenchBaselineStart"
	baselineStep     = "BenchBaselineStep"
	baselineSettle   = "BenchBaselineSettle"
)

// baselineInput is the job's input plus how many outputs to "deliver".
type baselineInput struct {
	Job     contract.JobInput
	Outputs int
}

// baselineJob is the naive job shape with no-op activities.
func baselineJob(ctx workflow.Context, in baselineInput) (contract.JobResult, error) {
	var admit *contract.AdmitResult
	err := workflow.SetUpdateHandler(
		ctx,
		contract.UpdateAdmit,
		func(ctx workflow.Context) (contract.AdmitResult, error) {
			if admit != nil {
				return *admit, nil
			}
			lctx := workflow.WithLocalActivityOptions(
				ctx,
				workflow.LocalActivityOptions{ScheduleToCloseTimeout: 20 * time.Second,
					RetryPolicy: &temporal.RetryPolicy{
						InitialInterval: 200 * time.Millisecond,
						MaximumInterval: 2 * time.Second,
					}},
			)
			var r contract.AdmitResult
			if err := workflow.ExecuteLocalActivity(lctx, baselineHold, in.Job).Get(ctx, &r); err != nil {
				return r, err
			}
			admit = &r
			return r, nil
		},
	)
	if err != nil {
		return contract.JobResult{}, err
	}
	if err := workflow.Await(ctx, func() bool { return admit != nil }); err != nil {
		return contract.JobResult{}, err
	}
	steps := contract.StepsQueue(workflow.GetInfo(ctx).TaskQueueName)
	retry := &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second}
	var plan contract.Plan
	sctx := workflow.WithActivityOptions(
		ctx,
		workflow.ActivityOptions{TaskQueue: steps, StartToCloseTimeout: 10 * time.Second, RetryPolicy: retry},
	)
	if err := workflow.ExecuteActivity(sctx, baselineStart, in).Get(ctx, &plan); err != nil {
		return contract.JobResult{}, err
	}
	octx := workflow.WithActivityOptions(
		ctx,
		workflow.ActivityOptions{TaskQueue: steps, StartToCloseTimeout: 10 * time.Minute,
			HeartbeatTimeout: 3 * time.Second, WaitForCancellation: true, RetryPolicy: retry},
	)
	for i := range plan.Steps {
		var out contract.StepResult
		if err := workflow.ExecuteActivity(octx, baselineStep, contract.StepInput{JobID: in.Job.JobID, Index: i}).Get(ctx,
			&out); err != nil {
			return contract.JobResult{}, err
		}
	}
	var sr contract.SettleResult
	tctx := workflow.WithActivityOptions(
		ctx,
		workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second, RetryPolicy: retry},
	)
	settle := contract.SettleInput{JobID: in.Job.JobID, Outcome: contract.OutcomeSucceeded}
	if err := workflow.ExecuteActivity(tctx, baselineSettle, settle).Get(ctx, &sr); err != nil {
		return contract.JobResult{}, err
	}
	return contract.JobResult{Outcome: contract.OutcomeSucceeded, Delivered: sr.Delivered, Charged: sr.Charged}, nil
}

func baselineHoldActivity(context.Context, contract.JobInput) (contract.AdmitResult, error) {
	return contract.AdmitResult{Admitted: true, CreatedAt: time.Now()}, nil
}

func baselineStartActivity(_ context.Context, in baselineInput) (contract.Plan, error) {
	return contract.Plan{Steps: in.Outputs, Phase: "baseline"}, nil
}

func baselineStepActivity(context.Context, contract.StepInput) (contract.StepResult, error) {
	return contract.StepResult{FileID: "f"}, nil
}

func baselineSettleActivity(context.Context, contract.SettleInput) (contract.SettleResult, error) {
	return contract.SettleResult{}, nil
}

// baseline runs the baseline's workers and starts its workflows.
type baseline struct {
	temporal client.Client
	queue    string
}

// newBaseline starts the baseline's workers on c, with the options
// worker.New gives the job queue and the steps queue (the job stack runs
// with the default step concurrency too); with noSteps no worker polls the
// steps queue, so jobs are admitted and wait there (the admit-alone phases).
func newBaseline(b *testing.B, c client.Client, noSteps bool) *baseline {
	bl := &baseline{temporal: c, queue: "bench-base-" + models.NewID("")}
	jobs := sdkworker.New(c, bl.queue, worker.JobsOptions())
	steps := sdkworker.New(c, contract.StepsQueue(bl.queue), worker.StepsOptions(0))
	jobs.RegisterWorkflowWithOptions(baselineJob, workflow.RegisterOptions{Name: baselineWorkflow})
	workers := []sdkworker.Worker{jobs, steps}
	if noSteps {
		workers = workers[:1]
	}
	for _, w := range workers {
		w.RegisterActivityWithOptions(baselineHoldActivity, activity.RegisterOptions{Name: baselineHold})
		w.RegisterActivityWithOptions(baselineStartActivity, activity.RegisterOptions{Name: baselineStart})
		w.RegisterActivityWithOptions(baselineStepActivity, activity.RegisterOptions{Name: baselineStep})
		w.RegisterActivityWithOptions(baselineSettleActivity, activity.RegisterOptions{Name: baselineSettle})
		require.NoError(b, w.Start())
		b.Cleanup(w.Stop)
	}
	return bl
}

// submit starts one baseline job with update-with-start and waits for its
// admit, as the API's submit does; with wait it also waits for the
// workflow's result, as `Prefer: wait` does.
func (bl *baseline) submit(ctx context.Context, input []byte, outputs int, wait bool) (string, error) {
	in := baselineInput{
		Job: contract.JobInput{JobID: models.NewID("j_"), Task: "pattern.generate", UserID: 1, APIKeyID: "key_bench",
			Input: input, CreditType: contract.CreditService, HeldCredits: int64(outputs), PricePerOutput: 1},
		Outputs: outputs,
	}
	op := bl.temporal.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: in.Job.JobID, TaskQueue: bl.queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, baselineWorkflow, in)
	h, err := bl.temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{
			UpdateID:     contract.AdmitUpdateID,
			UpdateName:   contract.UpdateAdmit,
			WaitForStage: client.WorkflowUpdateStageCompleted,
		}})
	if err != nil {
		return "", err
	}
	var r contract.AdmitResult
	if err := h.Get(ctx, &r); err != nil {
		return "", err
	}
	if wait {
		if err := bl.temporal.GetWorkflow(ctx, in.Job.JobID, "").Get(ctx, nil); err != nil {
			return "", err
		}
	}
	return in.Job.JobID, nil
}
