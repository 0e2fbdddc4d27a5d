package engines

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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
// to each replica, counted across every worker through the shared leases
// (replicas.go), and waits, heartbeating, for a slot.
type cog struct {
	name string
	// base and http are the replica a prediction runs on (at): the first
	// replica until Predict picks one.
	base     *url.URL
	http     *http.Client
	replicas []*replica
	at       *replica
	// leases count each replica's predictions across every worker (nil:
	// this process's slots only); lease is the slot a prediction holds.
	leases     Leases
	lease      *lease
	perReplica int
	// setupFor is how long a step waits for a replica that is loading its
	// model (health STARTING) to take its prediction.
	setupFor time.Duration
	limits   Limits
	files    files
	hooks    *receiver   // a listener of this worker's (webhook_listen); nil otherwise
	route    Completions // the service's own webhook address; nil otherwise
	refusals []string
	slots    chan struct{}
	// waitFor is how long a step waits for a busy, loading or unreachable
	// engine to take its prediction.
	waitFor time.Duration
	// in is how a caller's files reach the model.
	in inputFiles
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
// (shown in the step's heartbeat), its logs (the model's progress, in the
// job's progress.phase: a logs webhook carries the prediction with all its
// logs so far, sent at each line the model prints, at most every 0.5 s:
// runner.py PredictTask.append_logs, webhook.py webhook_caller and
// ResponseThrottler) and its end. Not "output": the step reads a list
// model's files from the completion.
var cogEvents = []string{"start", "logs", "completed"}

func newCog(name string, c EngineConfig, cl Clients) (tasks.Engine, error) {
	replicas, err := newReplicas(name, c, cl)
	if err != nil {
		return nil, err
	}
	base := replicas[0].base
	max := c.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	var hooks *receiver
	var route Completions
	switch {
	case c.Mode == "async" && c.WebhookListen == "" && c.WebhookURL != "":
		return nil, fmt.Errorf("engine %s: webhook_url needs webhook_listen; without both the engine reports to "+
			"the service's own address (TP_ENGINE_CALLBACK_URL)", name)
	case c.Mode == "async" && c.WebhookListen == "":
		if cl.Completions == nil {
			return nil, fmt.Errorf("engine %s: mode async needs the service's address for webhooks "+
				"(TP_ENGINE_CALLBACK_URL): a Cog server reports an async prediction only by webhook", name)
		}
		if c.UploadURL != "" { // else held open, as below
			route = cl.Completions
		}
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
		if strings.HasSuffix(c.WebhookListen, ":0") {
			hooks.remember = filepath.Join(os.TempDir(), "taskplatform-webhook-"+url.PathEscape(name)+".port")
		}
		if c.UploadURL == "" {
			// No upload store: Cog answers an async prediction's files as
			// paths on its own disk (runner.py, PredictTask._upload_files)
			// and a sync one's as data URIs (http.py, _predict), so the
			// requests are held open as in sync mode.
			hooks = nil
		}
	}
	n := c.Concurrency
	if n <= 0 {
		n = 1
	}
	waitFor, err := duration(c.Wait, DefaultWait)
	if err != nil {
		return nil, fmt.Errorf("engine %s: wait: %w", name, err)
	}
	setupFor, err := duration(c.Setup, DefaultSetup)
	if err != nil {
		return nil, fmt.Errorf("engine %s: setup: %w", name, err)
	}
	limits, err := c.limits(setupFor, waitFor)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", name, err)
	}
	var store *url.URL
	if c.UploadURL != "" {
		if store, err = url.Parse(c.UploadURL); err != nil || (store.Scheme != "http" && store.Scheme != "https") ||
			store.Host == "" {
			return nil, fmt.Errorf("engine %s: upload_url %q is not an http(s) address", name, c.UploadURL)
		}
	}
	in := inputFiles{mode: c.Inputs, base: strings.TrimRight(c.InputBaseURL, "/")}
	switch {
	case in.mode == "":
		in.mode = InputsDataURI
	case in.mode != InputsDataURI && in.mode != InputsURL:
		return nil, fmt.Errorf("engine %s: inputs %q is neither data_uri nor url", name, c.Inputs)
	}
	if in.base != "" {
		if u, err := url.Parse(in.base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("engine %s: input_base_url %q is not an http(s) address", name, c.InputBaseURL)
		}
	}
	own := replicas[0].http
	return &cog{name: name, base: base, http: own, replicas: replicas, at: replicas[0], leases: cl.Leases,
		perReplica: n, setupFor: setupFor, limits: limits, hooks: hooks, route: route, refusals: c.Refusals,
		waitFor: waitFor, in: in, slots: make(chan struct{}, n*len(replicas)),
		files: files{origin: base, store: store, own: own, fetch: cl.Fetch, maxBytes: max}}, nil
}

