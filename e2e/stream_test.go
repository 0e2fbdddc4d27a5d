package e2e_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/testenv"
)

// notifyWhileRunning calls jobstream.Notify for a job every 100 ms until
// the test ends, standing in for the activities' own call after each
// change: the stream must be right whoever notifies, and however often.
func (s *testStack) notifyWhileRunning(jobID string) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	s.t.Cleanup(func() { cancel(); wg.Wait() })
	go func() {
		defer wg.Done()
		for {
			_ = jobstream.Notify(ctx, s.db, jobID)
			select {
			case <-ctx.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
}

// follow reads a job's stream to its end.
func follow(t *testing.T, c *client.Client, jobID string, last int64) []client.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := c.Stream(ctx, jobID, last)
	defer st.Close()
	var out []client.Event
	for {
		ev, err := st.Next()
		if errors.Is(err, client.ErrStreamEnded) {
			return out
		}
		require.NoError(t, err)
		out = append(out, ev)
	}
}

func seqsOf(evs []client.Event) []int64 {
	out := make([]int64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Seq
	}
	return out
}

// TestEventStreamOfARunningJob follows a real job through its stream on
// both backends: every event once, in order, the same bodies as the job
// read and the result; then a resumption sends exactly what followed.
func TestEventStreamOfARunningJob(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			s := newStack(t, stackOptions{backend: b, credits: 100, stepDelay: 300 * time.Millisecond})
			c := client.New(s.srv.URL, s.key)
			sub, err := c.Submit(context.Background(), "pattern.generate", pattern(3), nil)
			require.NoError(t, err)
			s.notifyWhileRunning(sub.JobID)

			evs := follow(t, c, sub.JobID, 0)
			p := jobstream.ProgressSeq
			seqs := seqsOf(evs)
			require.Equal(t, jobstream.SeqTerminal, seqs[len(seqs)-1], "the stream ends with the terminal event")
			for i := 1; i < len(seqs); i++ {
				require.Greater(t, seqs[i], seqs[i-1], "ids rise: %v", seqs)
			}
			require.Contains(t, seqs, p(3), "the last output's progress: %v", seqs)
			term := evs[len(evs)-1]
			require.Equal(t, contract.EventSucceeded, term.Event.Event)
			require.Equal(t, sub.JobID, term.JobID)
			require.Equal(t, "pattern.generate", term.Task)
			require.Equal(t, contract.CurrentVersion, term.APIVersion)
			require.Equal(t, 3, term.Progress.Done)
			res, err := c.Result(context.Background(), sub.JobID)
			require.NoError(t, err)
			require.Equal(t, res.Files, term.Result.Files, "the terminal event carries the result")
			for _, ev := range evs[:len(evs)-1] {
				want := contract.LifecycleRunning
				if ev.Event.Event == contract.EventQueue { // the stream opened while the job was queued
					want = contract.LifecycleQueued
				}
				require.Equal(t, want, ev.Lifecycle)
				require.Nil(t, ev.Outcome)
			}

			// Resumption after the first output: the rest, once.
			rest := follow(t, c, sub.JobID, p(1))
			require.Equal(t, []int64{p(2), p(3), jobstream.SeqTerminal}, seqsOf(rest))
			require.Equal(t, term.ID, rest[2].ID, "the same event, the same id")
			// A fresh stream of the ended job: its terminal event at once.
			require.Equal(t, []int64{jobstream.SeqTerminal}, seqsOf(follow(t, c, sub.JobID, 0)))
		})
	}
}

