package submit

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/batchstart"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstart"
	"github.com/taskplatform/taskplatform/models"
)

// BatchOperation is the idempotency keys' operation name of a batch.
const BatchOperation = "batches.create"

// BatchRequest is one batch, its items validated and priced by the caller
// exactly as their submits would be.
type BatchRequest struct {
	// Batch is the batch row to write: user, key, mode, refused items,
	// webhook URL and request id; its ID is the one an Idempotency-Key
	// already names, or a new one.
	Batch models.Batch
	// Jobs are the jobs of the valid items, in item order; their ids are
	// derived from the batch id and their item's index (BatchJobID).
	Jobs []contract.JobInput
	// Indexes are the request's item index of each job.
	Indexes []int
	// IdempotencyKey is the request's Idempotency-Key; empty for none.
	IdempotencyKey string
	// Fingerprint is what the key is bound to: the normalized request.
	Fingerprint string
	// AdmitRecords runs a job's task's own submit checks on the account's
	// records once its id is known (a tasks.Admitter), by job index; nil
	// for a job whose task keeps no records.
	AdmitRecords []func(ctx context.Context, jobID string) error
	// StartWithin bounds the start of the jobs' workflows in the request;
	// the workers' sweep starts the rest.
	StartWithin time.Duration
	Log         *zap.Logger
}

// BatchResult is a written batch: its id, and whether every job's workflow
// is known started.
type BatchResult struct {
	BatchID string
	Started bool
}

// BatchJobID is the id of the job at index i of batch batchID: the same on
// every retry of the batch, so a retried start reaches the same workflow.
func BatchJobID(batchID string, i int) string {
	sum := sha256.Sum256([]byte(batchID + "\x00" + strconv.Itoa(i)))
	return "j_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:])[:20])
}

// SubmitBatch writes a batch and its jobs with every hold in one
// transaction (all or none: 402 insufficient_credits holds nothing), then
// starts the jobs' workflows, bounded in concurrency and in time. A
// repeated Idempotency-Key answers the first request's batch; a request
// that stopped part way is taken over with the same batch and job ids, so
// nothing is held or started twice.
func (s *Service) SubmitBatch(ctx context.Context, req BatchRequest) (BatchResult, error) {
	log := req.Log
	if log == nil {
		log = zap.NewNop()
	}
	b := req.Batch
	key := idempotencyKey{s: s, userID: b.UserID, key: req.IdempotencyKey, log: log, op: BatchOperation}
	fresh := true
	if key.key != "" {
		claim, err := models.ClaimKey(ctx, s.DB, b.UserID, BatchOperation, key.key, req.Fingerprint, b.ID,
			s.AdmitTimeout+req.StartWithin+5*time.Second, s.now())
		if err != nil {
			return BatchResult{}, err
		}
		switch claim.State {
		case models.ClaimMismatch:
			return BatchResult{}, apierr.New(apierr.IdempotencyKeyReused, "")
		case models.ClaimInProgress:
			return BatchResult{}, apierr.New(apierr.RequestInProgress, "").WithRetryAfter(1)
		case models.ClaimDone:
			return BatchResult{BatchID: claim.JobID}, nil
		}
		b.ID = claim.JobID
		fresh = claim.State == models.ClaimNew
	}
	jobs := make([]*models.Job, len(req.Jobs))
	for i := range req.Jobs {
		req.Jobs[i].JobID = BatchJobID(b.ID, req.Indexes[i])
		jobs[i] = models.JobRow(req.Jobs[i])
	}
	for i, admit := range req.AdmitRecords {
		if admit == nil {
			continue
		}
		if err := admit(ctx, req.Jobs[i].JobID); err != nil {
			if fresh {
				key.release(ctx)
			}
			return BatchResult{}, err
		}
	}
	b.Queue = s.TaskQueue
	if _, err := models.CreateBatch(ctx, s.DB, &b, jobs, req.Indexes, s.now()); err != nil {
		var refusal *models.BatchRefusal
		if errors.As(err, &refusal) {
			key.release(ctx)
			if refusal.Limit != nil {
				s.sendThresholds(ctx, refusal.JobID, log)
				return BatchResult{}, apierr.SpendLimitError(*refusal.Limit)
			}
			return BatchResult{}, Insufficient(refusal.Required, refusal.Balance, refusal.CreditType)
		}
		// A failure, not a refusal: unless the batch is there (a taken-over
		// key's first request wrote it, or the commit landed though its
		// answer was lost), nothing was written and a retry with the key
		// runs again at once rather than after the key's lease.
		rctx := context.WithoutCancel(ctx)
		if _, ferr := models.BatchByID(rctx, s.DB, b.UserID, b.ID); errors.Is(ferr, models.ErrNotFound) {
			key.release(rctx)
		}
		return BatchResult{}, err
	}
	key.complete(ctx)
	log.Info("batch written", zap.String("batch_id", b.ID), zap.Int("jobs", len(jobs)))
	send := func(ctx context.Context, in contract.JobInput, queue string) error {
		_, err := jobstart.SendAdmit(ctx, s.Temporal, in, queue, client.WorkflowUpdateStageAccepted)
		return err
	}
	// The jobs start apart from the request, so a client that goes away
	// does not stop them; the answer waits for them at most StartWithin.
	// Should this process stop first, the workers' sweep starts the rest.
	done := make(chan error, 1)
	go func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), batchStartTimeout)
		defer cancel()
		done <- batchstart.Batch(sctx, s.DB, send, &b, s.now)
	}()
	timer := time.NewTimer(req.StartWithin)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			log.Warn("a batch's jobs were not all started; the workers' sweep starts the rest",
				zap.String("batch_id", b.ID), zap.Error(err))
			return BatchResult{BatchID: b.ID}, nil
		}
		return BatchResult{BatchID: b.ID, Started: true}, nil
	case <-timer.C:
		return BatchResult{BatchID: b.ID}, nil
	}
}

// sendThresholds sends the spend.threshold events a refusal recorded for
// job jobID; a failure is logged: the refusal is the answer.
func (s *Service) sendThresholds(ctx context.Context, jobID string, log *zap.Logger) {
	if s.SendThresholds == nil || jobID == "" {
		return
	}
	if err := s.SendThresholds(context.WithoutCancel(ctx), jobID); err != nil {
		log.Warn("spend.threshold not sent", zap.String("job_id", jobID), zap.Error(err))
	}
}

// batchStartTimeout bounds the start of a batch's jobs by the process that
// wrote it.
const batchStartTimeout = 10 * time.Minute
