package engines_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/tasks"
)

// requireServiceDown asserts the step's failure is what a caller of a job
// on a model server that cannot serve reads: service_unavailable (the
// service's fault, retryable in the catalogue), failed at once, not
// processing_failed; and that the operator's log names the engine, the
// replica and its health.
func requireServiceDown(t *testing.T, err error, logs *observer.ObservedLogs, replica string) {
	t.Helper()
	var se *tasks.StepError
	require.ErrorAs(t, err, &se)
	require.Equal(t, string(apierr.ServiceUnavailable), se.Code, "not the caller's problem: %s", se.Message)
	require.False(t, se.Temporary, "failed at once: a failed setup does not recover by itself")
	require.NotContains(t, se.Message, "could not make it")
	en, ok := apierr.Lookup(apierr.ServiceUnavailable)
	require.True(t, ok)
	require.True(t, en.Retryable, "the caller is told to submit again")
	lines := logs.FilterMessageSnippet("engine replica cannot serve").All()
	require.Len(t, lines, 1, "one operator line")
	f := lines[0].ContextMap()
	require.Equal(t, "sdxl", f["engine"])
	require.Equal(t, replica, f["replica"])
	require.Equal(t, "SETUP_FAILED", f["health"])
}

func TestAModelWhoseSetupFailedFailsTheJobAsTheServicesFault(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    cogtest.Options
	}{
		{"setup failed before the job came", cogtest.Options{SetupFailed: true}},
		{"setup fails while the step waits for it (STARTING, then SETUP_FAILED)",
			cogtest.Options{SetupFailed: true, Setup: time.Second}},
	} {
		for _, m := range []string{"sync", "async"} {
			t.Run(tc.name+", "+m, func(t *testing.T) {
				srv := fake(t, tc.o)
				r, logs := assemble(t, example(t, srv.URL, func(c *engines.Config) {
					e := withStore(c.Engines["sdxl"], m, srv)
					e.Wait, e.Setup = "10m", "10m" // failed at once, not waited out
					c.Engines["sdxl"] = e
				}), clients(false))
				d, err := r.Lookup("image.generate_sdxl")
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				err = stepOf(ctx, t, d, 1)
				require.False(t, errors.Is(err, context.DeadlineExceeded), "the broken server was waited for")
				requireServiceDown(t, err, logs, srv.URL)
				require.Empty(t, srv.Inputs(), "no prediction ran")
			})
		}
	}
}

func TestANewVersionWhoseSetupFailsDeployedMidPredictionFailsTheJobAsTheServicesFault(t *testing.T) {
	defer engines.SetPolling(500*time.Millisecond, 100*time.Millisecond)()
	for _, m := range []string{"sync", "async"} {
		t.Run(m, func(t *testing.T) {
			srv := fake(t, cogtest.Options{Run: time.Minute, AsURL: m != "sync"})
			r, logs := assemble(t, example(t, srv.URL, func(c *engines.Config) {
				e := withStore(c.Engines["sdxl"], m, srv)
				e.Wait, e.Setup = "10m", "10m"
				c.Engines["sdxl"] = e
			}), clients(false))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			done := make(chan error, 1)
			go func() { done <- stepOf(context.Background(), t, d, 1) }()
			require.Eventually(t, func() bool { return srv.Running() == 1 }, 5*time.Second, 10*time.Millisecond)
			srv.Deploy(true, time.Second) // SIGTERM: the held request answers 500; the new version loads 1 s, then fails
			select {
			case err := <-done:
				requireServiceDown(t, err, logs, srv.URL)
			case <-time.After(20 * time.Second):
				t.Fatal("the broken server was waited for")
			}
		})
	}
}

// A replica whose setup failed while a prediction waited on it hands the
// prediction to a replica that is up.
func TestAPredictionOnAReplicaWhoseSetupFailsMovesToOneThatIsUp(t *testing.T) {
	broken := fake(t, cogtest.Options{SetupFailed: true, Setup: time.Second})
	up := fake(t, cogtest.Options{Run: 50 * time.Millisecond})
	d := replicated(t, nil, broken.URL, up.URL)
	for _, job := range []string{"j_1", "j_2", "j_3", "j_4"} {
		require.NoError(t, stepOfJob(context.Background(), t, d, job))
	}
	require.Len(t, up.Inputs(), 4, "every prediction was made on the replica that is up")
}
