package e2e_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob/fileblob"
)

func TestStorageFailureFailsJobAndChargesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		queued  bool
		history string
	}{{"inline", false, "failed_inline"}, {"on the steps queue", true, "failed"}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			bucket, err := fileblob.OpenBucket(dir, nil)
			require.NoError(t, err)
			require.NoError(t, os.RemoveAll(dir))
			require.NoError(t, os.WriteFile(dir, nil, 0o644)) // the store's folder is now a file: every write fails
			s := newStack(t, stackOptions{credits: 100, bucket: bucket, noInline: tc.queued})
			res := s.submit(pattern(1), "Prefer", "wait=30")
			require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
			e := res.json(t)["error"].(map[string]any)
			require.Equal(t, "processing_failed", e["code"])
			require.Equal(t, false, e["retryable"])
			id := e["job_id"].(string)
			require.Equal(t, int64(100), s.balance(), "a job that delivers nothing is charged nothing")
			require.Equal(t, s.balance(), s.ledgerSum())
			r := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
			require.Equal(t, http.StatusConflict, r.status)
			require.Equal(t, "job_failed", r.errorCode(t))
			recordHistory(t, id, tc.history)
		})
	}
}

func TestOutputFilesReadAndDelete(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	res := s.submit(pattern(2), "Prefer", "wait=30").json(t)
	files := res["files"].([]any)
	first := files[0].(map[string]any)
	handle := first["file"].(string)
	require.NotNil(t, first["data"], "the file's data follows the outputSchema")

	got := s.do(http.MethodGet, "/v1/files/"+handle, nil)
	require.Equal(t, http.StatusOK, got.status, "%s", got.body)
	require.Equal(t, true, got.json(t)["deletable"])

	notArt := s.do(http.MethodDelete, "/v1/files/file:abc", nil)
	require.Equal(t, http.StatusUnprocessableEntity, notArt.status)
	require.Equal(t, "file_not_deletable", notArt.errorCode(t))
	require.Nil(t, notArt.json(t)["error"].(map[string]any)["field"])

	other := newAccountKey(t, s)
	foreign := s.doAs(other, http.MethodDelete, "/v1/files/"+handle)
	require.Equal(
		t,
		http.StatusUnprocessableEntity,
		foreign.status,
		"another account's handle is not deletable, as an unknown one",
	)
	require.Equal(t, "file_not_deletable", foreign.errorCode(t))
	require.Equal(
		t,
		http.StatusNotFound,
		s.doAs(other, http.MethodGet, "/v1/files/"+handle).status,
		"another account cannot see the file",
	)

	require.Equal(t, http.StatusOK, s.do(http.MethodDelete, "/v1/files/"+handle, nil).status)
	require.Equal(t, http.StatusNotFound, s.do(http.MethodGet, "/v1/files/"+handle, nil).status)
	require.Equal(
		t,
		http.StatusNotFound,
		s.do(http.MethodDelete, "/v1/files/"+handle, nil).status,
		"a deleted handle of one's own is not found",
	)
	dl, err := http.Get(first["url"].(string))
	require.NoError(t, err)
	dl.Body.Close()
	require.Equal(t, http.StatusNotFound, dl.StatusCode)
	rest := s.do(http.MethodGet, "/v1/jobs/"+res["job_id"].(string)+"/result", nil).json(t)
	require.Len(t, rest["files"], 1, "a deleted file leaves the result")
	_, per := priceOf(t, pattern(2))
	require.Equal(t, 100-int64(len(files))*per, s.balance(), "deleting a delivered file does not refund it")
}