// DefaultWait is how long a step waits for a busy, loading or unreachable
// engine when the engine's wait is not set.
const DefaultWait = 5 * time.Minute

// DefaultMaxBytes bounds an output file when the engine's max_bytes is not set.
const DefaultMaxBytes = 64 << 20

// inputFiles is how a caller's files reach the model.
func (c *cog) inputFiles() inputFiles { return c.in }

// Slots is how many predictions the engine runs at once: its replicas ×
// its concurrency, shared by every worker.
func (c *cog) Slots() int { return cap(c.slots) }

// Limits are the engine's time limits (Limits).
func (c *cog) Limits() Limits { return c.limits }

// Name implements tasks.Engine.
func (c *cog) Name() string { return c.name }

// Predict implements tasks.Engine. Every attempt of a step names the same
// prediction (stepPredictionID), so an attempt retried after its worker
// died joins the prediction the dead one made instead of starting a second
// or cancelling it. The prediction is cancelled on the engine only when the
// step itself is cancelled (the job was cancelled, or its time ran out),
// not when this worker stops (a deploy): the next attempt joins it.
func (c *cog) Predict(ctx context.Context, input map[string]any) (tasks.Prediction, error) {
	id := c.id(ctx)
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): waiting for a slot", c.name))
	if c.leases == nil {
		select {
		case c.slots <- struct{}{}:
			defer func() { <-c.slots }()
		case <-ctx.Done():
			return tasks.Prediction{}, ctx.Err()
		}
	}
	r, l, err := c.claim(ctx, id)
	if err != nil {
		return tasks.Prediction{}, err
	}
	on := *c
	on.use(r, l)
	defer func() { on.lease.letGo(ctx) }()
	p, err := on.run(ctx, id, input)
	if ctx.Err() != nil {
		if !tasks.Stopping(ctx) {
			on.cancel(ctx, id)
		}
		return tasks.Prediction{}, ctx.Err()
	}
	if err != nil {
		return tasks.Prediction{}, err
	}
	return on.result(ctx, p)
}

// id is the prediction id of this step: the step's, the same in every
// attempt; outside a worker's step a fresh one.
func (c *cog) id(ctx context.Context) string {
	s, ok := tasks.StepOf(ctx)
	if !ok {
		return newPredictionID()
	}
	return stepPredictionID(s.JobID, s.Index, 0)
}

// probeEvery is how often a step whose prediction runs asks the engine
// again about it (a repeated PUT of the same id): often enough that a
// prediction the engine lost (it restarted) is run again within a minute.
var probeEvery = every(10 * time.Second)

// joinEvery is how often a sync step that joined a running prediction asks
// again whether it still runs.
var joinEvery = every(2 * time.Second)

// every is an interval tests may shorten while steps read it.
func every(d time.Duration) *atomic.Int64 {
	v := new(atomic.Int64)
	v.Store(int64(d))
	return v
}

