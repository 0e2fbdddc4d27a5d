package testenv

import (
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/stretchr/testify/require"
)

// S3 is an in-process S3-compatible server on loopback (gofakes3 with its
// in-memory backend), stopped at cleanup.
type S3 struct {
	Backend *s3mem.Backend
	srv     *httptest.Server
}

// StartS3 serves a fresh S3-compatible store holding one empty bucket.
func StartS3(t testing.TB, bucket string) *S3 {
	t.Helper()
	b := s3mem.New()
	require.NoError(t, b.CreateBucket(bucket))
	srv := httptest.NewServer(gofakes3.New(b, gofakes3.WithoutVersioning()).Server())
	t.Cleanup(srv.Close)
	return &S3{Backend: b, srv: srv}
}

// BucketURL is the TP_BLOB_URL of bucket on this server, written as an
// operator writes one for MinIO or Ceph: endpoint, region and path-style
// addressing in the query (gocloud.dev's s3blob), with anonymous requests
// since the fake store checks no signatures.
func (s *S3) BucketURL(bucket string) string {
	q := url.Values{"endpoint": {s.srv.URL}, "region": {"us-east-1"}, "use_path_style": {"true"}, "anonymous": {"true"}}
	return "s3://" + bucket + "?" + q.Encode()
}

// Keys lists the object keys stored in bucket.
func (s *S3) Keys(t testing.TB, bucket string) []string {
	t.Helper()
	res, err := s.Backend.ListBucket(bucket, nil, gofakes3.ListBucketPage{})
	require.NoError(t, err)
	keys := make([]string, 0, len(res.Contents))
	for _, c := range res.Contents {
		keys = append(keys, c.Key)
	}
	return keys
}
