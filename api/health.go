package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// ErrLibraryWriting is what Deps.Library answers while the process is
// still writing the curated and photoshoots libraries.
var ErrLibraryWriting = errors.New("the curated and photoshoots libraries are being written")

type health struct {
	db       *gorm.DB
	temporal client.Client
	library  func() error
}

// live answers while the process is up.
func (h *health) live(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) }

// ready answers 200 when the database and Temporal both answer and the
// libraries are written, else 503 naming what is not ready.
func (h *health) ready(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
	defer cancel()
	checks := gin.H{"database": "ok", "temporal": "ok", "library": "ok"}
	ok := true
	if err := models.Ping(ctx, h.db); err != nil {
		checks["database"], ok = "unreachable", false
	}
	if h.temporal == nil {
		checks["temporal"], ok = "not configured", false
	} else if _, err := h.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		checks["temporal"], ok = "unreachable", false
	}
	if h.library != nil {
		switch err := h.library(); {
		case errors.Is(err, ErrLibraryWriting):
			checks["library"], ok = "writing", false
		case err != nil:
			checks["library"], ok = "failed", false
		}
	}
	status := http.StatusOK
	if !ok {
		status = http.StatusServiceUnavailable
	}
	c.JSON(status, gin.H{"status": map[bool]string{true: "ready", false: "not_ready"}[ok], "checks": checks})
}
