package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/taskplatform/taskplatform/contract"
)

// The statuses of a record. A record is analysing (a kind whose job
// analyses it, such as a moodboard) or creating
// until the step that completes it writes ready; one whose job
// ended without completing it reads failed.
const (
	RecordAnalysing = "analysing"
	RecordCreating  = "creating"
	RecordReady     = "ready"
	RecordFailed    = "failed"
)

// CuratedUser owns the service's curated records and the files they show:
// no account has this id, every account reads them.
const CuratedUser uint64 = 0

// Record is one record an account keeps, made by a job of its task, or one
// of the service's curated records (UserID CuratedUser, no job) (migration
// 0006_records). Its kind is one a task family registers (tasks.RecordKind:
// a moodboard, a background, …); the table holds every kind alike.
type Record struct {
	ID     string `gorm:"primaryKey"`
	Kind   string `gorm:"not null;index:idx_records_owner,priority:2"`
	UserID uint64 `gorm:"not null;index:idx_records_owner,priority:1"`
	// JobID is the job that makes the record; one record per job.
	JobID  string `gorm:"not null;default:'';uniqueIndex:idx_records_job,where:job_id <> ''"`
	Name   string `gorm:"not null"`
	Status string `gorm:"not null"`
	// Fields is the record's JSON object: what the input said and what the
	// job computed.
	Fields string `gorm:"not null;default:'{}'"`
	// Analysis is the record's analysis (JSON; a moodboard's), empty until
	// it is ready or when its kind has none.
	Analysis string `gorm:"not null;default:''"`
	// PreviewFileID names the preview image of a curated record; a job's
	// record shows its job's first output.
	PreviewFileID string    `gorm:"not null;default:''"`
	CreatedAt     time.Time `gorm:"not null;index:idx_records_owner,priority:3"`
	UpdatedAt     time.Time
}

// Handle is the record's public reference, kind:id.
func (r *Record) Handle() string { return r.Kind + ":" + r.ID }

// Curated says whether the record is one of the service's curated records.
func (r *Record) Curated() bool { return r.UserID == CuratedUser }

// State is the record's status as read with its job (nil for a curated
// record): a record its job did not complete is failed once the job ended,
// with the reason the job gives.
func (r *Record) State(job *Job) (status, reason string) {
	if r.Status == RecordReady || r.Status == RecordFailed || job == nil ||
		job.Lifecycle != contract.LifecycleTerminal {
		return r.Status, ""
	}
	reason = "The job " + job.ID + " ended before the " + r.Kind + " was complete"
	if job.Error != nil {
		var e struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal([]byte(*job.Error), &e) == nil && e.Code != "" {
			reason += " (" + e.Code + ": " + e.Message + ")"
		}
	}
	return RecordFailed, reason + "."
}

// CreateRecord writes r once: a record with r's id, or of r's job, that
// exists already is kept as it is (a retried submit).
func CreateRecord(ctx context.Context, db *gorm.DB, r *Record, now time.Time) error {
	r.CreatedAt = now.UTC().Truncate(time.Microsecond)
	r.UpdatedAt = r.CreatedAt
	if err := db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(r).Error; err != nil {
		return fmt.Errorf("insert record: %w", err)
	}
	return nil
}

// visible keeps curated records and those whose job was admitted: a job
// refused its credits leaves no visible record.
func visible(q *gorm.DB) *gorm.DB {
	return q.Where("(records.job_id = '' OR EXISTS (SELECT 1 FROM jobs WHERE jobs.id = records.job_id))")
}

// ReadRecord reads a visible record of one kind that userID may read: its
// own or a curated one.
func ReadRecord(ctx context.Context, db *gorm.DB, userID uint64, kind, id string) (*Record, error) {
	var r Record
	err := visible(db.WithContext(ctx).Model(&Record{})).
		Where("records.id = ? AND records.kind = ? AND records.user_id IN ?", id, kind, []uint64{userID, CuratedUser}).
		Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("record %s:%s: %w", kind, id, ErrNotFound)
	}
	return &r, err
}

// RecordByJob reads the record a job makes.
func RecordByJob(ctx context.Context, db *gorm.DB, jobID string) (*Record, error) {
	var r Record
	err := db.WithContext(ctx).Take(&r, "job_id = ?", jobID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("record of job %s: %w", jobID, ErrNotFound)
	}
	return &r, err
}

// CompleteRecord marks a record ready with its fields and analysis; a
// record completed already is written again with the same values (a
// retried step).
func CompleteRecord(ctx context.Context, db *gorm.DB, id, fields, analysis string, now time.Time) error {
	err := db.WithContext(ctx).Model(&Record{}).Where("id = ?", id).
		Updates(map[string]any{"status": RecordReady, "fields": fields, "analysis": analysis, "updated_at": now.UTC()}).
		Error
	if err != nil {
		return fmt.Errorf("complete record %s: %w", id, err)
	}
	return nil
}

