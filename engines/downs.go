package engines

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// statusError is a model server's answer to a prediction request whose
// HTTP status says it is not a prediction.
type statusError struct{ code int }

func (e *statusError) Error() string { return fmt.Sprintf("status %d", e.code) }

// cannotServe says whether a replica in this health state cannot take a
// prediction until its operator restarts it. Cog v0.16.12 runs setup()
// once per process (runner.py, setup: "do not call setup twice"; http.py
// calls it only in its lifespan), so SETUP_FAILED is for good; DEFUNCT is
// set after a fatal error (http.py, _maybe_shutdown), after which the
// worker refuses every prediction (worker.py, _assert_state(READY) with
// the state DEFUNCT). UNHEALTHY is the model's own check, asked again at
// every GET /health-check: not counted here.
func cannotServe(status string) bool {
	return status == healthSetupFailed || status == healthDefunct
}

// judge re-reads a failed prediction request (err) against the replica's
// health, asked at once: Down when the replica cannot serve (asked twice,
// a second apart: a server that is exiting, as Cog does after a fatal
// error unless it awaits an explicit shutdown, http.py _maybe_shutdown,
// passes through DEFUNCT and is then waited for); an answer 5xx from a
// replica that is not READY or BUSY (a server being stopped answers its
// held prediction 500: the worker child's FatalWorkerException) is the
// service's, Unavailable, waited for; otherwise err. Cog v0.16.12 answers
// a prediction 500 after a failed setup: the worker's
// InvalidStateException ("state is WorkerState.DEFUNCT (must be
// WorkerState.READY)", worker.py predict) is not caught by http.py's
// _predict. A READY or BUSY replica's 5xx stays the prediction's failure
// (Cog's answer to an output its type does not allow).
func (c *cog) judge(ctx context.Context, err error) (string, error) {
	var f *Failure
	if !errors.As(err, &f) || f.Kind == Refused || f.Kind == Down {
		return "", err
	}
	var se *statusError
	if f.Kind == Failed && (!errors.As(err, &se) || se.code < 500) {
		return "", err
	}
	status := c.at.fresh(ctx)
	if cannotServe(status) {
		if serr := sleep(ctx, time.Second); serr != nil {
			return status, serr
		}
		if status = c.at.fresh(ctx); cannotServe(status) {
			return status, fail(Down, "replica %s answers health %s: %w", c.at.base.Redacted(), status, err)
		}
	}
	if f.Kind == Failed && status != healthReady && status != healthBusy {
		return status, fail(Unavailable, "replica %s (health %s): %w", c.at.base.Redacted(), status, err)
	}
	return status, err
}

// reportDown writes the operator's line about a replica that cannot serve
// prediction id.
func (c *cog) reportDown(id, status string, err error) {
	if c.log == nil {
		return
	}
	c.log.Error("engine replica cannot serve: its model server needs its operator (restart it, or fix "+
		"the model's setup); the job fails service_unavailable, uncharged",
		zap.String("engine", c.name), zap.String("replica", c.at.base.Redacted()),
		zap.String("health", status), zap.String("prediction", id), zap.Error(err))
}
