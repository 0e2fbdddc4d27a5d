package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/taskplatform/taskplatform/contract"
)

// Job is the projection of one job workflow, kept current by its activities.
type Job struct {
	ID                  string `gorm:"primaryKey"`
	UserID              uint64 `gorm:"not null;index:idx_jobs_user_created,priority:1"`
	APIKeyID            string `gorm:"not null;default:''"`
	Task                string `gorm:"not null;index"`
	Input               string `gorm:"not null"`
	Lifecycle           string `gorm:"not null"`
	Outcome             *string
	ProgressDone        int    `gorm:"not null;default:0"`
	ProgressTotal       *int   `gorm:"default:null"`
	Phase               string `gorm:"not null;default:''"`
	Error               *string
	Summary             *string
	CreditType          string `gorm:"not null"`
	HeldCredits         int64  `gorm:"not null"`
	PricePerOutput      int64  `gorm:"not null"`
	ChargedCredits      int64  `gorm:"not null;default:0"`
	StartTimeoutSeconds int    `gorm:"not null;default:0"`
	WebhookURL          string `gorm:"not null;default:''"`
	RequestID           string `gorm:"not null;default:''"`
	ServiceVersion      string `gorm:"not null;default:''"`
	// HoldBatches are the parts of the hold taken from each credit batch,
	// in spend order (migration 0013): settlement charges them and gives
	// the rest back to them, whether or not a batch has expired since.
	HoldBatches []HeldBatch `gorm:"type:text;serializer:json;not null;default:''"`
	// Pending marks a job whose handle was answered before its admit
	// decided: the row is visible as queued and holds nothing yet; the admit
	// holds its credits or fails it insufficient_credits (migration 0005).
	Pending bool `gorm:"not null;default:false"`
	// AdmittedAt is when the job's workflow admitted it (Admit): from then
	// on its workflow runs it. A batch's job is written with its hold but
	// nil here until its batch starts its workflow; until then a cancel
	// ends it in the store (CancelUnadmitted) and it never runs, and the
	// queue does not count it ahead of admitted jobs (migration 0020).
	AdmittedAt *time.Time
	SettledAt  *time.Time
	StartedAt  *time.Time
	EndedAt    *time.Time
	CreatedAt  time.Time `gorm:"not null;index:idx_jobs_user_created,priority:2"`
	UpdatedAt  time.Time
}

// File is one output a job delivered (an art: handle, JobID set), or a file
// of the caller's (a file: handle, JobID empty): uploaded bytes (BlobKey
// set) or a registered public URL (SourceURL set, no bytes stored).
type File struct {
	ID     string `gorm:"primaryKey"`
	UserID uint64 `gorm:"not null;index;uniqueIndex:idx_files_user_source,priority:1,where:source_url <> ''"`
	JobID  string `gorm:"not null;default:'';uniqueIndex:idx_files_job_index,where:job_id <> ''"`
	Index  int    `gorm:"column:idx;not null;default:0;uniqueIndex:idx_files_job_index,where:job_id <> ''"`
	Task   string `gorm:"not null;default:''"`
	// MediaType is empty for a registered URL (its bytes are not read yet).
	MediaType string `gorm:"not null"`
	BlobKey   string `gorm:"not null"`
	Size      int64  `gorm:"not null"`
	// SHA256 is the lowercase hex SHA-256 of the stored bytes, written with
	// them (migration 0015); empty for a registered URL and for rows stored
	// before it.
	SHA256 string `gorm:"column:sha256;not null;default:''"`
	Data   string `gorm:"not null;default:'{}'"`
	// SourceURL is the public https address of a registered URL; a user
	// registers one address once (migration 0004_files).
	SourceURL string `gorm:"not null;default:'';uniqueIndex:idx_files_user_source,priority:2,where:source_url <> ''"`
	// ExternalID is the caller's own id of a file: handle, or empty.
	ExternalID string `gorm:"not null;default:''"`
	// Name is an upload's file name as its multipart part sent it,
	// sanitised (migration 0023); empty for a registered URL, an output
	// and an upload stored before names were kept.
	Name      string `gorm:"not null;default:''"`
	CreatedAt time.Time
	DeletedAt gorm.DeletedAt `gorm:"index"`
}

