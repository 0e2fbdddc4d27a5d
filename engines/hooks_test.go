package engines_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
)

// serviceHooks stands for the service's webhook route and its store
// (package enginehooks): an HTTP server the engine POSTs to, keeping each
// prediction's latest body in memory, as the API keeps it in the database.
type serviceHooks struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies map[string][]byte
	known  map[string]bool
}

func newServiceHooks(t *testing.T) *serviceHooks {
	h := &serviceHooks{bodies: map[string][]byte{}, known: map[string]bool{}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutPrefix(r.URL.Path, "/engines/predictions/")
		id, token, _ := strings.Cut(id, "/")
		raw, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		if !ok || !h.known[id] || token != "t" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		h.bodies[id] = raw
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *serviceHooks) Expect(_ context.Context, id string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.known[id] = true
	return h.srv.URL + "/engines/predictions/" + id + "/t", nil
}

func (h *serviceHooks) Latest(_ context.Context, id string) ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.bodies[id], nil
}

func (h *serviceHooks) Reset(_ context.Context, id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.bodies, id)
	return nil
}

func (h *serviceHooks) Forget(_ context.Context, id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.bodies, id)
	delete(h.known, id)
	return nil
}

var _ engines.Completions = (*serviceHooks)(nil)

// modeClients are the clients of a test in mode m: "async-service" sends
// the webhooks to the service's route (a serviceHooks).
func modeClients(t *testing.T, m string) engines.Clients {
	cl := clients(false)
	if m == "async-service" {
		cl.Completions = newServiceHooks(t)
	}
	return cl
}

// A probe (the repeated PUT that finds a lost prediction) that comes after
// the prediction ended and its webhook was stored, but before the step's
// next read of the store, must not start the model again: the step reads
// the store first.
func TestAProbeAfterTheEndDoesNotRunTheModelAgain(t *testing.T) {
	// The store read every 5 s, the probe after 1.2 s: the 1-s prediction
	// has ended, and its webhook is stored, when the probe is due.
	defer engines.SetPolling(1200*time.Millisecond, 5*time.Second)()
	srv := fake(t, cogtest.Options{Run: time.Second, Setup: 0, AsURL: true})
	r, _ := assemble(t, example(t, srv.URL, func(c *engines.Config) {
		c.Engines["sdxl"] = withStore(c.Engines["sdxl"], "async-service", srv)
	}), modeClients(t, "async-service"))
	d, err := r.Lookup("image.generate_sdxl")
	require.NoError(t, err)
	started := time.Now()
	require.NoError(t, stepOf(context.Background(), t, d, 1))
	require.Less(t, time.Since(started), 4*time.Second, "the end was read at the probe, not at the next read")
	require.Len(t, srv.Inputs(), 1, "the model ran once")
	require.Empty(t, srv.Cancelled(), "nothing was started again, so nothing was cancelled")
}
