package activities

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// LateAdmitOptions tune the sweep of late admits.
type LateAdmitOptions struct {
	// Deadline is how long after its submit a late job may wait for its
	// admit before the sweep ends it failed internal (TP_LATE_ADMIT_DEADLINE);
	// 0 means DefaultLateAdmitDeadline.
	Deadline time.Duration
	// Every is how often the sweep looks for intents that are due, and an
	// intent's first backoff (doubling up to 30 × Every); 0 means
	// DefaultLateAdmitEvery.
	Every time.Duration
	// Wait bounds one send of an admit; 0 means DefaultLateAdmitWait.
	Wait time.Duration
	// BatchAfter is how long after its write a batch whose jobs are not
	// all started is the sweep's to start (its API process stopped part
	// way); 0 means DefaultBatchSweepAfter.
	BatchAfter time.Duration
}

// The defaults of LateAdmitOptions.
const (
	DefaultLateAdmitDeadline = 10 * time.Minute
	DefaultLateAdmitEvery    = 2 * time.Second
	DefaultLateAdmitWait     = 10 * time.Second
)

// lateAdmitBatch is how many intents one sweep claims at most. It handles
// them all at once: a send mostly waits for its workflow to accept it
// (seconds when a burst fills the job queue), and the jobs of a burst must
// be reached before their workflows' start deadlines.
const lateAdmitBatch = 32

// LateAdmits is the sweep that keeps the promise of a late 202: a job whose
// handle was answered before its admit decided (models.PendJob wrote its
// row and its intent, models.LateAdmit) is admitted, or ended, however long
// Temporal was away and whatever became of the API process that answered
// it. Every worker runs it (and dev). For each intent that is due it sends
// the admit again — the idempotent update-with-start, whether or not the
// server has the job's workflow — with backoff until the admit decides the
// job (models.Admit drops the intent); once the deadline has passed it ends
// the job failed internal (retryable, nothing held or charged) instead.
// Whoever ended a late job without an admit (the deadline, a cancel, a
// workflow that gave up), the sweep emits its terminal event.
type LateAdmits struct {
	acts *Activities
	send SendAdmit
	o    LateAdmitOptions
}

// SendAdmit sends a late job's admit with the start of its workflow on
// queue (the update-with-start of jobstart.SendAdmit, waiting until the
// workflow accepts it); the worker that runs the sweep gives it.
type SendAdmit func(ctx context.Context, in contract.JobInput, queue string) error

// NewLateAdmits is the sweep of acts' database: it sends admits with send,
// and starts event deliveries with acts.Temporal.
func NewLateAdmits(acts *Activities, send SendAdmit, o LateAdmitOptions) *LateAdmits {
	if o.Deadline <= 0 {
		o.Deadline = DefaultLateAdmitDeadline
	}
	if o.Every <= 0 {
		o.Every = DefaultLateAdmitEvery
	}
	if o.Wait <= 0 {
		o.Wait = DefaultLateAdmitWait
	}
	if o.BatchAfter <= 0 {
		o.BatchAfter = DefaultBatchSweepAfter
	}
	return &LateAdmits{acts: acts, send: send, o: o}
}