// AdmitRefusal is a hold the balance does not cover, or (Limit set) one
// that would pass a spend limit. Visible is true when the job's handle had
// already been answered: the row now says the job failed
// insufficient_credits (or spend_limit_reached).
type AdmitRefusal struct {
	Required, Balance int64
	Visible           bool
	// Limit is the spend limit the hold would pass; nil when the balance
	// did not cover it.
	Limit *contract.SpendLimitHit
}

// Error implements error.
func (r *AdmitRefusal) Error() string {
	if r.Limit != nil {
		return fmt.Sprintf("spend limit reached: %s %s limit %d, spent %d, required %d", r.Limit.Scope,
			r.Limit.Period, r.Limit.Limit, r.Limit.Spent, r.Required)
	}
	return fmt.Sprintf("insufficient credits: required %d, balance %d", r.Required, r.Balance)
}

// RefusedAdmit remembers a job id that will never be admitted, so a
// retried admit answers the same refusal and a late handle for it (PendJob)
// learns the job will never run (migration 0005). Expired marks a job whose
// admission was closed before any admit decided (its workflow gave up, or
// its late admit was ended by the sweep or a cancel: CloseAdmission,
// EndLateJob); otherwise the balance did not cover Required.
type RefusedAdmit struct {
	JobID    string `gorm:"primaryKey"`
	UserID   uint64 `gorm:"not null"`
	Expired  bool   `gorm:"not null;default:false"`
	Required int64  `gorm:"not null"`
	Balance  int64  `gorm:"not null"`
	// SpendLimit is the JSON of the contract.SpendLimitHit that refused
	// the job; empty for a refusal of the balance (migration
	// 0017_spend_limits).
	SpendLimit string `gorm:"not null;default:''"`
	CreatedAt  time.Time
}

// refusal is the refusal the tombstone records.
func (r *RefusedAdmit) refusal(visible bool) *AdmitRefusal {
	out := &AdmitRefusal{Required: r.Required, Balance: r.Balance, Visible: visible}
	if r.SpendLimit != "" {
		var hit contract.SpendLimitHit
		if json.Unmarshal([]byte(r.SpendLimit), &hit) == nil {
			out.Limit = &hit
		}
	}
	return out
}

