package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

// Batch modes.
const (
	// BatchAll starts nothing when any item is refused.
	BatchAll = "all"
	// BatchPartial starts the valid items and reports the refused ones.
	BatchPartial = "partial"
)

// Batch is one POST /v1/batches: its jobs (BatchItem, in request order)
// were written with their holds in one transaction (CreateBatch), then
// their workflows started; Completed marks that batch.completed was
// emitted (migration 0018).
type Batch struct {
	ID       string `gorm:"primaryKey"`
	UserID   uint64 `gorm:"not null;index:idx_batches_user_created,priority:1"`
	APIKeyID string `gorm:"not null;default:''"`
	Mode     string `gorm:"not null"`
	// Jobs is how many items started a job; Refused the items refused (in
	// partial mode), as the JSON of []apierr.ItemError.
	Jobs    int    `gorm:"not null"`
	Refused string `gorm:"not null;default:'[]'"`
	// WebhookURL receives batch.completed besides the subscribed endpoints.
	WebhookURL string `gorm:"not null;default:''"`
	RequestID  string `gorm:"not null;default:''"`
	// Queue is the task queue its jobs' workflows start on.
	Queue string `gorm:"not null;default:''"`
	// StartedAt is when every job's workflow was known started; nil while
	// the API or the workers' sweep still starts them.
	StartedAt *time.Time
	// CompletedAt is when the last job ended; CompletedBy the job whose
	// settlement saw it, the one that emits batch.completed (a retry of its
	// settlement emits the same deliveries; no other job does).
	CompletedAt *time.Time
	CompletedBy string    `gorm:"not null;default:''"`
	CreatedAt   time.Time `gorm:"not null;index:idx_batches_user_created,priority:2"`
}

// BatchItem is one job of a batch, at its index among the request's items.
type BatchItem struct {
	BatchID string `gorm:"primaryKey"`
	Index   int    `gorm:"column:idx;primaryKey;autoIncrement:false"`
	JobID   string `gorm:"not null;uniqueIndex"`
}

// migrateBatches is migration 0018: the batches and their items.
func migrateBatches(tx *gorm.DB) error {
	return tx.AutoMigrate(&Batch{}, &BatchItem{})
}

// BatchRefusal is a batch whose holds the balance does not cover, or
// whose jobs would pass a spend limit (Limit set): nothing was written or
// held.
type BatchRefusal struct {
	CreditType        string
	Required, Balance int64
	Limit             *contract.SpendLimitHit
	// JobID is the job whose hold Limit refused (never written): the 100 %
	// threshold the refusal recorded names it (ThresholdsOfJob).
	JobID string
}

func (r *BatchRefusal) Error() string {
	return fmt.Sprintf("batch needs %d %s, balance %d", r.Required, r.CreditType, r.Balance)
}

