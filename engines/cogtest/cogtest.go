// Package cogtest is a Cog prediction server for tests, in process on
// loopback (httptest), answering as the real one does: Cog's Python HTTP
// server at tag v0.16.12 (python/cog/server/http.py, runner.py,
// webhook.py), each behaviour cited where it is made. GET /health-check
// (STARTING while the model loads, BUSY while a prediction runs, READY);
// POST /predictions and its idempotent form PUT /predictions/{id}: a PUT
// naming a prediction still running answers its state at once with 202,
// whatever it asked; otherwise the prediction is answered when it ends or,
// with Prefer: respond-async, at once with 202; 409 while another runs or
// the model loads; the request's webhook called with the prediction's JSON
// on start and on completion (webhook_events_filter honoured, the
// completion retried as Cog retries it, the server busy meanwhile), since
// Cog serves no GET /predictions/{id}; an ended prediction is forgotten;
// POST /predictions/{id}/cancel (404 for one it does not run); outputs as
// data URIs in sync mode, local paths in async mode without an upload URL,
// as Cog answers them; Restart forgets everything, as a restarted server
// does. No GPU, no model: each prediction answers small PNGs whose colour
// depends on its input.
package cogtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Options shape a server's behaviour.
type Options struct {
	// Setup is how long the model takes to load: until then health-check
	// says STARTING and predictions answer 409, as Cog answers them
	// (runner.py, _raise_if_busy: "setup is not complete" is a
	// RunnerBusyError, which http.py's _predict answers 409).
	Setup time.Duration
	// SetupFailed stands for a model whose setup() raised, on a server
	// kept up (--await-explicit-shutdown): health-check answers
	// SETUP_FAILED (http.py, _handle_setup_done and _maybe_shutdown) and a
	// prediction 500, the worker's InvalidStateException that http.py does
	// not catch (worker.py, predict: _assert_state(WorkerState.READY)).
	SetupFailed bool
	// Unavailable503, with Setup, answers 503 while the model loads, as a
	// proxy in front of a loading server (or Cog's later Rust server) does.
	Unavailable503 bool
	// UploadURL stands for Cog's --upload-url: async outputs are PUT there
	// as files and answered as the URL the store gives. Without it an async
	// prediction answers its files as the server's local paths
	// (runner.py, PredictTask._upload_files returns the output as the
	// predictor made it) and a sync one as data URIs (http.py, _predict:
	// upload_files with files.upload_file, which makes a data URI).
	UploadURL string
	// Files is how many files a prediction answers (a List[Path] output)
	// when more than one.
	Files int
	// Run is how long each prediction runs (status processing).
	Run time.Duration
	// AsURL answers outputs as URLs on the server instead of data URIs
	// (as a server with an upload store on its own origin does).
	AsURL bool
	// OutputURL, when set, is the output of every prediction (a URL on
	// another host, to try the address rules).
	OutputURL string
	// Fail, when set, fails every prediction with this error text.
	Fail string
	// FailFor, when set, is the error text a prediction of this input
	// fails with (Fail when it answers "").
	FailFor func(input map[string]any) string
	// Busy answers the first Busy predictions 409, as a server busy with
	// another one does.
	Busy int
	// BusyFor, when set, answers 409 to every prediction of an input it
	// picks, as a server kept busy by others' predictions does.
	BusyFor func(input map[string]any) bool
	// RunFor, when set, is how long a prediction of this input runs (Run
	// when it answers 0).
	RunFor func(input map[string]any) time.Duration
	// Slots is how many predictions run at once (1 when zero).
	Slots int
	// Sized answers images of the input's width × height (a number, or a
	// string of digits, which Cog's pydantic input model coerces to an
	// int), as an image model does; otherwise 16 × 16.
	Sized bool
	// Output, when set, makes the file of a prediction from its input.
	Output func(input map[string]any) []byte
	// Redirect, when set, answers every request for a file the server
	// serves (AsURL) with a redirect to this URL.
	Redirect string
	// DropWebhooks sends no webhook: an engine that lost them.
	DropWebhooks bool
	// Hold, when set, holds the answer to a create of an input until the
	// channel it returns is closed (a nil channel: no hold), so a test can
	// order what the engine answers.
	Hold func(input map[string]any) <-chan struct{}
}

