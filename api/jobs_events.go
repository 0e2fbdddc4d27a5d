package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// StreamHeartbeat is how often an idle event stream sends a comment, so
// proxies keep it open.
var StreamHeartbeat = 15 * time.Second

// StreamMaxAge ends a stream that has been open this long; the client
// resumes it with Last-Event-ID (a stream left open by a vanished client
// ends too).
var StreamMaxAge = time.Duration(contract.DefaultLimits().EventStreams.MaxSeconds) * time.Second

// events answers GET /v1/jobs/{job_id}/events: the job's events as
// text/event-stream, from its row and then as the activities record
// changes (jobstream), ending after the terminal event. Last-Event-ID
// resumes after that event; a resume after the terminal event answers 204,
// which tells an EventSource to stop reconnecting. A stream that stays open
// holds a lease counted against limits.event_streams (429 too_many_streams
// beyond them), and ends when its key is revoked or expires.
func (h *jobHandlers) events(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	last, fresh := lastEventID(c.GetHeader("Last-Event-ID"))
	keyID := middleware.IdentityOf(c).KeyID()
	// Subscribe before reading, so no change after the read is missed.
	sub, err := jobstream.Subscribe(ctx, h.d.DB, j.ID, keyID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	defer sub.Close()
	snap, err := jobstream.Load(ctx, h.d.DB, j.ID)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	if !fresh && last >= jobstream.SeqTerminal && snap.Ended() {
		c.Status(http.StatusNoContent)
		return
	}
	var lease *models.EventStream
	if !snap.Ended() { // an ended job's stream ends at once: no lease
		if lease, err = h.openStream(ctx, middleware.IdentityOf(c).User.ID, keyID, j.ID); err != nil {
			middleware.Fail(c, err)
			return
		}
		defer h.closeStream(ctx, lease)
	}
	// The stream outlives the server's write timeout.
	_ = http.NewResponseController(c.Writer).SetWriteDeadline(time.Time{})
	hd := c.Writer.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	w := &sseWriter{c: c}
	w.Comment("events of " + j.ID)
	w.retry()
	// cur is the job as last read; sentQueue the queue state last sent.
	cur := snap
	var sentQueue *wire.Queue
	sendQueue := func(st jobstream.QueueState) {
		if f, ok := cur.QueueFrame(st); ok && jobstream.QueueMoved(sentQueue, st.Queue) {
			w.event(f)
			sentQueue = st.Queue
		}
	}
	send := func(s *jobstream.Snapshot) (done bool) {
		cur = s
		sendQueue(s.Queue)
		for _, f := range s.Events(last, fresh, h.d.FilesBaseURL) {
			if f.Seq <= last {
				continue
			}
			w.event(f)
			last = f.Seq
			if f.Terminal() {
				return true
			}
		}
		fresh = false
		return false
	}
	if send(snap) || w.err != nil {
		return
	}
	h.stream(sub, lease, middleware.IdentityOf(c).Key).Run(ctx, w, send, sendQueue)
}

// stream is the loop of a stream open on sub with lease (nil: none) and
// key (nil: a session).
func (h *jobHandlers) stream(sub *jobstream.Sub, lease *models.EventStream, key *models.APIKey) *jobstream.Stream {
	s := &jobstream.Stream{DB: h.d.DB, Sub: sub, Lease: lease, Now: h.d.now, Heartbeat: StreamHeartbeat,
		MaxAge: StreamMaxAge}
	if key != nil {
		s.KeyID, s.KeyExpires = key.ID, key.ExpiresAt
	}
	return s
}

// openStream takes a stream's lease, or answers 429 too_many_streams.
func (h *jobHandlers) openStream(ctx context.Context, userID uint64, keyID, jobID string) (*models.EventStream, error) {
	lim := contract.DefaultLimits().EventStreams
	lease, err := models.OpenStream(
		ctx,
		h.d.DB,
		userID,
		keyID,
		jobID,
		models.StreamLimits{PerKey: lim.MaxPerKey, PerAccount: lim.MaxPerAccount},
		h.d.now(),
		jobstream.LeaseFor(StreamHeartbeat),
	)
	var tooMany *models.TooManyStreams
	if errors.As(err, &tooMany) {
		who := "The account"
		if tooMany.PerKey {
			who = "This key"
		}
		wait := max(int64(StreamHeartbeat/time.Second), 1)
		return nil, apierr.Newf(apierr.TooManyStreams, "%s has %d event streams open, the most it may "+
			"(limits.event_streams of GET /v1/meta); "+
			"close one or wait for one to end.", who, tooMany.Limit).
			WithRetryAfter(wait)
	}
	return lease, err
}

// closeStream gives a stream's lease back, also when the client went away.
func (h *jobHandlers) closeStream(ctx context.Context, lease *models.EventStream) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := models.CloseStream(ctx, h.d.DB, lease.ID); err != nil {
		h.d.Log.Warn(
			"event stream lease not closed; it lapses by itself",
			zap.String("stream", lease.ID),
			zap.Error(err),
		)
	}
}

