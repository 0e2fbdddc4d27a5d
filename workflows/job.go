package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// a is the nil receiver workflows name activities through.
var a *activities.Activities

// JobWorkflow is one job: admit (hold credits) through the admit update,
// leave the queue, deliver each output in its own activity, then settle
// what was delivered and end in a terminal state. Cancelling the workflow
// cancels the job.
func JobWorkflow(ctx workflow.Context, in JobInput) (JobResult, error) {
	s := &jobState{in: in}
	if err := s.setup(ctx); err != nil {
		return JobResult{}, err
	}
	return s.run(ctx)
}

type jobState struct {
	in       JobInput
	admit    *AdmitResult
	admitErr error
	// webhooks is false when replaying histories from before job events.
	webhooks bool
}

func (s *jobState) setup(ctx workflow.Context) error {
	return workflow.SetUpdateHandlerWithOptions(ctx, UpdateAdmit, s.handleAdmit, workflow.UpdateHandlerOptions{})
}

// handleAdmit runs the credit hold once; later calls answer the first result.
func (s *jobState) handleAdmit(ctx workflow.Context) (AdmitResult, error) {
	if s.admit != nil || s.admitErr != nil {
		return s.admitResult()
	}
	if workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime) > AdmitWindow {
		s.admitErr = temporal.NewNonRetryableApplicationError("admit window passed", "admit_expired", nil)
		return s.admitResult()
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 20 * time.Second,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, MaximumInterval: 2 * time.Second},
	})
	var res activities.HoldResult
	err := workflow.ExecuteLocalActivity(lctx, a.HoldCredits, s.in).Get(ctx, &res)
	if err != nil {
		s.admitErr = err
	} else {
		s.admit = &AdmitResult{Admitted: res.Admitted, Required: res.Required, Balance: res.Balance, CreatedAt: res.CreatedAt, Events: res.Events}
	}
	return s.admitResult()
}

func (s *jobState) admitResult() (AdmitResult, error) {
	if s.admitErr != nil {
		return AdmitResult{}, s.admitErr
	}
	return *s.admit, nil
}

func (s *jobState) run(ctx workflow.Context) (JobResult, error) {
	log := workflow.GetLogger(ctx)
	remaining := AdmitWindow - workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime)
	decided := func() bool { return s.admit != nil || s.admitErr != nil }
	_, _ = workflow.AwaitWithTimeout(ctx, max(remaining, time.Millisecond), decided)
	if !decided() {
		// Cancelled or out of time while an admit may still be holding
		// credits: let it finish, so a hold is never left unsettled.
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		_ = workflow.Await(dctx, func() bool { return workflow.AllHandlersFinished(dctx) })
		cancel()
	}
	if !decided() {
		log.Info("job never admitted; ending without a hold")
		return s.end(ctx, JobResult{Outcome: OutcomeNeverAdmitted})
	}
	if s.admitErr != nil || !s.admit.Admitted {
		_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
		return s.end(ctx, JobResult{Outcome: OutcomeRefused})
	}

	s.webhooks = workflow.GetVersion(ctx, "job-events", workflow.DefaultVersion, 1) == 1
	workflow.SetCurrentDetails(ctx, "queued: credits held, waiting for a worker")
	settle, jobErr := s.work(ctx)
	if temporal.IsCanceledError(jobErr) || errors.Is(ctx.Err(), workflow.ErrCanceled) {
		settle = s.failure(ctx, models.OutcomeCancelled, apierr.New(apierr.Cancelled, "The job was cancelled."))
	}
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	dctx = workflow.WithActivityOptions(dctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		Summary:             "settle: charge delivered outputs, release the rest",
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	var sr activities.SettleResult
	if err := workflow.ExecuteActivity(dctx, a.Settle, settle).Get(dctx, &sr); err != nil {
		return JobResult{}, fmt.Errorf("settle: %w", err)
	}
	s.emit(dctx, terminalEvent[settle.Outcome], 0)
	res, err := s.end(dctx, JobResult{Outcome: settle.Outcome, Delivered: sr.Delivered, Charged: sr.Charged})
	if settle.Outcome == models.OutcomeCancelled && err == nil {
		return res, temporal.NewCanceledError()
	}
	return res, err
}

// terminalEvent is the event of each outcome.
var terminalEvent = map[string]string{
	models.OutcomeSucceeded: activities.EventSucceeded,
	models.OutcomeFailed:    activities.EventFailed,
	models.OutcomeCancelled: activities.EventCancelled,
}