// Request is a prediction request as the server received it.
type Request struct {
	// Method is POST or PUT, Path its path.
	Method, Path string
	// Async says the request asked Prefer: respond-async.
	Async bool
	// Webhook and Events are the request's webhook and
	// webhook_events_filter.
	Webhook string
	Events  []string
}

// Server is a running fake Cog server.
type Server struct {
	*httptest.Server
	o       Options
	started time.Time

	mu          sync.Mutex
	predictions map[string]*prediction // running, or sending their completion
	made        map[int]map[string]any // every prediction's input, by serial
	running     int
	busyLeft    int
	cancelled   []string
	inputs      []map[string]any
	requests    []Request
	hooks       []string
}

type prediction struct {
	ID          string         `json:"id"`
	Status      string         `json:"status"`
	Input       map[string]any `json:"input"`
	Output      any            `json:"output"`
	Error       *string        `json:"error"`
	Logs        string         `json:"logs"`
	Metrics     map[string]any `json:"metrics,omitempty"`
	CreatedAt   time.Time      `json:"created_at"`
	CompletedAt *time.Time     `json:"completed_at,omitempty"`
	done        chan struct{}
	cancel      chan struct{}
	killed      chan struct{}
	webhook     string
	events      []string
	async       bool
	serial      int
}

// New starts a server; it is closed when the test ends (Close).
func New(o Options) *Server {
	if o.Slots <= 0 {
		o.Slots = 1
	}
	s := &Server{o: o, started: time.Now(), predictions: map[string]*prediction{},
		made: map[int]map[string]any{}, busyLeft: o.Busy}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health-check", s.health)
	mux.HandleFunc("GET /openapi.json", s.schema)
	mux.HandleFunc("POST /predictions", s.create)
	mux.HandleFunc("PUT /predictions/{id}", s.create)
	mux.HandleFunc("POST /predictions/{id}/cancel", s.cancelPrediction)
	mux.HandleFunc("GET /files/{n}/{k}", s.file)
	s.Server = httptest.NewServer(mux)
	return s
}

// Cancelled lists the ids of the predictions cancelled through the API.
func (s *Server) Cancelled() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cancelled...)
}

// Inputs lists the inputs of the predictions created, in order.
func (s *Server) Inputs() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.inputs...)
}

// Requests lists the prediction requests received, in order (refused ones
// too).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Webhooks lists the webhooks sent, as "event status" ("start starting",
// "completed succeeded"), in order.
func (s *Server) Webhooks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.hooks...)
}

// Running is how many predictions are running now.
func (s *Server) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

func (s *Server) ready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.started) >= s.o.Setup
}

// Restart stands for the server killed and started again: every prediction
// is forgotten without a webhook, a sync request waiting for one has its
// connection broken, and the model loads again (Setup).
func (s *Server) Restart() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, p := range s.predictions {
		close(p.killed)
		delete(s.predictions, id)
	}
	s.running = 0
	s.started = time.Now()
}

// schema is the part of Cog's /openapi.json the engine reads: its Output
// component, a list of files (List[Path]) when Files is set, else a file
// (http.py, create_app: OutputType in the app's OpenAPI schema).
func (s *Server) schema(w http.ResponseWriter, _ *http.Request) {
	out := map[string]any{"title": "Output", "type": "string", "format": "uri"}
	if s.o.Files > 0 {
		out = map[string]any{"title": "Output", "type": "array",
			"items": map[string]any{"type": "string", "format": "uri"}}
	}
	writeJSON(w, http.StatusOK, map[string]any{"components": map[string]any{"schemas": map[string]any{"Output": out}}})
}

