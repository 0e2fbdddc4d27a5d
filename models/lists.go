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

// FirstOutputs lists, for each of jobIDs, its first n outputs in output
// order, and counts every output of each: a listing's thumbnails.
func FirstOutputs(ctx context.Context, db *gorm.DB, jobIDs []string, n int) (map[string][]File, map[string]int, error) {
	files, counts := map[string][]File{}, map[string]int{}
	if len(jobIDs) == 0 {
		return files, counts, nil
	}
	var rows []File
	err := db.WithContext(ctx).Where("job_id IN ? AND idx < ?", jobIDs, n).Order("job_id, idx").Find(&rows).Error
	if err != nil {
		return nil, nil, err
	}
	for _, f := range rows {
		files[f.JobID] = append(files[f.JobID], f)
	}
	var tally []struct {
		JobID string
		N     int
	}
	err = db.WithContext(ctx).Model(&File{}).Select("job_id, count(*) AS n").Where("job_id IN ?", jobIDs).
		Group("job_id").Scan(&tally).Error
	for _, c := range tally {
		counts[c.JobID] = c.N
	}
	return files, counts, err
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
