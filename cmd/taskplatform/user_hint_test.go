package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnknownTaskNamesTheNearest: a task name the service does not know
// is followed by the nearest one in the catalogue and the command that
// lists them, for run, estimate and tasks show alike; a name near none
// gets only the command.
func TestUnknownTaskNamesTheNearest(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/tasks":
			_, _ = io.WriteString(w, `{"items":[{"name":"pattern.generate"},{"name":"palette.generate"}],`+
				`"has_more":false}`)
		case r.URL.Path == "/v1/pricing":
			_, _ = io.WriteString(w, `{"items":[],"has_more":false}`)
		case strings.HasPrefix(r.URL.Path, "/v1/tasks/"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":{"code":"task_not_found","type":"invalid_request",`+
				`"message":"No task is named \"x\"; list tasks at GET /v1/tasks.","retryable":false}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{"TP_BASE_URL": srv.URL, "TP_API_KEY": "tpk_x"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "pattern.generat", "--input", "-"}, "taskplatform: did you mean pattern.generate? " +
			"(taskplatform tasks lists them)\n"},
		{[]string{"estimate", "palete.generate", "--input", "-"}, "did you mean palette.generate?"},
		{[]string{"tasks", "show", "pattern.generat"}, `no task "pattern.generat": did you mean pattern.generate?`},
		{[]string{"run", "xyz", "--input", "-"}, "taskplatform: taskplatform tasks lists them\n"},
	} {
		var stdout, stderr strings.Builder
		code := userMain(context.Background(), tc.args, &userRun{stdin: strings.NewReader(`{}`), stdout: &stdout,
			stderr: &stderr, env: func(k string) string { return env[k] }})
		require.Equal(t, 1, code, "%v: %s", tc.args, stderr.String())
		require.Contains(t, stderr.String(), tc.want, tc.args)
	}
}

// TestHintsNameCommandsNotEndpoints: the service's advice to call an HTTP
// endpoint is printed as the CLI command that does the same, or left out;
// refusals with a command that helps get it on the next line.
func TestHintsNameCommandsNotEndpoints(t *testing.T) {
	t.Parallel()
	for msg, want := range map[string]string{
		`No task is named "x"; list tasks at GET /v1/tasks.`: "No task is named \"x\"; list tasks at `taskplatform tasks`.",
		"No file file:ab belongs to the account; upload it with POST /v1/files.": "No file file:ab belongs to the account; " +
			"upload it with `taskplatform files upload PATH`.",
		`No vocabulary is named "v"; list them at GET /v1/vocab.`: `No vocabulary is named "v".`,
		"colors must be an array.":                                "colors must be an array.",
	} {
		require.Equal(t, want, cliAdvice(msg))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"error":{"code":"job_not_found","type":"not_found",`+
			`"message":"No job has this id.","retryable":false}}`)
	}))
	t.Cleanup(srv.Close)
	var stdout, stderr strings.Builder
	code := userMain(context.Background(), []string{"jobs", "get", "job_x"}, &userRun{stdin: strings.NewReader(""),
		stdout: &stdout, stderr: &stderr, env: func(k string) string {
			return map[string]string{"TP_BASE_URL": srv.URL, "TP_API_KEY": "tpk_x"}[k]
		}})
	require.Equal(t, 1, code)
	require.Equal(t, "taskplatform: No job has this id. (job_not_found)\n"+
		"taskplatform: taskplatform jobs lists your recent jobs\n", stderr.String())
}
