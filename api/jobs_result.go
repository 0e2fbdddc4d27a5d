package api

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// result answers GET /v1/jobs/{id}/result.
func (h *jobHandlers) result(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	switch {
	case j.Lifecycle != contract.LifecycleTerminal:
		fail(c, apierr.New(apierr.ResultNotReady, "").WithJob(j.ID))
	case *j.Outcome == contract.OutcomeCancelled:
		fail(c, apierr.New(apierr.Cancelled, "").WithJob(j.ID))
	case *j.Outcome == contract.OutcomeFailed:
		markStartTimeout(c, j)
		fail(c, apierr.New(apierr.JobFailed, "The job failed; its error says why.").WithJob(j.ID))
	default:
		h.writeResult(c, j)
	}
}

func (h *jobHandlers) writeResult(c *gin.Context, j *models.Job) {
	limit, err := pageLimit(c, 50, 100)
	if err != nil {
		fail(c, err)
		return
	}
	after := -1
	if cur, err := decodeCursor(c); err != nil {
		fail(c, err)
		return
	} else if cur != "" {
		if after, err = strconv.Atoi(cur); err != nil {
			fail(c, apierr.New(apierr.InvalidRequest, "The cursor is not valid; restart the listing.").WithField("cursor"))
			return
		}
	}
	files, more, err := models.JobFiles(c.Request.Context(), h.d.DB, j.ID, after, limit)
	if err != nil {
		fail(c, err)
		return
	}
	next := ""
	if more {
		next = encodeCursor(strconv.Itoa(files[len(files)-1].Index))
	}
	c.JSON(http.StatusOK, j.WireResult(files, h.d.FilesBaseURL, more, next))
}
