package engines

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/taskplatform/taskplatform/tasks"
)

// watchEvery is how often a step reads its prediction's webhooks from the
// service's store.
var watchEvery = every(time.Second)

// watch prepares an async prediction whose webhooks go to the service's
// own address (Completions): when the webhook of its end already came (the
// worker that made it died, and the engine reported to the service), done
// is that prediction and nothing is sent; otherwise w is fed what the
// service takes until stop, which deletes what was kept once the step no
// longer needs it (not when this worker stops: the next attempt reads it).
func (c *cog) watch(ctx context.Context, id string) (done *cogPrediction, w *waiter, stop func(), err error) {
	address, err := c.route.Expect(ctx, id)
	if err != nil {
		return nil, nil, nil, fail(Unavailable, "expect the webhook of prediction %s: %w", id, err)
	}
	p, err := c.reported(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	if p != nil && ended(p.Status) {
		if p.Status == cogSucceeded {
			tasks.StepNote(ctx, fmt.Sprintf("engine %s (cog): prediction %s had ended", c.name, id))
			c.forget(ctx, id)
			return p, nil, nil, nil
		}
		// An earlier attempt's failure: this attempt runs it again.
		if err := c.route.Reset(ctx, id); err != nil {
			return nil, nil, nil, fail(Unavailable, "reset prediction %s: %w", id, err)
		}
	}
	w = &waiter{address: address, notify: make(chan struct{}, 1)}
	wctx, cancel := context.WithCancel(ctx)
	finished := make(chan struct{})
	w.refresh = func(ctx context.Context) {
		if p, err := c.reported(ctx, id); err == nil && p != nil {
			w.put(p)
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Duration(watchEvery.Load()))
		defer t.Stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-t.C:
			}
			w.refresh(wctx)
		}
	}()
	stop = func() {
		cancel()
		<-finished
		if !tasks.Stopping(ctx) {
			c.forget(ctx, id)
		}
	}
	return nil, w, stop, nil
}

// reported is prediction id as its latest webhook to the service said, nil
// before the first.
func (c *cog) reported(ctx context.Context, id string) (*cogPrediction, error) {
	raw, err := c.route.Latest(ctx, id)
	if err != nil {
		return nil, fail(Unavailable, "read the webhook of prediction %s: %w", id, err)
	}
	if raw == nil {
		return nil, nil
	}
	var p cogPrediction
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fail(Failed, "the webhook of prediction %s is not a prediction: %w", id, err)
	}
	return &p, nil
}

// forget deletes what the service kept of prediction id, on a context of
// its own: the step's may have ended.
func (c *cog) forget(ctx context.Context, id string) {
	fctx, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer done()
	_ = c.route.Forget(fctx, id)
}