// Admit writes the job row (queued) and its credit hold in one transaction,
// with the user's row locked so concurrent admits cannot overdraw: the hold
// takes its credits out of the live batches in spend order and the row
// records which (HoldBatches), one hold entry per batch. Admitting
// a job id that was admitted returns the existing row, and one that was
// refused returns the same refusal: a retried admit decides once. A pending
// row (PendJob) is admitted in place, or failed insufficient_credits with
// refusedError(refusal) as its error object (nil: no object).
//
// Under the same lock it enforces the account's and the job's key's spend
// limits (checkSpend): a hold that would pass one is refused like one the
// balance does not cover (AdmitRefusal.Limit set), and an admitted hold
// records the limit thresholds it reaches (markThresholds), once per
// period; a refused one records the 100 % of the limit that refused it
// (markLimitReached), for its admit to send like the others.
func Admit(
	ctx context.Context,
	db *gorm.DB,
	job *Job,
	now time.Time,
	refusedError func(r *AdmitRefusal) []byte,
) (*Job, error) {
	var out *Job
	var refusal *AdmitRefusal
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, job.UserID); err != nil {
			return err
		}
		st, err := readAdmitState(tx, job, now)
		if err != nil {
			return err
		}
		if st.Expired != nil && *st.Expired {
			return ErrAdmissionClosed
		}
		if st.Expired != nil {
			// Refused before: the same refusal, visible when the job's row
			// was written (its handle had been answered).
			refusal = (&RefusedAdmit{Required: deref(st.Required), Balance: deref(st.Balance),
				SpendLimit: st.SpendLimit}).refusal(st.Found)
			return nil
		}
		var existing Job
		if st.Found {
			if err := tx.Take(&existing, "id = ?", job.ID).Error; err != nil {
				return err
			}
			if !existing.Pending {
				// A batch's job: written with its hold, admitted now by
				// its workflow's first admit.
				if existing.AdmittedAt == nil {
					existing.AdmittedAt = &now
					if err := tx.Model(&Job{}).Where("id = ?", job.ID).Update("admitted_at", now).Error; err != nil {
						return fmt.Errorf("admit batch job: %w", err)
					}
				}
				out = &existing
				return nil
			}
			// The admit decides a late job: its intent is done.
			if err := tx.Delete(&LateAdmit{}, "job_id = ?", job.ID).Error; err != nil {
				return fmt.Errorf("drop late admit: %w", err)
			}
		}
		found := st.Found
		if job.HeldCredits > 0 && st.Available < job.HeldCredits {
			refusal = &AdmitRefusal{Required: job.HeldCredits, Balance: max(st.Available, 0), Visible: found}
			return refuse(tx, job, refusal, refusedError, now)
		}
		over, limits, err := checkSpend(tx, job, now)
		if err != nil {
			return err
		}
		if over != nil {
			refusal = &AdmitRefusal{Required: job.HeldCredits, Balance: max(st.Available, 0), Visible: found,
				Limit: over.hit(job.HeldCredits, now)}
			if err := refuse(tx, job, refusal, refusedError, now); err != nil {
				return err
			}
			return markLimitReached(tx, &over.limit, job.ID, over.spent, now)
		}
		// The hold takes its credits out of the batches now, so settlement
		// charges the batches it reserved even if they expire meanwhile.
		var holds []LedgerEntry
		job.HoldBatches, holds, err = hold(tx, job.UserID, job.CreditType, job.ID, job.HeldCredits, now)
		if err != nil {
			return err
		}
		job.Lifecycle = contract.LifecycleQueued
		job.Pending = false
		job.AdmittedAt = &now
		if found {
			job.CreatedAt = existing.CreatedAt
			if err := tx.Select("*").Omit("created_at").Where("id = ?", job.ID).Updates(job).Error; err != nil {
				return fmt.Errorf("admit pending job: %w", err)
			}
		} else {
			job.CreatedAt = now
			if err := tx.Create(job).Error; err != nil {
				return fmt.Errorf("insert job: %w", err)
			}
		}
		if len(holds) > 0 {
			if err := tx.Create(&holds).Error; err != nil {
				return fmt.Errorf("write hold: %w", err)
			}
		}
		if err := markThresholds(tx, job, limits, now); err != nil {
			return err
		}
		out = job
		return nil
	})
	if err == nil && refusal != nil {
		return nil, refusal
	}
	return out, err
}

// admitState is what Admit reads under the account's lock, in one
// statement (one snapshot, one round trip): the job id's refusal
// tombstone (Expired is nil without one), whether a row exists for it, and
// what the account can hold.
type admitState struct {
	Expired           *bool
	Required, Balance *int64
	SpendLimit        string
	Found             bool
	Available         int64
}

func readAdmitState(tx *gorm.DB, job *Job, now time.Time) (admitState, error) {
	var st admitState
	err := tx.Raw(`SELECT r.expired AS expired, r.required AS required, r.balance AS balance,
	COALESCE(r.spend_limit, '') AS spend_limit, EXISTS (SELECT 1 FROM jobs WHERE id = ?) AS found,
	(`+availableSQL+`) AS available
FROM (SELECT 1 AS one) AS o LEFT JOIN refused_admits r ON r.job_id = ?`,
		job.ID, job.UserID, job.CreditType, now, job.ID).Scan(&st).Error
	if err != nil {
		return st, fmt.Errorf("read admission: %w", err)
	}
	return st, nil
}

