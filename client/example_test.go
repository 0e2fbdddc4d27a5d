package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskplatform/taskplatform/client"
)

// fakeAPI stands in for the service in the examples: one job that starts,
// delivers one file and succeeds. Its first submit answers a proxy's 503,
// which the client retries with the same Idempotency-Key.
func fakeAPI() *httptest.Server {
	var srv *httptest.Server
	submits := 0
	job := func(lifecycle string) string {
		return `{"job_id":"j_1","task":"pattern.generate","lifecycle":"` + lifecycle + `","outcome":"succeeded",` +
			`"progress":{"done":1,"total":1,"phase":"done"},"error":null}`
	}
	result := func() string {
		return `{"job_id":"j_1","files":[{"file":"art:a","url":"` + srv.URL + `/files/a.png","media_type":"image/png"}],` +
			`"has_more":false}`
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "POST /v1/tasks/pattern.generate":
			if submits++; submits == 1 {
				w.WriteHeader(http.StatusServiceUnavailable) // a proxy: no error object
				return
			}
			w.Header().Set("X-Service-Credits", "10")
			w.Header().Set("X-Service-Credit-Type", "service_credits")
			w.WriteHeader(http.StatusAccepted)
			_, _ = io.WriteString(w, strings.Replace(job("queued"), `"succeeded"`, "null", 1))
		case "GET /v1/jobs/j_1/events":
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range []struct {
				seq        int64
				kind, life string
				done       int
				extra      string
			}{{1, "job.started", "running", 0, ""}, {2, "job.progress", "running", 1, ""},
				{1 << 40, "job.succeeded", "terminal", 1, `,"outcome":"succeeded","result":` + result()}} {
				fmt.Fprintf(
					w,
					"id: %d\nevent: %s\ndata: "+
						"{\"id\":\"evt_%d\",\"event\":%q,\"job_id\":\"j_1\",\"lifecycle\":%q,\"progress\":{\"done\":%d,\"total\":1,"+
						"\"phase\":\"rendering\"}%s}\n\n",
					ev.seq,
					ev.kind,
					ev.seq,
					ev.kind,
					ev.life,
					ev.done,
					ev.extra,
				)
			}
		case "GET /v1/jobs/j_1":
			_, _ = io.WriteString(w, job("terminal"))
		case "GET /v1/jobs/j_1/result":
			_, _ = io.WriteString(w, result())
		case "GET /v1/jobs/j_1/files":
			_, _ = io.WriteString(w, `{"items":[{"file":"art:a","url":"`+srv.URL+`/files/a.png","media_type":"image/png",`+
				`"bytes":2048},{"file":"art:b","url":"`+srv.URL+`/files/b.png","media_type":"image/png","bytes":1024}],`+
				`"has_more":false}`)
		case "GET /v1/tasks":
			_, _ = io.WriteString(w, `{"items":[`+patternTask+`,`+mockupTask+`],"has_more":false}`)
		case "GET /v1/tasks/pattern.generate":
			_, _ = io.WriteString(w, patternTask)
		case "GET /v1/pricing":
			_, _ = io.WriteString(w, `{"items":[{"task":"pattern.generate","credit_type":"service_credits",`+
				`"unit":"image","per_output":10,"depends_on":null,"prices":[]},{"task":"mockup.render",`+
				`"credit_type":"service_credits","unit":"image","per_output":null,"depends_on":"resolution",`+
				`"prices":[{"value":"1024","credits":20},{"value":"2048","credits":40}]}],"has_more":false}`)
		case "GET /files/a.png":
			_, _ = io.WriteString(w, "\x89PNG…")
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(
				w,
				`{"error":{"code":"not_found","type":"invalid_request","message":"No such address.","retryable":false}}`,
			)
		}
	}))
	return srv
}

// patternTask and mockupTask are catalogue entries as GET /v1/tasks lists
// them: the task object has no price, which the client joins in from
// GET /v1/pricing.
const (
	patternTask = `{"name":"pattern.generate","title":"Patterns","category":"image","unit":"image",` +
		`"inputSchema":{"type":"object"},"outputSchema":null,"docs":{"summary":"Seamless patterns."}}`
	mockupTask = `{"name":"mockup.render","title":"Mockups","category":"image","unit":"image",` +
		`"inputSchema":{"type":"object"},"outputSchema":null,"docs":{"summary":"A product mockup."}}`
)