// health answers as http.py's healthcheck does: the setup's state until it
// has succeeded, then BUSY while a prediction runs (runner.is_busy) or
// READY.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	status := "READY"
	switch {
	case s.o.SetupFailed:
		status = "SETUP_FAILED"
	case !s.ready():
		status = "STARTING"
	case s.Running() > 0:
		status = "BUSY"
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": status})
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID      string         `json:"id"`
		Input   map[string]any `json:"input"`
		Webhook string         `json:"webhook"`
		Events  []string       `json:"webhook_events_filter"`
	}
	// http.py compares the header itself: prefer == "respond-async".
	async := r.Header.Get("Prefer") == "respond-async"
	err := json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Async: async, Webhook: req.Webhook,
		Events: req.Events})
	s.mu.Unlock()
	if err != nil || req.Input == nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": "input is required"})
		return
	}
	if id := r.PathValue("id"); id != "" {
		if req.ID != "" && req.ID != id { // http.py, predict_idempotent
			writeJSON(w, http.StatusUnprocessableEntity,
				map[string]any{"detail": "prediction ID must match the ID supplied in the URL"})
			return
		}
		req.ID = id
	}
	if s.o.Hold != nil {
		if held := s.o.Hold(req.Input); held != nil {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
	}
	s.mu.Lock()
	// http.py, predict_idempotent: "If the prediction service is already
	// running a prediction with a matching ID, return its current state",
	// 202, sync or async request alike, its webhook left as it was.
	if old := s.predictions[req.ID]; r.Method == http.MethodPut && old != nil {
		snap := *old
		s.mu.Unlock()
		writeJSON(w, http.StatusAccepted, snap)
		return
	}
	if s.o.SetupFailed {
		s.mu.Unlock()
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	// runner.py, _raise_if_busy: a loading model or a running prediction
	// is a RunnerBusyError, which http.py's _predict answers 409.
	if time.Since(s.started) < s.o.Setup {
		s.mu.Unlock()
		if s.o.Unavailable503 {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"detail": "model setup is not complete"})
			return
		}
		writeJSON(w, http.StatusConflict, map[string]any{"detail": "Already running a prediction"})
		return
	}
	busy := s.o.BusyFor != nil && s.o.BusyFor(req.Input)
	if s.busyLeft > 0 {
		s.busyLeft--
		busy = true
	}
	if busy || s.running >= s.o.Slots {
		s.mu.Unlock()
		writeJSON(w, http.StatusConflict, map[string]any{"detail": "Already running a prediction"})
		return
	}
	if req.ID == "" {
		req.ID = fmt.Sprintf("p%d", len(s.inputs)+1)
	}
	p := &prediction{ID: req.ID, Status: "starting", Input: req.Input, CreatedAt: time.Now().UTC(),
		done: make(chan struct{}), cancel: make(chan struct{}), killed: make(chan struct{}), webhook: req.Webhook,
		events: req.Events, async: async, serial: len(s.inputs) + 1}
	s.predictions[p.ID] = p
	s.made[p.serial] = p.Input
	s.inputs = append(s.inputs, req.Input)
	s.running++
	s.mu.Unlock()
	go s.run(p)
	if async { // http.py, _predict: respond_async answers 202 at once
		writeJSON(w, http.StatusAccepted, s.snapshot(p))
		return
	}
	select {
	case <-p.done:
	case <-p.killed:
		panic(http.ErrAbortHandler) // the server died: the connection breaks
	case <-r.Context().Done():
		return
	}
	writeJSON(w, http.StatusOK, s.snapshot(p))
}

// notify sends p's webhook for event when the request asked for one and
// its filter lets the event through (webhook.py, webhook_caller_filtered;
// no filter: every event). A terminal one is retried (webhook.py,
// requests_session_with_retries: on a failed connection or 429/5xx, 12
// times over about five minutes; here a few times, quicker).
func (s *Server) notify(p *prediction, event string, retry bool) {
	if p.webhook == "" || s.o.DropWebhooks || (len(p.events) > 0 && !slices.Contains(p.events, event)) {
		return
	}
	snap := s.snapshot(p)
	raw, _ := json.Marshal(snap)
	s.mu.Lock()
	s.hooks = append(s.hooks, event+" "+snap.Status)
	s.mu.Unlock()
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := http.Post(p.webhook, "application/json", bytes.NewReader(raw))
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
				return
			}
		}
		if !retry {
			return
		}
		select {
		case <-p.killed:
			return
		case <-time.After(time.Duration(100<<attempt) * time.Millisecond):
		}
	}
}