func deref(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// refuse records the refusal r of job: a tombstone, and for a visible
// (pending) job its terminal failed state.
func refuse(
	tx *gorm.DB,
	job *Job,
	r *AdmitRefusal,
	refusedError func(r *AdmitRefusal) []byte,
	now time.Time,
) error {
	tombstone := RefusedAdmit{JobID: job.ID, UserID: job.UserID, Required: r.Required, Balance: r.Balance,
		CreatedAt: now}
	if r.Limit != nil {
		b, err := json.Marshal(r.Limit)
		if err != nil {
			return err
		}
		tombstone.SpendLimit = string(b)
	}
	if err := tx.Create(&tombstone).Error; err != nil {
		return fmt.Errorf("record refusal: %w", err)
	}
	if r.Visible {
		upd := map[string]any{
			"pending":        false,
			"lifecycle":      contract.LifecycleTerminal,
			"outcome":        contract.OutcomeFailed,
			"settled_at":     now,
			"ended_at":       now,
			"updated_at":     now,
			"progress_total": 0,
		}
		if refusedError != nil {
			upd["error"] = string(refusedError(r))
		}
		if err := tx.Model(&Job{}).Where("id = ?", job.ID).Updates(upd).Error; err != nil {
			return fmt.Errorf("fail pending job: %w", err)
		}
	}
	return nil
}

// PendState is what PendJob found.
type PendState int

// The states of PendJob.
const (
	// PendAdmitted: the admit wrote the job first; answer it.
	PendAdmitted PendState = iota
	// PendWritten: the job row is pending; the admit will decide it.
	PendWritten
	// PendRefused: the admit refused the job; nothing runs or is held.
	PendRefused
	// PendClosed: the job's workflow gave up before admitting it; nothing
	// runs or is held.
	PendClosed
)

// ErrAdmissionClosed is an admit of a job whose workflow already gave up.
var ErrAdmissionClosed = errors.New("the job's admission is closed")

// PendJob makes a job whose admit has not answered in time visible: under
// the user's lock (so it orders with Admit) it writes job as a pending
// queued row, with the durable intent of its admit (a LateAdmit on queue,
// due at once), unless the admit already admitted or refused that id.
func PendJob(ctx context.Context, db *gorm.DB, job *Job, queue string,
	now time.Time) (PendState, *AdmitRefusal, error) {
	state, refusal := PendAdmitted, (*AdmitRefusal)(nil)
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, job.UserID); err != nil {
			return err
		}
		var refused RefusedAdmit
		err := tx.Take(&refused, "job_id = ?", job.ID).Error
		if err == nil && refused.Expired {
			state = PendClosed
			return nil
		}
		if err == nil {
			state, refusal = PendRefused, refused.refusal(false)
			return nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		var n int64
		if err := tx.Model(&Job{}).Where("id = ?", job.ID).Count(&n).Error; err != nil || n > 0 {
			return err
		}
		row := *job
		row.Pending, row.Lifecycle, row.HeldCredits, row.CreatedAt = true, contract.LifecycleQueued, 0, now
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("insert pending job: %w", err)
		}
		intent := LateAdmit{JobID: job.ID, UserID: job.UserID, Queue: queue, Held: job.HeldCredits,
			NextAt: now.UTC(), CreatedAt: now.UTC()}
		if err := tx.Create(&intent).Error; err != nil {
			return fmt.Errorf("insert late admit: %w", err)
		}
		state = PendWritten
		return nil
	})
	return state, refusal, err
}

