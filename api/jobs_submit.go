package api

import (
	"context"
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

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/submit"
	"github.com/taskplatform/taskplatform/tasks"
)

// submitOptions are the headers and query parameters of a submit.
type submitOptions struct {
	wait         int // seconds; 0 = no wait
	waitAsked    bool
	startTimeout int // seconds; 0 = none sent
	startSent    bool
	webhookURL   string
	idemKey      string
	maxCredits   int64 // X-Service-Max-Credits; meaningful when maxSent
	maxSent      bool
}

// maxCreditsHeader is the submit's price ceiling: a job whose hold would
// pass it is refused before anything is held (max_credits_exceeded).
const maxCreditsHeader = "X-Service-Max-Credits"

// webhookURLRules are the form of a webhook_url: an https:// URL.
var webhookURLRules = []validation.Rule{is.URL,
	validation.Match(regexp.MustCompile(`^https://`)).Error("must be an https:// URL")}

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
		n, err := plainInt(v)
		if err != nil {
			return o, apierr.New(apierr.InvalidRequest, "X-Service-Start-Timeout must be a whole number of seconds.").
				WithField("X-Service-Start-Timeout")
		}
		o.startTimeout, o.startSent = int(min(n, 1<<31)), true
	}
	if v := c.GetHeader(maxCreditsHeader); v != "" {
		n, err := plainInt(v)
		if err != nil {
			return o, apierr.New(apierr.InvalidRequest, maxCreditsHeader+" must be a whole number of credits, 0 or more.").
				WithField(maxCreditsHeader)
		}
		o.maxCredits, o.maxSent = n, true
	}
	o.webhookURL = c.Query("webhook_url")
	o.idemKey = c.GetHeader("Idempotency-Key")
	err := validation.Errors{
		"X-Service-Start-Timeout": validation.Validate(o.startTimeout, validation.When(o.startSent,
			validation.Min(lim.StartTimeout.MinSeconds), validation.Max(lim.StartTimeout.MaxSeconds))),
		"webhook_url":     validation.Validate(o.webhookURL, webhookURLRules...),
		"Idempotency-Key": validation.Validate(o.idemKey, validation.Length(0, 255)),
	}.Filter()
	return o, firstFieldError(err)
}

