package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstart"
)

// JobWorkflow is one job, read top to bottom:
//
//  1. admit: the admit update, sent with the workflow's start, holds the
//     job's credits in a local activity (HoldCredits) or refuses them
//     (job_admit.go);
//  2. a job never admitted — no admit within contract.AdmitWindow, or a
//     hold that failed — closes its admission and ends holding nothing; a
//     refused one ends, failed insufficient_credits when its handle had
//     been answered;
//  3. steps: the admit planned the job's outputs (AdmitResult.Plan); they
//     run side by side, at most contract.StepsPerJob at once, each one
//     RunStep — on the steps queue, the first ones leaving the queue under
//     the job's start deadline, or for a quick job as local activities
//     inside the workflow task that admitted it (job_steps.go,
//     job_parallel.go);
//  4. settle: a local activity charges what was delivered, releases the
//     rest, writes the job's terminal state and emits its terminal event;
//  5. the workflow ends as the job did: Failed with the job's public code,
//     Cancelled, or completed.
//
// Cancelling the workflow cancels the job.
func JobWorkflow(ctx workflow.Context, in contract.JobInput) (contract.JobResult, error) {
	j := &job{in: in}
	if err := workflow.SetUpdateHandler(ctx, contract.UpdateAdmit, j.admit); err != nil {
		return contract.JobResult{}, err
	}
	if !j.awaitAdmit(ctx) {
		return j.neverAdmitted(ctx)
	}
	if !j.admitted.Admitted {
		return j.refused(ctx)
	}
	workflow.SetCurrentDetails(ctx, "queued: credits held, waiting for a worker")
	settlement, err := j.deliver(ctx)
	if temporal.IsCanceledError(err) || errors.Is(ctx.Err(), workflow.ErrCanceled) {
		uncharged := settlement.Uncharged
		settlement = j.fail(contract.OutcomeCancelled,
			contract.Failure{Code: contract.CodeCancelled, Message: "The job was cancelled."})
		settlement.Uncharged = uncharged
	}
	return j.settle(ctx, settlement)
}

// job is the state of one job workflow.
type job struct {
	in contract.JobInput
	// admitted is the admit's answer, holdErr its failure; both nil until
	// an admit decides.
	admitted *contract.AdmitResult
	holdErr  error
	// admitting is true once an admit arrived: its hold decides within its
	// own timeout, so the job needs no timer to wait for it.
	admitting bool
	// failed is the public error of a failed job.
	failed *contract.Failure
}

// fail is the settlement of a job that failed or was cancelled with its
// public error.
func (j *job) fail(outcome string, f contract.Failure) contract.SettleInput {
	if outcome == contract.OutcomeFailed {
		j.failed = &f
	}
	return contract.SettleInput{JobID: j.in.JobID, Outcome: outcome, Failure: &f}
}

// settle settles the job in a local activity (on a context that outlives a
// cancel), which also emits the terminal event to the job's subscribers,
// then ends the workflow as the job ended.
func (j *job) settle(ctx workflow.Context, settlement contract.SettleInput) (contract.JobResult, error) {
	settlement.Events, settlement.Queue = j.admitted.Events, workflow.GetInfo(ctx).TaskQueueName
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	lctx := workflow.WithLocalActivityOptions(dctx, settleOptions())
	var sr contract.SettleResult
	if err := workflow.ExecuteLocalActivity(lctx, contract.ActivitySettle, settlement).Get(dctx, &sr); err != nil {
		return contract.JobResult{}, fmt.Errorf("settle: %w", err)
	}
	res, err := j.end(
		dctx,
		contract.JobResult{Outcome: settlement.Outcome, Delivered: sr.Delivered, Charged: sr.Charged},
	)
	if err != nil {
		return res, err
	}
	// Operators see the job's end in the Temporal UI: Failed (with the
	// job's public code as the failure type), Cancelled, or Completed.
	switch {
	case settlement.Outcome == contract.OutcomeCancelled:
		return res, temporal.NewCanceledError()
	case settlement.Outcome == contract.OutcomeFailed && j.failed != nil:
		return res, temporal.NewNonRetryableApplicationError(j.failed.Message, j.failed.Code, nil)
	}
	return res, nil
}

// end records the outcome as a search attribute and the job's details.
func (j *job) end(ctx workflow.Context, res contract.JobResult) (contract.JobResult, error) {
	workflow.SetCurrentDetails(
		ctx,
		fmt.Sprintf("%s: %d outputs delivered, %d credits charged", res.Outcome, res.Delivered, res.Charged),
	)
	if err := workflow.UpsertTypedSearchAttributes(ctx, jobstart.AttrOutcome.ValueSet(res.Outcome)); err != nil {
		return res, err
	}
	return res, nil
}
