package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/wire"
)

// SubmitOptions shape a submit; the zero value answers the job's handle at
// once with a generated Idempotency-Key.
type SubmitOptions struct {
	// Wait asks the service to answer the result itself when the job ends
	// within it (Prefer: wait=N, whole seconds, clipped by the service).
	Wait time.Duration
	// IdempotencyKey makes a resubmit land on the same job; empty
	// generates a UUID v4, reused for every retry of this call.
	IdempotencyKey string
	// StartTimeout fails the job start_timeout when it cannot start in
	// time (X-Service-Start-Timeout).
	StartTimeout time.Duration
	// WebhookURL receives the job's terminal event (https).
	WebhookURL string
	// MaxCredits, when above zero, is the most credits the job may hold
	// (X-Service-Max-Credits): a hold above it answers *Error
	// max_credits_exceeded and nothing is held. Pass an Estimate's
	// Credits to pay no more than it said.
	MaxCredits int64
}

// Submission is the answer of a submit: the job's handle, or its result
// when the service waited for it.
type Submission struct {
	// JobID is the job's id, always set.
	JobID string
	// Job is the handle answered (202); nil when Result is set.
	Job *wire.Job
	// Result is the job's first page of files when the wait ended with the
	// job succeeded (200).
	Result *wire.Result
	// Credits held for the job and their type (X-Service-Credits), when the
	// task costs credits.
	Credits    int64
	CreditType string
	// IdempotencyKey is the key sent: submit again with it to reach the
	// same job.
	IdempotencyKey string
}

// Submit runs task with input (any value that marshals to the task's
// JSON body). A job that fails or is cancelled while the service waits
// answers *Error carrying the job id (cancelled: code cancelled).
func (c *Client) Submit(ctx context.Context, task string, input any, opts *SubmitOptions) (*Submission, error) {
	if opts == nil {
		opts = &SubmitOptions{}
	}
	body, err := marshalInput(input)
	if err != nil {
		return nil, err
	}
	key := opts.IdempotencyKey
	if key == "" {
		key = newKey()
	}
	h := http.Header{}
	h.Set("Idempotency-Key", key)
	if opts.Wait > 0 {
		h.Set("Prefer", "wait="+strconv.Itoa(int((opts.Wait+time.Second-1)/time.Second)))
	}
	if opts.StartTimeout > 0 {
		h.Set("X-Service-Start-Timeout", strconv.Itoa(int((opts.StartTimeout+time.Second-1)/time.Second)))
	}
	if opts.MaxCredits > 0 {
		h.Set("X-Service-Max-Credits", strconv.FormatInt(opts.MaxCredits, 10))
	}
	path := "/v1/tasks/" + url.PathEscape(task)
	if opts.WebhookURL != "" {
		path += "?webhook_url=" + url.QueryEscape(opts.WebhookURL)
	}
	a, err := c.do(
		ctx,
		request{method: http.MethodPost, path: path, body: body, contentType: "application/json", headers: h},
	)
	if err != nil {
		return nil, err
	}
	s := &Submission{IdempotencyKey: key, CreditType: a.header.Get("X-Service-Credit-Type")}
	s.Credits, _ = strconv.ParseInt(a.header.Get("X-Service-Credits"), 10, 64)
	if a.status == http.StatusOK {
		var r wire.Result
		if err := decode(a, &r); err != nil {
			return nil, err
		}
		s.Result, s.JobID = &r, r.JobID
		return s, nil
	}
	var j wire.Job
	if err := decode(a, &j); err != nil {
		return nil, err
	}
	s.Job, s.JobID = &j, j.JobID
	return s, nil
}

func marshalInput(input any) ([]byte, error) {
	switch v := input.(type) {
	case json.RawMessage:
		return v, nil
	case []byte:
		return v, nil
	case nil:
		return []byte("{}"), nil
	}
	return json.Marshal(input)
}

// Job reads a job: lifecycle, outcome, progress and error.
func (c *Client) Job(ctx context.Context, jobID string) (*wire.Job, error) {
	var j wire.Job
	return &j, c.getJSON(ctx, "/v1/jobs/"+url.PathEscape(jobID), &j)
}

// JobPage is one page of the job list.
type JobPage struct {
	Items      []wire.Job `json:"items"`
	HasMore    bool       `json:"has_more"`
	NextCursor string     `json:"next_cursor"`
}

