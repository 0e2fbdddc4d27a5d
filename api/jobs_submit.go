package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/go-ozzo/ozzo-validation/v4/is"
	"go.temporal.io/sdk/client"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/workflows"
)

const opSubmit = "tasks.submit"

// submitOptions are the headers and query parameters of a submit.
type submitOptions struct {
	wait         int // seconds; 0 = no wait
	waitAsked    bool
	startTimeout int // seconds; 0 = none sent
	startSent    bool
	webhookURL   string
	idemKey      string
}

var preferWait = regexp.MustCompile(`(?i)(?:^|[;,\s])wait\s*=\s*(\d+)`)

func parseSubmitOptions(c *gin.Context, lim contract.Limits) (submitOptions, error) {
	var o submitOptions
	if m := preferWait.FindStringSubmatch(c.GetHeader("Prefer")); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = lim.PreferWait.MaxSeconds
		}
		o.wait, o.waitAsked = min(n, lim.PreferWait.MaxSeconds), true
	}
	if v := c.GetHeader("X-Service-Start-Timeout"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return o, apierr.New(apierr.InvalidRequest, "X-Service-Start-Timeout must be a whole number of seconds.").WithField("X-Service-Start-Timeout")
		}
		o.startTimeout, o.startSent = n, true
	}
	o.webhookURL = c.Query("webhook_url")
	o.idemKey = c.GetHeader("Idempotency-Key")
	err := validation.Errors{
		"X-Service-Start-Timeout": validation.Validate(o.startTimeout, validation.When(o.startSent,
			validation.Min(lim.StartTimeout.MinSeconds), validation.Max(lim.StartTimeout.MaxSeconds))),
		"webhook_url":     validation.Validate(o.webhookURL, is.URL, validation.Match(regexp.MustCompile(`^https://`)).Error("must be an https:// URL")),
		"Idempotency-Key": validation.Validate(o.idemKey, validation.Length(0, 255)),
	}.Filter()
	return o, firstFieldError(err)
}

// firstFieldError turns ozzo errors into one invalid_request naming the field.
func firstFieldError(err error) error {
	var errs validation.Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		return err
	}
	names := make([]string, 0, len(errs))
	for k := range errs {
		names = append(names, k)
	}
	first := names[0]
	for _, n := range names[1:] {
		if n < first {
			first = n
		}
	}
	return apierr.Newf(apierr.InvalidRequest, "%s: %s.", first, errs[first].Error()).WithField(first)
}

// readJSONBody reads a JSON body within the size limit: 415 for another
// media type, 413 body_too_large over the limit (see readBody).
func readJSONBody(c *gin.Context, limit int64) ([]byte, error) {
	if !jsonMediaType(c.GetHeader("Content-Type")) {
		return nil, apierr.New(apierr.UnsupportedMediaType, "Send the task input as Content-Type: application/json.")
	}
	if c.Request.Body != nil {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	}
	return readBody(c)
}