// work leaves the queue and delivers every output; it returns how to settle.
func (s *jobState) work(ctx workflow.Context) (activities.SettleInput, error) {
	stepsQueue := StepsQueue(workflow.GetInfo(ctx).TaskQueueName)
	start := workflow.ActivityOptions{
		TaskQueue:           stepsQueue,
		StartToCloseTimeout: 10 * time.Second,
		Summary:             "start: leave the queue and plan outputs",
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second},
	}
	if s.in.StartTimeoutSeconds > 0 {
		start.ScheduleToStartTimeout = time.Duration(s.in.StartTimeoutSeconds) * time.Second
	}
	var plan activities.StartResult
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, start), a.StartJob, s.in.JobID).Get(ctx, &plan); err != nil {
		var te *temporal.TimeoutError
		if errors.As(err, &te) && te.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START {
			return s.failure(ctx, models.OutcomeFailed, apierr.New(apierr.StartTimeout, "The job could not start before its start deadline.")), nil
		}
		if temporal.IsCanceledError(err) {
			return activities.SettleInput{}, err
		}
		return s.failure(ctx, models.OutcomeFailed, apierr.New(apierr.Internal, "The job could not start.")), nil
	}
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: 0 of %d outputs delivered", plan.Steps))
	s.emit(ctx, activities.EventStarted, 0)
	steps := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           stepsQueue,
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    3 * time.Second,
		WaitForCancellation: true,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second, MaximumAttempts: 3,
			NonRetryableErrorTypes: []string{activities.ErrTypeProcessing, activities.ErrTypeContentRefused}},
	})
	delivered := 0
	var warnings []tasks.Warning
	for i := 0; i < plan.Steps; i++ {
		sctx := workflow.WithActivityOptions(steps, stepOptions(steps, i, plan.Steps))
		var out activities.StepResult
		err := workflow.ExecuteActivity(sctx, a.RunStep, activities.StepInput{JobID: s.in.JobID, Index: i}).Get(ctx, &out)
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			return activities.SettleInput{}, temporal.NewCanceledError()
		}
		var ae *temporal.ApplicationError
		switch {
		case err == nil:
			delivered++
			workflow.SetCurrentDetails(ctx, fmt.Sprintf("running: %d of %d outputs delivered", delivered, plan.Steps))
			s.emit(ctx, activities.EventProgress, i)
			warnings = append(warnings, out.Warnings...)
		case errors.As(err, &ae) && ae.Type() == activities.ErrTypeContentRefused:
			return s.failure(ctx, models.OutcomeFailed, apierr.New(apierr.ContentRefused, ae.Message())), nil
		default:
			workflow.GetLogger(ctx).Warn("output not produced", "index", i, "error", err)
			warnings = append(warnings, tasks.Warning{Code: apierr.OutputNotProduced, Message: fmt.Sprintf("Output %d of %d was not produced and was not charged.", i+1, plan.Steps)})
		}
	}
	if delivered == 0 {
		return s.failure(ctx, models.OutcomeFailed, apierr.New(apierr.ProcessingFailed, "The job delivered no output.")), nil
	}
	in := activities.SettleInput{JobID: s.in.JobID, Outcome: models.OutcomeSucceeded}
	if len(warnings) > 0 {
		in.Summary, _ = json.Marshal(summary{Requested: plan.Steps, Delivered: delivered, Warnings: warnings})
	}
	return in, nil
}

func stepOptions(base workflow.Context, i, n int) workflow.ActivityOptions {
	o := workflow.GetActivityOptions(base)
	o.Summary = fmt.Sprintf("output %d of %d", i+1, n)
	return o
}

type summary struct {
	Requested int             `json:"requested"`
	Delivered int             `json:"delivered"`
	Warnings  []tasks.Warning `json:"warnings"`
}

// failure is the settlement of a failed or cancelled job with its public error.
func (s *jobState) failure(_ workflow.Context, outcome string, e *apierr.Error) activities.SettleInput {
	e.JobID = s.in.JobID
	body, _ := json.Marshal(e)
	return activities.SettleInput{JobID: s.in.JobID, Outcome: outcome, Error: body}
}

// end records the outcome as a search attribute and the job's details.
func (s *jobState) end(ctx workflow.Context, res JobResult) (JobResult, error) {
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("%s: %d outputs delivered, %d credits charged", res.Outcome, res.Delivered, res.Charged))
	if err := workflow.UpsertTypedSearchAttributes(ctx, AttrOutcome.ValueSet(res.Outcome)); err != nil {
		return res, err
	}
	return res, nil
}
