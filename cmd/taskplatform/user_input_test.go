package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
)

// fakeSchema is a task's input schema as the catalogue serves it.
const fakeSchema = `{"type":"object","additionalProperties":false,"properties":{
 "count":{"type":"integer","default":1},"scale":{"type":"number"},"tile":{"type":["boolean","null"]},
 "colors":{"type":"array","items":{"type":"string"}},"resolution":{"type":"string"},
 "base_color":{"type":"string"},"opts":{"type":"object","properties":{"seed":{"type":"integer"}}}}}`

// fakeAPI is a service that lists one task, pattern.generate, and answers
// its estimate; it records the last input posted.
type fakeAPI struct {
	*httptest.Server
	posted map[string]any
}

func newFakeAPI(t *testing.T, extra http.Handler) *fakeAPI {
	f := &fakeAPI{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/tasks", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"items":[{"name":"pattern.generate","title":"Patterns","category":"image",`+
			`"unit":"image","inputSchema":`+fakeSchema+`}],"has_more":false}`)
	})
	mux.HandleFunc("GET /v1/pricing", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"items":[{"task":"pattern.generate","credit_type":"image","unit":"image",`+
			`"per_output":2,"prices":[]}],"has_more":false}`)
	})
	mux.HandleFunc("GET /v1/tasks/pattern.generate/examples", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"task":"pattern.generate","has_more":false,"items":[`+
			`{"name":"stripes","title":"Navy stripes","request":{"method":"POST","path":"/v1/tasks/pattern.generate",`+
			`"body":{"colors":["#1F3A5F","#F2C14E"],"count":3,"resolution":"2048","opts":{"seed":7},"base_color":"it's"}},`+
			`"files_sent":[]}]}`)
	})
	mux.HandleFunc("POST /v1/tasks/{task}/estimate", func(w http.ResponseWriter, r *http.Request) {
		f.posted = map[string]any{}
		_ = json.NewDecoder(r.Body).Decode(&f.posted)
		if f.posted["colors"] == nil {
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = io.WriteString(w, `{"error":{"code":"invalid_input","field":"colors","message":"colors must be array"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"credits":4,"credit_type":"image","outputs":2,"price_per_output":2}`)
	})
	if extra != nil {
		mux.Handle("/", extra)
	}
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// cli runs a user command against the fake service.
func (f *fakeAPI) cli(t *testing.T, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	r := &userRun{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		env: func(string) string { return "" }, client: client.New(f.URL, "tpk_test")}
	code := userMain(context.Background(), args, r)
	return code, out.String(), errb.String()
}

func TestUserSetTypedBySchema(t *testing.T) {
	f := newFakeAPI(t, nil)
	code, out, errs := f.cli(t, "estimate", "pattern.generate", "--set", "count=2", "--set", "scale=1.5",
		"--set", "tile=true", "--set", "colors=#1F3A5F, navy", "--set", "resolution=2048",
		"--set", "base_color=true", "--set", "opts.seed=7")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "4 image (2 output(s) × 2)\n", out)
	require.Equal(t, map[string]any{
		"count": float64(2), "scale": 1.5, "tile": true, "colors": []any{"#1F3A5F", "navy"},
		"resolution": "2048", "base_color": "true", "opts": map[string]any{"seed": float64(7)},
	}, f.posted)
}

func TestUserSetRefusals(t *testing.T) {
	f := newFakeAPI(t, nil)
	for _, tc := range []struct {
		set, want string
	}{
		{"base_colour=red", `unknown field "base_colour" (did you mean base_color?)`},
		{"colour=red", `unknown field "colour" (did you mean colors?)`},
		{"zzzzzzzzzzzz=1", `unknown field "zzzzzzzzzzzz"` + "\n"},
		{"count=two", "--set count=two: expected an integer"},
		{"tile=maybe", "expected true or false"},
		{"opts.sed=1", `unknown field "sed" (did you mean seed?)`},
	} {
		code, _, errs := f.cli(t, "estimate", "pattern.generate", "--set", tc.set)
		require.Equal(t, 2, code, tc.set)
		require.Contains(t, errs, tc.want, tc.set)
	}
}

func TestUserErrorNamesFieldOnce(t *testing.T) {
	f := newFakeAPI(t, nil)
	code, _, errs := f.cli(t, "estimate", "pattern.generate", "--set", "count=1")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "taskplatform: colors must be array (invalid_input)")
	require.Equal(t, 1, strings.Count(errs, "colors"), errs)
}

