package panelapi

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/paging"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
)

// AttemptView is one POST of a delivery.
type AttemptView struct {
	Attempt    int       `json:"attempt"`
	At         time.Time `json:"at"`
	StatusCode *int      `json:"status_code"`
	DurationMS int64     `json:"duration_ms"`
	Error      *string   `json:"error"`
	// Response is the start of the receiver's answer body, as text.
	Response *string `json:"response"`
}

// DeliveryView is one delivery of the delivery log with its attempts.
type DeliveryView struct {
	ID            string        `json:"id"`
	EventID       string        `json:"event_id"`
	Event         string        `json:"event"`
	Status        string        `json:"status"`
	EndpointID    *string       `json:"endpoint_id"`
	URL           string        `json:"url"`
	JobID         *string       `json:"job_id"`
	Attempts      []AttemptView `json:"attempts"`
	NextAttemptAt *time.Time    `json:"next_attempt_at"`
	CreatedAt     time.Time     `json:"created_at"`
}

// DeliveryViewOf is a delivery with its attempts as the log shows it.
func DeliveryViewOf(d *models.WebhookDelivery, attempts []models.WebhookAttempt) DeliveryView {
	v := DeliveryView{
		ID:         d.ID,
		EventID:    d.EventID,
		Event:      d.Event,
		Status:     d.Status,
		EndpointID: nonEmpty(d.EndpointID),
		URL:        d.URL,
		JobID: nonEmpty(
			d.JobID,
		),
		Attempts:      make([]AttemptView, len(attempts)),
		NextAttemptAt: utc(d.NextAttemptAt),
		CreatedAt:     d.CreatedAt.UTC(),
	}
	for i, a := range attempts {
		av := AttemptView{Attempt: a.Attempt, At: a.At.UTC(), DurationMS: a.DurationMS, Error: nonEmpty(a.Error),
			Response: nonEmpty(a.Response)}
		if a.StatusCode != 0 {
			code := a.StatusCode
			av.StatusCode = &code
		}
		v.Attempts[i] = av
	}
	return v
}

// DeliveryStatuses are the statuses the log filters on.
var DeliveryStatuses = []string{
	models.DeliveryPending,
	models.DeliveryDelivered,
	models.DeliveryFailed,
	models.DeliverySkipped,
}

// timeParam reads an RFC 3339 query parameter; absent is nil.
func timeParam(c *gin.Context, name string) (*time.Time, error) {
	v := c.Query(name)
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, apierr.Newf(apierr.InvalidRequest, "%s must be an ISO-8601 date-time such as 2026-01-02T15:04:05Z.",
			name).
			WithField(name)
	}
	return &t, nil
}

// ListDeliveries answers GET /v1/account/webhook-deliveries, newest first,
// filtered by event, status, endpoint, job and time range.
func (p *Handlers) ListDeliveries(c *gin.Context) {
	limit, after, err := paging.Query(c, 20, 100)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	q := models.DeliveryQuery{UserID: middleware.IdentityOf(c).User.ID, Event: c.Query("event"), Status: c.Query("status"),
		EndpointID: c.Query("endpoint_id"), JobID: c.Query("job_id"), After: after, Limit: limit}
	if q.Status != "" && !slices.Contains(DeliveryStatuses, q.Status) {
		middleware.Fail(
			c,
			apierr.New(apierr.InvalidOption, "status is one of pending, delivered, failed, skipped.").
				WithField("status"),
		)
		return
	}
	if q.Start, err = timeParam(c, "start"); err == nil {
		q.End, err = timeParam(c, "end")
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	page, err := models.ListDeliveries(c.Request.Context(), p.DB, q)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	ids := make([]string, len(page.Items))
	for i, d := range page.Items {
		ids[i] = d.ID
	}
	attempts, err := models.AttemptsOf(c.Request.Context(), p.DB, ids)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	items := make([]DeliveryView, len(page.Items))
	for i := range page.Items {
		items[i] = DeliveryViewOf(&page.Items[i], attempts[page.Items[i].ID])
	}
	paging.Write(c, items, page.Next)
}

// ReplayDelivery answers POST /v1/account/webhook-deliveries/{delivery_id}/replay:
// the stored body again as a new delivery with the same event id.
func (p *Handlers) ReplayDelivery(c *gin.Context) {
	old, err := models.DeliveryByID(c.Request.Context(), p.DB, c.Param("delivery_id"))
	if errors.Is(err, models.ErrNotFound) || (err == nil && old.UserID != middleware.IdentityOf(c).User.ID) {
		err = apierr.New(apierr.NotFound, "The account has no delivery with this id.").WithField("delivery_id")
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	d, err := events.ReplayOf(c.Request.Context(), p.DB, old.ID)
	if err == nil {
		err = events.StartDelivery(c.Request.Context(), p.Temporal, p.DB, p.TaskQueue, d, "panel replay")
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, gin.H{"delivery_id": d.ID, "event_id": d.EventID})
}
