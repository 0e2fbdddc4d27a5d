package models

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrBadPosition means a listing position (a decoded cursor) does not parse.
var ErrBadPosition = errors.New("bad listing position")

// CreateUpload writes the row of uploaded bytes (a file: handle); the
// caller has stored the bytes at f.BlobKey. CreatedAt is kept to the
// microsecond, as PostgreSQL stores it, so f reads the same as the row.
func CreateUpload(ctx context.Context, db *gorm.DB, f *File, now time.Time) error {
	f.JobID, f.SourceURL, f.CreatedAt = "", "", now.UTC().Truncate(time.Microsecond)
	if err := db.WithContext(ctx).Create(f).Error; err != nil {
		return fmt.Errorf("insert upload: %w", err)
	}
	return nil
}

// RegisterURL records a public URL for a user once: the first call writes f
// and reports created; later calls with the same f.SourceURL (exact string)
// return the first row unchanged, concurrent ones included.
func RegisterURL(ctx context.Context, db *gorm.DB, f *File, now time.Time) (*File, bool, error) {
	if f.SourceURL == "" {
		return nil, false, errors.New("register URL: empty source URL")
	}
	f.JobID, f.BlobKey, f.Size, f.CreatedAt = "", "", 0, now.UTC().Truncate(time.Microsecond)
	var out File
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(f).Error; err != nil {
			return fmt.Errorf("insert registered URL: %w", err)
		}
		return tx.Where("user_id = ? AND source_url = ?", f.UserID, f.SourceURL).Take(&out).Error
	})
	if err != nil {
		return nil, false, err
	}
	return &out, out.ID == f.ID, nil
}

// UserFile reads a live file of a user by id.
func UserFile(ctx context.Context, db *gorm.DB, userID uint64, id string) (*File, error) {
	var f File
	err := db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&f).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("file %s: %w", id, ErrNotFound)
	}
	return &f, err
}

// FilePosition is where a file listing continues: after the file created at
// At with id ID, in newest-first order.
type FilePosition struct {
	At time.Time
	ID string
}

// String writes the position for a cursor.
func (p FilePosition) String() string {
	return strconv.FormatInt(p.At.UnixNano(), 10) + "|" + p.ID
}

// ParseFilePosition reads a position written by FilePosition.String; other
// text fails with ErrBadPosition.
func ParseFilePosition(s string) (FilePosition, error) {
	ts, id, ok := strings.Cut(s, "|")
	nanos, err := strconv.ParseInt(ts, 10, 64)
	if !ok || err != nil || id == "" {
		return FilePosition{}, fmt.Errorf("%w: %q", ErrBadPosition, s)
	}
	return FilePosition{At: time.Unix(0, nanos).UTC(), ID: id}, nil
}

// FileQuery selects one user's files of one kind.
type FileQuery struct {
	UserID uint64
	// Outputs lists files jobs delivered (art:); false lists the user's own
	// uploads and registered URLs (file:).
	Outputs bool
	// Text keeps files whose external id or source URL contains it, ignoring
	// case; empty keeps every file.
	Text string
	// After continues a listing; nil starts it.
	After *FilePosition
	Limit int
}

// FilePage is one page of a file listing; Next is set when more follow.
type FilePage struct {
	Files []File
	Next  *FilePosition
}

// ListFiles lists a user's live files of one kind, newest first.
func ListFiles(ctx context.Context, db *gorm.DB, q FileQuery) (FilePage, error) {
	tx := db.WithContext(ctx).Where("user_id = ?", q.UserID)
	if q.Outputs {
		tx = tx.Where("job_id <> ''")
	} else {
		tx = tx.Where("job_id = ''")
	}
	if q.Text != "" {
		pat := "%" + escapeLike(strings.ToLower(q.Text)) + "%"
		tx = tx.Where(`(LOWER(external_id) LIKE ? ESCAPE '\' OR LOWER(source_url) LIKE ? ESCAPE '\')`, pat, pat)
	}
	if q.After != nil {
		tx = tx.Where("(created_at < ? OR (created_at = ? AND id < ?))", q.After.At, q.After.At, q.After.ID)
	}
	var files []File
	if err := tx.Order("created_at DESC").Order("id DESC").Limit(q.Limit + 1).Find(&files).Error; err != nil {
		return FilePage{}, err
	}
	page := FilePage{Files: files}
	if len(files) > q.Limit {
		page.Files = files[:q.Limit]
		last := page.Files[q.Limit-1]
		page.Next = &FilePosition{At: last.CreatedAt, ID: last.ID}
	}
	return page, nil
}

// escapeLike makes s match itself literally in a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