// jobsAPI answers a submitted job that succeeded with two outputs.
func jobsAPI(t *testing.T) *fakeAPI {
	job := `{"job_id":"job_1","task":"pattern.generate","lifecycle":"terminal","outcome":"succeeded",` +
		`"progress":{"done":2,"total":2,"phase":"done"},"credits":{"credit_type":"image","held":0,"charged":4},` +
		`"created_at":"2026-11-25T04:00:00Z"}`
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/tasks/{task}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Service-Credits", "4")
		w.Header().Set("X-Service-Credit-Type", "image")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, job)
	})
	mux.HandleFunc("GET /v1/jobs/job_1/events", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /v1/jobs/job_1", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, job) })
	mux.HandleFunc("GET /v1/jobs/job_1/files", func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		_, _ = io.WriteString(w, `{"items":[{"file":"file:a","url":"`+base+`/dl/a.png","media_type":"image/png"},`+
			`{"file":"file:b","url":"`+base+`/dl/b","media_type":"image/jpeg"}],"has_more":false}`)
	})
	mux.HandleFunc("GET /dl/{name}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "bytes of "+r.PathValue("name"))
	})
	return newFakeAPI(t, mux)
}

func TestUserRunOutputs(t *testing.T) {
	f := jobsAPI(t)
	dir := t.TempDir()
	code, out, errs := f.cli(t, "run", "pattern.generate", "--out", dir, "--set", "count=2", "--set", "colors=red")
	require.Equal(t, 0, code, errs)
	a, b := filepath.Join(dir, "job_1_0.png"), filepath.Join(dir, "job_1_1.jpg")
	require.Equal(t, "job_1\nsucceeded: 2 output(s), 4 image charged\n"+a+"\n"+b+"\n", out)
	for _, p := range []string{a, b} {
		st, err := os.Stat(p)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o644), st.Mode().Perm(), p)
	}
	// Standard error is no terminal: no bar redraws, only the lines.
	require.NotContains(t, errs, "\r")
	require.Equal(t, "pattern.generate: job job_1 submitted, 4 image held\nsucceeded 100% (2/2)\n", errs)

	code, out, _ = f.cli(t, "run", "pattern.generate", "--out", dir, "--json")
	require.Equal(t, 0, code)
	var rep runReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Equal(t, "succeeded", rep.Outcome)
	require.Equal(t, int64(4), *rep.Charged)
	require.Equal(t, []string{a, b}, rep.Files)
}

func TestUserServerDownSaidAtOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	start := time.Now()
	r := runBinary(t, []string{"TP_API_KEY=tpk_x", "TP_BASE_URL=" + base, "HOME=" + t.TempDir()}, "tasks")
	require.Equal(t, 1, r.code)
	require.Equal(t, "taskplatform: cannot reach the service at "+base+": connection refused (is it running?)\n", r.stderr)
	require.Less(t, time.Since(start), 3*time.Second)
}

// TestUserUnreachableSaidAtOnce: a service address where nothing listens,
// on any host, or whose host name does not resolve is said at once with
// the address, not after a minute of retries.
func TestUserUnreachableSaidAtOnce(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	refused := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	nxdomain := &http.Client{Transport: &http.Transport{
		DialContext: func(_ context.Context, network, addr string) (net.Conn, error) {
			host, _, _ := net.SplitHostPort(addr)
			return nil, &net.OpError{Op: "dial", Net: network,
				Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
		},
	}}
	for _, tc := range []struct {
		cl   *client.Client
		want string
	}{
		{client.New(refused, "tpk_x"),
			"taskplatform: cannot reach the service at " + refused + ": connection refused (is it running?)\n"},
		{client.New("http://api.taskplatform.invalid:8080", "tpk_x", client.WithHTTPClient(nxdomain)),
			"taskplatform: cannot reach the service at http://api.taskplatform.invalid:8080: the host name " +
				"api.taskplatform.invalid does not resolve (check TP_BASE_URL)\n"},
	} {
		var out, errb bytes.Buffer
		start := time.Now()
		code := userMain(context.Background(), []string{"jobs"}, &userRun{stdin: strings.NewReader(""),
			stdout: &out, stderr: &errb, env: func(string) string { return "" }, client: tc.cl})
		require.Equal(t, 1, code)
		require.Empty(t, out.String())
		require.Equal(t, tc.want, errb.String())
		require.Less(t, time.Since(start), time.Second)
	}
}

func TestUserTaskShowJobsVersion(t *testing.T) {
	f := jobsAPI(t)
	code, out, errs := f.cli(t, "tasks", "show", "pattern.generate")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "pattern.generate — Patterns\nunit: image\nprice: 2 image per image\n")
	require.Regexp(t, `(?m)^count\s+integer\s+1\s+\S`, out)
	require.Regexp(t, `(?m)^colors\s+array of string\s+-\s+\S`, out)
	require.Regexp(t, `(?m)^tile\s+boolean\s+-\s+-$`, out)

	code, _, errs = f.cli(t, "tasks", "show", "nope")
	require.Equal(t, 1, code)
	require.Contains(t, errs, `no task "nope"`)

	code, out, errs = f.cli(t, "jobs", "get", "job_1")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "job         job_1\n"+
		"task        pattern.generate\n"+
		"status      succeeded\n"+
		"progress    2 of 2 (done)\n"+
		"credits     4 image charged\n"+
		"time (UTC)  created 2026-11-25 04:00:00\n"+
		"files       taskplatform jobs result job_1 lists them\n", out)
	code, out, errs = f.cli(t, "jobs", "get", "job_1", "--json")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, `"outcome": "succeeded"`)

	code, out, _ = f.cli(t, "version")
	require.Equal(t, 0, code)
	require.True(t, strings.HasPrefix(out, "taskplatform "), out)
}

