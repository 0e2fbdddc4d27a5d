package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/paging"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// Report windows: at most maxReportWindow long, defaultReportWindow before
// end when start is not sent; call counts cover the last callWindow.
const (
	maxReportWindow     = 90 * 24 * time.Hour
	defaultReportWindow = 30 * 24 * time.Hour
	callWindow          = 30 * 24 * time.Hour
)

// timeLayouts are the ISO-8601 forms start and end accept; a value without a
// zone is UTC.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", time.DateOnly}

// queryTime reads an optional ISO-8601 date-time query parameter.
func queryTime(c *gin.Context, field string) (time.Time, bool, error) {
	v := c.Query(field)
	if v == "" {
		return time.Time{}, false, nil
	}
	v = strings.ReplaceAll(v, " ", "+") // an unescaped + in an offset arrives as a space
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), true, nil
		}
	}
	return time.Time{}, false, apierr.Newf(apierr.InvalidRequest, "%s must be an ISO-8601 date-time such as "+
		"2026-09-29T00:00:00Z.", field).
		WithField(field)
}

// reportWindow reads [start, end): end defaults to asOf, start to 30 days
// before end; the window must be non-empty and at most 90 days.
func reportWindow(c *gin.Context, asOf time.Time) (start, end time.Time, err error) {
	end, sent, err := queryTime(c, "end")
	if err != nil {
		return
	}
	if !sent {
		end = asOf
	}
	start, sent, err = queryTime(c, "start")
	if err != nil {
		return
	}
	if !sent {
		start = end.Add(-defaultReportWindow)
	}
	switch {
	case !start.Before(end):
		err = apierr.New(apierr.InvalidRequest, "start must be before end.").WithField("start")
	case end.Sub(start) > maxReportWindow:
		err = apierr.New(apierr.InvalidRequest, "The window from start to end is at most 90 days.").WithField("start")
	}
	return
}

// usage answers GET /v1/account/usage: spend in [start, end) per task, key
// and credit type, from the jobs settled in the window.
func (h *accountHandlers) usage(c *gin.Context) {
	asOf := h.now()
	start, end, err := reportWindow(c, asOf)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	rows, err := models.Usage(c.Request.Context(), h.db, middleware.IdentityOf(c).User.ID, start, end)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"as_of": asOf, "start": start, "end": end, "items": rows})
}

// requestView is one call of GET /v1/account/requests.
type requestView struct {
	RequestID       string    `json:"request_id"`
	ClientRequestID *string   `json:"client_request_id"`
	APIKeyID        string    `json:"api_key_id"`
	Method          string    `json:"method"`
	Path            string    `json:"path"`
	Route           *string   `json:"route"`
	Task            *string   `json:"task"`
	Status          int       `json:"status"`
	ErrorCode       *string   `json:"error_code"`
	DurationMS      int64     `json:"duration_ms"`
	ServiceVersion  string    `json:"service_version"`
	CreatedAt       time.Time `json:"created_at"`
}

// requests answers GET /v1/account/requests: calls made by the account's
// keys, newest first, optionally of one key and in [start, end), cursor-paged.
func (h *accountHandlers) requests(c *gin.Context) {
	limit, after, err := paging.Query(c, 20, 100)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	f := models.RequestFilter{APIKeyID: c.Query("api_key_id")}
	if f.APIKeyID != "" && !strings.HasPrefix(f.APIKeyID, "key_") {
		middleware.Fail(
			c,
			apierr.New(apierr.InvalidRequest, "api_key_id is a key id such as key_….").WithField("api_key_id"),
		)
		return
	}
	for field, dst := range map[string]*time.Time{"start": &f.Start, "end": &f.End} {
		if *dst, _, err = queryTime(c, field); err != nil {
			middleware.Fail(c, err)
			return
		}
	}
	page, err := models.ListRequests(c.Request.Context(), h.db, middleware.IdentityOf(c).User.ID, f, after, limit)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	items := make([]requestView, 0, len(page.Items))
	for _, r := range page.Items {
		items = append(items, requestView{RequestID: r.RequestID, ClientRequestID: nonEmpty(r.ClientRequestID),
			APIKeyID: r.APIKeyID, Method: r.Method, Path: r.Path, Route: nonEmpty(r.Route), Task: nonEmpty(r.Task),
			Status: r.Status, ErrorCode: nonEmpty(r.ErrorCode), DurationMS: r.DurationMS, ServiceVersion: r.ServiceVersion,
			CreatedAt: r.CreatedAt.UTC()})
	}
	paging.Write(c, items, page.Next)
}

// groupFields name the group of a metrics row, per group_by.
var groupFields = map[string]string{
	models.GroupDay:   "day",
	models.GroupTask:  "task",
	models.GroupKey:   "api_key_id",
	models.GroupError: "code",
}

// metrics answers GET /v1/account/metrics: per day, task, key or error
// code, the jobs created in [start, end) (counts, outcomes, queue and run
// time p50/p95 as integer milliseconds, credits charged) and the calls made by keys
// in the same window, counted over the last 30 days only.
func (h *accountHandlers) metrics(c *gin.Context) {
	asOf := h.now()
	groupBy := c.DefaultQuery("group_by", models.GroupDay)
	field, ok := groupFields[groupBy]
	if !ok {
		middleware.Fail(
			c,
			apierr.New(apierr.InvalidOption, "group_by is one of day, task, key, error.").WithField("group_by"),
		)
		return
	}
	start, end, err := reportWindow(c, asOf)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	rows, err := models.Metrics(
		c.Request.Context(),
		h.db,
		models.MetricsQuery{
			UserID:    middleware.IdentityOf(c).User.ID,
			GroupBy:   groupBy,
			Start:     start,
			End:       end,
			CallsFrom: asOf.Add(-callWindow),
		},
	)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	items := make([]gin.H, 0, len(rows))
	for _, r := range rows {
		var group any = r.Group
		if r.Group == "" {
			group = nil // jobs started in the app have no key
		}
		items = append(items, gin.H{field: group, "jobs": r.Jobs,
			"queue_ms_p50": r.QueueMSP50, "queue_ms_p95": r.QueueMSP95, "run_ms_p50": r.RunMSP50, "run_ms_p95": r.RunMSP95,
			"credits_charged": r.CreditsCharged, "calls": r.Calls, "call_errors": r.CallErrors})
	}
	c.JSON(http.StatusOK, gin.H{"as_of": asOf, "start": start, "end": end, "group_by": groupBy, "items": items})
}
