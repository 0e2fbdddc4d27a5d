package api

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestEngineInputURLsServeOneFileUntilTheyExpire(t *testing.T) {
	t.Parallel()
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	own := signer.New(key)
	var clock func() time.Time
	e := newFileEnv(t, testenv.SQLite, func(d *Deps) { d.Signer, clock = own, d.Now })
	data := pngBytes(t)
	ctx := context.Background()
	require.NoError(t, e.bucket.WriteAll(ctx, contract.EngineInputPrefix+"abc", data, nil))
	require.NoError(t, e.bucket.WriteAll(ctx, "uploads/xyz", data, nil))
	now := clock()
	grant := func(s *signer.Signer, typ, key string, exp time.Time) string {
		raw, err := json.Marshal(contract.EngineInput{Key: key, MediaType: "image/png", Expires: exp.Unix()})
		require.NoError(t, err)
		return contract.EngineInputPath + s.SignJWS(typ, raw).Compact()
	}
	ok := e.send(http.MethodGet, grant(own, contract.EngineInputType, contract.EngineInputPrefix+"abc",
		now.Add(time.Minute)), "")
	require.Equal(t, http.StatusOK, ok.code, "%s", ok.body)
	require.Equal(t, data, ok.body)
	require.Equal(t, "image/png", ok.head.Get("Content-Type"))

	other := signer.New(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	for name, path := range map[string]string{
		"expired":      grant(own, contract.EngineInputType, contract.EngineInputPrefix+"abc", now.Add(-time.Second)),
		"another blob": grant(own, contract.EngineInputType, "uploads/xyz", now.Add(time.Minute)),
		"another type": grant(own, "tp-manifest", contract.EngineInputPrefix+"abc", now.Add(time.Minute)),
		"another key":  grant(other, contract.EngineInputType, contract.EngineInputPrefix+"abc", now.Add(time.Minute)),
		"not a grant":  contract.EngineInputPath + "abc",
		"no such blob": grant(own, contract.EngineInputType, contract.EngineInputPrefix+"gone", now.Add(time.Minute)),
	} {
		got := e.send(http.MethodGet, path, "")
		require.Equal(t, http.StatusNotFound, got.code, "%s: %s", name, got.body)
		require.NotEqual(t, data, got.body, name)
	}
}
