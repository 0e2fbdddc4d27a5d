package engines

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
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
// docs/http.md). A prediction is created with PUT /predictions/{id}, the
// idempotent create, with {"id", "input"}: in sync mode the request is held
// open until the prediction ends; in async mode it carries Prefer:
// respond-async, the server answers 202 at once and reports the
// prediction's start and end by webhook to the worker's receiver (Cog
// serves no GET /predictions/{id}: its docs say webhooks are the only
// way). A prediction is cancelled with POST /predictions/{id}/cancel.
// Outputs are URLs or data URIs. A Cog server runs one prediction at a
// time unless built for more: the engine sends at most Concurrency at once
// from this process and waits, heartbeating, for a slot.
type cog struct {
	name     string
	base     *url.URL
	http     *http.Client
	files    files
	hooks    *receiver // nil in sync mode
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

// cogEvents are the webhook events an async prediction asks for: its start
// (shown in the step's heartbeat) and its end.
var cogEvents = []string{"start", "completed"}

func newCog(name string, c EngineConfig, cl Clients) (tasks.Engine, error) {
	base, err := url.Parse(strings.TrimRight(c.URL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("engine %s: url %q is not an http(s) address", name, c.URL)
	}
	max := c.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	var hooks *receiver
	switch {
	case c.Mode == "async" && c.WebhookListen == "":
		return nil, fmt.Errorf("engine %s: mode async needs webhook_listen (and webhook_url when the engine "+
			"reaches this worker at another address): a Cog server reports an async prediction only by "+
			"webhook; without them the mode is sync", name)
	case c.Mode == "sync" && (c.WebhookListen != "" || c.WebhookURL != ""):
		return nil, fmt.Errorf("engine %s: webhook_listen and webhook_url are for mode async, not sync", name)
	case c.Mode != "" && c.Mode != "sync" && c.Mode != "async":
		return nil, fmt.Errorf("engine %s: mode %q is neither sync nor async", name, c.Mode)
	case c.WebhookListen == "" && c.WebhookURL != "":
		return nil, fmt.Errorf("engine %s: webhook_url needs webhook_listen, the address to listen on", name)
	case c.WebhookListen != "":
		if hooks, err = newReceiver(c.WebhookListen, c.WebhookURL, max); err != nil {
			return nil, fmt.Errorf("engine %s: %w", name, err)
		}
	}
	n := c.Concurrency
	if n <= 0 {
		n = 1
	}
	own := cl.engine(base)
	return &cog{name: name, base: base, http: own, hooks: hooks, refusals: c.Refusals,
		slots: make(chan struct{}, n), files: files{origin: base, own: own, fetch: cl.Fetch, maxBytes: max}}, nil
}

// DefaultMaxBytes bounds an output file when the engine's max_bytes is not set.
const DefaultMaxBytes = 64 << 20

// Name implements tasks.Engine.
func (c *cog) Name() string { return c.name }

// Predict implements tasks.Engine. A prediction that ends in error on this
// side (the job was cancelled, the wait or the answer broke) is cancelled
// on the engine too, so the model stops working for nobody.
func (c *cog) Predict(ctx context.Context, input map[string]any) (tasks.Prediction, error) {
	id, earlier := c.ids(ctx)
	if len(earlier) > 0 {
		c.cancel(ctx, earlier...)
	}
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): waiting for a slot", c.name))
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-ctx.Done():
		return tasks.Prediction{}, ctx.Err()
	}
	p, err := c.run(ctx, id, input)
	if ctx.Err() != nil {
		c.cancel(ctx, id)
		return tasks.Prediction{}, ctx.Err()
	}
	var f *Failure
	if err != nil && !(errors.As(err, &f) && f.Kind == Busy) { // busy: the engine made no prediction
		c.cancel(ctx, id)
	}
	if err != nil {
		return tasks.Prediction{}, err
	}
	return c.result(ctx, p)
}