// TestEventStreamOverHTTP reads the stream as curl -N does: the headers, a
// comment, then event/id/data blocks; Last-Event-ID past the end is 204.
func TestEventStreamOverHTTP(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	res := s.submit(pattern(2), "Prefer", "wait=30")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	jobID := res.json(t)["job_id"].(string)

	get := func(headers ...string) *http.Response {
		req, err := http.NewRequest(http.MethodGet, s.srv.URL+"/v1/jobs/"+jobID+"/events", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Key "+s.key)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		r, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { _ = r.Body.Close() })
		return r
	}
	r := get()
	require.Equal(t, http.StatusOK, r.StatusCode)
	require.Equal(t, "text/event-stream", r.Header.Get("Content-Type"))
	require.Equal(t, "no-cache", r.Header.Get("Cache-Control"))
	raw, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	require.Equal(t, ": events of "+jobID, lines[0])
	require.Contains(t, lines, "id: "+strconv.FormatInt(jobstream.SeqTerminal, 10))
	require.Contains(t, lines, "event: job.succeeded")

	r = get("Last-Event-ID", strconv.FormatInt(jobstream.SeqTerminal, 10))
	require.Equal(t, http.StatusNoContent, r.StatusCode)
	r = get("Last-Event-ID", "1")
	body, _ := io.ReadAll(r.Body)
	require.Contains(t, string(body), "id: "+strconv.FormatInt(jobstream.ProgressSeq(1), 10)+"\nevent: job.progress\n")
	require.NotContains(t, string(body), "event: job.started", "resumed after job.started")
}

// TestClientProgram uses the client package as a program would: a submit
// that a proxy answers 503 first is retried with the same key and makes one
// job; a submit that waits gets the result; a running job is cancelled;
// errors are typed; a file is uploaded and used.
func TestClientProgram(t *testing.T) {
	t.Parallel()
	// One output at a time: the cancel comes between outputs.
	s := newStack(t, stackOptions{credits: 200, stepDelay: 300 * time.Millisecond, stepsPerJob: 1})
	target, err := url.Parse(s.srv.URL)
	require.NoError(t, err)
	var mu sync.Mutex
	var keys []string
	refused := false
	forward := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/tasks/") &&
			!strings.HasSuffix(r.URL.Path, "/estimate") {
			mu.Lock()
			keys = append(keys, r.Header.Get("Idempotency-Key"))
			first := !refused
			refused = true
			mu.Unlock()
			if first {
				// Forward it, then answer as a proxy that lost the answer.
				rec := httptest.NewRecorder()
				forward.ServeHTTP(rec, r)
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	ctx := context.Background()
	c := client.New(proxy.URL, s.key, client.WithBackoff(50*time.Millisecond, time.Second))

	sub, err := c.Submit(ctx, "pattern.generate", pattern(1), &client.SubmitOptions{Wait: 30 * time.Second})
	require.NoError(t, err)
	require.Len(t, keys, 2, "the 503 was retried")
	require.Equal(t, keys[0], keys[1], "with the same Idempotency-Key")
	require.NotNil(t, sub.Result, "the wait answered the result")
	require.Len(t, sub.Result.Files, 1)
	var jobs int64
	require.NoError(t, s.db.Table("jobs").Where("user_id = ?", s.userID).Count(&jobs).Error)
	require.EqualValues(t, 1, jobs, "one job for both tries")

	var buf strings.Builder
	n, err := c.Download(ctx, sub.Result.Files[0].URL, &buf)
	require.NoError(t, err)
	require.Positive(t, n)

	// Cancel a running job and see how it ended.
	long, err := c.Submit(ctx, "pattern.generate", pattern(4), nil)
	require.NoError(t, err)
	s.notifyWhileRunning(long.JobID)
	var events []client.Event
	job, err := c.Wait(ctx, long.JobID, func(ev client.Event) {
		events = append(events, ev)
		if ev.Event.Event == contract.EventProgress && ev.Progress.Done == 1 {
			_, err := c.Cancel(ctx, long.JobID)
			require.NoError(t, err)
		}
	})
	require.True(t, client.IsCode(err, "cancelled"), "Wait answers the cancelled job's error: %v", err)
	require.Equal(t, contract.OutcomeCancelled, *job.Outcome)
	require.Equal(t, contract.EventCancelled, events[len(events)-1].Event.Event)
	_, err = c.Result(ctx, long.JobID)
	require.True(t, client.IsCode(err, "cancelled"), "%v", err)
	_, err = c.Cancel(ctx, long.JobID)
	require.True(t, client.IsCode(err, "job_already_ended"), "%v", err)

	// Typed errors name their field.
	_, err = c.Estimate(
		ctx,
		"pattern.generate",
		map[string]any{"kind": "stripes", "colors": []string{"#1F3A5F", "nope"}},
	)
	var apiErr *client.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "colors[1]", apiErr.Field)
	require.Equal(t, http.StatusUnprocessableEntity, apiErr.Status)
	require.Regexp(t, `^req_`, apiErr.RequestID)
	_, err = c.Job(ctx, "j_nothing")
	require.Error(t, err)

	est, err := c.Estimate(ctx, "pattern.generate", pattern(2))
	require.NoError(t, err)
	require.Equal(t, 2, est.Outputs)
	tasks, err := c.Tasks(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, tasks)
	page, err := c.Jobs(ctx, 10, "")
	require.NoError(t, err)
	require.Len(t, page.Items, 2)
}
