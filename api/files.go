package api

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

type fileHandlers struct {
	db      *gorm.DB
	baseURL string
	now     func() time.Time
}

func registerFiles(v1 *gin.RouterGroup, d *Deps) {
	h := &fileHandlers{db: d.DB, baseURL: d.BaseURL, now: d.now}
	v1.GET("/files/:ref", h.get)
	v1.DELETE("/files/:ref", h.delete)
}

// fileRecord is the file read answer.
type fileRecord struct {
	fileView
	Size      int64 `json:"size"`
	Deletable bool  `json:"deletable"`
}

// load finds the caller's file behind an art: handle.
func (h *fileHandlers) load(c *gin.Context) (*models.File, bool) {
	kind, id, ok := strings.Cut(c.Param("ref"), ":")
	if !ok || id == "" {
		fail(c, apierr.New(apierr.FileNotFound, "Handles are written <kind>:<id>, for example art:abc."))
		return nil, false
	}
	if kind != "art" {
		fail(c, apierr.New(apierr.FileNotFound, ""))
		return nil, false
	}
	f, err := models.FileByID(c, h.db, id)
	if errors.Is(err, models.ErrNotFound) || (err == nil && f.UserID != identityOf(c).user.ID) {
		fail(c, apierr.New(apierr.FileNotFound, ""))
		return nil, false
	}
	if err != nil {
		fail(c, err)
		return nil, false
	}
	return f, true
}

// get answers GET /v1/files/{ref}.
func (h *fileHandlers) get(c *gin.Context) {
	f, ok := h.load(c)
	if !ok {
		return
	}
	c.JSON(http.StatusOK, fileRecord{fileView: fileView{File: "art:" + f.ID, URL: f.URL(h.baseURL), MediaType: f.MediaType, Task: f.Task,
		JobID: f.JobID, CreatedAt: f.CreatedAt, Data: dataOf(f)}, Size: f.Size, Deletable: true})
}

// delete answers DELETE /v1/files/{ref}: only art: handles can be deleted;
// afterwards the handle and its URL answer 404.
func (h *fileHandlers) delete(c *gin.Context) {
	if kind, _, _ := strings.Cut(c.Param("ref"), ":"); kind != "art" {
		fail(c, apierr.New(apierr.FileNotDeletable, "Only art: handles (files a job produced) can be deleted."))
		return
	}
	f, ok := h.load(c)
	if !ok {
		return
	}
	if err := h.db.WithContext(c).Delete(f).Error; err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"file": "art:" + f.ID, "deleted": true})
}