// Run sweeps at once and then every o.Every until ctx ends.
func (l *LateAdmits) Run(ctx context.Context) {
	tick := time.NewTicker(l.o.Every)
	defer tick.Stop()
	for {
		if _, err := l.Sweep(ctx); err != nil && ctx.Err() == nil {
			l.acts.Log.Warn("late admits not swept", zap.Error(err))
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Sweep claims the intents that are due and handles each; it answers how
// many it claimed. Sweeps of several workers claim disjoint intents.
func (l *LateAdmits) Sweep(ctx context.Context) (int, error) {
	now := l.acts.now()
	// The lease outlasts the handling of the claims, all at once: a send is
	// bounded by Wait, with room beside it for the reads and writes around
	// it. A claim taken again by another sweep only sends the same admit
	// twice.
	claimed, err := models.ClaimLateAdmits(ctx, l.acts.DB, now, 2*l.o.Wait+l.o.Every, lateAdmitBatch)
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	for i := range claimed {
		wg.Go(func() { l.handle(ctx, &claimed[i], now) })
	}
	wg.Wait()
	l.sweepBatches(ctx)
	return len(claimed), nil
}

// handle moves one claimed intent on: its terminal event emitted, its job
// ended past the deadline, or its admit sent again.
func (l *LateAdmits) handle(ctx context.Context, intent *models.LateAdmit, now time.Time) {
	log := l.acts.Log.With(zap.String("job_id", intent.JobID))
	job, err := models.JobByIDAny(ctx, l.acts.DB, intent.JobID)
	switch {
	case errors.Is(err, models.ErrNotFound):
		l.drop(ctx, intent, log)
		return
	case err != nil:
		log.Warn("late job not read", zap.Error(err))
		l.retry(ctx, intent, now, log)
		return
	case intent.Ended == "" && !job.Pending:
		// Its admit decided it, or a cancel ended it after the intent was
		// read: only the first is dropped.
		if err := models.DropDecidedLateAdmit(ctx, l.acts.DB, intent.JobID); err != nil && ctx.Err() == nil {
			log.Warn("late admit not dropped", zap.Error(err))
		}
		return
	case intent.Ended == "" && now.Sub(intent.CreatedAt) >= l.o.Deadline:
		err := models.EndLateJob(ctx, l.acts.DB, job.ID, job.UserID, contract.OutcomeFailed,
			admissionClosed(job.ID), now)
		if errors.Is(err, models.ErrJobDecided) {
			l.drop(ctx, intent, log)
			return
		}
		if err != nil {
			log.Warn("late job not ended at its deadline", zap.Error(err))
			l.retry(ctx, intent, now, log)
			return
		}
		log.Warn("a late job's admit did not reach a workflow within its deadline: the job failed, nothing held",
			zap.Duration("deadline", l.o.Deadline), zap.Int("attempts", intent.Attempts))
		l.acts.notify(ctx, job.ID)
		intent.Ended = contract.OutcomeFailed
		if job, err = models.JobByIDAny(ctx, l.acts.DB, intent.JobID); err != nil {
			l.retry(ctx, intent, now, log)
			return
		}
	}
	if intent.Ended != "" {
		l.emitEnded(ctx, intent, job, now, log)
		return
	}
	// A send never outlasts the deadline: the job ends on time.
	wait := min(l.o.Wait, intent.CreatedAt.Add(l.o.Deadline).Sub(now))
	if err := l.sendAdmit(ctx, intent, job, wait); err != nil {
		log.Warn("a late job's admit was not sent; the sweep sends it again",
			zap.Int("attempt", intent.Attempts), zap.Error(err))
	}
	l.retry(ctx, intent, now, log)
}

// sendAdmit sends the job's admit again, with its start, within wait. It
// is sent whether or not the server has the job's workflow: an admit that
// was sent with the start but not yet accepted is not durable (a cut-off
// submit or a lost workflow task drops it, and the workflow waits for it
// until its start deadline), and a send again lands on the same admit (the
// update id is fixed, an open workflow is used). A closed workflow decided
// the job itself.
func (l *LateAdmits) sendAdmit(ctx context.Context, intent *models.LateAdmit, job *models.Job,
	wait time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	in := intent.JobInput(job)
	in.Weight, _ = models.AccountWeight(ctx, l.acts.DB, job.UserID) // unread: the default weight
	err := l.send(ctx, in, intent.Queue)
	var closed *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &closed) {
		return nil
	}
	return err
}

// emitEnded emits the terminal event of a job ended without an admit (a
// late job, or a batch's job cancelled before its workflow admitted it),
// once its row says so, and its batch's batch.completed when it was the
// last to end, and forgets the intent.
func (l *LateAdmits) emitEnded(ctx context.Context, intent *models.LateAdmit, job *models.Job, now time.Time,
	log *zap.Logger) {
	event := contract.TerminalEvent[intent.Ended]
	if job.Lifecycle != contract.LifecycleTerminal || event == "" {
		l.retry(ctx, intent, now, log) // the workflow that gave up is still settling it
		return
	}
	if err := l.acts.emitEnded(ctx, job, nil, event, []string{event}, intent.Queue); err != nil {
		log.Warn("a late job's terminal event was not emitted; the sweep emits it again",
			zap.String("event", event), zap.Error(err))
		l.retry(ctx, intent, now, log)
		return
	}
	// A batch's job cancelled before its workflow admitted it may be the
	// last of its batch to end (models.CancelUnadmitted).
	if err := l.acts.completeBatch(ctx, job.ID, intent.Queue); err != nil {
		log.Warn("a batch's completion was not emitted; the sweep emits it again", zap.Error(err))
		l.retry(ctx, intent, now, log)
		return
	}
	l.drop(ctx, intent, log)
}

// retry makes the intent due again after its backoff (never past its
// deadline, so the job ends on time).
func (l *LateAdmits) retry(ctx context.Context, intent *models.LateAdmit, now time.Time, log *zap.Logger) {
	backoff := min(l.o.Every<<min(max(intent.Attempts-1, 0), 5), 30*l.o.Every)
	at := now.Add(backoff)
	if deadline := intent.CreatedAt.Add(l.o.Deadline); intent.Ended == "" && at.After(deadline) && deadline.After(now) {
		at = deadline
	}
	if err := models.RetryLateAdmitAt(ctx, l.acts.DB, intent.JobID, at); err != nil && ctx.Err() == nil {
		log.Warn("late admit not rescheduled; its lease ends first", zap.Error(err))
	}
}

func (l *LateAdmits) drop(ctx context.Context, intent *models.LateAdmit, log *zap.Logger) {
	if err := models.DropLateAdmit(ctx, l.acts.DB, intent.JobID); err != nil && ctx.Err() == nil {
		log.Warn("late admit not dropped", zap.Error(err))
	}
}

// admissionClosed is the public error of a job that was never admitted:
// internal, retryable (a new submit may succeed), nothing held. The submit's
// Idempotency-Key answers this failed job for as long as it is remembered,
// so the message asks for a new key.
func admissionClosed(jobID string) []byte {
	e := apierr.New(apierr.Internal,
		"The job could not be admitted in time; nothing was held or charged. Submit it again with a new "+
			"Idempotency-Key: the key it was sent with answers this failed job.")
	e.Retryable, e.JobID = true, jobID
	body, _ := json.Marshal(e)
	return body
}
