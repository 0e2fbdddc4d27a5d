package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/jobstream"
)

// StreamHeartbeat is how often an idle event stream sends a comment, so
// proxies keep it open.
var StreamHeartbeat = 15 * time.Second

// StreamMaxAge ends a stream that has been open this long; the client
// resumes it with Last-Event-ID (a stream left open by a vanished client
// ends too).
var StreamMaxAge = time.Hour

// events answers GET /v1/jobs/{job_id}/events: the job's events as
// text/event-stream, from its row and then as the activities record
// changes (jobstream), ending after the terminal event. Last-Event-ID
// resumes after that event; a resume after the terminal event answers 204,
// which tells an EventSource to stop reconnecting.
func (h *jobHandlers) events(c *gin.Context) {
	j, ok := h.load(c)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	last, fresh := lastEventID(c.GetHeader("Last-Event-ID"))
	// Subscribe before reading, so no change after the read is missed.
	sub, err := jobstream.Subscribe(ctx, h.d.DB, j.ID)
	if err != nil {
		fail(c, err)
		return
	}
	defer sub.Close()
	snap, err := jobstream.Load(ctx, h.d.DB, j.ID)
	if err != nil {
		fail(c, err)
		return
	}
	if !fresh && last >= jobstream.SeqTerminal && snap.Ended() {
		c.Status(http.StatusNoContent)
		return
	}
	// The stream outlives the server's write timeout.
	_ = http.NewResponseController(c.Writer).SetWriteDeadline(time.Time{})
	hd := c.Writer.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	w := &sseWriter{c: c}
	w.comment("events of " + j.ID)
	w.retry()
	send := func(s *jobstream.Snapshot) (done bool) {
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
	heartbeat := time.NewTicker(StreamHeartbeat)
	defer heartbeat.Stop()
	maxAge := time.NewTimer(StreamMaxAge)
	defer maxAge.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-maxAge.C:
			return
		case <-heartbeat.C:
			w.comment("heartbeat")
		case s := <-sub.C:
			if s.Err != nil {
				// The client resumes with Last-Event-ID.
				return
			}
			if send(s) {
				return
			}
		}
		if w.err != nil {
			return
		}
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

func (w *sseWriter) comment(text string) { w.write(": " + text + "\n\n") }

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
func eventStreamOperation(jobID oa) operation {
	stream := describe(str(), "Server-sent events. Each event is `id:` its sequence number (job.started 1, job.progress 1 + progress.done, "+
		"the terminal event "+strconv.FormatInt(jobstream.SeqTerminal, 10)+"), `event:` its kind and `data:` one line of JSON, "+
		"the body a webhook carries for that event (schema JobEvent). Comment lines (`: heartbeat`) keep the stream open while nothing happens.")
	stream["x-event-data"] = ref("JobEvent")
	ok := response{status: http.StatusOK, description: "The job's events: without Last-Event-ID from its current state (an ended job's terminal event alone; " +
		"a running job's job.started and latest job.progress), with it every event after that one; the stream ends after the terminal event.",
		content: oa{"text/event-stream": oa{"schema": stream}},
		headers: oa{"Cache-Control": describe(str(), "no-cache")}}
	return operation{id: "job_events", summary: "A live stream of the job's events (server-sent events), ending after the terminal event",
		description: "Beyond the spec: the events webhooks carry (job.started, job.progress, job.succeeded, job.failed, job.cancelled), " +
			"in order, without polling. Reconnect with Last-Event-ID to resume without gaps or repeats.",
		params:  []oa{jobID, header("Last-Event-ID", "The id of the last event received: the stream resumes after it.", oa{"type": "string", "pattern": "^[0-9]+$"})},
		answers: []response{ok, {status: http.StatusNoContent, description: "Last-Event-ID names the terminal event of an ended job: nothing follows."}},
		errors:  []int{http.StatusNotFound}}
}