// Submit a task, follow its events, then read and download its result.
func Example() {
	api := fakeAPI()
	defer api.Close()
	ctx := context.Background()
	c := client.New(api.URL, "tpk_…")

	sub, err := c.Submit(
		ctx,
		"pattern.generate",
		map[string]any{"kind": "stripes", "colors": []string{"#1F3A5F", "#F2C14E"}, "count": 1},
		nil,
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("job", sub.JobID, "holds", sub.Credits, sub.CreditType)

	job, err := c.Wait(ctx, sub.JobID, func(ev client.Event) {
		fmt.Printf("%s: %d done\n", ev.Event.Event, ev.Progress.Done)
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("ended", *job.Outcome)

	res, err := c.Result(ctx, sub.JobID)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		var buf bytes.Buffer
		n, err := c.Download(ctx, f.URL, &buf)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(f.File, f.MediaType, n > 0)
	}
	// Output:
	// job j_1 holds 10 service_credits
	// job.started: 0 done
	// job.progress: 1 done
	// job.succeeded: 1 done
	// ended succeeded
	// art:a image/png true
}

// Errors are *client.Error: branch on Code, show Field.
func ExampleError() {
	api := fakeAPI()
	defer api.Close()
	_, err := client.New(api.URL, "tpk_…").Job(context.Background(), "j_missing")
	if e, ok := err.(*client.Error); ok {
		fmt.Println(e.Status, e.Code, e.Retryable)
	}
	// Output:
	// 404 not_found false
}

// Run submits, waits and reads the result in one call, and saves the
// files as {job}_{index}.{ext}; the client reads its key and address from
// TP_API_KEY and TP_BASE_URL, as the command line does.
func ExampleClient_Run() {
	api := fakeAPI()
	defer api.Close()
	os.Setenv("TP_BASE_URL", api.URL)
	os.Setenv("TP_API_KEY", "tpk_…")
	c, err := client.NewFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)
	res, paths, err := c.Run(context.Background(), "pattern.generate",
		map[string]any{"kind": "stripes", "colors": []string{"#1F3A5F", "#F2C14E"}, "count": 1},
		&client.RunOptions{DownloadDir: dir})
	if err != nil {
		log.Fatal(err)
	}
	info, _ := os.Stat(paths[0])
	fmt.Println(len(res.Files), filepath.Base(paths[0]), info.Mode().Perm())
	// Output:
	// 1 j_1_0.png -rw-r--r--
}

// NewFromEnv reads the key from TP_API_KEY and the address from
// TP_BASE_URL (http://127.0.0.1:8080, where `make run` serves, when it is
// unset), as the command line does; without a key it answers ErrNoAPIKey.
func ExampleNewFromEnv() {
	api := fakeAPI()
	defer api.Close()
	defer os.Unsetenv("TP_API_KEY")
	defer os.Unsetenv("TP_BASE_URL")

	os.Unsetenv("TP_API_KEY")
	_, err := client.NewFromEnv()
	fmt.Println(errors.Is(err, client.ErrNoAPIKey))

	os.Setenv("TP_API_KEY", "tpk_…")
	os.Unsetenv("TP_BASE_URL")
	c, err := client.NewFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL())

	os.Setenv("TP_BASE_URL", api.URL)
	c, err = client.NewFromEnv(client.WithUserAgent("my-shop/1.0"))
	if err != nil {
		log.Fatal(err)
	}
	job, err := c.Job(context.Background(), "j_1")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(job.JobID, *job.Outcome)
	// Output:
	// true
	// http://127.0.0.1:8080
	// j_1 succeeded
}

