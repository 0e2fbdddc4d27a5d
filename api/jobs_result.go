package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// fileView is one file of a job result.
type fileView struct {
	File      string          `json:"file"`
	URL       string          `json:"url"`
	MediaType string          `json:"media_type"`
	Task      string          `json:"task"`
	JobID     string          `json:"job_id"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// resultView is the job result; summary only when the task reports one.
type resultView struct {
	JobID      string          `json:"job_id"`
	Files      []fileView      `json:"files"`
	HasMore    bool            `json:"has_more"`
	NextCursor string          `json:"next_cursor,omitempty"`
	Summary    json.RawMessage `json:"summary,omitempty"`
}

// result answers GET /v1/jobs/{id}/result.
func (h *jobHandlers) result(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	switch {
	case j.Lifecycle != models.LifecycleTerminal:
		fail(c, apierr.New(apierr.ResultNotReady, "").WithJob(j.ID))
	case *j.Outcome == models.OutcomeCancelled:
		fail(c, apierr.New(apierr.Cancelled, "").WithJob(j.ID))
	case *j.Outcome == models.OutcomeFailed:
		markStartTimeout(c, j)
		fail(c, apierr.New(apierr.JobFailed, "The job failed; its error says why.").WithJob(j.ID))
	default:
		h.writeResult(c, j)
	}
}

// dataOf is a file's data (valid against the task's outputSchema), or null.
func dataOf(f *models.File) json.RawMessage {
	if f.Data == "" || f.Data == "null" {
		return json.RawMessage("null")
	}
	return json.RawMessage(f.Data)
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
	out := resultView{JobID: j.ID, Files: make([]fileView, 0, len(files)), HasMore: more}
	for i := range files {
		f := &files[i]
		out.Files = append(out.Files, fileView{File: "art:" + f.ID, URL: f.URL(h.d.FilesBaseURL), MediaType: f.MediaType, Task: f.Task, JobID: j.ID, CreatedAt: f.CreatedAt, Data: dataOf(f)})
	}
	if more {
		out.NextCursor = encodeCursor(strconv.Itoa(files[len(files)-1].Index))
	}
	if j.Summary != nil {
		out.Summary = json.RawMessage(*j.Summary)
	}
	c.JSON(http.StatusOK, out)
}
