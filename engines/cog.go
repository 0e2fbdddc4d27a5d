package engines

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

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
	// log takes the operator's lines (a replica that cannot serve).
	log *zap.Logger
}

// cogPrediction is a prediction as a Cog server answers it.
type cogPrediction struct {
	ID      string         `json:"id"`
	Status  string         `json:"status"`
	Output  any            `json:"output"`
	Error   any            `json:"error"`
	Logs    string         `json:"logs"`
	Metrics map[string]any `json:"metrics"`
	// accepted is an answer 202: the prediction was already running (or
	// an async create).
	accepted bool
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
		waitFor: waitFor, in: in, log: cl.Log, slots: make(chan struct{}, n*len(replicas)),
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
// prediction (stepPredictionID), so an async attempt retried after its
// worker died joins the prediction the dead one made instead of starting a
// second or cancelling it. The prediction is cancelled on the engine when
// the step itself is cancelled (the job was cancelled, or its time ran
// out), not when this worker stops (a deploy): the next attempt joins it;
// or, in sync mode, by that next attempt, as its answer cannot reach it
// (run).
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
