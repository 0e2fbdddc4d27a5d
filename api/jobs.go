package api

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/api/serviceerror"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

type jobHandlers struct{ d *Deps }

// progressView is the job's progress object.
type progressView struct {
	Done  int    `json:"done"`
	Total *int   `json:"total"`
	Phase string `json:"phase"`
}

// jobView is the job record answered by GET /v1/jobs/{id} and the list.
type jobView struct {
	JobID     string          `json:"job_id"`
	Task      string          `json:"task"`
	Lifecycle string          `json:"lifecycle"`
	Outcome   *string         `json:"outcome"`
	Progress  progressView    `json:"progress"`
	Error     json.RawMessage `json:"error"`
	APIKeyID  string          `json:"api_key_id"`
	CreatedAt time.Time       `json:"created_at"`
	StartedAt *time.Time      `json:"started_at"`
	EndedAt   *time.Time      `json:"ended_at"`
	StatusURL string          `json:"status_url"`
	ResultURL string          `json:"result_url"`
	CancelURL string          `json:"cancel_url"`
}

func (h *jobHandlers) view(j *models.Job) jobView {
	v := jobView{JobID: j.ID, Task: j.Task, Lifecycle: j.Lifecycle, Outcome: j.Outcome,
		Progress: progressView{Done: j.ProgressDone, Total: j.ProgressTotal, Phase: j.PublicPhase()},
		Error:    json.RawMessage("null"), APIKeyID: j.APIKeyID, CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, EndedAt: j.EndedAt,
		StatusURL: h.d.BaseURL + "/v1/jobs/" + j.ID, ResultURL: h.d.BaseURL + "/v1/jobs/" + j.ID + "/result", CancelURL: h.d.BaseURL + "/v1/jobs/" + j.ID + "/cancel"}
	if j.Error != nil {
		v.Error = json.RawMessage(*j.Error)
	}
	return v
}

// handleView is the submit answer: the job with its URLs.
func (h *jobHandlers) handleView(j *models.Job) jobView { return h.view(j) }

func (h *jobHandlers) load(c *gin.Context) (*models.Job, bool) {
	j, err := models.JobByID(c.Request.Context(), h.d.DB, identityOf(c).user.ID, c.Param("job_id"))
	if errors.Is(err, models.ErrNotFound) {
		fail(c, apierr.New(apierr.JobNotFound, ""))
		return nil, false
	}
	if err != nil {
		fail(c, err)
		return nil, false
	}
	return j, true
}

// get answers GET /v1/jobs/{id}: one indexed read of the projection.
func (h *jobHandlers) get(c *gin.Context) {
	if j, ok := h.load(c); ok {
		markStartTimeout(c, j)
		c.JSON(http.StatusOK, h.view(j))
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
	if j.Outcome != nil && *j.Outcome == models.OutcomeSucceeded {
		h.writeResult(c, j)
		return
	}
	fail(c, jobError(j))
}

// cancel answers PUT /v1/jobs/{id}/cancel by cancelling the job workflow.
func (h *jobHandlers) cancel(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	if j.Lifecycle == models.LifecycleTerminal {
		fail(c, apierr.New(apierr.JobAlreadyEnded, "").WithJob(j.ID))
		return
	}
	err := h.d.Temporal.CancelWorkflow(c.Request.Context(), j.ID, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		if fresh, ferr := models.JobByID(c.Request.Context(), h.d.DB, j.UserID, j.ID); ferr == nil && fresh.Lifecycle == models.LifecycleTerminal {
			fail(c, apierr.New(apierr.JobAlreadyEnded, "").WithJob(j.ID))
			return
		}
	}
	if err != nil && !errors.As(err, &nf) {
		fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, gin.H{"job_id": j.ID, "lifecycle": j.Lifecycle, "outcome": j.Outcome, "status_url": h.d.BaseURL + "/v1/jobs/" + j.ID})
}

// pageCursor is an opaque cursor: base64 of an offset position.
func encodeCursor(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) }

func decodeCursor(c *gin.Context) (string, error) {
	raw := c.Query("cursor")
	if raw == "" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || len(b) == 0 {
		return "", apierr.New(apierr.InvalidRequest, "The cursor is not valid; restart the listing.").WithField("cursor")
	}
	return string(b), nil
}

func pageLimit(c *gin.Context, def, maxN int) (int, error) {
	v := c.Query("limit")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxN {
		return 0, apierr.Newf(apierr.InvalidRequest, "limit must be a whole number from 1 to %d.", maxN).WithField("limit")
	}
	return n, nil
}

// list answers GET /v1/jobs, newest first, cursor-paged, filter api_key_id.
func (h *jobHandlers) list(c *gin.Context) {
	limit, after, err := listQuery(c, 20, 100)
	if err != nil {
		fail(c, err)
		return
	}
	page, err := models.ListJobs(c.Request.Context(), h.d.DB, identityOf(c).user.ID, c.Query("api_key_id"), after, limit)
	if err != nil {
		fail(c, err)
		return
	}
	items := make([]jobView, 0, len(page.Items))
	for i := range page.Items {
		items = append(items, h.view(&page.Items[i]))
	}
	writePage(c, items, page.Next)
}
