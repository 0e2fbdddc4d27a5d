package api

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
	"github.com/taskplatform/taskplatform/workflows"
)

type jobHandlers struct{ d *Deps }

// view is the public record of job j, as the request's contract writes it,
// with where it stands when it is queued; q measures the fleet once per
// answer.
func (h *jobHandlers) view(c *gin.Context, q *queueReader, j *models.Job) (wire.Job, error) {
	v := j.Wire(h.d.BaseURL)
	v.Error = contractOf(c).jobError(v.Error)
	var err error
	v.Queue, err = q.of(c.Request.Context(), j)
	return v, err
}

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
		v, err := h.view(c, &queueReader{d: h.d}, j)
		if err != nil {
			fail(c, err)
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
	fail(c, jobError(j))
}

// cancel answers PUT /v1/jobs/{id}/cancel by cancelling the job workflow,
// or, for a late job no admit has decided, by ending it here.
func (h *jobHandlers) cancel(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	if j.Pending {
		if j, ok = h.cancelLate(c, j); !ok {
			return
		}
	}
	if j.Lifecycle == contract.LifecycleTerminal {
		fail(c, apierr.New(apierr.JobAlreadyEnded, "").WithJob(j.ID))
		return
	}
	err := h.d.Temporal.CancelWorkflow(c.Request.Context(), j.ID, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) && j.Lifecycle == contract.LifecycleQueued {
		err = h.cancelUnstarted(c, j)
	}
	if errors.As(err, &nf) {
		if fresh, ferr := models.JobByID(c.Request.Context(), h.d.DB, j.UserID, j.ID); ferr == nil &&
			fresh.Lifecycle == contract.LifecycleTerminal {
			fail(c, apierr.New(apierr.JobAlreadyEnded, "").WithJob(j.ID))
			return
		}
	}
	if err != nil && !errors.As(err, &nf) {
		fail(c, err)
		return
	}
	c.JSON(
		http.StatusAccepted,
		gin.H{
			"job_id":     j.ID,
			"lifecycle":  j.Lifecycle,
			"outcome":    j.Outcome,
			"status_url": h.d.BaseURL + "/v1/jobs/" + j.ID,
		},
	)
}

// cancelUnstarted cancels a queued batch job whose workflow its batch has
// not started yet: the workflow is started now with the job's admit (its
// hold was written with the batch, so the admit holds nothing more) and
// cancelled at once, so the job ends cancelled by the one path every job
// ends by, its hold released and job.cancelled sent, and the batch's
// later start of it finds it already started. A job of no batch answers
// the NotFound it came with.
func (h *jobHandlers) cancelUnstarted(c *gin.Context, j *models.Job) error {
	ctx := c.Request.Context()
	b, err := models.BatchOfJob(ctx, h.d.DB, j.ID)
	if errors.Is(err, models.ErrNotFound) {
		return serviceerror.NewNotFound("workflow of job " + j.ID)
	}
	if err != nil {
		return err
	}
	_, err = workflows.SendAdmit(ctx, h.d.Temporal, j.AdmitInput(), b.Queue, client.WorkflowUpdateStageAccepted)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if err != nil && !errors.As(err, &started) {
		return fmt.Errorf("start batch job %s to cancel it: %w", j.ID, err)
	}
	logger(c).Info("batch job started to be cancelled", zap.String("job_id", j.ID), zap.String("batch_id", b.ID))
	return h.d.Temporal.CancelWorkflow(ctx, j.ID, "")
}

// cancelLate cancels a late job (its handle answered before its admit
// decided) without asking Temporal, which may be away and may not have its
// workflow: the job ends cancelled, nothing held, and its admission is
// closed, so an admit that arrives later holds nothing and its workflow
// ends without running; the late-admit sweep emits job.cancelled. When an
// admit decided the job meanwhile, the job's fresh row is answered for its
// workflow to be cancelled; ok is false when an answer was written.
func (h *jobHandlers) cancelLate(c *gin.Context, j *models.Job) (*models.Job, bool) {
	ctx := c.Request.Context()
	cancelled, _ := json.Marshal(apierr.New(apierr.Cancelled, "The job was cancelled.").WithJob(j.ID))
	err := models.EndLateJob(ctx, h.d.DB, j.ID, j.UserID, contract.OutcomeCancelled, cancelled, h.d.now())
	if err != nil && !errors.Is(err, models.ErrJobDecided) {
		fail(c, err)
		return nil, false
	}
	fresh, ferr := models.JobByID(ctx, h.d.DB, j.UserID, j.ID)
	if ferr != nil {
		fail(c, ferr)
		return nil, false
	}
	if err != nil {
		return fresh, true // decided by its admit: its workflow is cancelled
	}
	logger(c).Info("late job cancelled before its admit", zap.String("job_id", j.ID))
	if err := jobstream.Notify(ctx, h.d.DB, j.ID); err != nil {
		logger(c).Warn("job stream not notified", zap.String("job_id", j.ID), zap.Error(err))
	}
	c.JSON(http.StatusAccepted, gin.H{"job_id": j.ID, "lifecycle": fresh.Lifecycle, "outcome": fresh.Outcome,
		"status_url": h.d.BaseURL + "/v1/jobs/" + j.ID})
	return nil, false
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
		return "", apierr.New(apierr.InvalidRequest, "The cursor is not valid; restart the listing.").
			WithField("cursor")
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
		return 0, apierr.Newf(apierr.InvalidRequest, "limit must be a whole number from 1 to %d.", maxN).
			WithField("limit")
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
	page, err := models.ListJobs(
		c.Request.Context(),
		h.d.DB,
		identityOf(c).user.ID,
		c.Query("api_key_id"),
		after,
		limit,
	)
	if err != nil {
		fail(c, err)
		return
	}
	items := make([]wire.Job, 0, len(page.Items))
	q := &queueReader{d: h.d}
	for i := range page.Items {
		v, err := h.view(c, q, &page.Items[i])
		if err != nil {
			fail(c, err)
			return
		}
		items = append(items, v)
	}
	writePage(c, items, page.Next)
}
