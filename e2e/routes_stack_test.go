package e2e_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/openapicheck"
)

// TestStackAnswersAsDocumented checks the answers that need Temporal
// against the service document: submit (a handle, and a result on a wait),
// cancel, and readiness.
func TestStackAnswersAsDocumented(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 1000, stepDelay: 300 * time.Millisecond})
	check := s.asDocumented(t)
	const path = "/v1/tasks/pattern.generate"
	for _, docPath := range []string{"/v1/tasks/{name}", path} {
		id := check(http.MethodPost, docPath, path, pattern(6), http.StatusAccepted).json(t)["job_id"].(string)
		check(http.MethodPut, "/v1/jobs/{job_id}/cancel", "/v1/jobs/"+id+"/cancel", nil, http.StatusAccepted)
		s.waitTerminal(id)
		check(http.MethodGet, "/v1/jobs/{job_id}", "/v1/jobs/"+id, nil, http.StatusOK)

		res := check(http.MethodPost, docPath, path, pattern(1), http.StatusOK, "Prefer", "wait=30")
		require.True(t, bytes.Contains(res.body, []byte(`"files"`)), "the wait answered the result: %s", res.body)
	}
	check(http.MethodGet, "/readyz", "/readyz", nil, http.StatusOK)
}

// TestReadyWaitsForTheLibraries: /readyz answers 503 naming the library
// while a starting process writes it, and when writing it failed, and 200
// once it is written; every answer is as documented.
func TestReadyWaitsForTheLibraries(t *testing.T) {
	t.Parallel()
	states := []error{api.ErrLibraryWriting, errors.New("disk full"), nil}
	var state atomic.Int32
	s := newStack(t, stackOptions{credits: 10, noWorker: true, library: func() error { return states[state.Load()] }})
	check := s.asDocumented(t)
	for i, want := range []struct {
		status  int
		library string
	}{{http.StatusServiceUnavailable, "writing"}, {http.StatusServiceUnavailable, "failed"}, {http.StatusOK, "ok"}} {
		state.Store(int32(i))
		res := check(http.MethodGet, "/readyz", "/readyz", nil, want.status)
		require.Equal(
			t,
			map[string]any{"database": "ok", "temporal": "ok", "library": want.library},
			res.json(t)["checks"],
		)
	}
}

// asDocumented returns a call that sends a request through the stack and
// checks its status and its answer against the served OpenAPI document
// (docPath names the document's path template).
func (s *testStack) asDocumented(
	t *testing.T,
) func(method, docPath, path string, body map[string]any, status int, headers ...string) response {
	t.Helper()
	served, panel := s.do(http.MethodGet, "/v1/openapi.json", nil), s.do(http.MethodGet, "/v1/panel/openapi.json", nil)
	require.Equal(t, http.StatusOK, served.status)
	require.Equal(t, http.StatusOK, panel.status)
	doc := openapicheck.LoadDoc(t, openapicheck.Merge(t, served.body, panel.body), true)
	return func(method, docPath, path string, body map[string]any, status int, headers ...string) response {
		t.Helper()
		res := s.do(method, path, body, headers...)
		require.Equal(t, status, res.status, "%s %s: %s", method, path, res.body)
		var raw []byte
		req := httptest.NewRequest(method, path, nil)
		req.Header.Set("Authorization", "Key "+s.key)
		if body != nil {
			raw, _ = json.Marshal(body)
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		openapicheck.CheckAnswer(t, doc, method, docPath, req, raw, res.status, res.header, res.body)
		return res
	}
}
