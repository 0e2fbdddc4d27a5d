package engines

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/tasks"
)

// cog speaks the Cog HTTP prediction protocol (github.com/replicate/cog,
// docs/http.md): POST /predictions with {"id", "input"}, answered at once
// (sync) or, with Prefer: respond-async, 202 and then polled at
// GET /predictions/{id} until succeeded, failed or canceled; a prediction
// is cancelled with POST /predictions/{id}/cancel. Outputs are URLs or data
// URIs. A Cog server runs one prediction at a time unless built for more:
// the engine sends at most Concurrency at once from this process and
// waits, heartbeating, for a slot.
type cog struct {
	name     string
	base     *url.URL
	http     *http.Client
	files    files
	async    bool
	poll     time.Duration
	refusals []string
	slots    chan struct{}
}

// cogPrediction is a prediction as a Cog server answers it.
type cogPrediction struct {
	ID      string         `json:"id"`
	Status  string         `json:"status"`
	Output  any            `json:"output"`
	Error   any            `json:"error"`
	Logs    string         `json:"logs"`
	Metrics map[string]any `json:"metrics"`
}

// The statuses of a Cog prediction.
const (
	cogStarting   = "starting"
	cogProcessing = "processing"
	cogSucceeded  = "succeeded"
	cogFailed     = "failed"
	cogCanceled   = "canceled"
)

func newCog(name string, c EngineConfig, cl Clients) (tasks.Engine, error) {
	base, err := url.Parse(strings.TrimRight(c.URL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("engine %s: url %q is not an http(s) address", name, c.URL)
	}
	poll, err := duration(c.PollInterval, time.Second)
	if err != nil {
		return nil, fmt.Errorf("engine %s: poll_interval: %w", name, err)
	}
	if c.Mode != "" && c.Mode != "sync" && c.Mode != "async" {
		return nil, fmt.Errorf("engine %s: mode %q is neither sync nor async", name, c.Mode)
	}
	max := c.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	n := c.Concurrency
	if n <= 0 {
		n = 1
	}
	own := cl.engine()
	return &cog{name: name, base: base, http: own, async: c.Mode != "sync", poll: poll, refusals: c.Refusals,
		slots: make(chan struct{}, n), files: files{origin: base, own: own, fetch: cl.Fetch, maxBytes: max}}, nil
}

// DefaultMaxBytes bounds an output file when the engine's max_bytes is not set.
const DefaultMaxBytes = 64 << 20

// Name implements tasks.Engine.
func (c *cog) Name() string { return c.name }

// Predict implements tasks.Engine.
func (c *cog) Predict(ctx context.Context, input map[string]any) (tasks.Prediction, error) {
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): waiting for a slot", c.name))
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-ctx.Done():
		return tasks.Prediction{}, ctx.Err()
	}
	id := newPredictionID()
	p, err := c.run(ctx, id, input)
	if ctx.Err() != nil {
		c.cancel(ctx, id)
		return tasks.Prediction{}, ctx.Err()
	}
	if err != nil {
		return tasks.Prediction{}, err
	}
	return c.result(ctx, p)
}

// run starts prediction id and answers it once it has ended.
func (c *cog) run(ctx context.Context, id string, input map[string]any) (*cogPrediction, error) {
	body, err := json.Marshal(map[string]any{"id": id, "input": input})
	if err != nil {
		return nil, fail(Failed, "encode the model input: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base.String()+"/predictions", bytes.NewReader(body))
	if err != nil {
		return nil, fail(Failed, "prediction request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.async {
		req.Header.Set("Prefer", "respond-async")
	}
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s submitted", c.name, id))
	p, err := c.do(req)
	if err != nil || !c.async {
		return p, err
	}
	return c.wait(ctx, id, p)
}

// wait polls prediction id until it has ended.
func (c *cog) wait(ctx context.Context, id string, p *cogPrediction) (*cogPrediction, error) {
	started := time.Now()
	misses := 0
	for !ended(p.Status) {
		tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s %s for %s", c.name, id, p.Status,
			time.Since(started).Round(time.Second)))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(c.poll):
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base.String()+"/predictions/"+id, nil)
		if err != nil {
			return nil, fail(Failed, "poll request: %w", err)
		}
		next, err := c.do(req)
		var f *Failure
		switch {
		case err == nil:
			p, misses = next, 0
		case errors.As(err, &f) && f.Kind != Failed && misses < 3 && ctx.Err() == nil:
			misses++ // a poll the server did not answer: ask again
		default:
			return nil, err
		}
	}
	return p, nil
}

