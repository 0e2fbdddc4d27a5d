package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

// Event is one event of a job's stream: its sequence number (the SSE id)
// and the body a webhook carries for it. job.queue (where a queued job
// stands, in Queue) is a state, not history: its Seq is 0.
type Event struct {
	Seq int64
	wire.Event
}

// Terminal says whether this is the job's last event.
func (e Event) Terminal() bool {
	switch e.Event.Event {
	case contract.EventSucceeded, contract.EventFailed, contract.EventCancelled:
		return true
	}
	return false
}

// ErrStreamEnded is returned by Stream.Next after the terminal event, or
// when the stream was resumed after it.
var ErrStreamEnded = errors.New("the job's event stream has ended")

// Stream reads a job's events (GET /v1/jobs/{job_id}/events). It
// reconnects by itself when the connection drops, resuming with
// Last-Event-ID, so no event is missed or repeated.
type Stream struct {
	c      *Client
	ctx    context.Context
	cancel context.CancelFunc
	jobID  string
	last   int64
	body   io.ReadCloser
	sc     *bufio.Scanner
	ended  bool
	fails  int
}

// Stream opens the event stream of a job after event lastSeq (0: from the
// job's current state). Read it with Next; Close it when done.
func (c *Client) Stream(ctx context.Context, jobID string, lastSeq int64) *Stream {
	ctx, cancel := context.WithCancel(ctx)
	return &Stream{c: c, ctx: ctx, cancel: cancel, jobID: jobID, last: lastSeq}
}

// LastSeq is the sequence number of the last event read: pass it to Stream
// to resume later.
func (s *Stream) LastSeq() int64 { return s.last }

// Close ends the stream.
func (s *Stream) Close() {
	s.cancel()
	if s.body != nil {
		_ = s.body.Close()
	}
}

// Next is the next event. It returns ErrStreamEnded after the terminal
// event, *Error when the service refuses the stream (an unknown job),
// *UnreachableError at once when nothing answers at the address, and
// another error when the stream cannot be reached within the client's
// tries.
func (s *Stream) Next() (Event, error) {
	for {
		if s.ended {
			return Event{}, ErrStreamEnded
		}
		if s.sc == nil {
			if err := s.open(); err != nil {
				return Event{}, err
			}
			if s.ended {
				return Event{}, ErrStreamEnded
			}
		}
		ev, err := s.read()
		if err == nil {
			s.fails = 0
			s.last = max(s.last, ev.Seq)
			if ev.Terminal() {
				s.ended = true
				s.Close()
			}
			return ev, nil
		}
		// The connection ended or broke before the terminal event: resume.
		_ = s.body.Close()
		s.body, s.sc = nil, nil
		if s.ctx.Err() != nil {
			return Event{}, s.ctx.Err()
		}
		s.fails++
		if s.fails >= s.c.maxAttempts {
			return Event{}, fmt.Errorf("job event stream: %w", err)
		}
		if err := s.c.sleep(s.ctx, s.c.backoff(s.fails-1)); err != nil {
			return Event{}, err
		}
	}
}

// open connects, with the client's retries; a 204 means the stream ended.
func (s *Stream) open() error {
	h := http.Header{}
	h.Set("Accept", "text/event-stream")
	if s.last > 0 {
		h.Set("Last-Event-ID", strconv.FormatInt(s.last, 10))
	}
	r := request{method: http.MethodGet, path: "/v1/jobs/" + url.PathEscape(s.jobID) + "/events", headers: h}
	for attempt := 0; ; attempt++ {
		res, err := s.c.send(s.ctx, r)
		if err == nil && res.StatusCode == http.StatusNoContent {
			_ = res.Body.Close()
			s.ended = true
			return nil
		}
		if err == nil && res.StatusCode == http.StatusOK {
			s.body = res.Body
			s.sc = bufio.NewScanner(res.Body)
			s.sc.Buffer(make([]byte, 64<<10), 16<<20)
			return nil
		}
		var wait time.Duration
		if err == nil {
			apiErr, retry := s.c.errorOf(res)
			if !retry || attempt+1 >= s.c.maxAttempts {
				return apiErr
			}
			wait = apiErr.RetryAfter
		} else if s.ctx.Err() != nil || attempt+1 >= s.c.maxAttempts || unreachable(err) != nil {
			if s.ctx.Err() != nil {
				return s.ctx.Err()
			}
			if u := unreachable(err); u != nil {
				return u
			}
			return err
		}
		d := s.c.backoff(attempt)
		if wait > 0 {
			d = wait
		}
		if err := s.c.sleep(s.ctx, d); err != nil {
			return err
		}
	}
}

// read parses the next event of the open connection (comments skipped;
// events at or before the last one read are dropped, but for job.queue,
// which is not numbered).
func (s *Stream) read() (Event, error) {
	var id, kind string
	var data strings.Builder
	for s.sc.Scan() {
		line := s.sc.Text()
		if line == "" {
			if data.Len() == 0 {
				id, kind = "", ""
				continue
			}
			seq, err := strconv.ParseInt(id, 10, 64)
			if err != nil {
				return Event{}, fmt.Errorf("event without a numeric id %q", id)
			}
			ev := Event{Seq: seq}
			if err := json.Unmarshal([]byte(data.String()), &ev.Event); err != nil {
				return Event{}, fmt.Errorf("event %s: %w", id, err)
			}
			if ev.Event.Event == "" {
				ev.Event.Event = kind
			}
			data.Reset()
			id, kind = "", ""
			if seq <= s.last && ev.Event.Event != contract.EventQueue {
				continue
			}
			return ev, nil
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			id = value
		case "event":
			kind = value
		case "data":
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(value)
		}
	}
	if err := s.sc.Err(); err != nil {
		return Event{}, err
	}
	return Event{}, io.ErrUnexpectedEOF
}
