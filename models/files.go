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
)

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

// UserOutput reads a file one of a user's jobs delivered (an art: handle)
// by id, a deleted one included (DeletedAt set): a deleted handle of the
// user's own is told apart from one that was never theirs.
func UserOutput(ctx context.Context, db *gorm.DB, userID uint64, id string) (*File, error) {
	var f File
	err := db.WithContext(ctx).Unscoped().Where("id = ? AND user_id = ? AND job_id <> ''", id, userID).Take(&f).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("output %s: %w", id, ErrNotFound)
	}
	return &f, err
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
	After *Position
	Limit int
}

// ListFiles lists a user's live files of one kind, newest first.
func ListFiles(ctx context.Context, db *gorm.DB, q FileQuery) (Page[File], error) {
	tx := db.WithContext(ctx).Where("user_id = ?", q.UserID)
	if q.Outputs {
		tx = tx.Where("job_id <> ''")
	} else {
		tx = tx.Where("job_id = ''")
	}
	if q.Text != "" {
		pat := "%" + escapeLike(strings.ToLower(q.Text)) + "%"
		tx = tx.Where(`(LOWER(external_id) LIKE ? ESCAPE '\' OR LOWER(source_url) LIKE ? ESCAPE '\' OR `+
			`LOWER(name) LIKE ? ESCAPE '\')`, pat, pat, pat)
	}
	return newestFirst(
		tx,
		q.After,
		q.Limit,
		textID,
		func(f *File) Position { return Position{At: f.CreatedAt, ID: f.ID} },
	)
}

// escapeLike makes s match itself literally in a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// ImageSize is the pixel size recorded in the file's data ({"width",
// "height"}, as uploads of images record it); ok is false when unknown.
func (f *File) ImageSize() (width, height int, ok bool) {
	var d struct{ Width, Height int }
	if json.Unmarshal([]byte(f.Data), &d) != nil || d.Width <= 0 || d.Height <= 0 {
		return 0, 0, false
	}
	return d.Width, d.Height, true
}

// JobOutputs lists the files a job delivered, in output order.
func JobOutputs(ctx context.Context, db *gorm.DB, jobID string) ([]File, error) {
	var out []File
	if err := db.WithContext(ctx).Where("job_id = ?", jobID).Order("idx").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("read outputs of %s: %w", jobID, err)
	}
	return out, nil
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
