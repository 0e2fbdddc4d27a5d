package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/wire"
)

// TestWebhooksListenForwardsARealJob runs `webhooks listen --forward-to`
// against dev started as production starts (no TP_ALLOW_PRIVATE_URLS, no
// extra certificates) with a plain-http receiver on loopback behind the
// SDK's Verifier: a job run with the CLI arrives there signed, verified,
// one line per event is printed, and Ctrl-C ends the command with 0.
func TestWebhooksListenForwardsARealJob(t *testing.T) {
	t.Parallel()
	dev := startReady(t, t.TempDir(), "")
	key := dev.key(t)
	var (
		mu  sync.Mutex
		got []*client.Delivery
	)
	rcv := httptest.NewServer(client.NewVerifier(dev.base).Middleware(http.HandlerFunc(
		func(w http.ResponseWriter, r *http.Request) {
			d, ok := client.DeliveryFrom(r.Context())
			require.True(t, ok)
			mu.Lock()
			got = append(got, d)
			mu.Unlock()
		})))
	t.Cleanup(rcv.Close)
	received := func(kind string) *client.Delivery {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range got {
			if d.Event.Event == kind {
				return d
			}
		}
		return nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	listen := exec.CommandContext(ctx, binary, "webhooks", "listen",
		"--forward-to", strings.TrimPrefix(rcv.URL, "http://")+"/hook")
	listen.Env = []string{"TP_BASE_URL=" + dev.base, "TP_API_KEY=" + key, "HOME=" + t.TempDir()}
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	listen.Stdout, listen.Stderr = stdout, stderr
	require.NoError(t, listen.Start())
	exited := make(chan error, 1)
	go func() { exited <- listen.Wait() }()
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "Ready: forwarding") },
		30*time.Second, 50*time.Millisecond, "stderr: %s", stderr.String())

	env := []string{"TP_BASE_URL=" + dev.base, "TP_API_KEY=" + key, "HOME=" + t.TempDir()}
	r := runBinary(t, env, append([]string{"run", "pattern.generate", "--set", "count=2", "--out", t.TempDir()},
		stripes...)...)
	require.Zero(t, r.code, r.stderr)
	job := strings.Fields(r.stdout)[0]

	require.Eventually(t, func() bool { return received(contract.EventSucceeded) != nil }, 30*time.Second,
		50*time.Millisecond, "the receiver gets job.succeeded; listen said: %s %s", stdout.String(), stderr.String())
	d := received(contract.EventSucceeded)
	require.Equal(t, job, d.Event.JobID)
	require.Regexp(t, `^whl_`, d.ID, "the delivery id of the listen stream")
	require.NotNil(t, d.Event.Result)
	require.Len(t, d.Event.Result.Files, 2, "the body a webhook carries: the result")
	require.NotNil(t, received(contract.EventStarted), "every job event by default")

	require.Eventually(t, func() bool {
		return regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d  job\.succeeded\s+` + job + ` 2/2  → 200 OK  \[whl_\S+\]$`).
			MatchString(stdout.String())
	}, 10*time.Second, 50*time.Millisecond, "one line per event: %s", stdout.String())

	require.NoError(t, listen.Process.Signal(syscall.SIGINT))
	select {
	case err := <-exited:
		require.NoError(t, err, "Ctrl-C ends listen with 0; stderr: %s", stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("listen did not end on Ctrl-C")
	}
}

// TestWebhooksListenRefusesBadUse: --forward-to is required and must be
// http(s); --events names job events (not the account-level
// spend.threshold and batch.completed, which the listen stream does not
// carry).
func TestWebhooksListenRefusesBadUse(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"webhooks", "listen"},
		{"webhooks", "listen", "--forward-to", "ftp://x/hook"},
		{"webhooks", "listen", "--forward-to", "localhost:3000", "--events", "job.done"},
		{"webhooks", "listen", "--forward-to", "localhost:3000", "--events", "spend.threshold"},
		{"webhooks", "listen", "--forward-to", "localhost:3000", "--events", "batch.completed"},
		{"webhooks"},
	} {
		r := runBinary(t, []string{"TP_API_KEY=tpk_x", "HOME=" + t.TempDir()}, args...)
		require.Equal(t, 2, r.code, "%v: %s", args, r.stderr)
	}
}

// TestWebhooksListenJSON: with --json each event is one JSON object on
// stdout — its type, job, delivery id and what the receiver answered — and
// a delivery whose signature does not verify is reported, not forwarded.
// The service is a stand-in that signs with its own key.
func TestWebhooksListenJSON(t *testing.T) {
	t.Parallel()
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	service := signer.New(key)
	frame := func(id, body string, tamper bool) string {
		ts := time.Now().Unix()
		sig := service.Sign(id, 7, ts, []byte(body))
		if tamper {
			body = strings.Replace(body, "j_1", "j_2", 1)
		}
		raw, err := json.Marshal(map[string]any{"body": body, "headers": map[string]string{
			"Content-Type": "application/json", "X-Service-Request-Id": id, "X-Service-User-Id": "7",
			"X-Service-Timestamp": strconv.FormatInt(ts, 10), "X-Service-Signature": sig,
		}})
		require.NoError(t, err)
		return fmt.Sprintf("id: %s\nevent: job.succeeded\ndata: %s\n\n", id, raw)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/jwks.json":
			_ = json.NewEncoder(w).Encode(service.JWKS())
		case "/v1/meta":
			_, _ = io.WriteString(w, `{"webhook":{"max_attempts":8,"signature":{"timestamp_window_seconds":300}}}`)
		case "/v1/events":
			w.Header().Set("Content-Type", "text/event-stream")
			body := `{"id":"evt_1","event":"job.succeeded","job_id":"j_1","progress":{"done":2,"total":2,"phase":"done"}}`
			_, _ = io.WriteString(w, frame("whl_1", body, false)+frame("whl_2", body, true))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}
	}))
	t.Cleanup(srv.Close)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(rcv.Close)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	env := map[string]string{"TP_BASE_URL": srv.URL, "TP_API_KEY": "tpk_x"}
	done := make(chan int, 1)
	go func() {
		done <- userMain(ctx, []string{"webhooks", "listen", "--json", "--forward-to", rcv.URL + "/hook"},
			&userRun{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, env: func(k string) string {
				return env[k]
			}})
	}()
	require.Eventually(t, func() bool { return strings.Count(stdout.String(), "\n") == 2 }, 30*time.Second,
		20*time.Millisecond, "stdout: %s stderr: %s", stdout.String(), stderr.String())
	cancel()
	require.Zero(t, <-done, stderr.String())

	type line struct {
		Type       string `json:"type"`
		JobID      string `json:"job_id"`
		DeliveryID string `json:"delivery_id"`
		Progress   *struct {
			Done  int  `json:"done"`
			Total *int `json:"total"`
		} `json:"progress"`
		Forward struct {
			Delivered bool   `json:"delivered"`
			Status    int    `json:"status"`
			Error     string `json:"error"`
		} `json:"forward"`
	}
	var got []line
	for _, raw := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var l line
		require.NoError(t, json.Unmarshal([]byte(raw), &l), "one JSON object per line: %s", raw)
		got = append(got, l)
	}
	require.Equal(t, "job.succeeded", got[0].Type)
	require.Equal(t, "j_1", got[0].JobID)
	require.Equal(t, "whl_1", got[0].DeliveryID)
	require.Equal(t, 2, got[0].Progress.Done)
	require.True(t, got[0].Forward.Delivered)
	require.Equal(t, http.StatusAccepted, got[0].Forward.Status)
	require.Equal(t, "whl_2", got[1].DeliveryID)
	require.False(t, got[1].Forward.Delivered, "a body that does not match its signature is not forwarded")
	require.Zero(t, got[1].Forward.Status)
	require.NotEmpty(t, got[1].Forward.Error)
}

// TestForwardLineNamesAnUnreachableReceiverOnce: a receiver that is not
// running is said so in a few words with its address, and the line still
// carries the delivery id.
func TestForwardLineNamesAnUnreachableReceiverOnce(t *testing.T) {
	t.Parallel()
	f := forwarded{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Type: "job.started", JobID: "j_1",
		DeliveryID: "whl_1", Progress: &wire.Progress{Done: 0},
		Forward: forwardStatus{Error: unreachable("http://localhost:3000/hook",
			&url.Error{Op: "Post", URL: "http://localhost:3000/hook", Err: syscall.ECONNREFUSED})}}
	require.Equal(t, "03:04:05  job.started    j_1 0/?  → not delivered: connection refused "+
		"(is your receiver listening at http://localhost:3000/hook?)  [whl_1]", f.line())
}
