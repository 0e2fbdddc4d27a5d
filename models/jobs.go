package models

import (
	"context"
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

// JobRow is the job row an admit writes for in.
func JobRow(in contract.JobInput) *Job {
	return &Job{ID: in.JobID, UserID: in.UserID, APIKeyID: in.APIKeyID, Task: in.Task, Input: string(in.Input),
		CreditType: in.CreditType, HeldCredits: in.HeldCredits, PricePerOutput: in.PricePerOutput,
		StartTimeoutSeconds: in.StartTimeoutSeconds, WebhookURL: in.WebhookURL, RequestID: in.RequestID,
		ServiceVersion: in.ServiceVersion, Phase: "queued"}
}
