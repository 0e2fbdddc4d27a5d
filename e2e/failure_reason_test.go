package e2e_test

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// tinyPNG is a w × h px PNG.
func tinyPNG(t *testing.T, w, h int) []byte {
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, w, h))))
	return buf.Bytes()
}

// uploadFile posts data as the file part of an upload and returns its handle.
func (s *testStack) uploadFile(data []byte) string {
	s.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, err := w.CreateFormFile("file", "motif.png")
	require.NoError(s.t, err)
	_, err = fw.Write(data)
	require.NoError(s.t, err)
	require.NoError(s.t, w.Close())
	up := s.do(http.MethodPost, "/v1/files", body.String(), "Content-Type", w.FormDataContentType())
	require.Equal(s.t, http.StatusCreated, up.status, "%s", up.body)
	return up.json(s.t)["file"].(string)
}

// TestAFailedJobSaysWhy: a motif too small to repeat fails the job with the
// task's own reason on the wait answer, the job read and the webhook; an
// upload of that size is refused at submit, naming the field.
func TestAFailedJobSaysWhy(t *testing.T) {
	t.Parallel()
	srv := motifServer(t, tinyPNG(t, 4, 4))
	rcv := newReceiver(t, http.StatusOK)
	pool := poolOf(srv)
	pool.AddCert(rcv.srv.Certificate())
	s := newStack(t, stackOptions{credits: 100, rootCAs: pool})

	res := s.do(http.MethodPost, "/v1/tasks/pattern.repeat?webhook_url="+rcv.srv.URL+"/hook",
		map[string]any{"image": srv.URL + "/motif.png", "resolution": "512"}, "Prefer", "wait=30")
	require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "processing_failed", e["code"])
	require.Contains(t, e["message"], "4 × 4 px", "the wait answer says why")
	id := e["job_id"].(string)

	job := s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)
	require.Contains(t, job["error"].(map[string]any)["message"], "4 × 4 px", "the job read says why")
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 1 }, patience, 100*time.Millisecond)
	hook := rcv.deliveries()[0].event
	require.Contains(t, hook["error"].(map[string]any)["message"], "4 × 4 px", "the webhook says why")
	require.NotContains(t, e["message"], "/", "no paths or internal text")
	require.Equal(t, int64(100), s.balance(), "nothing delivered, nothing charged")

	handle := s.uploadFile(tinyPNG(t, 4, 4))
	refused := s.do(http.MethodPost, "/v1/tasks/pattern.repeat", map[string]any{"image": handle})
	require.Equal(t, http.StatusUnprocessableEntity, refused.status, "%s", refused.body)
	re := refused.json(t)["error"].(map[string]any)
	require.Equal(t, "request_refused", re["code"])
	require.Equal(t, "image", re["field"])
	require.Contains(t, re["message"], "4 × 4 px")
	var jobs int64
	require.NoError(t, s.db.Table("jobs").Where("user_id = ?", s.userID).Count(&jobs).Error)
	require.EqualValues(t, 1, jobs, "a refused submit starts no job")
}
