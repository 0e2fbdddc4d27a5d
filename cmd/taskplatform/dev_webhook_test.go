package main

import (
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/signer"
)

// TestDevWebhookEndToEnd registers an endpoint with the admin command while
// dev runs, runs a job, and checks the local https receiver (trusted through
// SSL_CERT_FILE) gets the signed job.succeeded event, verifiable with the
// keys dev publishes.
func TestDevWebhookEndToEnd(t *testing.T) {
	t.Parallel()
	var (
		mu  sync.Mutex
		got []*http.Request
		raw [][]byte
	)
	rcv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, raw = append(got, r), append(raw, body)
		mu.Unlock()
	}))
	defer rcv.Close()
	// at is the i-th delivery's headers and body, read under the lock the
	// receiver appends under.
	at := func(i int) (http.Header, []byte) {
		mu.Lock()
		defer mu.Unlock()
		return got[i].Header, raw[i]
	}
	certFile := filepath.Join(t.TempDir(), "receiver.pem")
	require.NoError(
		t,
		os.WriteFile(
			certFile,
			pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rcv.Certificate().Raw}),
			0o644,
		),
	)

	dataDir := t.TempDir()
	dev := startReady(t, dataDir, "", "TP_ALLOW_PRIVATE_URLS=true", "SSL_CERT_FILE="+certFile)
	key := dev.key(t)

	add := runBinary(
		t,
		[]string{"TP_DATA_DIR=" + dataDir, "TP_ALLOW_PRIVATE_URLS=true"},
		"admin",
		"webhook",
		"add",
		"--user",
		"dev@taskplatform.local",
		"--url",
		rcv.URL+"/hook",
	)
	require.Zero(t, add.code, "stderr: %s", add.stderr)
	require.Regexp(t, `^whe_\S+\n$`, add.stdout)

	req, err := http.NewRequest(
		http.MethodPost,
		dev.base+"/v1/tasks/pattern.generate",
		strings.NewReader(`{"kind":"chevron","colors":["#203040","#E0D0C0"]}`),
	)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Key "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusAccepted, res.StatusCode)

	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) == 1
	}, 30*time.Second, 100*time.Millisecond, "the endpoint gets the terminal event")
	jr, err := http.Get(dev.base + "/.well-known/jwks.json")
	require.NoError(t, err)
	defer jr.Body.Close()
	var set signer.JWKS
	require.NoError(t, json.NewDecoder(jr.Body).Decode(&set))
	h, body := at(0)
	require.NoError(
		t,
		signer.Verify(set, h.Get("X-Service-Request-Id"), h.Get("X-Service-User-Id"), h.Get("X-Service-Timestamp"),
			h.Get("X-Service-Signature"), body, time.Now(), 5*time.Minute),
	)
	var ev map[string]any
	require.NoError(t, json.Unmarshal(body, &ev))
	require.Equal(t, "job.succeeded", ev["event"])

	ping := runBinary(
		t,
		[]string{"TP_DATA_DIR=" + dataDir, "TP_TEMPORAL_PORT=" + dev.temporalPort},
		"admin",
		"webhook",
		"ping",
		"--endpoint-id",
		strings.TrimSpace(add.stdout),
	)
	require.Zero(t, ping.code, "stderr: %s", ping.stderr)
	require.Regexp(t, `^whd_\S+\n$`, ping.stdout)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) == 2
	}, 30*time.Second, 100*time.Millisecond, "the endpoint gets the ping")
	h, body = at(1)
	require.Equal(t, strings.TrimSpace(ping.stdout), h.Get("X-Service-Request-Id"))
	require.NoError(
		t,
		signer.Verify(set, h.Get("X-Service-Request-Id"), h.Get("X-Service-User-Id"), h.Get("X-Service-Timestamp"),
			h.Get("X-Service-Signature"), body, time.Now(), 5*time.Minute),
	)
	require.NoError(t, json.Unmarshal(body, &ev))
	require.Equal(t, "ping", ev["event"])

	h, first := at(0)
	firstID := h.Get("X-Service-Request-Id")
	replay := runBinary(
		t,
		[]string{"TP_DATA_DIR=" + dataDir, "TP_TEMPORAL_PORT=" + dev.temporalPort},
		"admin",
		"webhook",
		"replay",
		"--delivery-id",
		firstID,
	)
	require.Zero(t, replay.code, "stderr: %s", replay.stderr)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) == 3
	}, 30*time.Second, 100*time.Millisecond, "the replay arrives")
	h, body = at(2)
	require.Equal(t, strings.TrimSpace(replay.stdout), h.Get("X-Service-Request-Id"), "a replay has its own delivery id")
	require.NotEqual(t, firstID, h.Get("X-Service-Request-Id"))
	require.Equal(t, first, body, "the stored body, same event id")
}