// CloseAdmission ends a job whose workflow gave up without an admit
// decision: no later PendJob or Admit can open it, and a row written for it
// (pending, or admitted by an admit whose answer was lost) is settled
// failed with failure as its error, releasing any hold; a late job's
// terminal event is left to the sweep (LateAdmit.Ended). It is idempotent.
func CloseAdmission(
	ctx context.Context,
	db *gorm.DB,
	jobID string,
	userID uint64,
	failure []byte,
	now time.Time,
) error {
	var settle bool
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		if err := closeAdmission(tx, jobID, userID, now); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&Job{}).Where("id = ? AND settled_at IS NULL", jobID).Count(&n).Error; err != nil {
			return err
		}
		if settle = n > 0; settle {
			return markEnded(tx, jobID, contract.OutcomeFailed, now)
		}
		return nil
	})
	if err != nil || !settle {
		return err
	}
	_, _, err = Settle(ctx, db, jobID, Settlement{Outcome: contract.OutcomeFailed, Error: failure}, now)
	return err
}

// closeAdmission writes the tombstone of a job whose admission is closed:
// a later Admit answers ErrAdmissionClosed and PendJob PendClosed.
func closeAdmission(tx *gorm.DB, jobID string, userID uint64, now time.Time) error {
	tombstone := RefusedAdmit{JobID: jobID, UserID: userID, Expired: true, CreatedAt: now}
	err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&tombstone).Error
	if err != nil {
		return fmt.Errorf("close admission: %w", err)
	}
	return nil
}

// lockUser locks the user's row: every change of a user's balance or jobs'
// admission takes it first, so they see one order.
func lockUser(tx *gorm.DB, userID uint64) error {
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&User{}, userID).Error; err != nil {
		return fmt.Errorf("lock user: %w", err)
	}
	return nil
}

// JobByID reads one job of a user.
func JobByID(ctx context.Context, db *gorm.DB, userID uint64, id string) (*Job, error) {
	var j Job
	err := db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&j).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("job %s: %w", id, ErrNotFound)
	}
	return &j, err
}

// JobByIDAny reads one job whatever its owner (worker side).
func JobByIDAny(ctx context.Context, db *gorm.DB, id string) (*Job, error) {
	var j Job
	err := db.WithContext(ctx).Take(&j, "id = ?", id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("job %s: %w", id, ErrNotFound)
	}
	return &j, err
}

// MarkRunning moves a queued job to running with its planned total.
func MarkRunning(ctx context.Context, db *gorm.DB, id string, total int, phase string, now time.Time) error {
	return db.WithContext(ctx).Model(&Job{}).Where("id = ? AND lifecycle = ?", id, contract.LifecycleQueued).
		Updates(map[string]any{"lifecycle": contract.LifecycleRunning, "progress_total": total, "phase": phase,
			"started_at": now, "updated_at": now}).
		Error
}

// AddOutput records output i of a job exactly once and raises progress to
// the number of outputs delivered. A repeated call for the same index keeps
// the first file and returns it. It needs no transaction: the insert
// decides which file is the output, and progress is recounted from the
// files, so a repeat after a crash between the two writes repairs it.
func AddOutput(ctx context.Context, db *gorm.DB, f *File, now time.Time) (*File, error) {
	db = db.WithContext(ctx)
	f.CreatedAt = now
	res := db.Clauses(clause.OnConflict{DoNothing: true}).Create(f)
	if res.Error != nil {
		return nil, fmt.Errorf("insert file: %w", res.Error)
	}
	out := f
	if res.RowsAffected == 0 {
		out = &File{}
		if err := db.Unscoped().Where("job_id = ? AND idx = ?", f.JobID, f.Index).Take(out).Error; err != nil {
			return nil, err
		}
	}
	// Outputs of one job are recorded side by side: the larger of the two
	// keeps progress_done rising when a count taken earlier is written later
	// (a CASE, as SQLite has no GREATEST).
	delivered := db.Unscoped().Model(&File{}).Select("count(*)").Where("job_id = ?", f.JobID)
	err := db.Model(&Job{}).Where("id = ? AND lifecycle <> ?", f.JobID, contract.LifecycleTerminal).
		Updates(map[string]any{"progress_done": gorm.Expr(
			"CASE WHEN progress_done > (?) THEN progress_done ELSE (?) END", delivered, delivered),
			"lifecycle": contract.LifecycleRunning, "updated_at": now}).
		Error
	return out, err
}