// run creates prediction id, or joins it when it already runs, and answers
// it once it has ended. Cog's idempotent create, PUT /predictions/{id}, is
// the whole protocol (v0.16.12 python/cog/server/http.py,
// predict_idempotent): while a prediction of that id runs, it answers 202
// and the prediction's state at once, whatever the request asked (so a
// sync request answered 202 has joined a prediction an earlier attempt
// made); while another runs, 409; otherwise it starts the prediction (held
// open in sync mode, 202 in async mode). Cog keeps no prediction once it
// has ended and serves no GET, so asking again is also how a step learns
// that the engine lost its prediction (a restart): the PUT then starts it
// again. A busy, loading or unreachable engine is waited for, up to the
// engine's wait allowance, not counted as a failed attempt.
func (c *cog) run(ctx context.Context, id string, input map[string]any) (*cogPrediction, error) {
	body := map[string]any{"id": id, "input": input}
	var w *waiter
	if c.route != nil {
		done, hook, stop, err := c.watch(ctx, id)
		if err != nil || done != nil {
			return done, err
		}
		defer stop()
		w = hook
		body["webhook"] = hook.address
		body["webhook_events_filter"] = cogEvents
	}
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
	var (
		waitingSince time.Time // when the engine last stopped taking the prediction
		backoff      = time.Second
		asked        int // the PUTs answered with the prediction running
	)
	for {
		p, err := c.put(ctx, id, raw, w != nil)
		var f *Failure
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &f) && (f.Kind == Busy || f.Kind == Unavailable):
			if f.Kind == Unavailable && c.move(ctx, id) {
				waitingSince, backoff = time.Time{}, time.Second
				continue
			}
			if waitingSince.IsZero() {
				waitingSince = time.Now()
			}
			if time.Since(waitingSince) >= c.waitAllowance(ctx) {
				return nil, err
			}
			tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): waiting for the model server (%s) for %s", c.name,
				waitReason(f), time.Since(waitingSince).Round(time.Second)))
			if err := sleep(ctx, backoff); err != nil {
				return nil, err
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		case err != nil:
			return nil, err
		}
		waitingSince, backoff = time.Time{}, time.Second
		if ended(p.Status) {
			if asked > 0 && w != nil {
				c.cancel(ctx, id) // a repeated PUT may have started the prediction again as it ended
			}
			return p, nil
		}
		asked++
		if w == nil { // sync, answered 202: an earlier attempt's prediction runs; wait for it to end
			tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): joined prediction %s, %s", c.name, id, p.Status))
			if err := sleep(ctx, time.Duration(joinEvery.Load())); err != nil {
				return nil, err
			}
			continue
		}
		if done, err := c.wait(ctx, id, p, w); err != nil || done != nil {
			if done != nil && asked > 1 {
				c.cancel(ctx, id)
			}
			return done, err
		}
	}
}

// put sends the idempotent create of prediction id and decodes its answer.
// An async PUT is answered at once; it is bounded so a hung engine is asked
// again.
func (c *cog) put(ctx context.Context, id string, raw []byte, async bool) (*cogPrediction, error) {
	rctx := ctx
	if async {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(rctx, http.MethodPut, c.base.String()+"/predictions/"+id,
		bytes.NewReader(raw))
	if err != nil {
		return nil, fail(Failed, "prediction request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if async {
		req.Header.Set("Prefer", "respond-async")
	}
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s submitted", c.name, id))
	return c.do(req)
}

// waitReason words a failure the step waits through.
func waitReason(f *Failure) string {
	if f.Kind == Busy {
		return "busy or loading"
	}
	return "not answering"
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// wait waits for the webhook that says prediction id has ended, noting its
// state for the step's heartbeats, for probeEvery at most: nil, nil means
// the engine is to be asked again.
func (c *cog) wait(ctx context.Context, id string, p *cogPrediction, w *waiter) (*cogPrediction, error) {
	started := time.Now()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	if hp := w.latest(); hp != nil {
		p = hp
	}
	for !ended(p.Status) {
		if time.Since(started) >= time.Duration(probeEvery.Load()) {
			// Cog sends the webhook of a prediction's end before it takes
			// another (runner.py, PredictTask.succeeded): once the store has
			// no end, a PUT cannot start the prediction again, as it would
			// if it had ended since the last read.
			if w.refresh != nil {
				w.refresh(ctx)
			}
			if hp := w.latest(); hp != nil && ended(hp.Status) {
				return hp, nil
			}
			return nil, nil
		}
		tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s %s%s", c.name, id, p.Status,
			logNote(ctx, p.Logs)))
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
	case code == http.StatusBadGateway || code == http.StatusGatewayTimeout:
		return nil, fail(Unavailable, "%s %s: status %d", req.Method, req.URL.Path, code)
	case code >= 300: // 500 too: Cog's answer to an output its predictor's type does not allow
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
	refs, err := outputFiles(p.Output)
	if err != nil {
		return tasks.Prediction{}, fail(Failed, "prediction %s: %w", p.ID, err)
	}
	tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s succeeded; reading its %d output(s)", c.name,
		p.ID, len(refs)))
	files := make([][]byte, 0, len(refs))
	for _, ref := range refs {
		data, err := c.files.read(ctx, ref)
		if err != nil {
			return tasks.Prediction{}, err
		}
		files = append(files, data)
	}
	secs, _ := p.Metrics["predict_time"].(float64)
	return tasks.Prediction{ID: p.ID, Files: files, Seconds: secs}, nil
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
