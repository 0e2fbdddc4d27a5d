package workflows

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// An output whose model server cannot serve (its setup failed) fails the
// job service_unavailable at once, as refused content does: the service's
// fault, retryable, with a wait of its own; no further step starts, and
// only what was delivered before is charged.
func TestParallelServiceDownStopsTheOtherSteps(t *testing.T) {
	down := temporal.NewNonRetryableApplicationError("the model server for this task cannot serve now",
		contract.ErrTypeServiceUnavailable, nil)
	var p parallelSteps
	e := p.env(t, 6, 0)
	p.mock(e, minutes(0, 10, 1, 10, 10, 10), []error{nil, nil, down, nil, nil, nil})
	e.admitAt(0)
	_, err := e.run()
	var ae *temporal.ApplicationError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, string(apierr.ServiceUnavailable), ae.Type())
	f := e.settledError()
	require.Equal(t, string(apierr.ServiceUnavailable), f.Code, "not processing_failed: %s", f.Message)
	require.Equal(t, int64(ServiceDownRetryAfter), f.RetryAfter)
	require.Contains(t, f.Message, "Output 3 of 6 could not be made: the model server for this task cannot serve now")
	en, ok := apierr.Lookup(apierr.ServiceUnavailable)
	require.True(t, ok)
	require.True(t, en.Retryable)
	require.Equal(t, []int{0}, p.delivered)
	require.ElementsMatch(t, []int{0, 1, 2, 3, 4}, p.started, "no step starts after the job failed")
	require.Equal(t, 0, p.runningAtSettle)
}
