package api

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/paging"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/cancel"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

type jobHandlers struct{ d *Deps }

// view is the public record of job j, as the request's contract writes it,
// with where it stands when it is queued; q measures the fleet once per
// answer.
func (h *jobHandlers) view(c *gin.Context, q *queueReader, j *models.Job) (wire.Job, error) {
	v := j.Wire(h.d.BaseURL)
	v.Error = middleware.ContractOf(c).JobError(v.Error)
	var err error
	v.Queue, err = q.of(c.Request.Context(), j)
	return v, err
}

func (h *jobHandlers) load(c *gin.Context) (*models.Job, bool) {
	j, err := models.JobByID(c.Request.Context(), h.d.DB, middleware.IdentityOf(c).User.ID, c.Param("job_id"))
	if errors.Is(err, models.ErrNotFound) {
		middleware.Fail(c, apierr.New(apierr.JobNotFound, ""))
		return nil, false
	}
	if err != nil {
		middleware.Fail(c, err)
		return nil, false
	}
	return j, true
}

// get answers GET /v1/jobs/{id}: one indexed read of the projection.
func (h *jobHandlers) get(c *gin.Context) {
	if j, ok := h.load(c); ok {
		markStartTimeout(c, j)
		v, err := h.view(c, &queueReader{d: h.d}, j)
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		c.JSON(http.StatusOK, v)
	}
}

// markStartTimeout adds X-Service-Start-Timeout-Type: user to answers that
// report a job that failed its start deadline.
func markStartTimeout(c *gin.Context, j *models.Job) {
	if j.Error == nil {
		return
	}
	var e struct {
		Code apierr.Code `json:"code"`
	}
	if json.Unmarshal([]byte(*j.Error), &e) == nil && e.Code == apierr.StartTimeout {
		c.Header("X-Service-Start-Timeout-Type", "user")
	}
}

// jobError is the stored public error of an ended job, ready to answer.
func jobError(j *models.Job) *apierr.Error {
	var e apierr.Error
	if j.Error == nil || json.Unmarshal([]byte(*j.Error), &e) != nil {
		return apierr.New(apierr.Internal, "").WithJob(j.ID)
	}
	en, _ := apierr.Lookup(e.Code)
	e.Status = en.Status
	if e.Status == 0 {
		e.Status = http.StatusInternalServerError
	}
	e.JobID = j.ID
	return &e
}

// answerOutcome answers an ended job on a wait: the result, the job's error
// (409 cancelled for a cancelled job).
func (h *jobHandlers) answerOutcome(c *gin.Context, j *models.Job) {
	markStartTimeout(c, j)
	if j.Outcome != nil && *j.Outcome == contract.OutcomeSucceeded {
		h.writeResult(c, j)
		return
	}
	middleware.Fail(c, jobError(j))
}

// cancel answers PUT /v1/jobs/{id}/cancel: the cancel use case decides
// how the job ends (cancel.Service); the answer is the job's lifecycle at
// that moment.
func (h *jobHandlers) cancel(c *gin.Context) {
	svc := &cancel.Service{DB: h.d.DB, Temporal: h.d.Temporal, Now: h.d.now}
	j, err := svc.Cancel(c.Request.Context(), middleware.IdentityOf(c).User.ID, c.Param("job_id"), middleware.Logger(c))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, gin.H{"job_id": j.ID, "lifecycle": j.Lifecycle, "outcome": j.Outcome,
		"status_url": h.d.BaseURL + "/v1/jobs/" + j.ID})
}

// list answers GET /v1/jobs, newest first, cursor-paged, filter api_key_id.
func (h *jobHandlers) list(c *gin.Context) {
	limit, after, err := paging.Query(c, 20, 100)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	page, err := models.ListJobs(
		c.Request.Context(),
		h.d.DB,
		middleware.IdentityOf(c).User.ID,
		c.Query("api_key_id"),
		after,
		limit,
	)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	items := make([]wire.Job, 0, len(page.Items))
	q := &queueReader{d: h.d}
	for i := range page.Items {
		v, err := h.view(c, q, &page.Items[i])
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		items = append(items, v)
	}
	paging.Write(c, items, page.Next)
}