// plainInt reads a header's whole number written as plain decimal digits:
// a sign, a point, an exponent or another base ("+6", "6.0", "6e0",
// "0x6") is refused rather than read as 6.
func plainInt(v string) (int64, error) {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 18 || strings.Trim(v, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseInt(v, 10, 64)
}

// overCeiling is the 402 max_credits_exceeded of a job that would hold
// credits above the request's X-Service-Max-Credits (nil when none was
// sent or the hold is within it): a submit's and an estimate's alike.
func (o submitOptions) overCeiling(credits int64) error {
	if !o.maxSent || credits <= o.maxCredits {
		return nil
	}
	return apierr.Newf(apierr.MaxCreditsExceeded,
		"The job would hold %d credits, more than %s: %d; nothing was held.", credits, maxCreditsHeader,
		o.maxCredits).WithMaxCredits(credits, o.maxCredits)
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

// submit answers POST /v1/tasks/{name}: it parses and validates the
// request, hands the job to the submit use case (idempotency, admission, the
// admit, the late path) and answers the handle or, with Prefer: wait, the
// result.
func (h *jobHandlers) submit(c *gin.Context) {
	def, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	lim := contract.DefaultLimits()
	opts, err := parseSubmitOptions(c, lim)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	if err := h.checkWebhookURL(c, opts.webhookURL); err != nil {
		middleware.Fail(c, err)
		return
	}
	body, err := middleware.ReadJSONBody(c, lim.Request.MaxBodyBytes)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	job, err := h.prepareJob(c, def, body, opts)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	req := submit.Request{
		Job:            job.in,
		IdempotencyKey: opts.idemKey,
		Log:            middleware.Logger(c),
		AdmitRecords:   job.admitRecords,
	}
	res, err := h.submitter().Submit(c.Request.Context(), req)
	switch {
	case err != nil:
		middleware.Fail(c, err)
	case res.Admitted != nil:
		h.answerJob(c, res.Admitted, opts) // just admitted: the row holds exactly what the admit wrote
	default:
		h.answerExisting(c, res.JobID, opts)
	}
}

// checkWebhookURL refuses a webhook_url that does not resolve to a public
// address (its form was checked with the submit's options).
func (h *jobHandlers) checkWebhookURL(c *gin.Context, url string) error {
	if url == "" {
		return nil
	}
	if err := outbound.CheckURL(c.Request.Context(), url, h.d.AllowPrivateURLs); err != nil {
		return apierr.New(apierr.InvalidRequest,
			"webhook_url must be an https:// address that resolves to a public address.").WithField("webhook_url")
	}
	return nil
}

// preparedJob is a submit checked and priced, ready for the submit use
// case: a submit makes one, a batch one per item.
type preparedJob struct {
	in contract.JobInput
	// admitRecords runs the task's own checks on the account's records
	// and writes them for the job; nil for a task that keeps none.
	admitRecords func(ctx context.Context, jobID string) error
}

// prepareJob checks a task's input exactly as a submit does (the schema,
// the references, the task's own refusals) and prices it against the
// price ceiling; the job id is the submit use case's to set.
func (h *jobHandlers) prepareJob(c *gin.Context, def *tasks.Definition, body []byte,
	opts submitOptions) (preparedJob, error) {
	input, err := h.d.checkInput(c, def, body)
	if err != nil {
		return preparedJob{}, err
	}
	credits, creditType := def.Estimate(input)
	if err := opts.overCeiling(credits); err != nil {
		return preparedJob{}, err
	}
	normalized, _ := json.Marshal(input.Fields)
	id := middleware.IdentityOf(c)
	out := preparedJob{in: contract.JobInput{JobID: models.NewID("j_"), Task: def.Name, UserID: id.User.ID,
		APIKeyID: id.KeyID(), Input: normalized, CreditType: creditType, HeldCredits: credits,
		PricePerOutput: def.PricePerOutput(input), StartTimeoutSeconds: opts.startTimeout, WebhookURL: opts.webhookURL,
		RequestID: middleware.RequestIDOf(c), ServiceVersion: middleware.ContractOf(c).Version(),
		Intent: submitIntent(opts), Weight: models.PlanWeight(id.User.Plan)}}
	if _, ok := def.Runner.(tasks.Admitter); ok {
		out.admitRecords = func(_ context.Context, jobID string) error { return h.d.admitRecords(c, def, jobID, input) }
	}
	return out, nil
}

// submitIntent is a submit's intent: a wait when the caller asked to wait
// for the result (Prefer: wait).
func submitIntent(opts submitOptions) string {
	if opts.waitAsked && opts.wait > 0 {
		return contract.IntentWait
	}
	return contract.IntentSubmit
}

// submitter is the submit use case on the API's dependencies.
func (h *jobHandlers) submitter() *submit.Service {
	return &submit.Service{DB: h.d.DB, Temporal: h.d.Temporal, TaskQueue: h.d.TaskQueue, AdmitTimeout: h.d.AdmitTimeout,
		Now: h.d.Now, SendThresholds: func(ctx context.Context, jobID string) error {
			return (&events.Emitter{DB: h.d.DB, Temporal: h.d.Temporal}).SpendThresholds(ctx, jobID, h.d.TaskQueue)
		}}
}

// answerExisting answers the handle of an admitted job, or its outcome when
// the caller asked to wait and the job ends in time.
func (h *jobHandlers) answerExisting(c *gin.Context, jobID string, opts submitOptions) {
	job, err := models.JobByID(c.Request.Context(), h.d.DB, middleware.IdentityOf(c).User.ID, jobID)
	if err != nil {
		middleware.Fail(c, err)
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
	v, err := h.view(c, &queueReader{d: h.d}, job)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, v)
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