func ended(status string) bool {
	return status == cogSucceeded || status == cogFailed || status == cogCanceled
}

// do sends a request and decodes the prediction it answers.
func (c *cog) do(req *http.Request) (*cogPrediction, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		if req.Context().Err() != nil {
			return nil, req.Context().Err()
		}
		return nil, fail(Unavailable, "%s %s: %w", req.Method, req.URL.Path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.files.maxBytes*4/3+(1<<20)))
	if err != nil {
		return nil, fail(Unavailable, "%s %s: read: %w", req.Method, req.URL.Path, err)
	}
	switch code := resp.StatusCode; {
	case code == http.StatusConflict || code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable:
		return nil, fail(Busy, "%s %s: status %d", req.Method, req.URL.Path, code)
	case code == http.StatusNotFound && req.Method == http.MethodGet:
		return nil, fail(Unavailable, "prediction lost: %s answered 404", req.URL.Path)
	case code >= 500:
		return nil, fail(Unavailable, "%s %s: status %d", req.Method, req.URL.Path, code)
	case code >= 300:
		return nil, fail(Failed, "%s %s: status %d: %.200s", req.Method, req.URL.Path, code, raw)
	}
	var p cogPrediction
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fail(Failed, "%s %s: answer is not a prediction: %w", req.Method, req.URL.Path, err)
	}
	return &p, nil
}

// result reads the file of an ended prediction.
func (c *cog) result(ctx context.Context, p *cogPrediction) (tasks.Prediction, error) {
	switch p.Status {
	case cogSucceeded:
	case cogCanceled:
		return tasks.Prediction{}, fail(Unavailable, "prediction %s was cancelled on the engine", p.ID)
	default:
		msg := fmt.Sprint(p.Error)
		for _, r := range c.refusals {
			if r != "" && strings.Contains(strings.ToLower(msg), strings.ToLower(r)) {
				return tasks.Prediction{}, fail(Refused, "prediction %s refused: %.300s", p.ID, msg)
			}
		}
		return tasks.Prediction{}, fail(Failed, "prediction %s %s: %.300s", p.ID, p.Status, msg)
	}
	ref, err := firstFile(p.Output)
	if err != nil {
		return tasks.Prediction{}, fail(Failed, "prediction %s: %w", p.ID, err)
	}
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s succeeded; reading its output", c.name, p.ID))
	data, err := c.files.read(ctx, ref)
	if err != nil {
		return tasks.Prediction{}, err
	}
	secs, _ := p.Metrics["predict_time"].(float64)
	return tasks.Prediction{ID: p.ID, Data: data, Seconds: secs}, nil
}

// cancel asks the engine to cancel prediction id, on a context of its own:
// the step's context has ended (the job was cancelled), and the cleanup must
// still reach the engine.
func (c *cog) cancel(ctx context.Context, id string) {
	cctx, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer done()
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, c.base.String()+"/predictions/"+id+"/cancel", nil)
	if err != nil {
		return
	}
	if resp, err := c.http.Do(req); err == nil {
		_ = resp.Body.Close()
	}
}

// newPredictionID is a fresh prediction id; the engine is told it, so a
// prediction can be cancelled before its first answer.
func newPredictionID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "tp" + hex.EncodeToString(b)
}
