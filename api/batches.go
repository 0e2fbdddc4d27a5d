package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	validation "github.com/go-ozzo/ozzo-validation/v4"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/submit"
	"github.com/taskplatform/taskplatform/wire"
)

// batchStartWithin bounds how long a batch request waits for its jobs'
// workflows to start; past it the answer is 202 with status starting and
// they go on starting (the workers' sweep starts what a stopped process
// left).
const batchStartWithin = 20 * time.Second

// batchBody is the body of POST /v1/batches.
type batchBody struct {
	Mode       string      `json:"mode"`
	WebhookURL string      `json:"webhook_url"`
	Items      []batchItem `json:"items"`
}

// batchItem is one submission of a batch: what a submit sends as its path,
// body and webhook_url.
type batchItem struct {
	Task       string          `json:"task"`
	Input      json.RawMessage `json:"input"`
	WebhookURL string          `json:"webhook_url"`
}

// createBatch answers POST /v1/batches: every item is checked and priced
// exactly as its submit would be (prepareJob); a refused item refuses the
// batch (422 batch_refused naming each refused item by index) unless mode
// is partial; the batch's holds are taken all or none, then its jobs'
// workflows started.
func (h *jobHandlers) createBatch(c *gin.Context) {
	lim := contract.DefaultLimits()
	opts, err := parseSubmitOptions(c, lim)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	raw, err := middleware.ReadJSONBody(c, lim.Batches.MaxBodyBytes)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	body, err := parseBatchBody(raw, lim.Batches)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	if err := h.checkWebhookURL(c, body.WebhookURL); err != nil {
		middleware.Fail(c, err)
		return
	}
	req := submit.BatchRequest{IdempotencyKey: opts.idemKey, StartWithin: batchStartWithin, Log: middleware.Logger(c)}
	var refused []apierr.ItemError
	for i, item := range body.Items {
		job, err := h.prepareItem(c, item, opts)
		if err == nil && job.admitRecords != nil {
			err = job.admitRecords(c.Request.Context(), "") // the records' checks, nothing written
		}
		var ae *apierr.Error
		switch {
		case errors.As(err, &ae):
			refused = append(refused, apierr.ItemError{Index: i, Error: itemError(c, ae)})
			continue
		case err != nil:
			middleware.Fail(c, err)
			return
		}
		req.Jobs, req.Indexes = append(req.Jobs, job.in), append(req.Indexes, i)
		req.AdmitRecords = append(req.AdmitRecords, job.admitRecords)
	}
	if len(refused) > 0 && (body.Mode == models.BatchAll || len(req.Jobs) == 0) {
		middleware.Fail(
			c,
			apierr.Newf(apierr.BatchRefused, "%d of the batch's %d items were refused; nothing was held or started.",
				len(refused), len(body.Items)).WithItems(refused),
		)
		return
	}
	id := middleware.IdentityOf(c)
	req.Batch = models.Batch{ID: models.NewID("b_"), UserID: id.User.ID, APIKeyID: id.KeyID(), Mode: body.Mode,
		Jobs: len(
			req.Jobs,
		), Refused: refusedJSON(refused), WebhookURL: body.WebhookURL, RequestID: middleware.RequestIDOf(c)}
	req.Fingerprint = batchFingerprint(body, req.Jobs)
	res, err := h.submitter().SubmitBatch(c.Request.Context(), req)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	b, err := models.BatchByID(c.Request.Context(), h.d.DB, id.User.ID, res.BatchID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	h.answerBatch(c, b, http.StatusCreated)
}

// prepareItem checks one item as its submit would be checked: the task,
// its webhook_url, then its input (prepareJob).
func (h *jobHandlers) prepareItem(c *gin.Context, item batchItem, opts submitOptions) (preparedJob, error) {
	def, err := h.d.taskCatalogue().Tasks().Lookup(item.Task)
	if err != nil {
		return preparedJob{}, err
	}
	if err := validation.Validate(item.WebhookURL, webhookURLRules...); err != nil {
		return preparedJob{}, apierr.Newf(apierr.InvalidRequest, "webhook_url: %s.", err.Error()).
			WithField("webhook_url")
	}
	if err := h.checkWebhookURL(c, item.WebhookURL); err != nil {
		return preparedJob{}, err
	}
	input := []byte(item.Input)
	if len(bytes.TrimSpace(input)) == 0 {
		input = []byte("{}")
	}
	opts.webhookURL = item.WebhookURL
	return h.prepareJob(c, def, input, opts)
}

// itemError is an item's refusal as its submit would answer it.
func itemError(c *gin.Context, e *apierr.Error) *apierr.Error {
	out := *e
	middleware.ContractOf(c).ErrorObject(&out)
	return &out
}

// parseBatchBody reads a batch's body: its mode (all by default) and from
// one to lim.MaxItems items.
func parseBatchBody(raw []byte, lim contract.BatchLimits) (batchBody, error) {
	var body batchBody
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return body, apierr.New(apierr.InvalidRequest,
			"The body must be a JSON object: mode, webhook_url and items, each item a task, its input and an "+
				"optional webhook_url.")
	}
	if body.Mode == "" {
		body.Mode = models.BatchAll
	}
	err := validation.Errors{
		"mode":        validation.Validate(body.Mode, validation.In(models.BatchAll, models.BatchPartial)),
		"items":       validation.Validate(len(body.Items), validation.Min(1), validation.Max(lim.MaxItems)),
		"webhook_url": validation.Validate(body.WebhookURL, webhookURLRules...),
	}.Filter()
	if err != nil {
		return body, firstFieldError(err)
	}
	return body, nil
}

// refusedJSON stores a batch's refused items as its record answers them.
func refusedJSON(items []apierr.ItemError) string {
	out := make([]wire.RefusedItem, len(items))
	for i, it := range items {
		e, _ := json.Marshal(it.Error)
		out[i] = wire.RefusedItem{Index: it.Index, Error: e}
	}
	raw, _ := json.Marshal(out)
	return string(raw)
}

// batchFingerprint is what a batch's Idempotency-Key is bound to: its
// mode, webhook URL and every job as its submit's key would bind it.
func batchFingerprint(body batchBody, jobs []contract.JobInput) string {
	h := sha256.New()
	h.Write([]byte(body.Mode + "\x00" + body.WebhookURL + "\x00" + strconv.Itoa(len(body.Items))))
	for _, j := range jobs {
		h.Write([]byte("\x00" + j.Task + "\x00" + string(j.Input) + "\x00" + strconv.Itoa(j.StartTimeoutSeconds) +
			"\x00" + j.WebhookURL))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// getBatch answers GET /v1/batches/{batch_id}.
func (h *jobHandlers) getBatch(c *gin.Context) {
	b, err := models.BatchByID(c.Request.Context(), h.d.DB, middleware.IdentityOf(c).User.ID, c.Param("batch_id"))
	if errors.Is(err, models.ErrNotFound) {
		middleware.Fail(c, apierr.New(apierr.BatchNotFound, ""))
		return
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	h.answerBatch(c, b, http.StatusOK)
}

// answerBatch answers batch b's record with status, or 202 when a batch
// just written still has jobs to start.
func (h *jobHandlers) answerBatch(c *gin.Context, b *models.Batch, status int) {
	rec, err := models.BatchRecord(c.Request.Context(), h.d.DB, b, h.d.BaseURL)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	if status == http.StatusCreated && rec.Status == wire.BatchStarting {
		status = http.StatusAccepted
	}
	c.JSON(status, rec)
}
