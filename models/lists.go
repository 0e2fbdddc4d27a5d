package models

import (
	"context"
	"fmt"

	"gorm.io/gorm"
)

// ListJobs lists a user's jobs newest first from after (nil: the start),
// optionally only those of one key.
func ListJobs(
	ctx context.Context,
	db *gorm.DB,
	userID uint64,
	keyID string,
	after *Position,
	limit int,
) (Page[Job], error) {
	q := db.WithContext(ctx).Where("user_id = ?", userID)
	if keyID != "" {
		q = q.Where("api_key_id = ?", keyID)
	}
	return newestFirst(q, after, limit, textID, func(j *Job) Position { return Position{At: j.CreatedAt, ID: j.ID} })
}

// JobFiles lists a job's files in output order after index after (-1: from
// the first), at most limit, and says whether more follow.
func JobFiles(ctx context.Context, db *gorm.DB, jobID string, after, limit int) ([]File, bool, error) {
	var files []File
	err := db.WithContext(ctx).
		Where("job_id = ? AND idx > ?", jobID, after).
		Order("idx").
		Limit(limit + 1).
		Find(&files).
		Error
	if err != nil {
		return nil, false, err
	}
	if len(files) > limit {
		return files[:limit], true, nil
	}
	return files, false, nil
}

// FileByID reads a live file by id.
func FileByID(ctx context.Context, db *gorm.DB, id string) (*File, error) {
	var f File
	err := db.WithContext(ctx).Take(&f, "id = ?", id).Error
	if err == gorm.ErrRecordNotFound {
		return nil, fmt.Errorf("file %s: %w", id, ErrNotFound)
	}
	return &f, err
}

// DeliveredFiles reads every output job jobID delivered, in the task's
// order, deleted ones too: what a job's manifest signs.
func DeliveredFiles(ctx context.Context, db *gorm.DB, jobID string) ([]File, error) {
	var files []File
	err := db.WithContext(ctx).Unscoped().Where("job_id = ?", jobID).Order("idx").Find(&files).Error
	if err != nil {
		return nil, fmt.Errorf("read delivered files: %w", err)
	}
	return files, nil
}
