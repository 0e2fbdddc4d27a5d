// Package submit is the use case of submitting a job, apart from HTTP: the
// Idempotency-Key, the task's record admission, the admit (the job
// workflow's update-with-start, bounded by the admit timeout) and, when the
// admit does not answer in time, the late path that answers the job's
// handle with the durable intent of its admit (models.PendJob; the workers'
// late-admit sweep keeps that promise). The API parses the request before
// and renders the answer after.
package submit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstart"
	"github.com/taskplatform/taskplatform/models"
)

// Operation is the idempotency keys' operation name of a submit.
const Operation = "tasks.submit"

// Temporal is the part of a Temporal client a submit uses: the admit's
// update-with-start (jobstart.SendAdmit).
type Temporal = jobstart.Admitter

// Service submits jobs.
type Service struct {
	DB       *gorm.DB
	Temporal Temporal
	// TaskQueue is where job workflows start.
	TaskQueue string
	// AdmitTimeout bounds the wait for a submit's admit; past it the
	// submit takes the late path.
	AdmitTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SendThresholds sends the spend.threshold events recorded for a job
	// id (events.Emitter.SpendThresholds): the 100 % a batch's refusal by
	// a spend limit recorded. Nil sends none.
	SendThresholds func(ctx context.Context, jobID string) error
}

// Request is one submit, its input validated and priced by the caller.
type Request struct {
	// Job is the job to start; its JobID is replaced by the one an
	// Idempotency-Key already names.
	Job contract.JobInput
	// IdempotencyKey is the submit's Idempotency-Key; empty for none.
	IdempotencyKey string
	// AdmitRecords runs the task's own submit checks on the account's
	// records once the job's id is known (a tasks.Admitter); nil for none.
	AdmitRecords func(ctx context.Context, jobID string) error
	// Log is the request's logger; nil logs nothing.
	Log *zap.Logger
}

// Result is a submitted job's handle.
type Result struct {
	JobID string
	// Admitted is the job as its admit just wrote it, for a submit the admit
	// answered in time; nil when the handle is of a job the caller reads (a
	// repeated Idempotency-Key, a late admit).
	Admitted *models.Job
}

// Submit runs one submit. Its errors are the answers of a submit that
// starts no job (apierr: 402 insufficient_credits or spend_limit_reached, 409
// idempotency_key_reused or request_in_progress, 503, or the records'
// own refusals) or failures to report as they are.
func (s *Service) Submit(ctx context.Context, req Request) (Result, error) {
	log := req.Log
	if log == nil {
		log = zap.NewNop()
	}
	in := req.Job
	key := idempotencyKey{s: s, userID: in.UserID, key: req.IdempotencyKey, log: log}
	fresh := true
	if key.key != "" {
		claim, err := models.ClaimKey(ctx, s.DB, in.UserID, Operation, key.key, fingerprint(in), in.JobID,
			s.AdmitTimeout+5*time.Second, s.now())
		if err != nil {
			return Result{}, err
		}
		switch claim.State {
		case models.ClaimMismatch:
			return Result{}, apierr.New(apierr.IdempotencyKeyReused, "")
		case models.ClaimInProgress:
			return Result{}, apierr.New(apierr.RequestInProgress, "").WithRetryAfter(1)
		case models.ClaimDone:
			return Result{JobID: claim.JobID}, nil
		}
		in.JobID = claim.JobID
		fresh = claim.State == models.ClaimNew
	}
	if req.AdmitRecords != nil {
		if err := req.AdmitRecords(ctx, in.JobID); err != nil {
			if fresh {
				key.release(ctx)
			}
			return Result{}, err
		}
	}
	admit, err := s.admit(ctx, in)
	if err != nil {
		return s.late(ctx, in, key, log, err)
	}
	if !admit.Admitted {
		key.release(ctx)
		return Result{}, refused(&models.AdmitRefusal{Required: admit.Required, Balance: admit.Balance,
			Limit: admit.SpendLimit}, in.CreditType)
	}
	key.complete(ctx)
	log.Info("job submitted", zap.String("job_id", in.JobID), zap.String("task", in.Task),
		zap.Int64("held", in.HeldCredits))
	if !fresh {
		return Result{JobID: in.JobID}, nil // a retried submit: its admit answered the first one's result
	}
	admitted := &models.Job{ID: in.JobID, UserID: in.UserID, APIKeyID: in.APIKeyID, Task: in.Task,
		Lifecycle: contract.LifecycleQueued, CreditType: in.CreditType, HeldCredits: in.HeldCredits,
		CreatedAt: admit.CreatedAt}
	return Result{JobID: in.JobID, Admitted: admitted}, nil
}

