package api_test

import (
	"bytes"
	"image/png"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUploadedAndRegisteredFilesFeedATask runs pattern.repeat on a file:
// handle of uploaded bytes and on one of a registered URL.
func TestUploadedAndRegisteredFilesFeedATask(t *testing.T) {
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
		res := s.do(http.MethodPost, "/v1/tasks/pattern.repeat", map[string]any{"image": handle, "resolution": "512"}, "Prefer", "wait=30")
		require.Equal(t, http.StatusOK, res.status, "%s: %s", handle, res.body)
		requirePNGTile(t, res.json(t)["files"].([]any)[0].(map[string]any)["url"].(string), 512)
	}
}
