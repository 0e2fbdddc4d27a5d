package activities

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// EndpointDisableAfter is how many deliveries in a row an endpoint may fail
// before it is disabled.
const EndpointDisableAfter = 20

// Event is one event of one job.
type Event struct {
	JobID string
	Event string
	// Seq tells apart events of one kind (the output number for progress).
	Seq        int
	OccurredAt time.Time
	// Job is the job's row as the caller just wrote or read it; nil: the
	// event reads it.
	Job *models.Job
	// AccountVersion is the contract version the job's account is pinned
	// to, read with Job ("" for none); nil: the event reads it.
	AccountVersion *string
}

// Delivery names one delivery an event made.
type Delivery = events.Delivery

// recordEvent writes one delivery per subscriber of a job event (registered
// endpoints subscribed to it, and the job's webhook_url for terminal
// events), all carrying the same body and event id. Repeating it is safe.
func (a *Activities) recordEvent(ctx context.Context, in Event) ([]Delivery, error) {
	job, err := in.Job, error(nil)
	if job == nil {
		if job, err = models.JobByIDAny(ctx, a.DB, in.JobID); err != nil {
			return nil, err
		}
	}
	eventID := events.ID("evt_", in.JobID, in.Event, strconv.Itoa(in.Seq))
	body, err := a.eventBody(ctx, job, eventID, in)
	if err != nil {
		return nil, err
	}
	type target struct{ endpointID, url string }
	var targets []target
	var eps []models.WebhookEndpoint
	if job.APIKeyID != "" { // jobs started in the app are never sent to registered endpoints
		if eps, err = models.EndpointsFor(ctx, a.DB, job.UserID, in.Event); err != nil {
			return nil, err
		}
	}
	for _, ep := range eps {
		targets = append(targets, target{ep.ID, ep.URL})
	}
	if job.WebhookURL != "" && isTerminal(in.Event) {
		targets = append(targets, target{"", job.WebhookURL})
	}
	out := make([]Delivery, 0, len(targets))
	for _, t := range targets {
		d := &models.WebhookDelivery{
			ID:         events.ID("whd_", eventID, t.endpointID, t.url),
			EventID:    eventID,
			UserID:     job.UserID,
			EndpointID: t.endpointID,
			URL:        t.url,
			Event:      in.Event,
			JobID:      job.ID,
			Body:       string(body),
			Status:     models.DeliveryPending,
		}
		if err := models.CreateDelivery(ctx, a.DB, d); err != nil && !errors.Is(err, gorm.ErrDuplicatedKey) {
			return nil, fmt.Errorf("record delivery: %w", err)
		}
		out = append(out, Delivery{DeliveryID: d.ID, EndpointID: t.endpointID, UserID: job.UserID})
	}
	return out, nil
}

func isTerminal(event string) bool {
	for _, e := range contract.TerminalEvents {
		if e == event {
			return true
		}
	}
	return false
}

// Deliver signs and POSTs one delivery. 2xx is delivered; 3xx and 4xx other
// than 408/429 fail for good; anything else is retried by the workflow's
// retry policy. Every attempt is written to the delivery log. A delivery
// whose endpoint is no longer enabled ends skipped, unsent.
func (a *Activities) Deliver(ctx context.Context, deliveryID string) error {
	d, err := models.DeliveryByID(ctx, a.DB, deliveryID)
	if err != nil {
		return err
	}
	if d.Status != models.DeliveryPending {
		return nil
	}
	if d.EndpointID != "" {
		enabled, err := models.EndpointEnabled(ctx, a.DB, d.EndpointID)
		if err != nil {
			return err
		}
		if !enabled {
			return a.skip(ctx, d)
		}
	}
	info := activity.GetInfo(ctx)
	final := info.RetryPolicy != nil && info.RetryPolicy.MaximumAttempts > 0 &&
		info.Attempt >= info.RetryPolicy.MaximumAttempts
	start := a.now()
	ts := start.Unix()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader([]byte(d.Body)))
	if err != nil {
		return a.finish(
			ctx,
			d,
			models.WebhookAttempt{Attempt: int(info.Attempt), At: start, Error: "bad URL"},
			true,
			false,
		)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "taskplatform-webhooks/1")
	req.Header.Set("X-Service-Request-Id", d.ID)
	req.Header.Set("X-Service-User-Id", strconv.FormatUint(d.UserID, 10))
	req.Header.Set("X-Service-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Service-Signature", a.Signer.Sign(d.ID, d.UserID, ts, []byte(d.Body)))
	res, err := a.HTTP.Do(req)
	att := models.WebhookAttempt{Attempt: int(info.Attempt), At: start, DurationMS: time.Since(start).Milliseconds()}
	if err != nil {
		att.Error = "no answer: " + err.Error()
		return a.finish(ctx, d, att, final, false)
	}
	// The log keeps the start of the receiver's answer; no more is read.
	answer, _ := io.ReadAll(io.LimitReader(res.Body, models.MaxAttemptResponse))
	_ = res.Body.Close()
	att.Response = models.AttemptResponse(answer)
	att.StatusCode = res.StatusCode
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return a.finish(ctx, d, att, true, true)
	case res.StatusCode == http.StatusRequestTimeout || res.StatusCode == http.StatusTooManyRequests ||
		res.StatusCode >= 500:
		return a.finish(ctx, d, att, final, false)
	default:
		return a.finish(ctx, d, att, true, false)
	}
}

