package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ListenDelivery is one delivery of the account's listen stream
// (GET /v1/events): the headers and raw body a registered webhook endpoint
// would receive, signed by the service. POST Body with Header to a receiver
// and its Verifier accepts it as any webhook.
type ListenDelivery struct {
	// ID is the delivery id (whl_…), also its X-Service-Request-Id.
	ID string
	// Event is the event's kind (job.started, …, job.cancelled).
	Event string
	// Header holds Content-Type and the four X-Service-* headers.
	Header http.Header
	// Body is the raw signed body: a wire.Event.
	Body []byte
}

// Listen reads the account's job events as signed webhook deliveries
// (GET /v1/events) and calls deliver with each, in order, from the moment
// the stream opens. connected, if not nil, is called on every
// (re)connection. The service ends a stream after
// limits.event_streams.max_seconds; Listen reconnects by itself then and
// when the connection drops (events in between are not sent again). It
// returns ctx's error when ctx ends, *Error when the service refuses the
// stream, and another error when it cannot be reached within the client's
// tries.
func (c *Client) Listen(ctx context.Context, connected func(), deliver func(ListenDelivery)) error {
	h := http.Header{}
	h.Set("Accept", "text/event-stream")
	r := request{method: http.MethodGet, path: "/v1/events", headers: h}
	fails := 0
	for {
		res, err := c.send(ctx, r)
		switch {
		case ctx.Err() != nil:
			if err == nil {
				_ = res.Body.Close()
			}
			return ctx.Err()
		case err == nil && res.StatusCode == http.StatusOK:
			fails = 0
			if connected != nil {
				connected()
			}
			err = readDeliveries(res.Body, deliver)
			_ = res.Body.Close()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err == nil {
				continue // the stream ended: open the next one at once
			}
		case err == nil:
			apiErr, retry := c.errorOf(res)
			if !retry || fails+1 >= c.maxAttempts {
				return apiErr
			}
			err = apiErr
		case unreachable(err) != nil:
			return unreachable(err)
		}
		fails++
		if fails >= c.maxAttempts {
			return fmt.Errorf("listen stream: %w", err)
		}
		wait := c.backoff(fails - 1)
		var e *Error
		if errors.As(err, &e) && e.RetryAfter > 0 {
			wait = e.RetryAfter
		}
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// readDeliveries parses the events of one connection until it ends: nil
// when it ended cleanly, an error when it broke.
func readDeliveries(body io.Reader, deliver func(ListenDelivery)) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var id, kind string
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if data.Len() > 0 {
				var frame struct {
					Headers map[string]string `json:"headers"`
					Body    string            `json:"body"`
				}
				if err := json.Unmarshal([]byte(data.String()), &frame); err != nil {
					return fmt.Errorf("listen event %s: %w", id, err)
				}
				d := ListenDelivery{ID: id, Event: kind, Header: http.Header{}, Body: []byte(frame.Body)}
				for k, v := range frame.Headers {
					d.Header.Set(k, v)
				}
				deliver(d)
			}
			id, kind = "", ""
			data.Reset()
			continue
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
	return sc.Err()
}
