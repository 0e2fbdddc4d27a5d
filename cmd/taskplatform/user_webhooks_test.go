package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/contract"
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
