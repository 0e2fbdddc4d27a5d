package cogtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

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
	// runner.py, _raise_if_busy: a loading model or a running prediction
	// is a RunnerBusyError, which http.py's _predict answers 409; a failed
	// setup is not (the setup task is done), and the worker's
	// InvalidStateException is answered 500 (SetupFailed).
	if s.o.SetupFailed && time.Since(s.started) >= s.o.Setup {
		s.mu.Unlock()
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
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
		s.mu.Lock()
		stopped := s.stopped
		s.mu.Unlock()
		if stopped {
			// Stopped (SIGTERM): Cog v0.16.12's worker child dies with the
			// server, the prediction fails with a FatalWorkerException
			// ("Prediction failed for an unknown reason ... (exitcode
			// -15)", worker.py _consume_events_inner) and the held request
			// is answered 500 before the server exits.
			http.Error(w, "Internal Server Error", http.StatusInternalServerError)
			return
		}
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
	// webhook.py, webhook_caller: a ResponseThrottler per prediction lets
	// a non-terminal webhook through only 0.5 s (_response_interval) after
	// the last one sent; a terminal one always.
	s.mu.Lock()
	if !retry && time.Since(p.lastSent) < throttle {
		s.mu.Unlock()
		return
	}
	p.lastSent = time.Now()
	s.mu.Unlock()
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
	// runner.py, PredictTask.__init__ sets the status processing before
	// track sends the start webhook.
	s.set(p, func() { p.Status = "processing" })
	s.notify(p, "start", false)
	run := s.o.Run
	if s.o.RunFor != nil && s.o.RunFor(p.Input) > 0 {
		run = s.o.RunFor(p.Input)
	}
	fail := s.o.Fail
	if s.o.FailFor != nil && s.o.FailFor(p.Input) != "" {
		fail = s.o.FailFor(p.Input)
	}
	s.log(p, "loading weights\n")
	steps := max(s.o.Progress, 1)
	cancelled := false
	for i := 1; i <= steps; i++ {
		t := time.NewTimer(run / time.Duration(steps))
		select {
		case <-t.C:
		case <-p.cancel:
			cancelled = true
		case <-p.killed:
			t.Stop()
			return
		}
		t.Stop()
		if cancelled {
			break
		}
		if s.o.Progress > 0 {
			s.log(p, fmt.Sprintf("progress %d/%d\n", i, steps))
		}
	}
	if refs, ok := s.output(p).([]any); ok && !cancelled && fail == "" {
		// A list output: runner.py, PredictTask.append_output appends each
		// file as the worker reports it and sends an output webhook
		// (throttled), before the completion.
		for _, ref := range refs {
			s.set(p, func() { out, _ := p.Output.([]any); p.Output = append(out, ref) })
			s.notify(p, "output", false)
		}
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

// throttle is Cog's interval between a prediction's non-terminal
// webhooks (webhook.py, COG_THROTTLE_RESPONSE_INTERVAL, 0.5 s by default).
const throttle = 500 * time.Millisecond

// log is a line the predictor prints: added to the prediction's logs, and
// a logs webhook (runner.py, PredictTask.append_logs, for each Log event
// of the predictor's stdout and stderr), throttled as every non-terminal
// one.
func (s *Server) log(p *prediction, line string) {
	s.set(p, func() { p.Logs += line })
	s.notify(p, "logs", false)
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
