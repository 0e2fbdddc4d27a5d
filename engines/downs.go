package engines

import (
	"context"
	"errors"
	"fmt"

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

// serverDown is the Down failure of a prediction request that failed with
// err (an answer 5xx, or one the step would wait through) when the
// replica's health, asked at once, says it cannot serve; nil otherwise.
// Cog v0.16.12 answers such a prediction 500: the worker's
// InvalidStateException ("state is WorkerState.DEFUNCT (must be
// WorkerState.READY)", worker.py predict) is not caught by http.py's
// _predict. A replica that answers READY or BUSY keeps its 5xx as the
// prediction's failure (Cog's answer to an output its type does not allow).
func (c *cog) serverDown(ctx context.Context, err error) (string, error) {
	var f *Failure
	if !errors.As(err, &f) || f.Kind == Refused || f.Kind == Down {
		return "", nil
	}
	var se *statusError
	if f.Kind == Failed && (!errors.As(err, &se) || se.code < 500) {
		return "", nil
	}
	status := c.at.fresh(ctx)
	if !cannotServe(status) {
		return status, nil
	}
	return status, fail(Down, "replica %s answers health %s: %w", c.at.base.Redacted(), status, err)
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
