package api

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// The handle kinds of stored files; the other handle kinds name records
// (recordKinds).
const (
	kindArt  = "art"
	kindFile = "file"
)

// fileHandlers serve files, records and reference items.
type fileHandlers struct {
	db           *gorm.DB
	blob         *blob.Bucket
	filesBaseURL string
	allowPrivate bool
	now          func() time.Time
	// kinds are the record kinds the served families register.
	kinds recordKinds
}

// fileRecord is the read answer of an art: handle.
type fileRecord struct {
	wire.File
	Size      int64 `json:"size"`
	Deletable bool  `json:"deletable"`
}

// uploadRecord is the answer of upload, registration and read of a file:
// handle. A registered URL has no media type or size until a job fetches
// it; its url is the address registered.
type uploadRecord struct {
	File       string    `json:"file"`
	URL        string    `json:"url"`
	MediaType  *string   `json:"media_type"`
	Size       *int64    `json:"size"`
	ExternalID *string   `json:"external_id"`
	Name       *string   `json:"name"`
	CreatedAt  time.Time `json:"created_at"`
	Deletable  bool      `json:"deletable"`
}

func (h *fileHandlers) uploadRecord(f *models.File) uploadRecord {
	out := uploadRecord{
		File:       f.Handle(),
		URL:        f.URL(h.filesBaseURL),
		ExternalID: nonEmpty(f.ExternalID),
		Name:       nonEmpty(f.Name),
		CreatedAt:  f.CreatedAt.UTC(),
	}
	if f.SourceURL == "" {
		out.MediaType, out.Size = &f.MediaType, &f.Size
	}
	return out
}

// nonEmpty is s, or nil for the empty string.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// parseHandle splits a handle into its kind and id; ok is false when it is
// not <kind>:<id> with one of the served kinds (RefKinds).
func (h *fileHandlers) parseHandle(ref string) (kind, id string, ok bool) {
	kind, id, found := strings.Cut(ref, ":")
	if !found || id == "" || !slices.Contains(h.kinds.refKinds(), kind) {
		return "", "", false
	}
	return kind, id, true
}

var errNoSuchHandle = apierr.New(apierr.FileNotFound, "")

// load finds the caller's file behind an art: or file: handle: an art:
// handle names a file a job delivered, a file: handle an upload or a
// registered URL. Handles of the other kinds name no row here.
func (h *fileHandlers) load(c *gin.Context, kind, id string) (*models.File, error) {
	if kind != kindArt && kind != kindFile {
		return nil, errNoSuchHandle
	}
	f, err := models.UserFile(c.Request.Context(), h.db, middleware.IdentityOf(c).User.ID, id)
	if errors.Is(err, models.ErrNotFound) || (err == nil && (f.JobID != "") != (kind == kindArt)) {
		return nil, errNoSuchHandle
	}
	return f, err
}

// get answers GET /v1/files/{ref}.
func (h *fileHandlers) get(c *gin.Context) {
	kind, id, ok := h.parseHandle(c.Param("ref"))
	if !ok {
		middleware.Fail(
			c,
			apierr.New(apierr.FileNotFound, "Handles are written <kind>:<id>, for example file:abc or art:abc."),
		)
		return
	}
	if _, ok := h.kinds.of(kind); ok {
		h.getRecord(c, kind, id)
		return
	}
	f, err := h.load(c, kind, id)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	if kind == kindFile {
		c.JSON(http.StatusOK, h.uploadRecord(f))
		return
	}
	c.JSON(http.StatusOK, fileRecord{File: f.Wire(h.filesBaseURL), Size: f.Size, Deletable: true})
}

// errNotDeletable answers every delete but of the caller's own art:
// handles, one body for all: another account's handle, an unknown one and
// a malformed one read alike, so a delete never tells whether a handle
// exists.
var errNotDeletable = apierr.New(
	apierr.FileNotDeletable,
	"Only your own art: handles (files your jobs delivered) can be deleted; uploads (file:), records (moodboard:, "+
		"brand_kit:, fabric:, "+
		"range_plan:, …) and every other handle are kept.",
)

// delete answers DELETE /v1/files/{ref}: only the caller's own art: handles
// can be deleted; afterwards the handle and its URL answer 404. Every other
// handle answers 422 file_not_deletable alike (errNotDeletable).
func (h *fileHandlers) delete(c *gin.Context) {
	kind, id, ok := h.parseHandle(c.Param("ref"))
	if !ok || kind != kindArt {
		middleware.Fail(c, errNotDeletable)
		return
	}
	f, err := models.UserOutput(c.Request.Context(), h.db, middleware.IdentityOf(c).User.ID, id)
	switch {
	case errors.Is(err, models.ErrNotFound):
		middleware.Fail(c, errNotDeletable)
		return
	case err != nil:
		middleware.Fail(c, err)
		return
	case f.DeletedAt.Valid:
		middleware.Fail(c, errNoSuchHandle)
		return
	}
	// The bytes go first: if the row's delete then fails, its URL already
	// answers 404 and a retried DELETE finishes the job.
	if f.BlobKey != "" {
		// The panel's small copies go with the original.
		for _, key := range append(f.ThumbKeys(), f.BlobKey) {
			if err := h.blob.Delete(c.Request.Context(), key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
				middleware.Fail(c, err)
				return
			}
		}
	}
	if err := h.db.WithContext(c.Request.Context()).Delete(f).Error; err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"file": f.Handle(), "deleted": true})
}
