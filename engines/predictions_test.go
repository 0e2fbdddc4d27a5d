package engines_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
	"github.com/taskplatform/taskplatform/tasks"
)

// stepOf runs attempt of output 0 of job j_1 on d.
func stepOf(ctx context.Context, t *testing.T, d *tasks.Definition, attempt int) error {
	t.Helper()
	in, err := d.Validate([]byte(`{"prompt":"a shirt"}`))
	require.NoError(t, err)
	ctx = tasks.WithStep(ctx, tasks.Step{JobID: "j_1", Index: 0, Attempt: attempt})
	_, err = d.Runner.Step(ctx, in, 0)
	return err
}

// withStore is an engine in mode m whose async outputs go to the fake's
// files (its upload store).
func withStore(e engines.EngineConfig, m string, srv *cogtest.Server) engines.EngineConfig {
	if m == "async-service" { // webhooks to the service's route, no listener
		e = mode(e, "async")
		e.WebhookListen = ""
		e.UploadURL = srv.URL + "/files/"
		return e
	}
	e = mode(e, m)
	if m == "async" {
		e.UploadURL = srv.URL + "/files/"
	}
	return e
}

func TestARetriedStepJoinsTheRunningPrediction(t *testing.T) {
	// The async attempts ask again only after the 1-s prediction's webhook
	// came, even on a loaded machine: a PUT after its end would start it
	// again (and cancel that second run).
	defer engines.SetPolling(3*time.Second, 100*time.Millisecond)()
	for _, m := range []string{"sync", "async", "async-service"} {
		t.Run(m, func(t *testing.T) {
			// One prediction at a time, as Cog: a second create would be 409.
			srv := fake(t, cogtest.Options{Run: time.Second, AsURL: m != "sync"})
			r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
				e := withStore(c.Engines["sdxl"], m, srv)
				e.Concurrency = 2 // the two attempts stand for two worker processes
				c.Engines["sdxl"] = e
			}), modeClients(t, m))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			// The first attempt's worker "dies": its step is left waiting.
			ctx, stop := context.WithCancel(context.Background())
			first := make(chan error, 1)
			go func() { first <- stepOf(tasks.WithStopping(ctx, ctx.Done()), t, d, 1) }()
			require.Eventually(t, func() bool { return srv.Running() == 1 }, 5*time.Second, 10*time.Millisecond)
			stopped := false
			if m == "async-service" {
				// The webhooks go to the service, not to a worker: the first
				// attempt is gone for good before the next one starts, as
				// Temporal runs them.
				stop()
				require.ErrorIs(t, <-first, context.Canceled)
				stopped = true
			}
			require.NoError(t, stepOf(context.Background(), t, d, 2))
			reqs := srv.Requests()
			require.GreaterOrEqual(t, len(reqs), 2)
			require.Equal(t, reqs[0].Path, reqs[1].Path, "both attempts name the same prediction")
			if m != "sync" {
				require.Empty(t, srv.Cancelled(), "the running prediction is joined, never cancelled")
				require.Len(t, srv.Inputs(), 1, "the joined prediction's end is the step's")
			} else {
				// Cog keeps no ended prediction and a sync one's answer goes to
				// the dead worker: it is cancelled at once and made again.
				require.Len(t, srv.Cancelled(), 1, "the orphan is cancelled, not waited out")
				require.Len(t, srv.Inputs(), 2)
			}
			stop()
			if !stopped {
				<-first //nolint:errcheck // the stopped worker's step may end either way; the next attempt is checked
			}
			if m != "sync" {
				require.Empty(t, srv.Cancelled(), "a worker that stops leaves its prediction to the next attempt")
			}
		})
	}
}

func TestAPredictionTheEngineLostIsRunAgain(t *testing.T) {
	defer engines.SetPolling(500*time.Millisecond, 100*time.Millisecond)()
	for _, m := range []string{"sync", "async", "async-service"} {
		t.Run(m, func(t *testing.T) {
			srv := fake(t, cogtest.Options{Run: time.Second, Setup: 0, AsURL: m != "sync"})
			r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
				c.Engines["sdxl"] = withStore(c.Engines["sdxl"], m, srv)
			}), modeClients(t, m))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			done := make(chan error, 1)
			go func() { done <- stepOf(context.Background(), t, d, 1) }()
			require.Eventually(t, func() bool { return srv.Running() == 1 }, 5*time.Second, 10*time.Millisecond)
			time.Sleep(300 * time.Millisecond)
			srv.Restart() // the engine forgets the prediction, and no webhook ever comes
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(10 * time.Second):
				t.Fatal("the lost prediction was waited out instead of run again")
			}
			// Made again after the restart. On a loaded machine an async step
			// may ask again after the re-run ended and before its webhook
			// came: Cog then starts it a third time (the step cancels that).
			require.GreaterOrEqual(t, len(srv.Inputs()), 2, "made again after the restart")
		})
	}
}

func TestABusyOrLoadingEngineIsWaitedFor(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    cogtest.Options
	}{
		{"busy with another client's prediction (409)", cogtest.Options{Busy: 3}},
		{"loading its model (409, health STARTING)", cogtest.Options{Setup: 1500 * time.Millisecond}},
		{"loading behind a proxy (503)", cogtest.Options{Setup: 1500 * time.Millisecond, Unavailable503: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fake(t, tc.o)
			r, _ := assemble(t, example(t, srv.URL, nil), clients(false))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			// The model starts loading now, not when the fake was made: on a
			// loaded machine assembling can outlast the whole setup.
			srv.Restart()
			_, err = step(t, d, `{"prompt":"a shirt"}`, 0)
			require.NoError(t, err, "a busy model is a queue, not a failed attempt")
			require.Greater(t, len(srv.Requests()), 1)
			require.Len(t, srv.Inputs(), 1)
		})
	}
}

func TestAWaitThatBreaksCancelsThePrediction(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode string
		o    cogtest.Options
		cl   func(engines.Clients) engines.Clients
	}{
		{"sync: the answer never comes", "sync", cogtest.Options{Run: time.Minute},
			func(c engines.Clients) engines.Clients {
				c.Engine = &http.Client{Timeout: 300 * time.Millisecond}
				return c
			}},
		{"async: the webhook never comes", "async", cogtest.Options{Run: time.Minute, DropWebhooks: true, AsURL: true},
			func(c engines.Clients) engines.Clients { return c }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fake(t, tc.o)
			r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
				c.Engines["sdxl"] = withStore(c.Engines["sdxl"], tc.mode, srv)
			}), tc.cl(clients(false)))
			d, err := r.Lookup("image.generate_sdxl")
			require.NoError(t, err)
			// The step's StartToClose timeout.
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			err = stepOf(ctx, t, d, 1)
			require.Error(t, err)
			require.Eventually(t, func() bool { return len(srv.Cancelled()) == 1 }, 5*time.Second,
				10*time.Millisecond, "the model does not keep working for nobody")
			require.Eventually(t, func() bool { return srv.Running() == 0 }, 5*time.Second, 10*time.Millisecond)
			require.Len(t, srv.Inputs(), 1, "one prediction, joined while it ran")
		})
	}
}
