package signer_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/signer"
)

// readmeVector reads the signature test vector the guide publishes (docs/webhooks.md) for
// receivers: the value after each label of its text block.
func readmeVector(t *testing.T) map[string]string {
	t.Helper()
	root := ".." // the repository: signer is a module of its own, tested in its folder
	raw, err := os.ReadFile(filepath.Join(root, "docs", "webhooks.md"))
	require.NoError(t, err)
	v := map[string]string{}
	for _, label := range []string{"jwk.x", "X-Service-Request-Id", "X-Service-User-Id", "X-Service-Timestamp", "body",
		"sha256(body)", "X-Service-Signature"} {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(label) + ` +(\S.*)$`).FindSubmatch(raw)
		require.NotNil(t, m, "the README's test vector has a %s line", label)
		v[label] = strings.TrimSpace(string(m[1]))
	}
	return v
}

// TestREADMETestVector holds the README's published vector to the spec's
// message (written out here, apart from signer.Message), to the signer and
// to the receiver's verification, so receivers can trust it.
func TestREADMETestVector(t *testing.T) {
	v := readmeVector(t)
	body := []byte(v["body"])
	sum := sha256.Sum256(body)
	require.Equal(t, v["sha256(body)"], hex.EncodeToString(sum[:]))

	// The spec's message, by hand.
	message := v["X-Service-Request-Id"] + "\n" + v["X-Service-User-Id"] + "\n" +
		v["X-Service-Timestamp"] + "\n" + v["sha256(body)"]
	pub, err := base64.RawURLEncoding.DecodeString(v["jwk.x"])
	require.NoError(t, err)
	sig, err := base64.StdEncoding.DecodeString(v["X-Service-Signature"])
	require.NoError(t, err)
	require.True(t, ed25519.Verify(pub, []byte(message), sig), "the published signature signs the spec's four lines")

	// The signer with the vector's key signs exactly that and publishes x.
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(i + 1)
	}
	s := signer.New(ed25519.NewKeyFromSeed(seed))
	require.Equal(t, v["jwk.x"], s.JWKS().Keys[0].X)
	user, err := strconv.ParseUint(v["X-Service-User-Id"], 10, 64)
	require.NoError(t, err)
	ts, err := strconv.ParseInt(v["X-Service-Timestamp"], 10, 64)
	require.NoError(t, err)
	require.Equal(t, v["X-Service-Signature"], s.Sign(v["X-Service-Request-Id"], user, ts, body))

	// The receiver's verification accepts it, and refuses it changed.
	set := signer.JWKS{Keys: []signer.JWK{{Kty: "OKP", Crv: "Ed25519", X: v["jwk.x"]}}}
	now := time.Unix(ts, 0)
	require.NoError(
		t,
		signer.Verify(
			set,
			v["X-Service-Request-Id"],
			v["X-Service-User-Id"],
			v["X-Service-Timestamp"],
			v["X-Service-Signature"],
			body,
			now,
			time.Minute,
		),
	)
	require.ErrorIs(
		t,
		signer.Verify(
			set,
			v["X-Service-Request-Id"],
			"43",
			v["X-Service-Timestamp"],
			v["X-Service-Signature"],
			body,
			now,
			time.Minute,
		),
		signer.ErrBadSignature,
	)
}