// admit starts the job workflow with the admit update and waits, at most
// the admit timeout, for the hold.
func (s *Service) admit(ctx context.Context, in contract.JobInput) (contract.AdmitResult, error) {
	ctx, cancel := context.WithTimeout(ctx, s.AdmitTimeout)
	defer cancel()
	handle, err := jobstart.SendAdmit(ctx, s.Temporal, in, s.TaskQueue, client.WorkflowUpdateStageCompleted)
	if err != nil {
		return contract.AdmitResult{}, err
	}
	var res contract.AdmitResult
	err = handle.Get(ctx, &res)
	return res, err
}

// late answers a submit whose admit did not answer in time (slow, or cut
// off before or after the server started the workflow). The job's workflow
// may still admit it, so the answer is never a retryable error while the
// job can hold credits: the job is made visible as queued with the durable
// intent of its admit (its admit holds later, or fails it
// insufficient_credits; the workers' late-admit sweep sends the admit again
// until it decides, or ends the job within its deadline) and its handle is
// answered — unless the admit has decided meanwhile.
func (s *Service) late(ctx context.Context, in contract.JobInput, key idempotencyKey, log *zap.Logger,
	admitErr error) (Result, error) {
	log = log.With(zap.String("job_id", in.JobID))
	// Under a burst the account's row lock is contended by every admit: wait
	// for it rather than answer an error for a job that may still run.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pendTimeout)
	defer cancel()
	state, refusal, err := models.PendJob(ctx, s.DB, models.JobRow(in), s.TaskQueue, s.now())
	if err != nil {
		log.Error("admit did not answer and the job could not be recorded",
			zap.NamedError("admit_error", admitErr), zap.Error(err))
		e := apierr.New(apierr.Internal,
			"The job's admission could not be confirmed. Read the job before submitting it again.").WithJob(in.JobID)
		e.Retryable = false
		return Result{}, e
	}
	switch state {
	case models.PendRefused:
		key.release(ctx)
		return Result{}, refused(refusal, in.CreditType)
	case models.PendClosed:
		key.release(ctx)
		return Result{}, apierr.New(apierr.ServiceUnavailable,
			"The job could not be admitted; nothing was held or charged. Submit it again.").WithRetryAfter(2)
	case models.PendWritten:
		log.Warn("admit did not answer in time; the job's handle is answered and its admit decides later",
			zap.Error(admitErr))
	}
	key.complete(ctx)
	return Result{JobID: in.JobID}, nil
}

// pendTimeout bounds the wait for the account's lock when a late job is made
// visible; past it the answer is a non-retryable internal error naming the job.
const pendTimeout = time.Minute

// Insufficient is the 402 of a hold the balance does not cover.
func Insufficient(required, balance int64, creditType string) *apierr.Error {
	return apierr.Newf(apierr.InsufficientCredits, "The job needs %d %s; the balance is %d.",
		required, creditType, balance).WithCredits(required, balance)
}

// refused is the 402 of a refused admit: spend_limit_reached when the hold
// would pass a spend limit, else insufficient_credits.
func refused(r *models.AdmitRefusal, creditType string) *apierr.Error {
	if r.Limit != nil {
		return apierr.SpendLimitError(*r.Limit)
	}
	return Insufficient(r.Required, r.Balance, creditType)
}

// fingerprint is what an Idempotency-Key is bound to: the task, its
// normalized input, the start deadline and the webhook URL.
func fingerprint(in contract.JobInput) string {
	fields := []string{in.Task, string(in.Input), strconv.Itoa(in.StartTimeoutSeconds), in.WebhookURL}
	sum := sha256.Sum256([]byte(strings.Join(fields, "\x00")))
	return hex.EncodeToString(sum[:])
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// idempotencyKey is a submit's Idempotency-Key (key empty: none).
type idempotencyKey struct {
	s      *Service
	userID uint64
	key    string
	log    *zap.Logger
	// op is the key's operation; empty means Operation (a submit).
	op string
}

func (k idempotencyKey) operation() string {
	if k.op == "" {
		return Operation
	}
	return k.op
}

// complete stores the key's job for the key's lifetime.
func (k idempotencyKey) complete(ctx context.Context) {
	if k.key == "" {
		return
	}
	var ttl time.Duration
	if t := contract.DefaultLimits().IdempotencyKey.TTLSeconds; t != nil {
		ttl = time.Duration(*t) * time.Second
	}
	if err := models.CompleteKey(ctx, k.s.DB, k.userID, k.operation(), k.key, ttl, k.s.now()); err != nil {
		k.log.Error("complete idempotency key", zap.Error(err))
	}
}

// release forgets the key: no job was started.
func (k idempotencyKey) release(ctx context.Context) {
	if k.key == "" {
		return
	}
	if err := models.ReleaseKey(ctx, k.s.DB, k.userID, k.operation(), k.key); err != nil {
		k.log.Error("release idempotency key", zap.Error(err))
	}
}