// run is the model working on p. As in runner.py, the completion webhook
// is sent (PredictTask.succeeded, failed, canceled) before the prediction
// is done and forgotten (Runner._task_done_callback): until then the
// server is busy and a PUT of its id answers its ended state.
func (s *Server) run(p *prediction) {
	s.notify(p, "start", false)
	s.set(p, func() { p.Status = "processing"; p.Logs = "loading weights\n" })
	run := s.o.Run
	if s.o.RunFor != nil && s.o.RunFor(p.Input) > 0 {
		run = s.o.RunFor(p.Input)
	}
	fail := s.o.Fail
	if s.o.FailFor != nil && s.o.FailFor(p.Input) != "" {
		fail = s.o.FailFor(p.Input)
	}
	t := time.NewTimer(run)
	defer t.Stop()
	cancelled := false
	select {
	case <-t.C:
	case <-p.cancel:
		cancelled = true
	case <-p.killed:
		return
	}
	s.set(p, func() {
		now := time.Now().UTC()
		p.CompletedAt = &now
		p.Metrics = map[string]any{"predict_time": run.Seconds()}
		switch {
		case cancelled:
			p.Status = "canceled"
		case fail != "":
			p.Status, p.Error = "failed", &fail
		default:
			p.Status, p.Output = "succeeded", s.output(p)
		}
	})
	s.notify(p, "completed", true)
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-p.killed:
		return
	default:
	}
	close(p.done)
	delete(s.predictions, p.ID)
	s.running--
}

// output is what an ended prediction answers: a file as a string, or
// Files of them as a JSON array in the predictor's order (a List[Path]
// output): json.py's upload_files maps a list element by element, each
// file to a data URI (sync, files.upload_file) or to the upload store's
// URL (--upload-url).
func (s *Server) output(p *prediction) any {
	n := max(s.o.Files, 1)
	refs := make([]any, n)
	for k := range refs {
		switch {
		case s.o.OutputURL != "":
			refs[k] = s.o.OutputURL
		case s.o.AsURL:
			refs[k] = fmt.Sprintf("%s/files/%d/%d", s.URL, p.serial, k)
		case p.async: // no upload URL: the predictor's own path (runner.py, _upload_files)
			refs[k] = fmt.Sprintf("/tmp/cogtest%d/out-%d.png", p.serial, k)
		default: // files.py, upload_file: a data URI
			refs[k] = "data:image/png;base64," + base64.StdEncoding.EncodeToString(s.file1(p.Input, k))
		}
	}
	if s.o.Files == 0 {
		return refs[0]
	}
	return refs
}

// file1 is file k of a prediction of input: width × height pixels when
// Sized and the input asks for them, else 16 × 16.
func (s *Server) file1(input map[string]any, k int) []byte {
	if s.o.Output != nil {
		return s.o.Output(input)
	}
	raw, _ := json.Marshal(input)
	sum := sha256.Sum256(append(raw, byte(k)))
	w, h := 16, 16
	if s.o.Sized {
		w, h = side(input["width"]), side(input["height"])
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = sum[i%3]
	}
	img.Set(0, 0, color.RGBA{A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// side is an image side the input asks for, 16 when it asks none.
func side(v any) int {
	n, err := strconv.Atoi(fmt.Sprint(v))
	if err != nil || n < 1 || n > 4096 {
		return 16
	}
	return n
}

func (s *Server) set(p *prediction, f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

func (s *Server) snapshot(p *prediction) prediction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *p
}

// cancelPrediction answers as runner.py's cancel: 404 for an id the server
// does not run (unknown, or ended), else the prediction is cancelled.
func (s *Server) cancelPrediction(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.predictions[r.PathValue("id")]
	if p == nil || p.CompletedAt != nil {
		writeJSON(w, http.StatusNotFound, map[string]any{})
		return
	}
	s.cancelled = append(s.cancelled, p.ID)
	select {
	case <-p.cancel:
	default:
		close(p.cancel)
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

// file serves file k of prediction n (AsURL): an upload store's copy,
// kept after the prediction is forgotten.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	var n, k int
	if _, err := fmt.Sscan(r.PathValue("n"), &n); err != nil {
		http.NotFound(w, r)
		return
	}
	_, _ = fmt.Sscan(r.PathValue("k"), &k)
	s.mu.Lock()
	input, ok := s.made[n]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.o.Redirect != "" {
		http.Redirect(w, r, s.o.Redirect, http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(s.file1(input, k))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Files makes the predictions from now on answer n files (a model
// replaced by one with a List[Path] output).
func (s *Server) Files(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.Files = n
}
