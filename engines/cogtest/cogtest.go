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
// on start, at each line of its logs (Options.Progress) and on completion
// (webhook_events_filter honoured, the non-terminal ones throttled and the
// completion retried as Cog does, the server busy meanwhile), since
// Cog serves no GET /predictions/{id}; an ended prediction is forgotten;
// POST /predictions/{id}/cancel (404 for one it does not run); outputs as
// data URIs in sync mode, local paths in async mode without an upload URL,
// as Cog answers them; Restart forgets everything, as a restarted server
// does. No GPU, no model: each prediction answers small PNGs whose colour
// depends on its input.
package cogtest

import (
	"net/http"
	"net/http/httptest"
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
	// kept up (--await-explicit-shutdown), as Cog v0.16.12 serves it: while
	// setup runs (Setup) health-check says STARTING and a prediction is
	// answered 409 (runner.py, _raise_if_busy); once it has failed,
	// health-check answers SETUP_FAILED with the setup's result
	// (http.py, _handle_setup_done and _maybe_shutdown) and a prediction
	// 500 "Internal Server Error", the worker's InvalidStateException that
	// http.py's _predict does not catch (worker.py, _consume_events_inner
	// sets WorkerState.DEFUNCT; predict: _assert_state(WorkerState.READY)).
	// Setup is never run again (runner.py, setup: "do not call setup
	// twice"): the state lasts until the server is restarted.
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
	// Strings, when set, makes the model one whose output is a list of
	// this many strings, not files (a List[str] output: no "format": "uri"
	// in its schema, python/cog/types.py; each element answered as the
	// predictor returned it, json.py upload_files leaving a str alone).
	Strings int
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
	// Progress, when set, has each prediction print "progress i/Progress"
	// at even steps of its run, as the harness's slow predictor does: each
	// line is added to its logs and sent as a logs webhook (throttled as
	// Cog throttles them).
	Progress int
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
	stopped     bool // the last restart was a stop (Deploy)
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
	lastSent    time.Time // the last non-terminal webhook sent
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

// setupFailed says whether the model's setup has run and failed.
func (s *Server) setupFailed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.o.SetupFailed && time.Since(s.started) >= s.o.Setup
}

// Deploy stands for the server stopped (SIGTERM: a held sync prediction
// is answered 500) and started again with a new version of the model,
// whose setup takes setup and fails when broken (SetupFailed).
func (s *Server) Deploy(broken bool, setup time.Duration) {
	s.restart(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.SetupFailed, s.o.Setup = broken, setup
}

// Restart stands for the server killed and started again: every prediction
// is forgotten without a webhook, a sync request waiting for one has its
// connection broken, and the model loads again (Setup).
func (s *Server) Restart() { s.restart(false) }

// restart forgets every prediction; stopped: as a SIGTERM does (Deploy).
func (s *Server) restart(stopped bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = stopped
	for id, p := range s.predictions {
		close(p.killed)
		delete(s.predictions, id)
	}
	s.running = 0
	s.started = time.Now()
}

// Files makes the predictions from now on answer n files (a model
// replaced by one with a List[Path] output).
func (s *Server) Files(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.Files = n
}
