package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"

	"github.com/taskplatform/taskplatform/testenv"
)

// writeThroughStack opens the stack's stores as the environment configures
// them and writes "bytes" to jobs/j_1/0.png.
func writeThroughStack(t *testing.T) *stack {
	t.Helper()
	cfg, err := loadConfig()
	require.NoError(t, err)
	s := &stack{cfg: cfg, log: newLogger(false)}
	t.Cleanup(s.close)
	require.NoError(t, s.openStores(context.Background()))
	require.NoError(t, s.bucket.WriteAll(context.Background(), "jobs/j_1/0.png", []byte("bytes"), nil))
	return s
}

// TestStackOpensS3 opens the stack's stores with TP_BLOB_URL naming an
// S3-compatible server and checks bytes land in its bucket.
func TestStackOpensS3(t *testing.T) {
	store := testenv.StartS3(t, "tp-blobs")
	clearEnv(t)
	t.Setenv("TP_DATABASE_URL", testenv.PostgresSchemaURL(t))
	t.Setenv("TP_BLOB_URL", store.BucketURL("tp-blobs"))
	ctx := context.Background()
	s := writeThroughStack(t)
	require.Equal(t, []string{"jobs/j_1/0.png"}, store.Keys(t, "tp-blobs"))
	got, err := s.bucket.ReadAll(ctx, "jobs/j_1/0.png")
	require.NoError(t, err)
	require.Equal(t, "bytes", string(got))
	require.NoError(t, s.bucket.Delete(ctx, "jobs/j_1/0.png"))
	require.Empty(t, store.Keys(t, "tp-blobs"))
}

// TestBlobSchemesRegistered checks the binary compiles in a driver for every
// scheme TP_BLOB_URL documents (opening an unregistered one fails
// "no driver registered").
func TestBlobSchemesRegistered(t *testing.T) {
	for _, scheme := range []string{"file", "mem", "s3", "gs", "azblob"} {
		t.Run(scheme, func(t *testing.T) {
			require.True(t, blob.DefaultURLMux().ValidBucketScheme(scheme), "no driver for %s://", scheme)
		})
	}
}

// TestStackFileBlobsIgnoreTMPDIR writes through the default blob store (the
// data directory) with TMPDIR naming a directory that cannot be used, as
// when /tmp is another filesystem (a tmpfs) and a rename from it fails
// "invalid cross-device link": each write's temporary file is made beside
// its blob, so the write still lands.
func TestStackFileBlobsIgnoreTMPDIR(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("TP_DATA_DIR", dir)
	t.Setenv("TP_DATABASE_URL", testenv.PostgresSchemaURL(t))
	t.Setenv("TMPDIR", filepath.Join(dir, "no-such-tmp"))
	writeThroughStack(t)
	got, err := os.ReadFile(filepath.Join(dir, "blobs", "jobs", "j_1", "0.png"))
	require.NoError(t, err)
	require.Equal(t, "bytes", string(got))
	left, err := filepath.Glob(filepath.Join(dir, "blobs", "jobs", "j_1", "*.tmp"))
	require.NoError(t, err)
	require.Empty(t, left, "no temporary file is left beside the blob")
}