// ids are the prediction id of this step's attempt and those of the earlier
// attempts to cancel first. In sync mode the id is the step's, the same in
// every attempt: a retried step whose prediction still runs (its worker
// died) joins it (the idempotent create answers when it ends) instead of
// starting a second. In async mode the webhooks of a prediction go to the
// worker that created it, so each attempt makes its own, after cancelling
// any an earlier attempt may have left running. Outside a worker's step
// the id is fresh.
func (c *cog) ids(ctx context.Context) (id string, earlier []string) {
	s, ok := tasks.StepOf(ctx)
	if !ok {
		return newPredictionID(), nil
	}
	if c.hooks == nil {
		return stepPredictionID(s.JobID, s.Index, 0), nil
	}
	for a := max(1, s.Attempt-maxEarlierAttempts); a < s.Attempt; a++ {
		earlier = append(earlier, stepPredictionID(s.JobID, s.Index, a))
	}
	return stepPredictionID(s.JobID, s.Index, s.Attempt), earlier
}

// maxEarlierAttempts bounds the earlier attempts' predictions a step cancels.
const maxEarlierAttempts = 5

// run creates prediction id and answers it once it has ended.
func (c *cog) run(ctx context.Context, id string, input map[string]any) (*cogPrediction, error) {
	body := map[string]any{"id": id, "input": input}
	var w *waiter
	if c.hooks != nil {
		base, err := c.hooks.url()
		if err != nil {
			return nil, fail(Unavailable, "webhook receiver: %w", err)
		}
		w = c.hooks.wait(id)
		defer c.hooks.done(id)
		body["webhook"] = base + "/" + id
		body["webhook_events_filter"] = cogEvents
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, fail(Failed, "encode the model input: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base.String()+"/predictions/"+id,
		bytes.NewReader(raw))
	if err != nil {
		return nil, fail(Failed, "prediction request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if w != nil {
		req.Header.Set("Prefer", "respond-async")
	}
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s submitted", c.name, id))
	p, err := c.do(req)
	switch {
	case err != nil:
		return nil, err
	case w != nil:
		return c.wait(ctx, id, p, w)
	case !ended(p.Status):
		return nil, fail(Failed, "prediction %s: the engine answered a sync request with status %q", id, p.Status)
	}
	return p, nil
}

// wait waits for the webhook that says prediction id has ended, noting its
// state for the step's heartbeats. A step's StartToClose timeout bounds it.
func (c *cog) wait(ctx context.Context, id string, p *cogPrediction, w *waiter) (*cogPrediction, error) {
	started := time.Now()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for !ended(p.Status) {
		tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s %s for %s", c.name, id, p.Status,
			time.Since(started).Round(time.Second)))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-w.notify:
			p = w.latest()
		case <-tick.C:
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
		if errors.Is(err, ErrRedirectOffEngine) {
			return nil, fail(Failed, "%s %s: %w", req.Method, req.URL.Path, err)
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

// cancel asks the engine to cancel predictions ids, on a context of its
// own: the step's context may have ended (the job was cancelled), and the
// cleanup must still reach the engine. An id the engine does not know is
// answered 404, which is fine.
func (c *cog) cancel(ctx context.Context, ids ...string) {
	cctx, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer done()
	for _, id := range ids {
		req, err := http.NewRequestWithContext(cctx, http.MethodPost, c.base.String()+"/predictions/"+id+"/cancel",
			nil)
		if err != nil {
			return
		}
		if resp, err := c.http.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	}
}

// newPredictionID is a fresh prediction id; the engine is told it, so a
// prediction can be cancelled before its first answer.
func newPredictionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return predictionID(b)
}

// stepPredictionID is the prediction id of a step's attempt (0: of every
// attempt).
func stepPredictionID(job string, index, attempt int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d/%d", job, index, attempt))
	return predictionID(sum[:16])
}

// predictionID writes 16 bytes as Cog suggests: base32, lower case, no
// padding (26 characters).
func predictionID(b []byte) string {
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}
