package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/wire"
)

// jobActionsAPI is jobsAPI with a running job, job_2, and the cancel and
// result answers: job_2 can be cancelled and has no result yet; job_1 has
// ended (its cancel is refused) and has a result of two files.
func jobActionsAPI(t *testing.T) *fakeAPI {
	mux := http.NewServeMux()
	refuse := func(w http.ResponseWriter, status int, code, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"error":{"code":"`+code+`","type":"invalid_request","message":"`+msg+
			`","retryable":false,"job_id":"job_1"}}`)
	}
	mux.HandleFunc("PUT /v1/jobs/{id}/cancel", func(w http.ResponseWriter, r *http.Request) {
		switch r.PathValue("id") {
		case "job_2":
			w.WriteHeader(http.StatusAccepted)
			_, _ = io.WriteString(w, `{"job_id":"job_2","lifecycle":"running","outcome":null,`+
				`"status_url":"http://`+r.Host+`/v1/jobs/job_2"}`)
		case "job_1":
			refuse(w, http.StatusBadRequest, "job_already_ended", "The job has already ended.")
		default:
			refuse(w, http.StatusNotFound, "job_not_found", "No such job.")
		}
	})
	mux.HandleFunc("GET /v1/jobs/{id}/result", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != "job_1" {
			refuse(w, http.StatusConflict, "result_not_ready", "The job has not ended yet.")
			return
		}
		_, _ = io.WriteString(w, `{"job_id":"job_1","files":[{"file":"art:a","url":"http://`+r.Host+`/dl/a.png",`+
			`"media_type":"image/png","bytes":12},{"file":"art:b","url":"http://`+r.Host+`/dl/b","media_type":`+
			`"image/jpeg","bytes":12}],"has_more":false}`)
	})
	mux.HandleFunc("GET /v1/jobs", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"items":[{"job_id":"job_2","task":"pattern.generate","lifecycle":"running",`+
			`"outcome":null,"progress":{"done":1,"total":null,"phase":"rendering"},"error":null,`+
			`"created_at":"2026-11-25T04:01:00Z"}],"has_more":true,"next_cursor":"c2"}`)
	})
	mux.Handle("/", jobsAPI(t).Config.Handler)
	return newFakeAPI(t, mux)
}

// TestUserJobsCancel: cancel prints the job and its lifecycle when asked,
// or with --json the service's answer as one JSON object; a job that has
// ended is refused with the service's message, nothing on stdout.
func TestUserJobsCancel(t *testing.T) {
	t.Parallel()
	f := jobActionsAPI(t)
	code, out, errs := f.cli(t, "jobs", "cancel", "job_2")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "job_2 running\n", out)
	require.Empty(t, errs)

	code, out, errs = f.cli(t, "jobs", "cancel", "job_2", "--json")
	require.Equal(t, 0, code, errs)
	var c client.Cancellation
	require.NoError(t, json.Unmarshal([]byte(out), &c), out)
	require.Equal(t, client.Cancellation{JobID: "job_2", Lifecycle: "running", StatusURL: f.URL + "/v1/jobs/job_2"}, c)

	for _, args := range [][]string{{"jobs", "cancel", "job_1"}, {"jobs", "cancel", "job_1", "--json"}} {
		code, out, errs = f.cli(t, args...)
		require.Equal(t, 1, code, args)
		require.Empty(t, out, args)
		require.Equal(t, "taskplatform: The job has already ended. (job_already_ended)\n", errs, args)
	}

	code, _, errs = f.cli(t, "jobs", "cancel")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "expected one argument: JOB")
}

// TestUserJobsResult: result prints a succeeded job's result as JSON
// (with or without --json); a job still running is refused with the
// service's message.
func TestUserJobsResult(t *testing.T) {
	t.Parallel()
	f := jobActionsAPI(t)
	for _, args := range [][]string{{"jobs", "result", "job_1"}, {"jobs", "result", "job_1", "--json"}} {
		code, out, errs := f.cli(t, args...)
		require.Equal(t, 0, code, errs)
		var res wire.Result
		require.NoError(t, json.Unmarshal([]byte(out), &res), out)
		require.Equal(t, "job_1", res.JobID)
		require.Len(t, res.Files, 2)
		require.Equal(t, []string{"art:a", "art:b"}, []string{res.Files[0].File, res.Files[1].File})
		require.Equal(t, f.URL+"/dl/a.png", res.Files[0].URL)
	}

	code, out, errs := f.cli(t, "jobs", "result", "job_2")
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Equal(t, "taskplatform: The job has not ended yet. (result_not_ready)\n"+
		"taskplatform: taskplatform jobs get JOB shows where the job is\n", errs)
}

// TestUserJSONOutputs: with --json, jobs, jobs get, tasks, tasks show and
// estimate print one JSON document on stdout and nothing else; --json
// beside --follow or --web is refused.
func TestUserJSONOutputs(t *testing.T) {
	t.Parallel()
	f := jobActionsAPI(t)
	for _, tc := range []struct {
		args  []string
		check func(t *testing.T, dec *json.Decoder)
	}{
		{[]string{"jobs", "--json"}, func(t *testing.T, dec *json.Decoder) {
			var page client.JobPage
			require.NoError(t, dec.Decode(&page))
			require.Len(t, page.Items, 1)
			require.Equal(t, "job_2", page.Items[0].JobID)
			require.True(t, page.HasMore)
			require.Equal(t, "c2", page.NextCursor)
		}},
		{[]string{"jobs", "get", "job_1", "--json"}, func(t *testing.T, dec *json.Decoder) {
			var j wire.Job
			require.NoError(t, dec.Decode(&j))
			require.Equal(t, "succeeded", *j.Outcome)
			require.Equal(t, int64(4), *j.Credits.Charged)
		}},
		{[]string{"tasks", "--json"}, func(t *testing.T, dec *json.Decoder) {
			var ts []client.Task
			require.NoError(t, dec.Decode(&ts))
			require.Len(t, ts, 1)
			require.Equal(t, "pattern.generate", ts[0].Name)
			require.Equal(t, int64(2), *ts[0].Price.PerOutput)
		}},
		{[]string{"tasks", "show", "pattern.generate", "--json"}, func(t *testing.T, dec *json.Decoder) {
			var task client.Task
			require.NoError(t, dec.Decode(&task))
			require.Equal(t, "Patterns", *task.Title)
			require.Equal(t, "image", task.Price.CreditType)
			require.Equal(t, int64(2), *task.Price.PerOutput)
			require.Contains(t, string(task.InputSchema), `"count"`)
		}},
		{[]string{"estimate", "pattern.generate", "--set", "colors=red", "--json"},
			func(t *testing.T, dec *json.Decoder) {
				var e client.Estimate
				require.NoError(t, dec.Decode(&e))
				require.Equal(t, client.Estimate{Credits: 4, CreditType: "image", Outputs: 2, PricePerOutput: 2}, e)
			}},
	} {
		code, out, errs := f.cli(t, tc.args...)
		require.Equal(t, 0, code, "%v: %s", tc.args, errs)
		require.Empty(t, errs, tc.args)
		dec := json.NewDecoder(strings.NewReader(out))
		tc.check(t, dec)
		require.False(t, dec.More(), "%v: one JSON document, nothing after it: %s", tc.args, out)
	}

	for _, args := range [][]string{{"jobs", "--json", "--follow"}, {"jobs", "get", "job_1", "--json", "--web"}} {
		code, out, errs := f.cli(t, args...)
		require.Equal(t, 2, code, args)
		require.Empty(t, out, args)
		require.Contains(t, errs, "choose one", args)
	}
}

// TestJobViewFailedJob: a failed job reads as failed with its phase, its
// charge and the error's message and code, and its place in line while
// it waits.
func TestJobViewFailedJob(t *testing.T) {
	t.Parallel()
	var j wire.Job
	require.NoError(t, json.Unmarshal([]byte(`{"job_id":"job_2","task":"pattern.generate","lifecycle":"terminal",`+
		`"outcome":"failed","progress":{"done":0,"total":8,"phase":"render"},`+
		`"credits":{"credit_type":"image","held":16,"charged":0},"created_at":"2026-11-25T04:00:00Z",`+
		`"started_at":"2026-11-25T04:00:01Z","ended_at":"2026-11-25T04:00:09Z",`+
		`"error":{"code":"engine_failed","type":"server_error","message":"The engine stopped.","retryable":true}}`), &j))
	var out strings.Builder
	require.NoError(t, jobView(&out, &j))
	require.Contains(t, out.String(), "status      failed\nprogress    0 of 8 (render)\ncredits     0 image charged\n")
	require.Contains(t, out.String(), "time (UTC)  created 2026-11-25 04:00:00, started 04:00:01, ended 04:00:09\n")
	require.Contains(t, out.String(), "error       The engine stopped. (engine_failed)\n")
	require.NotContains(t, out.String(), "files")

	pos := int64(3)
	j = wire.Job{JobID: "job_3", Lifecycle: "queued", Queue: &wire.Queue{Position: pos}}
	out.Reset()
	require.NoError(t, jobView(&out, &j))
	require.Contains(t, out.String(), "status      queued: 3rd in line\n")
}

// TestJobsFollowLinesUpWithItsHeader: the lines jobs --follow prints as
// jobs change start each column where the header put it, however long
// the new values are (a task name, an outcome).
func TestJobsFollowLinesUpWithItsHeader(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		job := `{"job_id":"j_01","task":"image.resize","lifecycle":"running","outcome":null,` +
			`"progress":{"done":1,"total":8,"phase":"render"},"created_at":"2026-11-25T04:01:00Z"}`
		if calls.Add(1) > 1 {
			job = `{"job_id":"j_01","task":"image.resize","lifecycle":"terminal","outcome":"cancelled",` +
				`"progress":{"done":12,"total":12,"phase":"done"},"created_at":"2026-11-25T04:01:00Z"}`
		}
		_, _ = io.WriteString(w, `{"items":[`+job+`],"has_more":false}`)
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(t.Context())
	out := &syncBuffer{}
	done := make(chan int)
	go func() {
		done <- userMain(ctx, []string{"jobs", "--follow"}, &userRun{stdin: strings.NewReader(""), stdout: out,
			stderr: io.Discard, env: func(string) string { return "" }, client: client.New(srv.URL, "tpk_x")})
	}()
	require.Eventually(t, func() bool { return strings.Count(out.String(), "\n") >= 3 }, 10*time.Second,
		50*time.Millisecond)
	cancel()
	require.Equal(t, 0, <-done)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 3, out.String())
	for _, col := range []string{"TASK", "STATE", "DONE", "PHASE", "CREATED"} {
		at := strings.Index(lines[0], col)
		for _, l := range lines[1:] {
			require.Equal(t, " ", l[at-1:at], "column %s in %q", col, l)
			require.NotEqual(t, " ", l[at:at+1], "column %s in %q", col, l)
		}
	}
	require.Contains(t, lines[2], "cancelled")
}
