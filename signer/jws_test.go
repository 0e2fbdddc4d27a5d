package signer_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/signer"
)

// rfc8037 is the Ed25519 JWS example of RFC 8037, appendix A.4.
var rfc8037 = struct{ d, x, compact string }{
	d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",
	x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
	compact: "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc." +
		"hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg",
}

// TestVerifyJWSAcceptsTheRFC8037Example verifies the RFC's own signature
// against its public key, and refuses it under another key or altered.
func TestVerifyJWSAcceptsTheRFC8037Example(t *testing.T) {
	jwks := signer.JWKS{Keys: []signer.JWK{{Kty: "OKP", Crv: "Ed25519", X: rfc8037.x}}}
	j, err := signer.ParseCompact(rfc8037.compact)
	require.NoError(t, err)
	payload, err := signer.VerifyJWS(jwks, j)
	require.NoError(t, err)
	require.Equal(t, "Example of Ed25519 signing", string(payload))

	other := signer.New(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))).JWKS()
	_, err = signer.VerifyJWS(other, j)
	require.ErrorIs(t, err, signer.ErrBadSignature)

	j.Payload = base64.RawURLEncoding.EncodeToString([]byte("Example of Ed25519 signinG"))
	_, err = signer.VerifyJWS(jwks, j)
	require.ErrorIs(t, err, signer.ErrBadSignature)
}

// TestSignJWSMatchesTheRFC8037Signature signs the RFC's input with its key:
// Ed25519 is deterministic, so the signature over the same header and
// payload must be the RFC's byte for byte; the service's own header names
// its key and type, and verifies with plain crypto/ed25519.
func TestSignJWSMatchesTheRFC8037Signature(t *testing.T) {
	seed, err := base64.RawURLEncoding.DecodeString(rfc8037.d)
	require.NoError(t, err)
	priv := ed25519.NewKeyFromSeed(seed)
	parts := strings.Split(rfc8037.compact, ".")
	sig := ed25519.Sign(priv, []byte(parts[0]+"."+parts[1]))
	require.Equal(t, parts[2], base64.RawURLEncoding.EncodeToString(sig))

	s := signer.New(priv)
	j := s.SignJWS("tp-manifest+jws", []byte(`{"job_id":"j_1"}`))
	header, err := base64.RawURLEncoding.DecodeString(j.Protected)
	require.NoError(t, err)
	var h map[string]string
	require.NoError(t, json.Unmarshal(header, &h))
	require.Equal(t, map[string]string{"alg": "EdDSA", "kid": s.KeyID(), "typ": "tp-manifest+jws"}, h)
	raw, err := base64.RawURLEncoding.DecodeString(j.Signature)
	require.NoError(t, err)
	require.True(t, ed25519.Verify(priv.Public().(ed25519.PublicKey), []byte(j.Protected+"."+j.Payload), raw))

	back, err := signer.ParseCompact(j.Compact())
	require.NoError(t, err)
	payload, err := signer.VerifyJWS(s.JWKS(), back)
	require.NoError(t, err)
	require.JSONEq(t, `{"job_id":"j_1"}`, string(payload))
}

// TestVerifyJWSRefusesOtherAlgorithms keeps a header naming another
// algorithm (or none) from being checked at all.
func TestVerifyJWSRefusesOtherAlgorithms(t *testing.T) {
	s := signer.New(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	j := s.SignJWS("", []byte("x"))
	for _, alg := range []string{`{"alg":"none"}`, `{"alg":"HS256"}`, `not json`} {
		j.Protected = base64.RawURLEncoding.EncodeToString([]byte(alg))
		_, err := signer.VerifyJWS(s.JWKS(), j)
		require.ErrorIs(t, err, signer.ErrMalformedJWS, alg)
	}
	_, err := signer.ParseCompact("a.b")
	require.ErrorIs(t, err, signer.ErrMalformedJWS)
}