// submit answers POST /v1/tasks/{name}: validate, hold credits through the
// admit update of a new job workflow, then answer the handle or, with
// Prefer: wait, the result.
func (h *jobHandlers) submit(c *gin.Context) {
	id := identityOf(c)
	def, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		fail(c, err)
		return
	}
	lim := contract.DefaultLimits()
	opts, err := parseSubmitOptions(c, lim)
	if err != nil {
		fail(c, err)
		return
	}
	if opts.webhookURL != "" {
		if err := outbound.CheckURL(c.Request.Context(), opts.webhookURL, h.d.AllowPrivateURLs); err != nil {
			fail(c, apierr.New(apierr.InvalidRequest, "webhook_url must be an https:// address that resolves to a public address.").WithField("webhook_url"))
			return
		}
	}
	body, err := readJSONBody(c, lim.Request.MaxBodyBytes)
	if err != nil {
		fail(c, err)
		return
	}
	input, err := h.d.checkInput(c, def, body)
	if err != nil {
		fail(c, err)
		return
	}
	credits, creditType := def.Estimate(input)
	normalized, _ := json.Marshal(input)
	in := contract.JobInput{JobID: models.NewID("j_"), Task: def.Name, UserID: id.user.ID, APIKeyID: id.keyID(), Input: normalized,
		CreditType: creditType, HeldCredits: credits, PricePerOutput: def.PricePerOutput(input), StartTimeoutSeconds: opts.startTimeout,
		WebhookURL: opts.webhookURL, RequestID: requestIDOf(c), ServiceVersion: contractOf(c).Version()}

	fresh := true
	if opts.idemKey != "" {
		sum := sha256.Sum256([]byte(def.Name + "\x00" + string(normalized) + "\x00" + strconv.Itoa(opts.startTimeout) + "\x00" + opts.webhookURL))
		claim, err := models.ClaimKey(c.Request.Context(), h.d.DB, id.user.ID, opSubmit, opts.idemKey, hex.EncodeToString(sum[:]), in.JobID, h.d.AdmitTimeout+5*time.Second, h.d.now())
		if err != nil {
			fail(c, err)
			return
		}
		switch claim.State {
		case models.ClaimMismatch:
			fail(c, apierr.New(apierr.IdempotencyKeyReused, ""))
			return
		case models.ClaimInProgress:
			fail(c, apierr.New(apierr.RequestInProgress, "").WithRetryAfter(1))
			return
		case models.ClaimDone:
			h.answerExisting(c, claim.JobID, opts)
			return
		}
		in.JobID = claim.JobID
		fresh = claim.State == models.ClaimNew
	}

	if err := h.d.admitRecords(c, def, in.JobID, input); err != nil {
		if fresh {
			h.releaseKey(c, opts)
		}
		fail(c, err)
		return
	}
	admit, err := h.admit(c, in)
	if err != nil {
		h.admitLate(c, in, opts, err)
		return
	}
	if !admit.Admitted {
		h.releaseKey(c, opts)
		fail(c, insufficient(admit.Required, admit.Balance, creditType))
		return
	}
	h.completeKey(c, opts)
	logger(c).Info("job submitted", zap.String("job_id", in.JobID), zap.String("task", def.Name), zap.Int64("held", credits))
	if fresh {
		// Just admitted: the row holds exactly what the admit wrote.
		h.answerJob(c, &models.Job{ID: in.JobID, UserID: in.UserID, APIKeyID: in.APIKeyID, Task: in.Task, Lifecycle: contract.LifecycleQueued,
			CreditType: in.CreditType, HeldCredits: in.HeldCredits, CreatedAt: admit.CreatedAt}, opts)
		return
	}
	h.answerExisting(c, in.JobID, opts)
}

// admitLate answers a submit whose admit did not answer in time. The job's
// workflow may still admit it, so the answer is never a retryable error
// while the job can hold credits: the job is made visible as queued with
// the durable intent of its admit (its admit holds later, or fails it
// insufficient_credits; the workers' late-admit sweep sends the admit
// again until it decides, or ends the job within its deadline) and its
// handle is answered — unless the admit has decided meanwhile.
func (h *jobHandlers) admitLate(c *gin.Context, in contract.JobInput, opts submitOptions, admitErr error) {
	log := logger(c).With(zap.String("job_id", in.JobID))
	// Under a burst the account's row lock is contended by every admit: wait
	// for it rather than answer an error for a job that may still run.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), pendTimeout)
	defer cancel()
	state, refusal, err := models.PendJob(ctx, h.d.DB, models.JobRow(in), h.d.TaskQueue, h.d.now())
	if err != nil {
		log.Error("admit did not answer and the job could not be recorded", zap.NamedError("admit_error", admitErr), zap.Error(err))
		e := apierr.New(apierr.Internal, "The job's admission could not be confirmed. Read the job before submitting it again.").WithJob(in.JobID)
		e.Retryable = false
		fail(c, e)
		return
	}
	switch state {
	case models.PendRefused:
		h.releaseKey(c, opts)
		fail(c, insufficient(refusal.Required, refusal.Balance, in.CreditType))
		return
	case models.PendClosed:
		h.releaseKey(c, opts)
		fail(c, apierr.New(apierr.ServiceUnavailable, "The job could not be admitted; nothing was held or charged. Submit it again.").WithRetryAfter(2))
		return
	case models.PendWritten:
		log.Warn("admit did not answer in time; the job's handle is answered and its admit decides later", zap.Error(admitErr))
	}
	h.completeKey(c, opts)
	h.answerExisting(c, in.JobID, opts)
}