// Files walks the outputs a job delivered, whatever its outcome (a failed
// or cancelled job's delivered outputs too, which Result refuses).
func ExampleClient_Files() {
	api := fakeAPI()
	defer api.Close()
	c := client.New(api.URL, "tpk_…")
	for f, err := range c.Files(context.Background(), "j_1") {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(f.File, f.MediaType, f.Bytes)
	}
	// Output:
	// art:a image/png 2048
	// art:b image/png 1024
}

// Tasks lists the catalogue with each task's price: flat per output, or
// by the value of the input option it depends on.
func ExampleClient_Tasks() {
	api := fakeAPI()
	defer api.Close()
	ts, err := client.New(api.URL, "tpk_…").Tasks(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range ts {
		p := t.Price
		if p.PerOutput != nil {
			fmt.Println(t.Name, *p.PerOutput, p.CreditType, "per", p.Unit)
			continue
		}
		for _, o := range p.Prices {
			fmt.Println(t.Name, *p.DependsOn+"="+o.Value, o.Credits, p.CreditType, "per", p.Unit)
		}
	}
	// Output:
	// pattern.generate 10 service_credits per image
	// mockup.render resolution=1024 20 service_credits per image
	// mockup.render resolution=2048 40 service_credits per image
}

// Task reads one task: its schemas, docs and price.
func ExampleClient_Task() {
	api := fakeAPI()
	defer api.Close()
	t, err := client.New(api.URL, "tpk_…").Task(context.Background(), "pattern.generate")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(*t.Title, *t.Price.PerOutput, t.Price.CreditType)
	// Output:
	// Patterns 10 service_credits
}

// AllJobs walks the job list page by page as the loop asks; Total reads
// a progress total that is null until the job has planned its work.
func ExampleClient_AllJobs() {
	api := jobsAPI()
	defer api.Close()
	c := client.New(api.URL, "tpk_…")
	for job, err := range c.AllJobs(context.Background(), 2) {
		if err != nil {
			log.Fatal(err)
		}
		total, known := client.Total(job.Progress)
		fmt.Println(job.JobID, job.Lifecycle, total, known)
	}
	// Output:
	// j_3 queued 0 false
	// j_2 running 4 true
	// j_1 terminal 2 true
}

// A failed job's error is typed: Wait answers it, and JobError reads it
// from any job record.
func ExampleJobError() {
	api := jobsAPI()
	defer api.Close()
	c := client.New(api.URL, "tpk_…")
	job, err := c.Wait(context.Background(), "j_1", nil)
	var e *client.Error
	fmt.Println(*job.Outcome, errors.As(err, &e), e.Code, client.JobError(job).Code)
	// Output:
	// failed true processing_failed processing_failed
}

// jobsAPI stands in for the service's job list: three jobs over two pages,
// the oldest failed.
func jobsAPI() *httptest.Server {
	row := func(id, life, outcome, total string) string {
		errObj := "null"
		if outcome == `"failed"` {
			errObj = `{"code":"processing_failed","type":"job","message":"A step failed.","retryable":true}`
		}
		return `{"job_id":"` + id + `","task":"pattern.generate","lifecycle":"` + life + `","outcome":` + outcome +
			`,"progress":{"done":0,"total":` + total + `,"phase":"queued"},"error":` + errObj + `}`
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/jobs" && r.URL.Query().Get("cursor") == "":
			_, _ = io.WriteString(w, `{"items":[`+row("j_3", "queued", "null", "null")+`,`+
				row("j_2", "running", "null", "4")+`],"has_more":true,"next_cursor":"c2"}`)
		case r.URL.Path == "/v1/jobs":
			_, _ = io.WriteString(w, `{"items":[`+row("j_1", "terminal", `"failed"`, "2")+`],"has_more":false}`)
		case r.URL.Path == "/v1/jobs/j_1/events":
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "id: 9\nevent: job.failed\ndata: {\"id\":\"evt_9\",\"event\":\"job.failed\","+
				"\"job_id\":\"j_1\",\"lifecycle\":\"terminal\",\"outcome\":\"failed\"}\n\n")
		case r.URL.Path == "/v1/jobs/j_1":
			_, _ = io.WriteString(w, row("j_1", "terminal", `"failed"`, "2"))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
}