// Delivered counts the outputs a job delivered (deleted ones included: they
// were delivered and are charged).
func Delivered(ctx context.Context, db *gorm.DB, jobID string) (int64, error) {
	var n int64
	err := db.WithContext(ctx).Unscoped().Model(&File{}).Where("job_id = ?", jobID).Count(&n).Error
	return n, err
}

// Settlement is how a job ended.
type Settlement struct {
	Outcome string
	// Error is the public error object of a failed or cancelled job.
	Error json.RawMessage
	// Summary is the result summary (requested, delivered, warnings) when
	// the task has counts or warnings to report.
	Summary json.RawMessage
}

// Settle ends a job exactly once: it charges price × delivered (never above
// the hold) from the batches its hold took, in the order it took them
// (expiry order), gives the rest back to them, and writes the terminal
// state. A second call returns the settled row unchanged and first false.
// It locks the job's row, not the account's: a settlement never lowers
// what the account can hold (see Available), and two settlements giving
// credits back to the same batch queue on the batch's row.
func Settle(
	ctx context.Context,
	db *gorm.DB,
	jobID string,
	s Settlement,
	now time.Time,
) (job *Job, first bool, err error) {
	done, err := SettleWithAccount(ctx, db, jobID, s, now)
	return done.Job, done.First, err
}

// Settled is a job Settle ended: its row as settled, whether this call
// settled it, and the contract version its account is pinned to (empty:
// none), read with the row, so its terminal event reads neither again.
type Settled struct {
	Job            *Job
	First          bool
	AccountVersion string
}

// SettleWithAccount is Settle answering the account's pinned version too.
func SettleWithAccount(ctx context.Context, db *gorm.DB, jobID string, s Settlement, now time.Time) (Settled,
	error) {
	var out settleRow
	var first bool
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		out, first, err = settle(tx, jobID, s, now)
		return err
	})
	return Settled{Job: &out.Job, First: first, AccountVersion: out.AccountVersion}, err
}

// settle is Settle inside transaction tx.
func settle(tx *gorm.DB, jobID string, s Settlement, now time.Time) (row settleRow, first bool, err error) {
	row, err = lockForSettle(tx, jobID)
	if err != nil {
		return row, false, err
	}
	out := &row.Job
	if out.SettledAt != nil {
		return row, false, nil
	}
	delivered := row.Delivered
	charged, entries, err := settleHold(tx, out, min(out.PricePerOutput*delivered, out.HeldCredits))
	if err != nil {
		return row, false, fmt.Errorf("charge: %w", err)
	}
	if len(entries) > 0 {
		if err := tx.Create(&entries).Error; err != nil {
			return row, false, fmt.Errorf("write release and charges: %w", err)
		}
	}
	upd := map[string]any{
		"settled_at":      now,
		"charged_credits": charged,
		"lifecycle":       contract.LifecycleTerminal,
		"outcome":         s.Outcome,
		"ended_at":        now,
		"updated_at":      now,
		"progress_done":   delivered,
		"pending":         false,
	}
	if present(s.Error) {
		upd["error"] = string(s.Error)
	}
	if present(s.Summary) {
		upd["summary"] = string(s.Summary)
	}
	if out.ProgressTotal == nil {
		upd["progress_total"] = delivered
	}
	return row, true, tx.Model(out).Clauses(clause.Returning{}).Updates(upd).Error
}

// settleRow is a job's row and the outputs it delivered (deleted ones
// included: they were delivered and are charged), with the contract
// version its account is pinned to.
type settleRow struct {
	Job
	Delivered      int64
	AccountVersion string
}