// lastEventID reads Last-Event-ID: a sequence number; fresh when absent or
// not one.
func lastEventID(v string) (last int64, fresh bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 {
		return 0, true
	}
	return n, false
}

// sseWriter writes server-sent events, flushing each; err keeps the first
// write error (the client went away).
type sseWriter struct {
	c   *gin.Context
	err error
}

func (w *sseWriter) write(s string) {
	if w.err != nil {
		return
	}
	if _, w.err = w.c.Writer.WriteString(s); w.err == nil {
		w.c.Writer.Flush()
	}
}

// Comment writes a comment line.
func (w *sseWriter) Comment(text string) { w.write(": " + text + "\n\n") }

// Failed says a write failed: the client went away.
func (w *sseWriter) Failed() bool { return w.err != nil }

// retry asks EventSource clients to reconnect after 3 s.
func (w *sseWriter) retry() { w.write("retry: 3000\n\n") }

func (w *sseWriter) event(f jobstream.Frame) {
	data, err := json.Marshal(f.Event)
	if err != nil {
		w.err = err
		return
	}
	w.write(fmt.Sprintf("id: %d\nevent: %s\ndata: %s\n\n", f.Seq, f.Event.Event, data))
}

// eventStreamOperation documents GET /v1/jobs/{job_id}/events.
func eventStreamOperation(jobID oa) openapi.Operation {
	stream := openapi.Describe(
		openapi.Str(),
		"Server-sent events. Each event is `id:` its sequence number (job.started 1, job.progress 1 + progress.done, "+
			"the terminal event "+strconv.FormatInt(jobstream.SeqTerminal, 10)+"), `event:` its kind and `data:` one line of "+
			"JSON, "+
			"the body a webhook carries for that event (schema JobEvent). While the job is queued, job.queue (id 0: a "+
			"state, not history) says where it stands (queue, as the job's read says) when the stream opens and whenever "+
			"its position changes, its estimate appears or vanishes, or the estimate moves by more than "+
			strconv.Itoa(int(jobstream.QueueETAShare*100))+" % and "+strconv.Itoa(jobstream.QueueETASeconds)+" s from the "+
			"last one sent. Comment lines (`: heartbeat`) keep the stream open while nothing happens.",
	)
	stream["x-event-data"] = openapi.Ref("JobEvent")
	ok := openapi.Response{
		Status: http.StatusOK,
		Description: "The job's events: without Last-Event-ID from its current state (an ended job's terminal event alone; " +
			"a running job's job.started and latest job.progress), with it every event after that one; the stream ends after " +
			"the terminal event.",
		Content: oa{"text/event-stream": oa{"schema": stream}},
		Headers: oa{"Cache-Control": openapi.Describe(openapi.Str(), "no-cache")},
	}
	return openapi.Operation{
		ID:      "job_events",
		Summary: "A live stream of the job's events (server-sent events), ending after the terminal event",
		Description: "Beyond the spec: the events webhooks carry (job.started, job.progress, job.succeeded, job.failed, " +
			"job.cancelled), " +
			"in order, without polling, and while the job is queued job.queue with its queue position and estimated " +
			"start. Reconnect with Last-Event-ID to resume without gaps or repeats. " +
			"One key, and one account, may hold limits.event_streams of GET /v1/meta streams open at once (429 " +
			"too_many_streams beyond); " +
			"a stream ends after limits.event_streams.max_seconds, and at once when its key is revoked or expires.",
		Params: []oa{
			jobID,
			openapi.Header(
				"Last-Event-ID",
				"The id of the last event received: the stream resumes after it.",
				oa{"type": "string", "pattern": "^[0-9]+$"},
			),
		},
		Answers: []openapi.Response{
			ok,
			{
				Status:      http.StatusNoContent,
				Description: "Last-Event-ID names the terminal event of an ended job: nothing follows.",
			},
		},
		Errors: []int{http.StatusNotFound},
	}
}
