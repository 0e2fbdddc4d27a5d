package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api/openapicheck"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/wire"
)

// The event stream is text: the document's check reads it as a string.
func init() { openapi3filter.RegisterBodyDecoder("text/event-stream", openapi3filter.PlainBodyDecoder) }

// sse is one received server-sent event (or comment).
type sse struct {
	id, event, data, comment string
}

// readSSE sends the events and comments of r to out until r ends, then
// closes out.
func readSSE(sc *bufio.Scanner, out chan<- sse) {
	defer close(out)
	var cur sse
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur != (sse{}) {
				out <- cur
			}
			cur = sse{}
		case strings.HasPrefix(line, ":"):
			out <- sse{comment: strings.TrimSpace(line[1:])}
		default:
			k, v, _ := strings.Cut(line, ":")
			v = strings.TrimPrefix(v, " ")
			switch k {
			case "id":
				cur.id = v
			case "event":
				cur.event = v
			case "data":
				cur.data += v
			}
		}
	}
}

// openStream opens a job's event stream on a real server.
func openStream(t *testing.T, srv *httptest.Server, key, jobID string, headers ...string) (*http.Response, chan sse) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/v1/jobs/"+jobID+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Key "+key)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := srv.Client().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = res.Body.Close() })
	out := make(chan sse, 64)
	go readSSE(bufio.NewScanner(res.Body), out)
	return res, out
}

// next is the next event (comments skipped unless asked for).
func next(t *testing.T, in <-chan sse, comments bool) sse {
	t.Helper()
	for {
		select {
		case ev, ok := <-in:
			require.True(t, ok, "the stream ended early")
			if ev.comment != "" && !comments {
				continue
			}
			return ev
		case <-time.After(15 * time.Second):
			t.Fatal("no event in time")
		}
	}
}

func requireEnded(t *testing.T, in <-chan sse) {
	t.Helper()
	select {
	case ev, ok := <-in:
		require.False(t, ok, "the stream ends after the terminal event, got %+v", ev)
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end")
	}
}

func decodeEvent(t *testing.T, ev sse) wire.Event {
	t.Helper()
	var body wire.Event
	require.NoError(t, json.Unmarshal([]byte(ev.data), &body), "data: %s", ev.data)
	require.Equal(t, ev.event, body.Event)
	return body
}

