package panelapi

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
)

// EndpointView is a registered webhook endpoint as the panel lists it.
type EndpointView struct {
	ID             string    `json:"id"`
	URL            string    `json:"url"`
	Events         []string  `json:"events"`
	Disabled       bool      `json:"disabled"`
	DisabledReason *string   `json:"disabled_reason"`
	Failures       int       `json:"failures"`
	CreatedAt      time.Time `json:"created_at"`
}

func endpointView(ep *models.WebhookEndpoint) EndpointView {
	v := EndpointView{
		ID:        ep.ID,
		URL:       ep.URL,
		Events:    strings.Split(ep.Events, ","),
		Disabled:  ep.Disabled,
		Failures:  ep.Failures,
		CreatedAt: ep.CreatedAt.UTC(),
	}
	if ep.DisabledReason != "" {
		v.DisabledReason = &ep.DisabledReason
	}
	return v
}

// endpointBody is the body of POST and PATCH /v1/account/webhooks.
type endpointBody struct {
	URL    *string  `json:"url"`
	Events []string `json:"events"`
}

// checkURL refuses a receiver that is not https:// or does not resolve to
// public addresses (private ones in dev and tests only). A receiver on the
// caller's own machine (localhost, a loopback or private address) is
// pointed to `taskplatform webhooks listen`, which forwards the account's
// events there.
func (p *Handlers) checkURL(c *gin.Context, raw string) error {
	if !strings.HasPrefix(raw, "https://") || len(raw) > 2048 {
		return apierr.New(apierr.InvalidRequest, "url must be an https:// address."+listenHint(raw, false)).
			WithField("url")
	}
	if err := outbound.CheckURL(c.Request.Context(), raw, p.AllowPrivateURLs); err != nil {
		return apierr.New(apierr.InvalidRequest, "url must resolve to public addresses only."+
			listenHint(raw, errors.Is(err, outbound.ErrNotPublic))).WithField("url")
	}
	return nil
}

// listenHint is the advice after a refused receiver on the caller's own
// machine (local, or its host named so): run `taskplatform webhooks
// listen`, forwarding to that address; empty for any other receiver.
func listenHint(raw string, notPublic bool) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	local := host == "localhost" || strings.HasSuffix(host, ".localhost") ||
		ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified())
	if !local && !notPublic {
		return ""
	}
	return " To receive events on your own machine, run `taskplatform webhooks listen --forward-to " +
		u.Host + u.EscapedPath() + "`: it forwards the account's events there, signed."
}