// RecordQuery selects the records of one kind of one owner.
type RecordQuery struct {
	// UserID owns the records; CuratedUser lists the curated library.
	UserID uint64
	Kind   string
	// WithCurated lists the curated library's records beside UserID's (the
	// model kind: base models and the account's saved styles).
	WithCurated bool
	// Text keeps records whose name contains it, ignoring case; Base keeps
	// those whose fields name it as their base (a model's saved styles).
	Text, Base string
	// After continues a listing; nil starts it.
	After *Position
	Limit int
}

// ListRecords lists the visible records of one kind and owner, newest first.
func ListRecords(ctx context.Context, db *gorm.DB, q RecordQuery) (Page[Record], error) {
	owners := []uint64{q.UserID}
	if q.WithCurated {
		owners = append(owners, CuratedUser)
	}
	tx := visible(
		db.WithContext(ctx).Model(&Record{}),
	).Where("records.user_id IN ? AND records.kind = ?", owners, q.Kind)
	if q.Text != "" {
		tx = tx.Where(`LOWER(records.name) LIKE ? ESCAPE '\'`, "%"+escapeLike(strings.ToLower(q.Text))+"%")
	}
	if q.Base != "" {
		tx = tx.Where(recordField(db, "base")+" = ?", q.Base)
	}
	return newestFirst(
		tx,
		q.After,
		q.Limit,
		textID,
		func(r *Record) Position { return Position{At: r.CreatedAt, ID: r.ID} },
	)
}

// RecordJobs reads the jobs of records (by job id) and the preview file of
// each record (by record id): a curated record's PreviewFileID, a job's
// first output.
func RecordJobs(ctx context.Context, db *gorm.DB, recs []Record) (map[string]*Job, map[string]*File, error) {
	jobs, previews := map[string]*Job{}, map[string]*File{}
	var jobIDs, fileIDs []string
	for _, r := range recs {
		if r.JobID != "" {
			jobIDs = append(jobIDs, r.JobID)
		}
		if r.PreviewFileID != "" {
			fileIDs = append(fileIDs, r.PreviewFileID)
		}
	}
	if len(jobIDs) > 0 {
		var rows []Job
		if err := db.WithContext(ctx).Where("id IN ?", jobIDs).Find(&rows).Error; err != nil {
			return nil, nil, fmt.Errorf("read record jobs: %w", err)
		}
		for i := range rows {
			jobs[rows[i].ID] = &rows[i]
		}
	}
	var files []File
	q := db.WithContext(ctx)
	switch {
	case len(jobIDs) > 0 && len(fileIDs) > 0:
		q = q.Where("(job_id IN ? AND idx = 0) OR id IN ?", jobIDs, fileIDs)
	case len(jobIDs) > 0:
		q = q.Where("job_id IN ? AND idx = 0", jobIDs)
	case len(fileIDs) > 0:
		q = q.Where("id IN ?", fileIDs)
	default:
		return jobs, previews, nil
	}
	if err := q.Find(&files).Error; err != nil {
		return nil, nil, fmt.Errorf("read record previews: %w", err)
	}
	byJob, byID := map[string]*File{}, map[string]*File{}
	for i := range files {
		byID[files[i].ID] = &files[i]
		if files[i].JobID != "" {
			byJob[files[i].JobID] = &files[i]
		}
	}
	for _, r := range recs {
		if f := byID[r.PreviewFileID]; r.PreviewFileID != "" && f != nil {
			previews[r.ID] = f
		} else if f := byJob[r.JobID]; r.JobID != "" && f != nil {
			previews[r.ID] = f
		}
	}
	return jobs, previews, nil
}

// PutRecordFile writes the row of a file a record shows (a look's stored
// copy, a curated record's image) once: its id is fixed by the record, so
// a retried step or a second seeding keeps the first row. Such files belong
// to CuratedUser (no account lists or deletes them) and download at their
// URL like every stored file.
func PutRecordFile(ctx context.Context, db *gorm.DB, f *File, now time.Time) error {
	f.UserID, f.JobID, f.SourceURL = CuratedUser, "", ""
	f.CreatedAt = now.UTC().Truncate(time.Microsecond)
	if err := db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(f).Error; err != nil {
		return fmt.Errorf("insert record file: %w", err)
	}
	return nil
}

// recordField is the SQL expression reading a string field of a record's
// JSON fields, in the database's dialect.
func recordField(db *gorm.DB, name string) string {
	if IsPostgres(db) {
		return "(records.fields::jsonb ->> '" + name + "')"
	}
	return "json_extract(records.fields, '$." + name + "')"
}