// CreateBatch writes batch b and its jobs (in item order, indexes[i] the
// request item of jobs[i]; their created_at a microsecond apart, so they
// queue in that order: itemTimes), each job queued with its credits held,
// in one transaction under the account's lock: every hold or none. It
// answers a *BatchRefusal, writing no batch, job or hold, when a credit
// type's balance does not cover the sum, or when a job would pass a spend
// limit of the account or its key (counting the batch's jobs before it;
// the refusal records the limit's 100 % threshold, as Admit's does, for
// the caller to send); the thresholds its jobs reach are recorded as Admit
// records them, for each job's admit to send. A batch whose id exists
// already (a retried request) is left as it is and answered with created
// false: nothing is held twice. The jobs' workflows are started
// afterwards; their admits find the jobs admitted.
func CreateBatch(ctx context.Context, db *gorm.DB, b *Batch, jobs []*Job, indexes []int,
	now time.Time) (bool, error) {
	created := false
	var refusal *BatchRefusal
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, b.UserID); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&Batch{}).Where("id = ?", b.ID).Count(&n).Error; err != nil {
			return fmt.Errorf("read batch: %w", err)
		}
		if n > 0 {
			return nil
		}
		need := map[string]int64{}
		var types []string
		for _, j := range jobs {
			if _, ok := need[j.CreditType]; !ok {
				types = append(types, j.CreditType)
			}
			need[j.CreditType] += j.HeldCredits
		}
		for _, ct := range types {
			var available int64
			if err := tx.Raw(availableSQL, b.UserID, ct, now).Scan(&available).Error; err != nil {
				return fmt.Errorf("read balance: %w", err)
			}
			if need[ct] > 0 && available < need[ct] {
				return &BatchRefusal{CreditType: ct, Required: need[ct], Balance: max(available, 0)}
			}
		}
		// A limit's refusal undoes what the batch wrote but records the
		// limit reached (limitRefused).
		if err := tx.SavePoint(batchWrites).Error; err != nil {
			return fmt.Errorf("savepoint: %w", err)
		}
		b.CreatedAt = now
		if err := tx.Create(b).Error; err != nil {
			return fmt.Errorf("insert batch: %w", err)
		}
		var ledger []LedgerEntry
		items := make([]BatchItem, len(jobs))
		at := itemTimes(now, len(jobs))
		for i, j := range jobs {
			// Job by job, as Admit holds each: the spend limits count the
			// batch's jobs written before this one.
			over, limits, err := checkSpend(tx, j, now)
			if err != nil {
				return err
			}
			if over != nil {
				refusal = &BatchRefusal{CreditType: j.CreditType, Required: need[j.CreditType],
					Limit: over.hit(j.HeldCredits, now), JobID: j.ID}
				return limitRefused(tx, &over.limit, j.ID, now)
			}
			held, entries, err := hold(tx, j.UserID, j.CreditType, j.ID, j.HeldCredits, now)
			if err != nil {
				return err
			}
			if held == nil {
				held = []HeldBatch{}
			}
			j.HoldBatches, j.Lifecycle, j.Pending, j.CreatedAt = held, contract.LifecycleQueued, false, at(i)
			if err := tx.Create(j).Error; err != nil {
				return fmt.Errorf("insert job: %w", err)
			}
			if err := markThresholds(tx, j, limits, now); err != nil {
				return err
			}
			ledger = append(ledger, entries...)
			items[i] = BatchItem{BatchID: b.ID, Index: indexes[i], JobID: j.ID}
		}
		if len(items) > 0 {
			if err := tx.CreateInBatches(items, 200).Error; err != nil {
				return fmt.Errorf("insert batch items: %w", err)
			}
		}
		if len(ledger) > 0 {
			if err := tx.CreateInBatches(ledger, 200).Error; err != nil {
				return fmt.Errorf("write holds: %w", err)
			}
		}
		created = true
		return nil
	})
	if err == nil && refusal != nil {
		return false, refusal
	}
	return created, err
}

// itemTimes gives the created_at of each of a batch's n jobs written at
// now: now plus its place in microseconds (the database's resolution), so
// the queue's order (created_at, then id) and the job list's are the
// items' order, whatever their ids. A job counts in the spend period it
// was written in, the one its limits were checked in: when now is within
// n µs of the UTC midnight, the times end just before it instead.
func itemTimes(now time.Time, n int) func(i int) time.Time {
	base := now.Truncate(time.Microsecond)
	if end := contract.PeriodEnd(contract.SpendDay, now); !base.Add(time.Duration(n) * time.Microsecond).Before(end) {
		base = end.Add(-time.Duration(n) * time.Microsecond)
	}
	return func(i int) time.Time { return base.Add(time.Duration(i) * time.Microsecond) }
}

// batchWrites is the savepoint before a batch's writes.
const batchWrites = "batch_writes"

// limitRefused undoes the writes of a batch (to its savepoint) whose job
// jobID limit l refuses, and records the limit reached with the period's
// spend without the batch (markLimitReached).
func limitRefused(tx *gorm.DB, l *SpendLimit, jobID string, now time.Time) error {
	if err := tx.RollbackTo(batchWrites).Error; err != nil {
		return fmt.Errorf("undo the batch's writes: %w", err)
	}
	spent, err := periodSpend(tx, l, now)
	if err != nil {
		return err
	}
	return markLimitReached(tx, l, jobID, spent, now)
}

// BatchByID reads one batch of a user; an unknown id wraps ErrNotFound.
func BatchByID(ctx context.Context, db *gorm.DB, userID uint64, id string) (*Batch, error) {
	var b Batch
	err := db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&b).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("batch %s: %w", id, ErrNotFound)
	}
	return &b, err
}

// BatchesOf lists a user's batches newest first, at most limit after the
// offset.
func BatchesOf(ctx context.Context, db *gorm.DB, userID uint64, offset, limit int) ([]Batch, error) {
	var out []Batch
	err := db.WithContext(ctx).Where("user_id = ?", userID).Order("created_at DESC, id DESC").
		Offset(offset).Limit(limit).Find(&out).Error
	return out, err
}

