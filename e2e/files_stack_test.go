package e2e_test

import (
	"bytes"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestUploadedAndRegisteredFilesFeedATask runs pattern.repeat on a file:
// handle of uploaded bytes and on one of a registered URL.
func TestUploadedAndRegisteredFilesFeedATask(t *testing.T) {
	t.Parallel()
	var motif bytes.Buffer
	require.NoError(t, png.Encode(&motif, testMotif()))
	srv := motifServer(t, motif.Bytes())
	s := newStack(t, stackOptions{credits: 100, rootCAs: poolOf(srv)})

	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, err := w.CreateFormFile("file", "motif.png")
	require.NoError(t, err)
	_, err = fw.Write(motif.Bytes())
	require.NoError(t, err)
	require.NoError(t, w.Close())
	up := s.do(http.MethodPost, "/v1/files", body.String(), "Content-Type", w.FormDataContentType())
	require.Equal(t, http.StatusCreated, up.status, "%s", up.body)
	uploaded := up.json(t)["file"].(string)

	reg := s.do(http.MethodPost, "/v1/files", map[string]any{"url": srv.URL + "/motif.png"})
	require.Equal(t, http.StatusCreated, reg.status, "%s", reg.body)
	registered := reg.json(t)["file"].(string)

	for _, handle := range []string{uploaded, registered} {
		res := s.do(
			http.MethodPost,
			"/v1/tasks/pattern.repeat",
			map[string]any{"image": handle, "resolution": "512"},
			"Prefer",
			"wait=30",
		)
		require.Equal(t, http.StatusOK, res.status, "%s: %s", handle, res.body)
		requirePNGTile(t, res.json(t)["files"].([]any)[0].(map[string]any)["url"].(string), 512)
	}
}

// TestFilesBaseURLInResultsAndWebhooks: with a files base set, the file
// URLs of a job result and of its webhook body start with it.
func TestFilesBaseURLInResultsAndWebhooks(t *testing.T) {
	t.Parallel()
	const files = "https://files.example.test"
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool(), filesBaseURL: files})
	res := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.generate?webhook_url="+url.QueryEscape(rcv.srv.URL+"/hook"),
		pattern(1),
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	result := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, http.StatusOK, result.status, "%s", result.body)
	for _, answer := range []map[string]any{res.json(t), result.json(t)} {
		link := answer["files"].([]any)[0].(map[string]any)["url"].(string)
		require.True(t, strings.HasPrefix(link, files+"/files/"), link)
	}
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 50*time.Millisecond)
	link := rcv.deliveries()[0].event["result"].(map[string]any)["files"].([]any)[0].(map[string]any)["url"].(string)
	require.True(t, strings.HasPrefix(link, files+"/files/"), link)
}
