package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// ListenDeliveryPrefix begins the X-Service-Request-Id of a delivery made
// on the listen stream (a registered endpoint's are whd_…).
const ListenDeliveryPrefix = "whl_"

// listenRoute is GET /v1/events: the account's job events, live, each the
// signed webhook delivery an endpoint would receive. `taskplatform webhooks
// listen` reads it and forwards each delivery to a local address: nothing
// is registered and the service never dials the developer's machine, so it
// needs no https receiver and no private-address exception, and it works
// against a remote server as against `dev`.
func listenRoute() route {
	return route{
		method: http.MethodGet,
		path:   "/v1/events",
		access: middleware.AccessKey,
		scope:  models.ScopeJobsRead,
		handle: func(h *handlers) gin.HandlerFunc {
			if h.d.Signer == nil {
				return nil
			}
			return jobs((*jobHandlers).listen)(h)
		},
		op: listenOperation(),
	}
}

// listenFrame is the data of one event of GET /v1/events: the headers and
// raw body of the webhook delivery, signed as a registered endpoint's.
type listenFrame struct {
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// listen answers GET /v1/events. It starts at the moment it is opened: a
// job already running is taken up at its current state, a job that had
// ended is never sent. Bodies follow the account's pinned version, as
// webhook bodies do.
func (h *jobHandlers) listen(c *gin.Context) {
	ctx := c.Request.Context()
	id := middleware.IdentityOf(c)
	user := id.User
	keyID := id.KeyID()
	opened := h.d.now()
	sub, err := jobstream.SubscribeAccount(ctx, h.d.DB, user.ID, keyID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	defer sub.Close()
	lease, err := h.openStream(ctx, user.ID, keyID, "")
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	defer h.closeStream(ctx, lease)
	version := ""
	if contract.KnownVersion(user.ServiceVersion) {
		version = user.ServiceVersion
	}
	_ = http.NewResponseController(c.Writer).SetWriteDeadline(time.Time{})
	hd := c.Writer.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	w := &sseWriter{c: c}
	w.Comment("events of the account, from now on")
	w.retry()
	// sent is the last sequence number sent of each job seen.
	sent := map[string]int64{}
	send := func(s *jobstream.Snapshot) {
		j := &s.Job
		last, seen := sent[j.ID]
		if !seen && j.EndedAt != nil && j.EndedAt.Before(opened) {
			sent[j.ID] = jobstream.SeqTerminal // ended before the stream: not its news
			return
		}
		fresh := !seen && j.CreatedAt.Before(opened)
		for _, f := range s.Events(last, fresh, h.d.FilesBaseURL) {
			if f.Seq <= last {
				continue
			}
			h.deliver(w, s, f, version)
			last = f.Seq
		}
		sent[j.ID] = last
	}
	h.stream(sub, lease, id.Key).Run(ctx, w, func(s *jobstream.Snapshot) bool {
		send(s)
		return false
	}, nil)
}

// deliver writes one event as the delivery a webhook endpoint would get:
// the body in the account's version, signed now with a delivery id of its
// own.
func (h *jobHandlers) deliver(w *sseWriter, s *jobstream.Snapshot, f jobstream.Frame, version string) {
	ev := f.Event
	if version != "" && version != ev.APIVersion {
		ev.APIVersion = version
		if ev.Error != nil && s.Job.Error != nil {
			ev.Error = wire.ErrorIn(json.RawMessage(*s.Job.Error), version)
		}
	}
	body, err := json.Marshal(ev)
	if err != nil {
		w.err = err
		return
	}
	deliveryID := models.NewID(ListenDeliveryPrefix)
	ts := h.d.now().Unix()
	data, err := json.Marshal(listenFrame{
		Headers: map[string]string{
			"Content-Type":         "application/json",
			"X-Service-Request-Id": deliveryID,
			"X-Service-User-Id":    strconv.FormatUint(s.Job.UserID, 10),
			"X-Service-Timestamp":  strconv.FormatInt(ts, 10),
			"X-Service-Signature":  h.d.Signer.Sign(deliveryID, s.Job.UserID, ts, body),
		},
		Body: string(body),
	})
	if err != nil {
		w.err = err
		return
	}
	w.write(fmt.Sprintf("id: %s\nevent: %s\ndata: %s\n\n", deliveryID, ev.Event, data))
}

// listenOperation documents GET /v1/events.
func listenOperation() openapi.Operation {
	frame := openapi.Object(oa{
		"headers": openapi.Describe(oa{"type": "object", "additionalProperties": openapi.Str()},
			"The delivery's headers: Content-Type, X-Service-Request-Id (whl_…), X-Service-User-Id, "+
				"X-Service-Timestamp and X-Service-Signature, as a registered endpoint receives them."),
		"body": openapi.Describe(
			openapi.Str(),
			"The raw body, exactly the bytes signed: a JobEvent as a webhook carries it.",
		),
	}, "headers", "body")
	stream := openapi.Describe(
		openapi.Str(),
		"Server-sent events. Each event is `id:` its delivery id, `event:` the event's kind and "+
			"`data:` one line of JSON: the delivery's headers and raw body (a JSON string), so a forwarder POSTs the body "+
			"with those headers and the receiver verifies it as any webhook (signed by a key of /.well-known/jwks.json). "+
			"Comment lines (`: heartbeat`) keep the stream open while nothing happens.",
	)
	stream["x-event-data"] = frame
	return openapi.Operation{
		ID:      "events_listen",
		Summary: "A live stream of the account's job events, each signed as a webhook delivery (server-sent events)",
		Description: "Beyond the spec, for local development (`taskplatform webhooks listen --forward-to URL`): every " +
			"job event of the account (job.started, job.progress, job.succeeded, job.failed, job.cancelled) from the " +
			"moment the stream opens — a job already running from its current state, none that had ended — with the " +
			"body in the account's pinned version. Nothing is registered and the service dials nothing, so it works " +
			"behind NAT, with no https receiver. A reconnect starts again from its own moment (no Last-Event-ID). " +
			"It counts against limits.event_streams of GET /v1/meta (429 too_many_streams beyond), ends after " +
			"limits.event_streams.max_seconds, and at once when its key is revoked or expires.",
		Answers: []openapi.Response{{
			Status:      http.StatusOK,
			Description: "The account's job events as they happen, until the stream ends.",
			Content:     oa{"text/event-stream": oa{"schema": stream}},
			Headers:     oa{"Cache-Control": openapi.Describe(openapi.Str(), "no-cache")},
		}},
	}
}
