package engines

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/taskplatform/taskplatform/tasks"
)

// probeEvery is how often a step whose prediction runs asks the engine
// again about it (a repeated PUT of the same id): often enough that a
// prediction the engine lost (it restarted) is run again within a minute.
var probeEvery = every(10 * time.Second)

// joinEvery is how often a sync step that found an earlier attempt's
// prediction (and cancelled it) asks again whether Cog has let it go.
var joinEvery = every(500 * time.Millisecond)

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
// and the prediction's state at once, whatever the request asked (so an
// async step joins a prediction an earlier attempt made, and a sync one
// finds one whose answer it cannot get, which it cancels); while another
// runs, 409; otherwise it starts the prediction (held
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
		if err != nil && ctx.Err() == nil {
			var status string
			status, err = c.judge(ctx, err)
			if errors.As(err, &f) && f.Kind == Down {
				if c.move(ctx, id) {
					waitingSince, backoff = time.Time{}, time.Second
					continue
				}
				c.reportDown(id, status, err)
				return nil, err
			}
		}
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
		if w == nil && p.accepted {
			// Sync, answered 202: an earlier attempt's prediction, whose
			// answer goes to a connection that is gone (its worker died or
			// lost its step). Cog v0.16.12 encodes a sync prediction's files
			// only into that answer (http.py, _predict: upload_files with
			// data URIs after wait_async), keeps nothing once it has ended
			// (runner.py, _task_done_callback) and serves no GET, and a
			// 202's output is the runner's own (local paths, runner.py
			// _upload_files without an uploader): its files cannot reach this
			// step. So it is cancelled at once, not waited out, and the step
			// makes the prediction again once Cog has let it go.
			if asked == 0 {
				c.cancel(ctx, id)
			}
			asked++
			tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s of an earlier attempt %s: cancelled "+
				"(its answer went to a worker that is gone), to be made again", c.name, id, p.Status))
			if err := sleep(ctx, time.Duration(joinEvery.Load())); err != nil {
				return nil, err
			}
			continue
		}
		if ended(p.Status) {
			if asked > 0 && w != nil {
				c.cancel(ctx, id) // a repeated PUT may have started the prediction again as it ended
			}
			return p, nil
		}
		asked++
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
		return nil, fail(Failed, "%s %s: %w: %.200s", req.Method, req.URL.Path, &statusError{code}, raw)
	}
	var p cogPrediction
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fail(Failed, "%s %s: answer is not a prediction: %w", req.Method, req.URL.Path, err)
	}
	p.accepted = resp.StatusCode == http.StatusAccepted
	return &p, nil
}
