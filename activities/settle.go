package activities

import (
	"context"
	"encoding/json"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/models"
)

// SettleInput is how a job ended.
type SettleInput struct {
	JobID   string
	Outcome string
	Error   json.RawMessage `json:",omitempty"`
	Summary json.RawMessage `json:",omitempty"`
}

// SettleResult is what settlement charged.
type SettleResult struct {
	Delivered int
	Charged   int64
}

// Settle charges the delivered outputs, releases the rest of the hold and
// writes the terminal state, exactly once per job however often it runs.
func (a *Activities) Settle(ctx context.Context, in SettleInput) (SettleResult, error) {
	job, first, err := models.Settle(ctx, a.DB, in.JobID, models.Settlement{Outcome: in.Outcome, Error: in.Error, Summary: in.Summary}, a.now())
	if err != nil {
		return SettleResult{}, fmt.Errorf("settle %s: %w", in.JobID, err)
	}
	if !first {
		return SettleResult{Delivered: job.ProgressDone, Charged: job.ChargedCredits}, nil
	}
	m := activity.GetMetricsHandler(ctx).WithTags(map[string]string{"task": job.Task, "outcome": in.Outcome})
	m.Counter("taskplatform_jobs_settled").Inc(1)
	m.Counter("taskplatform_outputs_delivered").Inc(int64(job.ProgressDone))
	m.Counter("taskplatform_credits_charged").Inc(job.ChargedCredits)
	a.Log.Info("job settled", zap.String("job_id", job.ID), zap.String("outcome", in.Outcome), zap.Int("delivered", job.ProgressDone), zap.Int64("charged", job.ChargedCredits))
	return SettleResult{Delivered: job.ProgressDone, Charged: job.ChargedCredits}, nil
}

// Delivered counts a job's outputs.
func (a *Activities) Delivered(ctx context.Context, jobID string) (int, error) {
	n, err := models.Delivered(ctx, a.DB, jobID)
	return int(n), err
}