// Jobs lists the account's jobs, newest first: limit per page (0: the
// service's default), from cursor (empty: the first page).
func (c *Client) Jobs(ctx context.Context, limit int, cursor string) (*JobPage, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	path := "/v1/jobs"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var p JobPage
	return &p, c.getJSON(ctx, path, &p)
}

// Result reads a succeeded job's result, every page of files in one
// Result. A job that failed answers *Error job_failed, a cancelled one
// cancelled, one still running result_not_ready.
func (c *Client) Result(ctx context.Context, jobID string) (*wire.Result, error) {
	var all *wire.Result
	cursor := ""
	for {
		path := "/v1/jobs/" + url.PathEscape(jobID) + "/result?limit=100"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var page wire.Result
		if err := c.getJSON(ctx, path, &page); err != nil {
			return nil, err
		}
		if all == nil {
			all = &page
		} else {
			all.Files = append(all.Files, page.Files...)
		}
		if !page.HasMore || page.NextCursor == "" {
			all.HasMore, all.NextCursor = false, ""
			return all, nil
		}
		cursor = page.NextCursor
	}
}

// JobFiles lists the outputs a job delivered so far, every page, whatever
// its outcome: a cancelled or failed job's delivered (and charged) outputs
// too, which Result refuses.
func (c *Client) JobFiles(ctx context.Context, jobID string) ([]wire.File, error) {
	var out []wire.File
	cursor := ""
	for {
		path := "/v1/jobs/" + url.PathEscape(jobID) + "/files?limit=100"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var page struct {
			Items      []wire.File `json:"items"`
			HasMore    bool        `json:"has_more"`
			NextCursor string      `json:"next_cursor"`
		}
		if err := c.getJSON(ctx, path, &page); err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if !page.HasMore || page.NextCursor == "" {
			return out, nil
		}
		cursor = page.NextCursor
	}
}

// Cancellation is the answer of a cancel: the lifecycle when it was asked.
type Cancellation struct {
	JobID     string  `json:"job_id"`
	Lifecycle string  `json:"lifecycle"`
	Outcome   *string `json:"outcome"`
	StatusURL string  `json:"status_url"`
}

// Cancel asks a job to stop; the job read says how it ended. An ended job
// answers *Error job_already_ended.
func (c *Client) Cancel(ctx context.Context, jobID string) (*Cancellation, error) {
	a, err := c.do(ctx, request{method: http.MethodPut, path: "/v1/jobs/" + url.PathEscape(jobID) + "/cancel"})
	if err != nil {
		return nil, err
	}
	var out Cancellation
	return &out, decode(a, &out)
}

// Wait follows a job until it ends and returns its final record: through
// the event stream, calling onEvent (if not nil) with each event, and by
// polling every few seconds if the stream cannot be read. A job that
// failed or was cancelled answers its record and its *Error (JobError).
func (c *Client) Wait(ctx context.Context, jobID string, onEvent func(Event)) (*wire.Job, error) {
	s := c.Stream(ctx, jobID, 0)
	defer s.Close()
	for {
		ev, err := s.Next()
		if err == nil {
			if onEvent != nil {
				onEvent(ev)
			}
			if ev.Terminal() {
				return c.ended(ctx, jobID)
			}
			continue
		}
		if errors.Is(err, ErrStreamEnded) {
			return c.ended(ctx, jobID)
		}
		var apiErr *Error
		if errors.As(err, &apiErr) || ctx.Err() != nil {
			return nil, err
		}
		return c.poll(ctx, jobID)
	}
}

// ended reads an ended job: its record, and its error when it failed or
// was cancelled.
func (c *Client) ended(ctx context.Context, jobID string) (*wire.Job, error) {
	j, err := c.Job(ctx, jobID)
	if err != nil {
		return nil, err
	}
	if e := JobError(j); e != nil {
		return j, e
	}
	return j, nil
}

// poll reads a job every 2 s until it ends.
func (c *Client) poll(ctx context.Context, jobID string) (*wire.Job, error) {
	for {
		j, err := c.Job(ctx, jobID)
		if err != nil {
			return nil, err
		}
		if j.Lifecycle == contract.LifecycleTerminal {
			return c.ended(ctx, jobID)
		}
		if err := c.sleep(ctx, 2*time.Second); err != nil {
			return nil, err
		}
	}
}

