// Package cancel is the use case of cancelling a job, apart from HTTP. A
// job ends cancelled by one of three ways, by what has become of it:
//
//   - a late job (its handle answered before its admit decided) is ended in
//     the store, its admission closed, without asking Temporal;
//   - a batch's job no workflow has admitted yet (its batch is starting, or
//     its start was interrupted) is ended in the store too, its hold
//     released and its admission closed: it never runs, whatever becomes
//     of its batch's start;
//   - any other job has its workflow cancelled, the one path a running job
//     ends by.
//
// The API reads the request before and renders the answer after.
package cancel

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
)

// Temporal is the part of a Temporal client a cancel uses.
type Temporal interface {
	CancelWorkflow(ctx context.Context, workflowID, runID string) error
}

// Service cancels jobs.
type Service struct {
	DB       *gorm.DB
	Temporal Temporal
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Cancel cancels job jobID of user userID and answers the job as the
// cancel left it: ended cancelled (a job cancelled in the store) or as it
// was when its workflow was asked to stop. Its errors are apierr answers
// (404 job_not_found, 400 job_already_ended) or failures to report as they
// are; log is the request's logger (nil logs nothing).
func (s *Service) Cancel(ctx context.Context, userID uint64, jobID string, log *zap.Logger) (*models.Job, error) {
	if log == nil {
		log = zap.NewNop()
	}
	j, err := models.JobByID(ctx, s.DB, userID, jobID)
	if errors.Is(err, models.ErrNotFound) {
		return nil, apierr.New(apierr.JobNotFound, "")
	}
	if err != nil {
		return nil, err
	}
	if j.Pending {
		ended, fresh, err := s.late(ctx, j, log)
		if err != nil || ended {
			return fresh, err
		}
		j = fresh
	}
	if j.Lifecycle == contract.LifecycleQueued && j.AdmittedAt == nil {
		ended, fresh, err := s.unadmitted(ctx, j, log)
		if err != nil || ended {
			return fresh, err
		}
		j = fresh
	}
	if j.Lifecycle == contract.LifecycleTerminal {
		return nil, apierr.New(apierr.JobAlreadyEnded, "").WithJob(j.ID)
	}
	err = s.Temporal.CancelWorkflow(ctx, j.ID, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		// No open workflow: it ended meanwhile, or is still settling.
		if fresh, ferr := models.JobByID(ctx, s.DB, j.UserID, j.ID); ferr == nil &&
			fresh.Lifecycle == contract.LifecycleTerminal {
			return nil, apierr.New(apierr.JobAlreadyEnded, "").WithJob(j.ID)
		}
		return j, nil
	}
	if err != nil {
		return nil, err
	}
	log.Info("job workflow asked to cancel", zap.String("job_id", j.ID))
	return j, nil
}

// late cancels a late job without asking Temporal, which may be away and
// may not have its workflow: the job ends cancelled, nothing held, and its
// admission is closed, so an admit that arrives later holds nothing and its
// workflow ends without running; the late-admit sweep emits
// job.cancelled. ended is false when an admit decided the job meanwhile:
// fresh is its row, for its workflow to be cancelled.
func (s *Service) late(ctx context.Context, j *models.Job, log *zap.Logger) (ended bool, fresh *models.Job,
	err error) {
	err = models.EndLateJob(ctx, s.DB, j.ID, j.UserID, contract.OutcomeCancelled, cancelledError(j.ID), s.now())
	if err != nil && !errors.Is(err, models.ErrJobDecided) {
		return false, nil, err
	}
	decided := err != nil
	if fresh, err = models.JobByID(ctx, s.DB, j.UserID, j.ID); err != nil {
		return false, nil, err
	}
	if decided {
		return false, fresh, nil
	}
	log.Info("late job cancelled before its admit", zap.String("job_id", j.ID))
	s.notify(ctx, j.ID, log)
	return true, fresh, nil
}

// unadmitted cancels a batch's job no workflow has admitted in the store
// (models.CancelUnadmitted): it never runs and is charged nothing; the
// late-admit sweep emits job.cancelled (and batch.completed when it was
// its batch's last job). ended is false when its workflow admitted it
// meanwhile (or it is no batch's job): fresh is its row, for its workflow
// to be cancelled.
func (s *Service) unadmitted(ctx context.Context, j *models.Job, log *zap.Logger) (ended bool,
	fresh *models.Job, err error) {
	fresh, err = models.CancelUnadmitted(ctx, s.DB, j.ID, j.UserID, cancelledError(j.ID), s.now())
	if errors.Is(err, models.ErrJobAdmitted) {
		fresh, err = models.JobByID(ctx, s.DB, j.UserID, j.ID)
		return false, fresh, err
	}
	if err != nil {
		return false, nil, err
	}
	log.Info("batch job cancelled before its workflow admitted it", zap.String("job_id", j.ID))
	s.notify(ctx, j.ID, log)
	return true, fresh, nil
}

// notify tells the job's live event streams that its row changed.
func (s *Service) notify(ctx context.Context, jobID string, log *zap.Logger) {
	if err := jobstream.Notify(ctx, s.DB, jobID); err != nil {
		log.Warn("job stream not notified", zap.String("job_id", jobID), zap.Error(err))
	}
}

// cancelledError is the public error of a cancelled job.
func cancelledError(jobID string) []byte {
	b, _ := json.Marshal(apierr.New(apierr.Cancelled, "The job was cancelled.").WithJob(jobID))
	return b
}
