package activities

import (
	"context"
	"encoding/json"
	"fmt"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// Settle charges the delivered outputs, releases the rest of the hold and
// writes the terminal state, exactly once per job however often it runs;
// then it emits the terminal event to its subscribers. Job workflows run it
// as a local activity: settling costs their history one marker.
func (a *Activities) Settle(ctx context.Context, in contract.SettleInput) (contract.SettleResult, error) {
	settlement := models.Settlement{Outcome: in.Outcome, Uncharged: int64(in.Uncharged)}
	if in.Failure != nil {
		e := apierr.New(apierr.Code(in.Failure.Code), in.Failure.Message).WithJob(in.JobID)
		if in.Failure.RetryAfter > 0 {
			e = e.WithRetryAfter(in.Failure.RetryAfter)
		}
		settlement.Error, _ = json.Marshal(e)
	}
	if in.Summary != nil {
		settlement.Summary, _ = json.Marshal(in.Summary)
	}
	done, err := models.SettleWithAccount(ctx, a.DB, in.JobID, settlement, a.now())
	job, first := done.Job, done.First
	if err != nil {
		return contract.SettleResult{}, fmt.Errorf("settle %s: %w", in.JobID, err)
	}
	if job.Outcome != nil {
		// The terminal event, to whoever subscribed at admit; a retried
		// settlement emits the same deliveries again, harmlessly.
		if err := a.emitEnded(ctx, job, &done.AccountVersion, contract.TerminalEvent[*job.Outcome], in.Events,
			in.Queue); err != nil {
			return contract.SettleResult{}, err
		}
		// The last job of a batch to end sends its batch.completed.
		if err := a.completeBatch(ctx, job.ID, in.Queue); err != nil {
			return contract.SettleResult{}, fmt.Errorf("complete the batch of %s: %w", job.ID, err)
		}
	}
	if !first {
		return contract.SettleResult{Delivered: job.ProgressDone, Charged: job.ChargedCredits}, nil
	}
	a.Metrics.settledJob(job.Task, in.Outcome, job.ProgressDone, job.ChargedCredits)
	a.Log.Info(
		"job settled",
		zap.String("job_id", job.ID),
		zap.String("outcome", in.Outcome),
		zap.Int("delivered", job.ProgressDone),
		zap.Int64("charged", job.ChargedCredits),
	)
	return contract.SettleResult{Delivered: job.ProgressDone, Charged: job.ChargedCredits}, nil
}
