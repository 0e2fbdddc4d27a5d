package e2e_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob" // s3:// blob URLs, as the binary registers them

	"github.com/taskplatform/taskplatform/testenv"
)

// TestS3BlobStore runs the stack on a bucket of an in-process S3-compatible
// server opened from a TP_BLOB_URL: an upload and a job's outputs land in
// the bucket, their URLs download without a key with the detected type and
// nosniff (the same handler as disk), and deleting an output removes its
// object.
func TestS3BlobStore(t *testing.T) {
	t.Parallel()
	const bucketName = "tp-e2e"
	store := testenv.StartS3(t, bucketName)
	bucket, err := blob.OpenBucket(context.Background(), store.BucketURL(bucketName))
	require.NoError(t, err)
	t.Cleanup(func() { _ = bucket.Close() })
	s := newStack(t, stackOptions{credits: 100, bucket: bucket})

	// An upload named .txt holding PNG bytes: stored and served as a PNG.
	motif := tinyPNG(t, 8, 8)
	handle := s.upload("motif.txt", motif)
	require.Len(t, store.Keys(t, bucketName), 1, "the upload is stored in the bucket")
	read := s.do(http.MethodGet, "/v1/files/"+url.PathEscape(handle), nil)
	require.Equal(t, http.StatusOK, read.status, "%s", read.body)
	uploadURL := read.json(t)["url"].(string)
	requireServed(t, uploadURL, "image/png", motif)

	// A job reads its input from the bucket and writes its outputs there.
	res := s.do(http.MethodPost, "/v1/tasks/pattern.generate", pattern(2), "Prefer", "wait=30")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	job := res.json(t)["job_id"].(string)
	files := res.json(t)["files"].([]any)
	require.Len(t, files, 2)
	keys := store.Keys(t, bucketName)
	for i := range files {
		require.Contains(t, keys, "jobs/"+job+"/"+[]string{"0", "1"}[i]+".png")
	}
	art := files[0].(map[string]any)
	stored, err := bucket.ReadAll(context.Background(), "jobs/"+job+"/0.png")
	require.NoError(t, err)
	requireServed(t, art["url"].(string), "image/png", stored)

	// Deleting an output removes its object, and its URL answers 404.
	del := s.do(http.MethodDelete, "/v1/files/"+url.PathEscape(art["file"].(string)), nil)
	require.Equal(t, http.StatusOK, del.status, "%s", del.body)
	require.False(t, slices.Contains(store.Keys(t, bucketName), "jobs/"+job+"/0.png"))
	require.Contains(t, store.Keys(t, bucketName), "jobs/"+job+"/1.png")
	gone, err := http.Get(art["url"].(string))
	require.NoError(t, err)
	_ = gone.Body.Close()
	require.Equal(t, http.StatusNotFound, gone.StatusCode)
}

// requireServed downloads a file URL without a key and checks its bytes and
// the headers that keep it inert.
func requireServed(t *testing.T, link, mediaType string, want []byte) {
	t.Helper()
	require.True(t, strings.Contains(link, "/files/"), link)
	got := download(t, link)
	require.Equal(t, want, got)
	res, err := http.Get(link)
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, mediaType, res.Header.Get("Content-Type"))
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
}