// Estimate is the cost ceiling of a request.
type Estimate struct {
	Task           string `json:"task"`
	Credits        int64  `json:"credits"`
	CreditType     string `json:"credit_type"`
	Outputs        int    `json:"outputs"`
	PricePerOutput int64  `json:"price_per_output"`
	// ValidUntil is how long the price holds; submit with MaxCredits set
	// to Credits to be sure of the ceiling.
	ValidUntil time.Time `json:"valid_until"`
}

// Estimate validates input exactly as a submit does and answers its cost
// ceiling; nothing is held and no job starts.
func (c *Client) Estimate(ctx context.Context, task string, input any) (*Estimate, error) {
	body, err := marshalInput(input)
	if err != nil {
		return nil, err
	}
	a, err := c.do(
		ctx,
		request{
			method:      http.MethodPost,
			path:        "/v1/tasks/" + url.PathEscape(task) + "/estimate",
			body:        body,
			contentType: "application/json",
		},
	)
	if err != nil {
		return nil, err
	}
	var e Estimate
	return &e, decode(a, &e)
}

// Task is a catalogue entry, as listed, with its price.
type Task struct {
	Name        string          `json:"name"`
	Title       *string         `json:"title"`
	Description *string         `json:"description"`
	Category    *string         `json:"category"`
	Unit        *string         `json:"unit"`
	Status      *string         `json:"status"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema describes each result file's data; null when the task
	// reports none.
	OutputSchema json.RawMessage `json:"outputSchema"`
	// Docs is the task's documentation object (summary, limitations,
	// specs, examples), as GET /v1/tasks/{name} serves it.
	Docs json.RawMessage `json:"docs"`
	// Price is the task's row of the price list (GET /v1/pricing): its
	// credit type and the credits per delivered output, flat (PerOutput)
	// or by the value of one input option (DependsOn, Prices). The
	// catalogue's task object has no price; Tasks and Task join it in. Nil
	// when the price list has no row for the task.
	Price *Price `json:"price"`
}

// Tasks lists the catalogue, every page, each task with its price.
func (c *Client) Tasks(ctx context.Context) ([]Task, error) {
	var out []Task
	cursor := ""
	for {
		path := "/v1/tasks?limit=100"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var page struct {
			Items      []Task `json:"items"`
			HasMore    bool   `json:"has_more"`
			NextCursor string `json:"next_cursor"`
		}
		if err := c.getJSON(ctx, path, &page); err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if !page.HasMore || page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	if err := c.price(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Task reads one task of the catalogue with its price. A name the
// catalogue does not know answers *Error task_not_found; a removed task,
// task_removed.
func (c *Client) Task(ctx context.Context, name string) (*Task, error) {
	var t Task
	if err := c.getJSON(ctx, "/v1/tasks/"+url.PathEscape(name), &t); err != nil {
		return nil, err
	}
	ts := []Task{t}
	if err := c.price(ctx, ts); err != nil {
		return nil, err
	}
	return &ts[0], nil
}

// TaskExample is one of a task's examples: a real request and the
// files it sends, as GET /v1/tasks/{name}/examples serves it.
type TaskExample struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Request     struct {
		Body json.RawMessage `json:"body"`
	} `json:"request"`
	FilesSent []json.RawMessage `json:"files_sent"`
}

// TaskExamples lists a task's examples.
func (c *Client) TaskExamples(ctx context.Context, name string) ([]TaskExample, error) {
	var page struct {
		Items []TaskExample `json:"items"`
	}
	if err := c.getJSON(ctx, "/v1/tasks/"+url.PathEscape(name)+"/examples", &page); err != nil {
		return nil, err
	}
	return page.Items, nil
}

// price sets each task's Price from the price list.
func (c *Client) price(ctx context.Context, ts []Task) error {
	ps, err := c.Prices(ctx)
	if err != nil {
		return err
	}
	byTask := make(map[string]*Price, len(ps))
	for i := range ps {
		byTask[ps[i].Task] = &ps[i]
	}
	for i := range ts {
		ts[i].Price = byTask[ts[i].Name]
	}
	return nil
}

// Meta reads the service's metadata: limits and the webhook policy.
func (c *Client) Meta(ctx context.Context) (*contract.Meta, error) {
	var m contract.Meta
	return &m, c.getJSON(ctx, "/v1/meta", &m)
}
