package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
)

// startServer serves h on loopback through the production server with lim.
func startServer(t *testing.T, h http.Handler, lim serverLimits) *httptest.Server {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	s.Config = newHTTPServer(h, zap.NewNop(), lim)
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func TestServerLimitsFitUploadsAndWaits(t *testing.T) {
	lim, limits := defaultServerLimits(), contract.DefaultLimits()
	wait := time.Duration(limits.PreferWait.MaxSeconds) * time.Second
	upload := time.Duration(limits.Upload.MaxBytes/slowestClient) * time.Second
	require.GreaterOrEqual(t, lim.ReadTimeout, lim.ReadHeaderTimeout+upload, "an upload at the slowest rate is read")
	require.Greater(t, lim.ReadTimeout, wait, "a full Prefer: wait is not cancelled by the read deadline")
	require.Greater(t, lim.WriteTimeout, upload+wait, "the answer after an upload or a wait is written")
	require.Greater(
		t,
		lim.MaxHeaderBytes,
		middleware.MaxHeaderBytes,
		"the API answers its own header limit in the error shape",
	)
	require.Positive(t, lim.IdleTimeout)
}

func TestServerCutsOffATrickledBody(t *testing.T) {
	lim := defaultServerLimits()
	lim.ReadTimeout = 2 * time.Second
	read := make(chan error, 1)
	s := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.Copy(io.Discard, r.Body)
		read <- err
	}), lim)
	conn, err := net.Dial("tcp", s.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(60*time.Second)))
	const size = 40
	_, err = fmt.Fprintf(conn, "POST /v1/files HTTP/1.1\r\nHost: api.example.test\r\nContent-Length: %d\r\n\r\n", size)
	require.NoError(t, err)
	closed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, conn) // until the server closes the connection
		close(closed)
	}()
	start, sent := time.Now(), 0
trickle:
	for sent < size {
		select {
		case <-closed:
			break trickle
		case <-time.After(time.Second):
		}
		if _, err := conn.Write([]byte("x")); err != nil {
			break
		}
		sent++
	}
	<-closed
	require.Less(t, time.Since(start), 10*time.Second, "closed long before the %d-second body was sent", size)
	require.Less(t, sent, size)
	require.Error(t, <-read, "the handler's read was cut off")
}

func TestServerAnswersLargeHeadersInTheErrorShape(t *testing.T) {
	s := startServer(t, api.NewRouter(api.Deps{Log: zap.NewNop()}), defaultServerLimits())
	for _, size := range []int{middleware.MaxHeaderBytes + 1, 4 * middleware.MaxHeaderBytes} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			req, err := http.NewRequest("GET", s.URL+"/v1/meta", nil)
			require.NoError(t, err)
			req.Header.Set("X-Note", strings.Repeat("a", size))
			res, err := s.Client().Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			require.Equal(t, http.StatusRequestHeaderFieldsTooLarge, res.StatusCode)
			require.True(
				t,
				strings.HasPrefix(res.Header.Get("X-Request-ID"), "req_"),
				"X-Request-ID %q",
				res.Header.Get("X-Request-ID"),
			)
			require.Contains(t, res.Header.Get("Content-Type"), "application/json")
			var body struct {
				Error map[string]any `json:"error"`
			}
			require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
			require.Equal(t, "headers_too_large", body.Error["code"])
			require.Equal(t, "invalid_request", body.Error["type"])
			require.Equal(t, res.Header.Get("X-Request-ID"), body.Error["request_id"])
		})
	}
}
