package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestListenReconnectsAndStopsOnRefusal: a stream the service ends is
// opened again at once, each delivery arrives with its headers and raw
// body, and a refused stream (401) ends Listen with the service's error.
func TestListenReconnectsAndStopsOnRefusal(t *testing.T) {
	t.Parallel()
	var opens atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := opens.Add(1)
		if n == 3 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"code":"invalid_api_key","type":"authentication","message":"no","retryable":false}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, ": hello\n\nid: whl_%d\nevent: job.started\ndata: {\"headers\":{\"X-Service-Request-Id\":"+
			"\"whl_%d\"},\"body\":\"{\\\"n\\\":%d}\"}\n\n", n, n, n)
	}))
	t.Cleanup(srv.Close)
	c := New(srv.URL, "tpk_x", WithBackoff(time.Millisecond, 10*time.Millisecond))
	var connected int
	var got []ListenDelivery
	err := c.Listen(context.Background(), func() { connected++ }, func(d ListenDelivery) { got = append(got, d) })
	require.True(t, IsCode(err, "invalid_api_key"), "%v", err)
	require.Equal(t, 2, connected)
	require.Len(t, got, 2)
	for i, d := range got {
		id := fmt.Sprintf("whl_%d", i+1)
		require.Equal(t, id, d.ID)
		require.Equal(t, "job.started", d.Event)
		require.Equal(t, id, d.Header.Get("X-Service-Request-Id"))
		require.JSONEq(t, fmt.Sprintf(`{"n":%d}`, i+1), string(d.Body))
	}
}