// BatchJob is one job of a batch as its reads list it.
type BatchJob struct {
	Index     int `gorm:"column:idx"`
	JobID     string
	Task      string
	Lifecycle string
	Outcome   *string
}

// BatchJobs lists a batch's jobs in item order.
func BatchJobs(ctx context.Context, db *gorm.DB, batchID string) ([]BatchJob, error) {
	var out []BatchJob
	err := db.WithContext(ctx).Raw(`SELECT i.idx, j.id AS job_id, j.task, j.lifecycle, j.outcome
FROM batch_items i JOIN jobs j ON j.id = i.job_id WHERE i.batch_id = ? ORDER BY i.idx`, batchID).Scan(&out).Error
	return out, err
}

// BatchCount is one group of a batch's jobs by lifecycle and outcome, with
// their outputs and credits.
type BatchCount struct {
	Lifecycle string
	Outcome   *string
	Jobs      int
	// Done are the outputs delivered; Total the outputs planned (a job's
	// plan once it has started, before that its hold over its price).
	Done, Total int
	CreditType  string
	Held        int64
	Charged     int64
}

// BatchCounts groups a batch's jobs by lifecycle, outcome and credit type.
func BatchCounts(ctx context.Context, db *gorm.DB, batchID string) ([]BatchCount, error) {
	var out []BatchCount
	err := db.WithContext(ctx).Raw(`SELECT j.lifecycle, j.outcome, j.credit_type, COUNT(*) AS jobs,
	COALESCE(SUM(j.progress_done), 0) AS done,
	COALESCE(SUM(COALESCE(j.progress_total, CASE WHEN j.price_per_output > 0
		THEN j.held_credits / j.price_per_output ELSE 0 END)), 0) AS total,
	COALESCE(SUM(j.held_credits), 0) AS held, COALESCE(SUM(j.charged_credits), 0) AS charged
FROM batch_items i JOIN jobs j ON j.id = i.job_id WHERE i.batch_id = ?
GROUP BY j.lifecycle, j.outcome, j.credit_type`, batchID).Scan(&out).Error
	return out, err
}

// BatchJobInputs are the admit inputs of a batch's jobs in item order, for
// starting their workflows (again); queuedOnly leaves out the jobs that
// have left the queue (their workflows run).
func BatchJobInputs(ctx context.Context, db *gorm.DB, batchID string, queuedOnly bool) ([]contract.JobInput, error) {
	var jobs []Job
	q := db.WithContext(ctx).Model(&Job{}).Joins("JOIN batch_items i ON i.job_id = jobs.id").
		Where("i.batch_id = ?", batchID)
	if queuedOnly {
		q = q.Where("jobs.lifecycle = ?", contract.LifecycleQueued)
	}
	err := q.Order("i.idx").Find(&jobs).Error
	if err != nil {
		return nil, err
	}
	out := make([]contract.JobInput, len(jobs))
	for i := range jobs {
		out[i] = jobs[i].AdmitInput()
	}
	return out, nil
}

// AdmitInput is the admit input of job j, as its submit sent it.
func (j *Job) AdmitInput() contract.JobInput {
	return contract.JobInput{JobID: j.ID, UserID: j.UserID, APIKeyID: j.APIKeyID, Task: j.Task, Input: []byte(j.Input),
		CreditType: j.CreditType, HeldCredits: j.HeldCredits, PricePerOutput: j.PricePerOutput,
		StartTimeoutSeconds: j.StartTimeoutSeconds, WebhookURL: j.WebhookURL, RequestID: j.RequestID,
		ServiceVersion: j.ServiceVersion}
}

// MarkBatchStarted records that every job of a batch has its workflow.
func MarkBatchStarted(ctx context.Context, db *gorm.DB, batchID string, now time.Time) error {
	return db.WithContext(ctx).Model(&Batch{}).Where("id = ? AND started_at IS NULL", batchID).
		Update("started_at", now).Error
}

// UnstartedBatches lists batches written before cutoff whose jobs are not
// all known started (their API process stopped part way), oldest first.
func UnstartedBatches(ctx context.Context, db *gorm.DB, cutoff time.Time, limit int) ([]Batch, error) {
	var out []Batch
	err := db.WithContext(ctx).Where("started_at IS NULL AND created_at < ?", cutoff).Order("created_at").
		Limit(limit).Find(&out).Error
	return out, err
}

