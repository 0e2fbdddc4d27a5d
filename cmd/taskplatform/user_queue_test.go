package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/wire"
)

// TestQueueDescription: the bar's label while a job waits says its place
// in line and, when the service estimates it, roughly when it starts.
func TestQueueDescription(t *testing.T) {
	t.Parallel()
	eta := func(s int64) *int64 { return &s }
	for _, tc := range []struct {
		q    *wire.Queue
		want string
	}{
		{nil, "queued"},
		{&wire.Queue{Position: 1}, "queued: 1st in line"},
		{&wire.Queue{Position: 2, ETASeconds: eta(0)}, "queued: 2nd in line, starts in ~1s"},
		{&wire.Queue{Position: 3, ETASeconds: eta(45)}, "queued: 3rd in line, starts in ~45s"},
		{&wire.Queue{Position: 11, ETASeconds: eta(61)}, "queued: 11th in line, starts in ~2m"},
		{&wire.Queue{Position: 22, ETASeconds: eta(3600)}, "queued: 22nd in line, starts in ~1h"},
		{&wire.Queue{Position: 113, ETASeconds: eta(7201)}, "queued: 113th in line, starts in ~3h"},
	} {
		require.Equal(t, tc.want, queueDescription(tc.q))
	}
}

// TestRunBarShowsTheQueue: `run` in a terminal labels its bar with the
// submit's queue place, then with each job.queue event of the stream,
// before the job starts. The service is a stand-in whose job waits in line.
func TestRunBarShowsTheQueue(t *testing.T) {
	t.Parallel()
	job := func(life, outcome, extra string) string {
		return `{"job_id":"j_1","task":"pattern.generate","lifecycle":"` + life + `","outcome":` + outcome +
			`,"progress":{"done":0,"total":1,"phase":"queued"},"error":null,` +
			`"credits":{"credit_type":"service_credits","held":2,"charged":0}` + extra + `}`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "POST /v1/tasks/pattern.generate":
			w.Header().Set("X-Service-Credits", "2")
			w.Header().Set("X-Service-Credit-Type", "service_credits")
			w.WriteHeader(http.StatusAccepted)
			_, _ = io.WriteString(w, job("queued", "null", `,"queue":{"position":3,"eta_seconds":130}`))
		case "GET /v1/jobs/j_1/events":
			w.Header().Set("Content-Type", "text/event-stream")
			queue := `{"id":"evt_q","event":"job.queue","job_id":"j_1","lifecycle":"queued",` +
				`"progress":{"done":0,"total":1,"phase":"queued"},"queue":{"position":2,"eta_seconds":40}}`
			fmt.Fprintf(w, "id: 0\nevent: job.queue\ndata: %s\n\n", queue)
			w.(http.Flusher).Flush()
			time.Sleep(300 * time.Millisecond) // the bar draws at most every 50 ms
			ended := `{"id":"evt_e","event":"job.cancelled","job_id":"j_1","lifecycle":"terminal",` +
				`"outcome":"cancelled","progress":{"done":0,"total":1,"phase":"done"}}`
			fmt.Fprintf(w, "id: %d\nevent: job.cancelled\ndata: %s\n\n", int64(1)<<40, ended)
		case "GET /v1/jobs/j_1":
			_, _ = io.WriteString(w, job("terminal", `"cancelled"`, ""))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stdout, stderr strings.Builder
	env := map[string]string{"TP_BASE_URL": srv.URL, "TP_API_KEY": "tpk_x"}
	code := userMain(ctx, []string{"run", "pattern.generate", "--input", "-", "--out", t.TempDir()},
		&userRun{stdin: strings.NewReader(`{"kind":"stripes","colors":["#1F3A5F","#F2C14E"]}`),
			stdout: &stdout, stderr: &stderr, terminal: true, env: func(k string) string { return env[k] }})
	require.Equal(t, 1, code, "a cancelled job exits 1: %s", stderr.String())
	bar := stderr.String()
	first := strings.Index(bar, "queued: 3rd in line, starts in ~3m")
	then := strings.Index(bar, "queued: 2nd in line, starts in ~40s")
	require.NotEqual(t, -1, first, "the submit's place: %q", bar)
	require.Greater(t, then, first, "then the stream's: %q", bar)
}
