package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// admit handles the admit update: it runs the credit hold once, as a local
// activity; later admits (a retried submit, the late-admit sweep) answer
// the first one's result.
func (j *job) admit(ctx workflow.Context) (contract.AdmitResult, error) {
	if j.admitted != nil || j.holdErr != nil {
		return j.admitResult()
	}
	j.admitting = true
	if workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime) > contract.AdmitWindow {
		j.holdErr = temporal.NewNonRetryableApplicationError("admit window passed", "admit_expired", nil)
		return j.admitResult()
	}
	lctx := workflow.WithLocalActivityOptions(ctx, holdOptions())
	var res contract.AdmitResult
	if err := workflow.ExecuteLocalActivity(lctx, contract.ActivityHoldCredits, j.in).Get(ctx, &res); err != nil {
		j.holdErr = err
	} else {
		j.admitted = &res
	}
	return j.admitResult()
}

func (j *job) admitResult() (contract.AdmitResult, error) {
	if j.holdErr != nil {
		return contract.AdmitResult{}, j.holdErr
	}
	return *j.admitted, nil
}

// decided says whether an admit has decided the job.
func (j *job) decided() bool { return j.admitted != nil || j.holdErr != nil }

// awaitAdmit waits for the admit to decide the job and says whether it
// admitted or refused it (false: no admit came in the admit window, the
// hold failed, or the job was cancelled first). An admit that came with
// the workflow's start (update-with-start) needs no timer.
func (j *job) awaitAdmit(ctx workflow.Context) bool {
	if j.admitting {
		_ = workflow.Await(ctx, j.decided)
	} else {
		remaining := contract.AdmitWindow - workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime)
		_, _ = workflow.AwaitWithTimeout(ctx, max(remaining, time.Millisecond), j.decided)
	}
	if !j.decided() {
		// Cancelled or out of time while an admit may still be holding
		// credits: let it finish, so a hold is never left unsettled.
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		_ = workflow.Await(dctx, func() bool { return workflow.AllHandlersFinished(dctx) })
		cancel()
	}
	return j.decided() && j.holdErr == nil
}

// neverAdmitted ends a workflow whose admit never decided (no admit in the
// admit window) or failed: nothing is held, and the job's admission is
// closed so a handle answered for it reads failed (CloseAdmission).
func (j *job) neverAdmitted(ctx workflow.Context) (contract.JobResult, error) {
	outcome := contract.OutcomeNeverAdmitted
	if j.holdErr != nil {
		_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
		outcome = contract.OutcomeRefused
	}
	workflow.GetLogger(ctx).Info("job never admitted; ending without a hold", "outcome", outcome)
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	dctx = workflow.WithActivityOptions(dctx, closeOptions())
	in := contract.CloseInput{JobID: j.in.JobID, UserID: j.in.UserID}
	if err := workflow.ExecuteActivity(dctx, contract.ActivityCloseAdmission, in).Get(dctx, nil); err != nil {
		return contract.JobResult{}, fmt.Errorf("close admission: %w", err)
	}
	return j.end(dctx, contract.JobResult{Outcome: outcome})
}

// refused ends a job whose balance did not cover its hold. When its handle
// had been answered (a late admit), the hold already wrote it failed
// insufficient_credits and told its subscribers; the workflow ends Failed
// with that code.
func (j *job) refused(ctx workflow.Context) (contract.JobResult, error) {
	_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
	if !j.admitted.Visible {
		return j.end(ctx, contract.JobResult{Outcome: contract.OutcomeRefused})
	}
	res, err := j.end(ctx, contract.JobResult{Outcome: contract.OutcomeFailed})
	if err != nil {
		return res, err
	}
	if j.admitted.SpendLimit != nil {
		return res, temporal.NewNonRetryableApplicationError("spend limit reached at admit",
			contract.CodeSpendLimitReached, nil)
	}
	return res, temporal.NewNonRetryableApplicationError("insufficient credits at admit",
		contract.CodeInsufficientCredits, nil)
}