// CompleteBatch is called when job jobID has ended: when it belongs to a
// batch whose every job has ended, the batch is marked completed by the
// first job to see it so. It answers the batch when jobID is the job that
// completed it (this call or an earlier one of the same job), and nil
// otherwise: only that job emits batch.completed.
func CompleteBatch(ctx context.Context, db *gorm.DB, jobID string, now time.Time) (*Batch, error) {
	db = db.WithContext(ctx)
	var item BatchItem
	err := db.Where("job_id = ?", jobID).Take(&item).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read batch item: %w", err)
	}
	var open int64
	if err := db.Raw(`SELECT COUNT(*) FROM batch_items i JOIN jobs j ON j.id = i.job_id
WHERE i.batch_id = ? AND j.lifecycle <> ?`, item.BatchID, contract.LifecycleTerminal).Scan(&open).Error; err != nil {
		return nil, fmt.Errorf("count open jobs: %w", err)
	}
	if open > 0 {
		return nil, nil
	}
	if err := db.Model(&Batch{}).Where("id = ? AND completed_at IS NULL", item.BatchID).
		Updates(map[string]any{"completed_at": now, "completed_by": jobID}).Error; err != nil {
		return nil, fmt.Errorf("complete batch: %w", err)
	}
	var b Batch
	if err := db.Take(&b, "id = ?", item.BatchID).Error; err != nil {
		return nil, fmt.Errorf("read batch: %w", err)
	}
	if b.CompletedBy != jobID {
		return nil, nil
	}
	return &b, nil
}

// BatchRecord reads batch b's record: its jobs' counts, outputs and credits
// and every job's state, under base (the status URL's).
func BatchRecord(ctx context.Context, db *gorm.DB, b *Batch, base string) (wire.Batch, error) {
	out := wire.Batch{BatchID: b.ID, Mode: b.Mode, Status: wire.BatchRunning, CreatedAt: b.CreatedAt.UTC(),
		Credits: []wire.BatchCredit{}, Jobs: []wire.BatchJob{}, Refused: []wire.RefusedItem{},
		StatusURL: base + "/v1/batches/" + b.ID}
	switch {
	case b.CompletedAt != nil:
		out.Status, out.CompletedAt = wire.BatchCompleted, new(b.CompletedAt.UTC())
	case b.StartedAt == nil:
		out.Status = wire.BatchStarting
	}
	if err := json.Unmarshal([]byte(b.Refused), &out.Refused); err != nil {
		return out, fmt.Errorf("batch %s refused items: %w", b.ID, err)
	}
	counts, err := BatchCounts(ctx, db, b.ID)
	if err != nil {
		return out, err
	}
	credits := map[string]int{}
	for _, c := range counts {
		out.Counts.Jobs += c.Jobs
		switch {
		case c.Lifecycle == contract.LifecycleQueued:
			out.Counts.Queued += c.Jobs
		case c.Lifecycle == contract.LifecycleRunning:
			out.Counts.Running += c.Jobs
		case c.Outcome != nil && *c.Outcome == contract.OutcomeSucceeded:
			out.Counts.Succeeded += c.Jobs
		case c.Outcome != nil && *c.Outcome == contract.OutcomeCancelled:
			out.Counts.Cancelled += c.Jobs
		default:
			out.Counts.Failed += c.Jobs
		}
		out.Outputs.Done += c.Done
		out.Outputs.Total += c.Total
		i, ok := credits[c.CreditType]
		if !ok {
			i = len(out.Credits)
			credits[c.CreditType] = i
			out.Credits = append(out.Credits, wire.BatchCredit{CreditType: c.CreditType})
		}
		out.Credits[i].Held += c.Held
		out.Credits[i].Charged += c.Charged
	}
	jobs, err := BatchJobs(ctx, db, b.ID)
	if err != nil {
		return out, err
	}
	for _, j := range jobs {
		out.Jobs = append(out.Jobs, wire.BatchJob{Index: j.Index, JobID: j.JobID, Task: j.Task, Lifecycle: j.Lifecycle,
			Outcome: j.Outcome})
	}
	return out, nil
}

// BatchOfJob is the batch job jobID belongs to; a job of no batch wraps
// ErrNotFound.
func BatchOfJob(ctx context.Context, db *gorm.DB, jobID string) (*Batch, error) {
	var b Batch
	err := db.WithContext(ctx).Joins("JOIN batch_items i ON i.batch_id = batches.id").
		Where("i.job_id = ?", jobID).Take(&b).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("batch of job %s: %w", jobID, ErrNotFound)
	}
	return &b, err
}