// finish records an attempt; a final failure also counts against the
// endpoint. It returns the error the retry policy acts on.
func (a *Activities) finish(
	ctx context.Context,
	d *models.WebhookDelivery,
	att models.WebhookAttempt,
	final, ok bool,
) error {
	status := models.DeliveryPending
	switch {
	case ok:
		status = models.DeliveryDelivered
	case final:
		status = models.DeliveryFailed
	}
	var next *time.Time
	if status == models.DeliveryPending {
		at := att.At.Add(nextRetry(activity.GetInfo(ctx)))
		next = &at
	}
	if err := models.RecordAttempt(ctx, a.DB, d.ID, att, status, next); err != nil {
		return fmt.Errorf("record attempt: %w", err)
	}
	if d.EndpointID != "" && (ok || final) {
		if err := models.MarkEndpointResult(ctx, a.DB, d.EndpointID, ok, EndpointDisableAfter); err != nil {
			a.Log.Error("endpoint result not recorded", zap.String("endpoint_id", d.EndpointID), zap.Error(err))
		}
	}
	a.Log.Info(
		"webhook attempt",
		zap.String("delivery_id", d.ID),
		zap.String("event", d.Event),
		zap.String("job_id", d.JobID),
		zap.Int("attempt", att.Attempt),
		zap.Int("status_code", att.StatusCode),
		zap.String("result", status),
	)
	if ok {
		return nil
	}
	msg := fmt.Sprintf("webhook answered %d %s", att.StatusCode, att.Error)
	if final {
		return temporal.NewNonRetryableApplicationError(msg, contract.ErrTypeWebhookRejected, nil)
	}
	return temporal.NewApplicationError(msg, "webhook_retry")
}

// skip ends a delivery to a disabled endpoint without sending it.
func (a *Activities) skip(ctx context.Context, d *models.WebhookDelivery) error {
	const reason = "endpoint disabled: not sent"
	if err := models.SkipDelivery(ctx, a.DB, d.ID, reason); err != nil {
		return err
	}
	a.Log.Info(
		"webhook skipped",
		zap.String("delivery_id", d.ID),
		zap.String("endpoint_id", d.EndpointID),
		zap.String("event", d.Event),
	)
	return temporal.NewNonRetryableApplicationError(reason, contract.ErrTypeEndpointDisabled, nil)
}

// nextRetry is how long the retry policy waits after this attempt, for the
// delivery log's next attempt time.
func nextRetry(info activity.Info) time.Duration {
	p := info.RetryPolicy
	if p == nil || p.InitialInterval <= 0 {
		return 0
	}
	coef := p.BackoffCoefficient
	if coef < 1 {
		coef = 2
	}
	d := float64(p.InitialInterval) * math.Pow(coef, float64(info.Attempt-1))
	if p.MaximumInterval > 0 {
		d = math.Min(d, float64(p.MaximumInterval))
	}
	return time.Duration(d)
}

// eventBody is the public event body; terminal events carry the result or
// the error.
func (a *Activities) eventBody(ctx context.Context, j *models.Job, eventID string, in Event) ([]byte, error) {
	// The body follows the version the account is pinned to (the job's
	// own, for an account without a pin; the current one when neither is
	// a version served).
	pinned := in.AccountVersion
	if pinned == nil {
		switch u, err := models.UserByID(ctx, a.DB, j.UserID); {
		case err == nil:
			pinned = &u.ServiceVersion
		case !errors.Is(err, models.ErrNotFound):
			return nil, err
		}
	}
	version := j.ServiceVersion
	if pinned != nil && contract.KnownVersion(*pinned) {
		version = *pinned
	}
	version = contract.VersionOr(version)
	body := wire.Event{ID: eventID, OccurredAt: in.OccurredAt.UTC(), Event: in.Event, APIVersion: version,
		JobID: j.ID, Task: j.Task, Lifecycle: j.Lifecycle, Outcome: j.Outcome, Progress: j.WireProgress()}
	switch in.Event {
	case contract.EventSucceeded:
		// Every file in one page: a webhook has no cursor to follow.
		files, _, err := models.JobFiles(ctx, a.DB, j.ID, -1, maxEventFiles)
		if err != nil {
			return nil, err
		}
		result := j.WireResult(files, a.FilesBaseURL, false, "")
		body.Result = &result
	case contract.EventFailed, contract.EventCancelled:
		if j.Error != nil {
			body.Error = wire.ErrorIn(json.RawMessage(*j.Error), version)
		}
	}
	return json.Marshal(body)
}

// maxEventFiles bounds the files a job.succeeded body lists.
const maxEventFiles = 1000
