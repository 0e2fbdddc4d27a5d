// Package cogtest is a Cog prediction server for tests, in process on
// loopback (httptest): the HTTP protocol of github.com/replicate/cog
// (docs/http.md) as a model server speaks it — GET /health-check;
// POST /predictions and its idempotent form PUT /predictions/{id} (a PUT
// naming a prediction still running answers that one instead of starting a
// second), answered when the prediction ends or, with Prefer:
// respond-async, at once with 202; the request's webhook called with the
// prediction's JSON on start and on completion (webhook_events_filter
// honoured, the completion retried as Cog retries it), since Cog serves no
// GET /predictions/{id} to poll; POST /predictions/{id}/cancel; outputs as
// data URIs or as URLs the server serves; one prediction at a time (409
// while busy, as Cog answers); 503 while its model loads. No GPU, no
// model: each prediction answers a small PNG whose colour depends on its
// input.
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
	"strings"
	"sync"
	"time"
)

// Options shape a server's behaviour.
type Options struct {
	// Setup is how long the model takes to load: until then health-check
	// says STARTING and predictions answer 503.
	Setup time.Duration
	// Run is how long each prediction runs (status processing).
	Run time.Duration
	// AsURL answers outputs as URLs on the server instead of data URIs.
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
	predictions map[string]*prediction
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
	webhook     string
	events      []string
}

// New starts a server; it is closed when the test ends (Close).
func New(o Options) *Server {
	if o.Slots <= 0 {
		o.Slots = 1
	}
	s := &Server{o: o, started: time.Now(), predictions: map[string]*prediction{}, busyLeft: o.Busy}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health-check", s.health)
	mux.HandleFunc("POST /predictions", s.create)
	mux.HandleFunc("PUT /predictions/{id}", s.create)
	mux.HandleFunc("POST /predictions/{id}/cancel", s.cancelPrediction)
	mux.HandleFunc("GET /files/{id}", s.file)
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

func (s *Server) ready() bool { return time.Since(s.started) >= s.o.Setup }

func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	status := "READY"
	if !s.ready() {
		status = "STARTING"
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
	async := strings.Contains(r.Header.Get("Prefer"), "respond-async")
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
		req.ID = id
	}
	if !s.ready() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"detail": "model setup is not complete"})
		return
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
	if old := s.predictions[req.ID]; r.Method == http.MethodPut && old != nil && old.CompletedAt == nil {
		s.mu.Unlock() // the idempotent create of a prediction still running: that one
		s.answer(w, r, old, async)
		return
	}
	if s.o.BusyFor != nil && s.o.BusyFor(req.Input) {
		s.mu.Unlock()
		writeJSON(w, http.StatusConflict, map[string]any{"detail": "Already running a prediction"})
		return
	}
	if s.busyLeft > 0 || s.running >= s.o.Slots {
		if s.busyLeft > 0 {
			s.busyLeft--
		}
		s.mu.Unlock()
		writeJSON(w, http.StatusConflict, map[string]any{"detail": "Already running a prediction"})
		return
	}
	if req.ID == "" {
		req.ID = fmt.Sprintf("p%d", len(s.predictions)+1)
	}
	p := &prediction{ID: req.ID, Status: "starting", Input: req.Input, CreatedAt: time.Now().UTC(),
		done: make(chan struct{}), cancel: make(chan struct{}), webhook: req.Webhook, events: req.Events}
	s.predictions[p.ID] = p
	s.inputs = append(s.inputs, req.Input)
	s.running++
	s.mu.Unlock()
	go s.run(p)
	s.answer(w, r, p, async)
}

// answer is the answer to a create of p: 202 at once when async, else p
// once it has ended.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, p *prediction, async bool) {
	if async {
		writeJSON(w, http.StatusAccepted, s.snapshot(p))
		return
	}
	select {
	case <-p.done:
	case <-r.Context().Done():
		return
	}
	writeJSON(w, http.StatusOK, s.snapshot(p))
}

// notify sends p's webhook for event when the request asked for one and
// its filter lets the event through (no filter: every event). The
// completion is retried a few times, as Cog retries it.
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
			if resp.StatusCode < 300 {
				return
			}
		}
		if !retry {
			return
		}
		time.Sleep(time.Duration(50<<attempt) * time.Millisecond)
	}
}

// run is the model working on p.
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
		s.running--
	})
	close(p.done)
	s.notify(p, "completed", true)
}

func (s *Server) output(p *prediction) any {
	if s.o.OutputURL != "" {
		return []any{s.o.OutputURL}
	}
	if s.o.AsURL {
		return []any{s.URL + "/files/" + p.ID}
	}
	return []any{"data:image/png;base64," + base64.StdEncoding.EncodeToString(s.file1(p.Input))}
}

// file1 is the file a prediction of input makes.
func (s *Server) file1(input map[string]any) []byte {
	if s.o.Output != nil {
		return s.o.Output(input)
	}
	raw, _ := json.Marshal(input)
	sum := sha256.Sum256(raw)
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = sum[i%3]
	}
	img.Set(0, 0, color.RGBA{A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
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

func (s *Server) lookup(id string) *prediction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.predictions[id]
}

func (s *Server) cancelPrediction(w http.ResponseWriter, r *http.Request) {
	p := s.lookup(r.PathValue("id"))
	if p == nil {
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": "Not Found"})
		return
	}
	s.mu.Lock()
	s.cancelled = append(s.cancelled, p.ID)
	select {
	case <-p.cancel:
	default:
		close(p.cancel)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{})
}

func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	p := s.lookup(r.PathValue("id"))
	if p == nil {
		http.NotFound(w, r)
		return
	}
	if s.o.Redirect != "" {
		http.Redirect(w, r, s.o.Redirect, http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(s.file1(p.Input))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
