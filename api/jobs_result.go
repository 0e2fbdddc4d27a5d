package api

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/paging"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// result answers GET /v1/jobs/{id}/result.
func (h *jobHandlers) result(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	switch {
	case j.Lifecycle != contract.LifecycleTerminal:
		middleware.Fail(c, apierr.New(apierr.ResultNotReady, "").WithJob(j.ID))
	case *j.Outcome == contract.OutcomeCancelled:
		middleware.Fail(
			c,
			apierr.New(apierr.Cancelled,
				"The job was cancelled; the outputs it delivered are listed at /v1/jobs/"+j.ID+"/files.").
				WithJob(j.ID),
		)
	case *j.Outcome == contract.OutcomeFailed:
		markStartTimeout(c, j)
		middleware.Fail(
			c,
			apierr.New(apierr.JobFailed, "The job failed; its error says why, and /v1/jobs/"+j.ID+"/files lists what it "+
				"delivered.").
				WithJob(j.ID),
		)
	default:
		h.writeResult(c, j)
	}
}

// writeResult answers the page of a succeeded job's result the request asks for.
func (h *jobHandlers) writeResult(c *gin.Context, j *models.Job) {
	if files, more, next, ok := h.filesPage(c, j, 50); ok {
		c.JSON(http.StatusOK, j.WireResult(files, h.d.FilesBaseURL, more, next))
	}
}

// files answers GET /v1/jobs/{id}/files: the outputs a job delivered so
// far, whatever its outcome — a cancelled or failed job's too, which were
// charged — in the task's order, as a list.
func (h *jobHandlers) files(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	files, more, next, ok := h.filesPage(c, j, 50)
	if !ok {
		return
	}
	items := make([]wire.File, len(files))
	for i := range files {
		items[i] = files[i].Wire(h.d.FilesBaseURL)
	}
	c.JSON(http.StatusOK, filePage{Items: items, HasMore: more, NextCursor: next})
}

// filePage is one page of a job's files.
type filePage struct {
	Items      []wire.File `json:"items"`
	HasMore    bool        `json:"has_more"`
	NextCursor string      `json:"next_cursor,omitempty"`
}

// filesPage reads the page of j's files the request's limit and cursor
// ask for; false when it answered an error.
func (h *jobHandlers) filesPage(
	c *gin.Context,
	j *models.Job,
	def int,
) (files []models.File, more bool, next string, ok bool) {
	limit, err := paging.Limit(c, def, 100)
	if err != nil {
		middleware.Fail(c, err)
		return nil, false, "", false
	}
	after := -1
	if cur, err := paging.DecodeCursor(c); err != nil {
		middleware.Fail(c, err)
		return nil, false, "", false
	} else if cur != "" {
		if after, err = strconv.Atoi(cur); err != nil {
			middleware.Fail(c, apierr.New(apierr.InvalidRequest, "The cursor is not valid; restart the listing.").
				WithField("cursor"))
			return nil, false, "", false
		}
	}
	files, more, err = models.JobFiles(c.Request.Context(), h.d.DB, j.ID, after, limit)
	if err != nil {
		middleware.Fail(c, err)
		return nil, false, "", false
	}
	if more {
		next = paging.EncodeCursor(strconv.Itoa(files[len(files)-1].Index))
	}
	return files, more, next, true
}
