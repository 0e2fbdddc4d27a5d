package models

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
)

// JobPage is one page of a job listing; Next is the position after it.
type JobPage struct {
	Jobs []Job
	Next string
}

// ListJobs lists a user's jobs newest first from position after (empty: the
// start), optionally only those of one key.
func ListJobs(ctx context.Context, db *gorm.DB, userID uint64, keyID, after string, limit int) (JobPage, error) {
	q := db.WithContext(ctx).Where("user_id = ?", userID)
	if keyID != "" {
		q = q.Where("api_key_id = ?", keyID)
	}
	if after != "" {
		ts, id, ok := strings.Cut(after, "|")
		nanos, err := strconv.ParseInt(ts, 10, 64)
		if !ok || err != nil {
			return JobPage{}, fmt.Errorf("bad position %q: %w", after, ErrNotFound)
		}
		at := time.Unix(0, nanos).UTC()
		q = q.Where("created_at < ? OR (created_at = ? AND id < ?)", at, at, id)
	}
	var jobs []Job
	if err := q.Order("created_at DESC").Order("id DESC").Limit(limit + 1).Find(&jobs).Error; err != nil {
		return JobPage{}, err
	}
	page := JobPage{Jobs: jobs}
	if len(jobs) > limit {
		page.Jobs = jobs[:limit]
		last := page.Jobs[limit-1]
		page.Next = strconv.FormatInt(last.CreatedAt.UnixNano(), 10) + "|" + last.ID
	}
	return page, nil
}

// JobFiles lists a job's files in output order after index after (-1: from
// the first), at most limit, and says whether more follow.
func JobFiles(ctx context.Context, db *gorm.DB, jobID string, after, limit int) ([]File, bool, error) {
	var files []File
	err := db.WithContext(ctx).Where("job_id = ? AND idx > ?", jobID, after).Order("idx").Limit(limit + 1).Find(&files).Error
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