// lockForSettle reads and locks a job's row with its delivered count in
// one round trip. No output is recorded while a job settles: its workflow
// settles after its last step ended.
func lockForSettle(tx *gorm.DB, jobID string) (settleRow, error) {
	q := "SELECT jobs.*, (SELECT COUNT(*) FROM files WHERE files.job_id = jobs.id) AS delivered, " +
		"COALESCE((SELECT service_version FROM users WHERE users.id = jobs.user_id), '') AS account_version " +
		"FROM jobs WHERE jobs.id = ?"
	if IsPostgres(tx) {
		q += " FOR UPDATE OF jobs"
	}
	var row settleRow
	res := tx.Raw(q, jobID).Scan(&row)
	if res.Error != nil {
		return row, fmt.Errorf("lock job: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return row, fmt.Errorf("lock job %s: %w", jobID, ErrNotFound)
	}
	return row, nil
}

// present says whether a JSON value carries something other than null.
func present(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }

// PublicPhase is progress.phase as answered: queued, the task's phase while
// running, done once ended.
func (j *Job) PublicPhase() string {
	switch {
	case j.Lifecycle == contract.LifecycleQueued:
		return contract.LifecycleQueued
	case j.Lifecycle == contract.LifecycleTerminal:
		return "done"
	case j.Phase != "":
		return j.Phase
	}
	return "running"
}

// extensions maps the media types outputs and uploads have to their file
// extension: the one list a delivered file's URL and download name are
// named from, so a swatch file or a video opens in its program as delivered.
var extensions = map[string]string{
	"image/png":                  "png",
	"text/plain":                 "txt",
	"image/svg+xml":              "svg",
	"image/jpeg":                 "jpg",
	"application/json":           "json",
	"image/webp":                 "webp",
	"image/gif":                  "gif",
	"image/bmp":                  "bmp",
	"application/pdf":            "pdf",
	"video/mp4":                  "mp4",
	"video/webm":                 "webm",
	"application/x-adobe-ase":    "ase",
	"application/x-gimp-palette": "gpl",
}

// Extension is the file extension (no dot) a file of mediaType is named
// with; false for a type no output or upload has (named .bin).
func Extension(mediaType string) (string, bool) {
	ext, ok := extensions[mediaType]
	return ext, ok
}

// URL is the file's public download address under base; a registered URL's
// address is its source.
func (f *File) URL(base string) string {
	if f.SourceURL != "" {
		return f.SourceURL
	}
	ext, ok := extensions[f.MediaType]
	if !ok {
		ext = "bin"
	}
	return base + "/files/" + f.ID + "." + ext
}

// ThumbKey is the bucket key of the file's small copy shown by the panel,
// of type ext (png for an image, svg for a PDF's icon); deleting the file
// deletes its ThumbKeys too.
func (f *File) ThumbKey(ext string) string { return "thumbs/" + f.ID + "." + ext }

// ThumbKeys are the bucket keys a small copy of the file may be kept at.
func (f *File) ThumbKeys() []string { return []string{f.ThumbKey("png"), f.ThumbKey("svg")} }

// Kind is the handle kind of the file: art for a job's output, file for an
// upload or a registered URL.
func (f *File) Kind() string {
	if f.JobID != "" {
		return "art"
	}
	return "file"
}

// Handle is the file's public reference, kind:id.
func (f *File) Handle() string { return f.Kind() + ":" + f.ID }

// JobRow is the job row an admit writes for in.
func JobRow(in contract.JobInput) *Job {
	return &Job{ID: in.JobID, UserID: in.UserID, APIKeyID: in.APIKeyID, Task: in.Task, Input: string(in.Input),
		CreditType: in.CreditType, HeldCredits: in.HeldCredits, PricePerOutput: in.PricePerOutput,
		StartTimeoutSeconds: in.StartTimeoutSeconds, WebhookURL: in.WebhookURL, RequestID: in.RequestID,
		ServiceVersion: in.ServiceVersion, Phase: "queued"}
}