// TestFieldTableNamesRequiredFields: tasks show lists the fields a task
// needs first (no default, listed in required) and says so rather than a
// bare "-", with each field's allowed values or bounds and, below the
// table, its description.
func TestFieldTableNamesRequiredFields(t *testing.T) {
	t.Parallel()
	var n schemaNode
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","required":["kind","colors"],"properties":{
		"colors":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":6,"description":"Hex colours."},
		"count":{"type":"integer","default":1,"minimum":1,"maximum":8},
		"kind":{"type":"string","enum":["a","b","c","d","e","f","g","h","i","j","k","l","m","n"]},
		"seed":{"type":["integer","null"],"description":"Only for kind b."}}}`), &n))
	var out strings.Builder
	require.NoError(t, (&userRun{stdout: &out}).fieldTable(&n))
	require.Equal(t, "FIELD   TYPE             DEFAULT     ALLOWED\n"+
		"kind    string           (required)  a, b, c, d, e, f, g, h, i, j, k, l (and 2 more)\n"+
		"colors  array of string  (required)  2 to 6 items\n"+
		"count   integer          1           1 to 8\n"+
		"seed    integer          -           -\n"+
		"\n"+
		"colors: Hex colours.\n"+
		"seed: Only for kind b.\n", out.String())
}

// TestUsageErrorIsOneLineAndAHint: a misused command prints what was wrong
// and one line naming the CLI command that helps, not its whole usage.
func TestUsageErrorIsOneLineAndAHint(t *testing.T) {
	f := newFakeAPI(t, nil)
	code, _, errs := f.cli(t, "estimate", "pattern.generate", "--set", "count=two")
	require.Equal(t, 2, code)
	require.Equal(t, "taskplatform: --set count=two: expected an integer\n"+
		"taskplatform: see 'taskplatform tasks show pattern.generate' for its fields, "+
		"'taskplatform estimate --help' for the flags\n", errs)
	code, _, errs = f.cli(t, "jobs", "get")
	require.Equal(t, 2, code)
	require.Equal(t, "taskplatform: expected one argument: JOB\ntaskplatform: see 'taskplatform jobs get --help'\n", errs)
	code, _, errs = f.cli(t, "run", "pattern.generate", "--nope")
	require.Equal(t, 2, code)
	require.Equal(t, "taskplatform: unknown flag: --nope\n"+
		"taskplatform: see 'taskplatform tasks show pattern.generate' for its fields, "+
		"'taskplatform run --help' for the flags\n", errs)
}

// TestUserRunWithoutOutMakesTheJobsFolder: run without --out saves the
// outputs into a folder of their own, named after the job, not among the
// files of the current folder.
func TestUserRunWithoutOutMakesTheJobsFolder(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	f := jobsAPI(t)
	code, out, errs := f.cli(t, "run", "pattern.generate", "--set", "count=2", "--set", "colors=red")
	require.Equal(t, 0, code, errs)
	a, b := filepath.Join("job_1", "job_1_0.png"), filepath.Join("job_1", "job_1_1.jpg")
	require.Equal(t, "job_1\nsucceeded: 2 output(s), 4 image charged\n"+a+"\n"+b+"\n", out)
	entries, err := os.ReadDir(cwd)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Equal(t, "job_1", entries[0].Name())
	for _, p := range []string{a, b} {
		_, err := os.Stat(filepath.Join(cwd, p))
		require.NoError(t, err)
	}
}
