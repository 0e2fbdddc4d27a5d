package activities

import (
	"context"
	"encoding/json"
	"errors"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// HoldCredits writes the job row and its credit hold in one transaction, or
// refuses when the balance does not cover the hold. Run as a local activity
// inside the admit update; retrying it is safe (the job id is the key).
func (a *Activities) HoldCredits(ctx context.Context, in contract.JobInput) (contract.AdmitResult, error) {
	job := models.JobRow(in)
	admitted, err := models.Admit(ctx, a.DB, job, a.now(), func(r *models.AdmitRefusal) []byte {
		return refusedError(in.JobID, in.CreditType, r)
	})
	var refusal *models.AdmitRefusal
	if errors.As(err, &refusal) {
		a.Log.Info(
			"job refused",
			zap.String("job_id", in.JobID),
			zap.String("reason", refusal.Error()),
			zap.Bool("handle_answered", refusal.Visible),
		)
		res := contract.AdmitResult{Required: refusal.Required, Balance: refusal.Balance, Visible: refusal.Visible,
			SpendLimit: refusal.Limit}
		if refusal.Limit != nil {
			// The limit that refused it was reached: its 100 % threshold, if
			// this refusal recorded it (a retry sends the same deliveries).
			if err := a.emitter().SpendThresholds(ctx, in.JobID, activity.GetInfo(ctx).TaskQueue); err != nil {
				return contract.AdmitResult{}, err
			}
		}
		if !refusal.Visible {
			return res, nil // a refusal is the admit's answer, not a failure to retry
		}
		// The job's handle was answered: it now reads failed, and its
		// subscribers hear so (a retried hold answers the same refusal and
		// emits the same deliveries again).
		if res.Events, err = a.subscribed(ctx, in); err != nil {
			return contract.AdmitResult{}, err
		}
		if err := a.emit(ctx, in.JobID, contract.EventFailed, 0, res.Events, activity.GetInfo(ctx).TaskQueue); err != nil {
			return contract.AdmitResult{}, err
		}
		return res, nil
	}
	if errors.Is(err, models.ErrAdmissionClosed) {
		return contract.AdmitResult{}, temporal.NewNonRetryableApplicationError(
			"the job's admission is closed",
			contract.ErrTypeAdmissionClosed,
			err,
		)
	}
	if err != nil {
		return contract.AdmitResult{}, err
	}
	a.Log.Info(
		"job admitted",
		zap.String("job_id", in.JobID),
		zap.String("task", in.Task),
		zap.Int64("held", in.HeldCredits),
	)
	events, err := a.subscribed(ctx, in)
	if err != nil {
		return contract.AdmitResult{}, err
	}
	if err := a.emitter().SpendThresholds(ctx, in.JobID, activity.GetInfo(ctx).TaskQueue); err != nil {
		return contract.AdmitResult{}, err
	}
	res := contract.AdmitResult{
		Admitted:    true,
		Required:    in.HeldCredits,
		CreatedAt:   admitted.CreatedAt,
		Events:      events,
		StepsPerJob: a.StepsPerJob,
	}
	res.Inline, res.Plan = a.shape(in)
	if res.Plan != nil && res.Plan.Engine != "" {
		if def, err := a.registry().ForJob(in.Task); err == nil {
			if res.Busy, err = a.engineBusy(ctx, in, def, res.Plan); err != nil {
				return contract.AdmitResult{}, err
			}
		}
		if res.Busy != nil {
			a.Log.Info("job refused: its engine's queue is full", zap.String("job_id", in.JobID),
				zap.String("engine", res.Plan.Engine))
		}
	}
	return res, nil
}

// shape is how an admitted job's steps run: its plan, made here (the
// task's Plan reads only the input) so its first outputs start together,
// and whether they run inline — inside its admit's workflow task, when
// its task is quick for its input (tasks.Quick), steps are not slowed on
// purpose (TP_DEV_STEP_DELAY, so they stay cancellable) and this worker
// runs steps at all — or on the steps queue. plan is nil when the job's
// task or input cannot be read on this worker: the job then fails without
// a step.
func (a *Activities) shape(in contract.JobInput) (inline bool, plan *contract.Plan) {
	def, err := a.registry().ForJob(in.Task)
	if err != nil {
		return false, nil
	}
	var fields map[string]any
	if err := json.Unmarshal(in.Input, &fields); err != nil {
		return false, nil
	}
	input, err := def.Input(fields)
	if err != nil {
		return false, nil
	}
	p := a.plan(def.Runner.Plan(input))
	return a.StepDelay <= 0 && !a.NoInline && tasks.IsQuick(def, input), &p
}

// plan is a task's plan as the job workflow reads it, with this worker's
// capacity deadline for a plan that has capacity-limited outputs.
func (a *Activities) plan(p tasks.Plan) contract.Plan {
	out := contract.Plan{Steps: p.Steps, Phase: p.Phase, Capacity: p.Capacity, FirstAlone: p.FirstAlone,
		Engine: p.Engine, StepTimeout: p.StepTimeout, PerStep: p.PerStep, Fallback: p.Fallback}
	if p.Engine != "" { // the engine's own queue wait
		out.CapacityDeadline = p.QueueWait
	}
	if len(p.Capacity) > 0 {
		out.CapacityDeadline = a.CapacityDeadline
		if out.CapacityDeadline <= 0 {
			out.CapacityDeadline = DefaultCapacityDeadline
		}
	}
	return out
}

// subscribed lists the job events someone subscribes to: the account's
// endpoints, and the terminal events for a per-request webhook URL.
func (a *Activities) subscribed(ctx context.Context, in contract.JobInput) ([]string, error) {
	events, err := models.SubscribedEvents(ctx, a.DB, in.UserID)
	if err != nil {
		return nil, err
	}
	if in.WebhookURL != "" {
		events = append(events, contract.TerminalEvents...)
	}
	return events, nil
}

// refusedError is the public error of a job whose hold was refused after
// its handle was answered: the balance did not cover it
// (insufficient_credits) or it would pass a spend limit
// (spend_limit_reached).
func refusedError(jobID, creditType string, r *models.AdmitRefusal) []byte {
	var e *apierr.Error
	if r.Limit != nil {
		e = apierr.SpendLimitError(*r.Limit)
	} else {
		e = apierr.Newf(apierr.InsufficientCredits, "The job needs %d %s; the balance was %d when it was admitted.",
			r.Required, creditType, r.Balance).
			WithCredits(r.Required, r.Balance)
	}
	e.JobID = jobID
	b, _ := json.Marshal(e)
	return b
}

// CloseAdmission makes sure a job that was never admitted never runs and
// holds nothing: a late handle for it answers that, and a row written for
// it is failed (internal, retryable: submitting again may succeed); the
// late-admit sweep emits its job.failed.
func (a *Activities) CloseAdmission(ctx context.Context, in contract.CloseInput) error {
	if err := models.CloseAdmission(ctx, a.DB, in.JobID, in.UserID, admissionClosed(in.JobID), a.now()); err != nil {
		return err
	}
	a.notify(ctx, in.JobID)
	a.Log.Warn("job never admitted; admission closed", zap.String("job_id", in.JobID))
	return nil
}