// checkEvents is events without repeats, each a webhook_event of the
// vocabulary; none is an empty list.
func (p *Handlers) checkEvents(events []string) (string, error) {
	known := p.WebhookEvents
	var out []string
	for _, e := range events {
		if e == contract.EventPing {
			return "", apierr.New(apierr.InvalidOption, "ping is not subscribed to: it is sent on request "+
				"(POST /v1/account/webhooks/{endpoint_id}/ping, Send ping in the panel).").WithField("events")
		}
		if !slices.Contains(known, e) {
			return "", apierr.Newf(apierr.InvalidOption, "Unknown event %q; events are %s.", e, strings.Join(known, ", ")).
				WithField("events")
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return strings.Join(out, ","), nil
}

// ListEndpoints answers GET /v1/account/webhooks.
func (p *Handlers) ListEndpoints(c *gin.Context) {
	eps, err := models.EndpointsOfUser(c.Request.Context(), p.DB, middleware.IdentityOf(c).User.ID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	out := make([]EndpointView, len(eps))
	for i := range eps {
		out[i] = endpointView(&eps[i])
	}
	c.JSON(http.StatusOK, gin.H{"items": out})
}

// CreateEndpoint answers POST /v1/account/webhooks: a new endpoint, by
// default subscribed to the terminal events.
func (p *Handlers) CreateEndpoint(c *gin.Context) {
	var body endpointBody
	if err := decodeBody(c, &body); err != nil {
		middleware.Fail(c, err)
		return
	}
	if body.URL == nil || *body.URL == "" {
		middleware.Fail(c, apierr.New(apierr.InvalidRequest, "url is required.").WithField("url"))
		return
	}
	if err := p.checkURL(c, *body.URL); err != nil {
		middleware.Fail(c, err)
		return
	}
	events, err := p.checkEvents(body.Events)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	ep := &models.WebhookEndpoint{UserID: middleware.IdentityOf(c).User.ID, URL: *body.URL, Events: events}
	if err := models.CreateEndpoint(c.Request.Context(), p.DB, ep); err != nil {
		middleware.Fail(c, endpointRefusal(err))
		return
	}
	c.JSON(http.StatusCreated, endpointView(ep))
}

// endpointRefusal answers the account's endpoint limit and a url the
// account has an endpoint at already; other errors pass through.
func endpointRefusal(err error) error {
	var exists *models.EndpointExists
	switch {
	case errors.As(err, &exists):
		return apierr.Newf(apierr.EndpointExists, "The account already has endpoint %s at this url; change its events "+
			"instead.", exists.ID).
			WithField("url")
	case errors.Is(err, models.ErrTooManyEndpoints):
		return apierr.Newf(apierr.TooManyEndpoints, "The account has %d webhook endpoints, the most it may "+
			"(limits.webhook_endpoints.max_per_account of GET /v1/meta); remove one first.",
			contract.DefaultLimits().WebhookEndpoints.MaxPerAccount).
			WithField("url")
	}
	return err
}

// ownEndpoint is the account's endpoint named in the path, or a 404.
func (p *Handlers) ownEndpoint(c *gin.Context) (*models.WebhookEndpoint, bool) {
	ep, err := models.EndpointOfUser(
		c.Request.Context(),
		p.DB,
		middleware.IdentityOf(c).User.ID,
		c.Param("endpoint_id"),
	)
	if errors.Is(err, models.ErrNotFound) {
		err = apierr.New(apierr.NotFound, "The account has no webhook endpoint with this id.").WithField("endpoint_id")
	}
	if err != nil {
		middleware.Fail(c, err)
		return nil, false
	}
	return ep, true
}

// UpdateEndpoint answers PATCH /v1/account/webhooks/{endpoint_id}: a new
// url or a new list of events.
func (p *Handlers) UpdateEndpoint(c *gin.Context) {
	var body endpointBody
	if err := decodeBody(c, &body); err != nil {
		middleware.Fail(c, err)
		return
	}
	ep, ok := p.ownEndpoint(c)
	if !ok {
		return
	}
	var url string
	if body.URL != nil {
		if err := p.checkURL(c, *body.URL); err != nil {
			middleware.Fail(c, err)
			return
		}
		url = *body.URL
	}
	events, err := p.checkEvents(body.Events)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	if body.Events != nil && events == "" {
		events = models.DefaultEndpointEvents
	}
	ep, err = models.UpdateEndpoint(c.Request.Context(), p.DB, ep.UserID, ep.ID, url, events)
	if err != nil {
		middleware.Fail(c, endpointRefusal(err))
		return
	}
	c.JSON(http.StatusOK, endpointView(ep))
}

// DeleteEndpoint answers DELETE /v1/account/webhooks/{endpoint_id}.
func (p *Handlers) DeleteEndpoint(c *gin.Context) {
	ep, ok := p.ownEndpoint(c)
	if !ok {
		return
	}
	if err := models.DeleteEndpoint(c.Request.Context(), p.DB, ep.UserID, ep.ID); err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"id": ep.ID, "deleted": true})
}

// EnableEndpoint answers POST /v1/account/webhooks/{endpoint_id}/enable:
// enabled again, its failure count reset.
func (p *Handlers) EnableEndpoint(c *gin.Context) {
	ep, ok := p.ownEndpoint(c)
	if !ok {
		return
	}
	if err := models.EnableEndpoint(c.Request.Context(), p.DB, ep.ID); err != nil {
		middleware.Fail(c, err)
		return
	}
	if ep, ok = p.ownEndpoint(c); ok {
		c.JSON(http.StatusOK, endpointView(ep))
	}
}

// PingEndpoint answers POST /v1/account/webhooks/{endpoint_id}/ping: a
// signed test event, delivered and logged like any event — ping, or with
// a body {"event": kind} a sample event of any kind an endpoint can
// receive (as `stripe trigger` sends one).
func (p *Handlers) PingEndpoint(c *gin.Context) {
	ep, ok := p.ownEndpoint(c)
	if !ok {
		return
	}
	kind := contract.EventPing
	if c.Request.ContentLength != 0 {
		body, err := middleware.ReadJSONBody(c, contract.DefaultLimits().Request.MaxBodyBytes)
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		var in struct {
			Event *string `json:"event"`
		}
		if err := json.Unmarshal(body, &in); err != nil {
			middleware.Fail(
				c,
				apierr.New(apierr.MalformedRequest, `The body must be a JSON object such as {"event": "job.failed"}.`),
			)
			return
		}
		if in.Event != nil {
			kind = *in.Event
		}
	}
	d, known, err := events.SampleOf(c.Request.Context(), p.DB, ep, kind, p.now(), contract.CurrentVersion)
	if err == nil && !known {
		err = apierr.Newf(apierr.InvalidOption, "event must be one of %s.", strings.Join(events.SampleKinds(), ", ")).
			WithField("event")
	}
	if err == nil {
		err = events.StartDelivery(c.Request.Context(), p.Temporal, p.DB, p.TaskQueue, d, "panel test event")
	}
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, gin.H{"delivery_id": d.ID, "event_id": d.EventID})
}