// pendTimeout bounds the wait for the account's lock when a late job is made
// visible; past it the answer is a non-retryable internal error naming the job.
const pendTimeout = time.Minute

// insufficient is the 402 of a hold the balance does not cover.
func insufficient(required, balance int64, creditType string) *apierr.Error {
	return apierr.Newf(apierr.InsufficientCredits, "The job needs %d %s; the balance is %d.", required, creditType, balance).WithCredits(required, balance)
}

// completeKey stores the job of the submit's Idempotency-Key.
func (h *jobHandlers) completeKey(c *gin.Context, opts submitOptions) {
	if opts.idemKey == "" {
		return
	}
	var ttl time.Duration
	if t := contract.DefaultLimits().IdempotencyKey.TTLSeconds; t != nil {
		ttl = time.Duration(*t) * time.Second
	}
	if err := models.CompleteKey(c.Request.Context(), h.d.DB, identityOf(c).user.ID, opSubmit, opts.idemKey, ttl, h.d.now()); err != nil {
		logger(c).Error("complete idempotency key", zap.Error(err))
	}
}

// releaseKey forgets the submit's Idempotency-Key: no job was started.
func (h *jobHandlers) releaseKey(c *gin.Context, opts submitOptions) {
	if opts.idemKey == "" {
		return
	}
	if err := models.ReleaseKey(c.Request.Context(), h.d.DB, identityOf(c).user.ID, opSubmit, opts.idemKey); err != nil {
		logger(c).Error("release idempotency key", zap.Error(err))
	}
}

// admit starts the job workflow with the admit update and waits, bounded,
// for the hold.
func (h *jobHandlers) admit(c *gin.Context, in contract.JobInput) (contract.AdmitResult, error) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), h.d.AdmitTimeout)
	defer cancel()
	handle, err := workflows.SendAdmit(ctx, h.d.Temporal, in, h.d.TaskQueue, client.WorkflowUpdateStageCompleted)
	if err != nil {
		return contract.AdmitResult{}, err
	}
	var res contract.AdmitResult
	err = handle.Get(ctx, &res)
	return res, err
}

// answerExisting answers the handle of an admitted job, or its outcome when
// the caller asked to wait and the job ends in time.
func (h *jobHandlers) answerExisting(c *gin.Context, jobID string, opts submitOptions) {
	job, err := models.JobByID(c.Request.Context(), h.d.DB, identityOf(c).user.ID, jobID)
	if err != nil {
		fail(c, err)
		return
	}
	h.answerJob(c, job, opts)
}

// answerJob answers the handle of job, or its outcome when the caller asked
// to wait and the job ends in time.
func (h *jobHandlers) answerJob(c *gin.Context, job *models.Job, opts submitOptions) {
	if job.HeldCredits > 0 {
		c.Header("X-Service-Credits", strconv.FormatInt(job.HeldCredits, 10))
		c.Header("X-Service-Credit-Type", job.CreditType)
	}
	if opts.waitAsked {
		c.Header("Preference-Applied", "wait="+strconv.Itoa(opts.wait))
		if job.Lifecycle != contract.LifecycleTerminal && opts.wait > 0 {
			job = h.waitFor(c, job, time.Duration(opts.wait)*time.Second)
		}
		if job.Lifecycle == contract.LifecycleTerminal {
			h.answerOutcome(c, job)
			return
		}
	}
	c.JSON(http.StatusAccepted, h.view(c, job))
}

// waitFor blocks until the job's workflow ends or d passes, then rereads the job.
func (h *jobHandlers) waitFor(c *gin.Context, job *models.Job, d time.Duration) *models.Job {
	ctx, cancel := context.WithTimeout(c.Request.Context(), d)
	defer cancel()
	_ = h.d.Temporal.GetWorkflow(ctx, job.ID, "").Get(ctx, nil)
	if fresh, err := models.JobByID(c.Request.Context(), h.d.DB, job.UserID, job.ID); err == nil {
		return fresh
	}
	return job
}
