package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDevRestartRunsQueuedJobs stops dev with jobs still queued and running:
// after the restart they finish, each output exactly once.
func TestDevRestartRunsQueuedJobs(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	dev := startReady(t, dataDir, "", "TP_DEV_STEP_DELAY=2s")
	key := dev.key(t)

	call := func(base, method, path, body string) map[string]any {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Key "+key)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var m map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&m))
		return m
	}
	var ids []string
	for range 2 {
		h := call(
			dev.base,
			http.MethodPost,
			"/v1/tasks/pattern.generate",
			`{"kind":"dots","colors":["#102030","#F0E0D0"],"count":3}`,
		)
		require.Contains(t, h, "job_id", "%v", h)
		ids = append(ids, h["job_id"].(string))
	}
	for _, id := range ids {
		require.NotEqual(
			t,
			"terminal",
			call(dev.base, http.MethodGet, "/v1/jobs/"+id, "")["lifecycle"],
			"the restart must find unfinished jobs",
		)
	}
	require.NoError(t, dev.cmd.Process.Signal(os.Interrupt))
	require.Zero(t, dev.exited(t, 30*time.Second), "output:\n%s", dev.out.String())

	again := startReady(t, dataDir, "")
	for _, id := range ids {
		var job map[string]any
		require.Eventually(t, func() bool {
			job = call(again.base, http.MethodGet, "/v1/jobs/"+id, "")
			return job["lifecycle"] == "terminal"
		}, 60*time.Second, 200*time.Millisecond, "job %s did not finish after the restart", id)
		require.Equal(t, "succeeded", job["outcome"])
		require.Len(t, call(again.base, http.MethodGet, "/v1/jobs/"+id+"/result", "")["files"], 3)
	}
}