// TestEventStreamFollowsAJob opens a stream on a queued job (which says
// where the job stands first) and drives the job as the activities do
// (write, then jobstream.Notify): each change arrives once, in order, and the stream ends after the terminal event;
// resuming with Last-Event-ID sends exactly what followed.
func TestEventStreamFollowsAJob(t *testing.T) {
	saved := StreamHeartbeat
	StreamHeartbeat = 200 * time.Millisecond
	t.Cleanup(func() { StreamHeartbeat = saved })
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newFileEnv(t, b)
			srv := httptest.NewServer(e.r)
			t.Cleanup(srv.Close)
			ctx, now := context.Background(), time.Now().UTC()
			j := &models.Job{
				ID:             models.NewID("j_"),
				UserID:         e.user.ID,
				APIKeyID:       e.keyID,
				Task:           "pattern.generate",
				Input:          "{}",
				Lifecycle:      contract.LifecycleQueued,
				CreditType:     contract.CreditService,
				ServiceVersion: CurrentVersion,
				CreatedAt:      now,
			}
			require.NoError(t, e.db.Create(j).Error)

			res, events := openStream(t, srv, e.key, j.ID)
			require.Equal(t, http.StatusOK, res.StatusCode)
			require.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
			require.Equal(t, "events of "+j.ID, next(t, events, true).comment, "the stream opens at once")
			queued := next(t, events, true)
			require.Equal(t, strconv.FormatInt(jobstream.SeqQueue, 10), queued.id, "job.queue is not numbered")
			qb := decodeEvent(t, queued)
			require.Equal(t, contract.EventQueue, qb.Event, "a queued job's stream says where it stands")
			require.Equal(t, &wire.Queue{Position: 1}, qb.Queue, "first, and nothing runs or ran: no estimate")
			require.Equal(t, contract.LifecycleQueued, qb.Lifecycle)
			require.Equal(t, "heartbeat", next(t, events, true).comment, "an idle stream sends heartbeats")

			require.NoError(t, models.MarkRunning(ctx, e.db, j.ID, 2, "rendering", now))
			require.NoError(t, jobstream.Notify(ctx, e.db, j.ID))
			started := next(t, events, false)
			require.Equal(t, "1", started.id)
			body := decodeEvent(t, started)
			require.Equal(t, contract.EventStarted, body.Event)
			require.Equal(t, contract.LifecycleRunning, body.Lifecycle)
			require.Equal(t, j.ID, body.JobID)
			require.Equal(t, CurrentVersion, body.APIVersion)

			for i := range 2 {
				f := &models.File{
					ID:        models.NewID(""),
					UserID:    e.user.ID,
					JobID:     j.ID,
					Index:     i,
					Task:      j.Task,
					MediaType: "image/png",
					BlobKey:   "k" + strconv.Itoa(i),
				}
				_, err := models.AddOutput(ctx, e.db, f, now.Add(time.Duration(i+1)*time.Second))
				require.NoError(t, err)
				require.NoError(t, jobstream.Notify(ctx, e.db, j.ID))
				require.NoError(t, jobstream.Notify(ctx, e.db, j.ID), "a repeated notification sends nothing twice")
				ev := next(t, events, false)
				require.Equal(t, strconv.FormatInt(jobstream.ProgressSeq(i+1), 10), ev.id)
				require.Equal(t, i+1, decodeEvent(t, ev).Progress.Done)
			}
			_, _, err := models.Settle(
				ctx,
				e.db,
				j.ID,
				models.Settlement{Outcome: contract.OutcomeSucceeded},
				now.Add(3*time.Second),
			)
			require.NoError(t, err)
			require.NoError(t, jobstream.Notify(ctx, e.db, j.ID))
			term := next(t, events, false)
			require.Equal(t, strconv.FormatInt(jobstream.SeqTerminal, 10), term.id)
			body = decodeEvent(t, term)
			require.Equal(t, contract.EventSucceeded, body.Event)
			require.Equal(t, contract.OutcomeSucceeded, *body.Outcome)
			require.Len(t, body.Result.Files, 2)
			requireEnded(t, events)

			// Resume after the first output: the second and the end, once.
			_, events = openStream(
				t,
				srv,
				e.key,
				j.ID,
				"Last-Event-ID",
				strconv.FormatInt(jobstream.ProgressSeq(1), 10),
			)
			require.Equal(t, strconv.FormatInt(jobstream.ProgressSeq(2), 10), next(t, events, false).id)
			require.Equal(t, strconv.FormatInt(jobstream.SeqTerminal, 10), next(t, events, false).id)
			requireEnded(t, events)

			// A fresh stream of the ended job: its terminal event at once.
			_, events = openStream(t, srv, e.key, j.ID)
			ev := next(t, events, false)
			require.Equal(t, term.data, ev.data, "the same body every time")
			requireEnded(t, events)

			// Resuming after the end: 204, so EventSource stops.
			res, _ = openStream(t, srv, e.key, j.ID, "Last-Event-ID", strconv.FormatInt(jobstream.SeqTerminal, 10))
			require.Equal(t, http.StatusNoContent, res.StatusCode)
		})
	}
}

// TestEventStreamAnswersAsDocumented checks the stream's answers against
// the document, and that it serves only the caller's jobs.
func TestEventStreamAnswersAsDocumented(t *testing.T) {
	t.Parallel()
	e := newRoutesEnv(t)
	key := keyed(e.key)
	for _, p := range []probe{
		{row: "GET /v1/jobs/{job_id}/events", path: "/v1/jobs/" + e.done + "/events", headers: key, status: 200},
		{row: "GET /v1/jobs/{job_id}/events", path: "/v1/jobs/" + e.failed + "/events", headers: key, status: 200},
		{row: "GET /v1/jobs/{job_id}/events", path: "/v1/jobs/" + e.done + "/events", headers: with(key, "Last-Event-ID",
			fmt.Sprint(jobstream.SeqTerminal)), status: 204},
		{row: "GET /v1/jobs/{job_id}/events", path: "/v1/jobs/j_nothing/events", headers: key, status: 404},
		{row: "GET /v1/jobs/{job_id}/events", path: "/v1/jobs/" + e.done + "/events", status: 401},
	} {
		res := e.check(t, p)
		if p.status == 200 {
			require.Contains(t, string(res.body), "\nevent: job.", "%s", res.body)
			openapicheck.CheckAnswer(
				t,
				e.doc,
				"GET",
				"/v1/jobs/{job_id}/events",
				request("GET", p.path, nil, p.headers...),
				nil,
				res.code,
				res.head,
				res.body,
			)
		}
	}
	_, otherKey, _ := e.account(models.PlanStandard)
	res := serve(e.r, request("GET", "/v1/jobs/"+e.done+"/events", nil, keyed(otherKey)...))
	require.Equal(t, http.StatusNotFound, res.code, "another account's job is not found")
}
