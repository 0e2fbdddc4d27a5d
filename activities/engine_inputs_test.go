package activities_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gocloud.dev/blob/memblob"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/signer"
)

func TestEngineInputURLsNameTheServicesCopyUntilTheStepsDeadline(t *testing.T) {
	bucket := memblob.OpenBucket(nil)
	defer bucket.Close()
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	s := signer.New(key)
	a := &activities.Activities{Blob: bucket, Signer: s, FilesBaseURL: "https://files.example.com"}
	ctx := context.Background()
	exp := time.Now().Add(7 * time.Minute).Truncate(time.Second)
	pub := activities.EngineInputs(a)

	for _, base := range []string{"http://api.internal:8080/", ""} {
		u, err := pub.URL(ctx, base, []byte("the caller's bytes"), "image/png", exp)
		require.NoError(t, err)
		want := strings.TrimRight(base, "/")
		if base == "" {
			want = a.FilesBaseURL
		}
		grant, ok := strings.CutPrefix(u, want+contract.EngineInputPath)
		require.True(t, ok, u)
		j, err := signer.ParseCompact(grant)
		require.NoError(t, err)
		payload, err := signer.VerifyJWS(s.JWKS(), j)
		require.NoError(t, err)
		var g contract.EngineInput
		require.NoError(t, json.Unmarshal(payload, &g))
		require.Equal(t, exp.Unix(), g.Expires)
		require.Equal(t, "image/png", g.MediaType)
		data, err := bucket.ReadAll(ctx, g.Key)
		require.NoError(t, err)
		require.Equal(t, "the caller's bytes", string(data))
	}
	other, err := pub.URL(ctx, "", []byte("another file"), "image/png", exp)
	require.NoError(t, err)
	first, err := pub.URL(ctx, "", []byte("the caller's bytes"), "image/png", exp)
	require.NoError(t, err)
	require.NotEqual(t, first, other, "one grant per file")
}
