package signer_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/signer"
)

func testKey(b byte) ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = b
	}
	return ed25519.NewKeyFromSeed(seed)
}

func TestSignMessageFormat(t *testing.T) {
	k := testKey(1)
	s := signer.New(k)
	body := []byte(`{"id":"evt_1","event":"job.succeeded"}`)
	sum := sha256.Sum256(body)
	msg := "whd_abc\n42\n1700000000\n" + hex.EncodeToString(sum[:])

	sig, err := base64.StdEncoding.DecodeString(s.Sign("whd_abc", 42, 1700000000, body))
	require.NoError(t, err)
	require.True(
		t,
		ed25519.Verify(k.Public().(ed25519.PublicKey), []byte(msg), sig),
		"signature covers the four-line message",
	)
	require.Equal(t, msg, string(signer.Message("whd_abc", "42", "1700000000", body)))
}

func TestSignVerify(t *testing.T) {
	now := time.Unix(1700000000, 0)
	window := 5 * time.Minute
	body := []byte(`{"id":"evt_1","event":"job.succeeded"}`)
	s := signer.New(testKey(1))
	sig := s.Sign("whd_abc", 42, now.Unix(), body)
	ts := strconv.FormatInt(now.Unix(), 10)
	other := signer.New(testKey(2))
	rotated := signer.New(testKey(2), testKey(1)) // new key first, old one still published

	tests := []struct {
		name              string
		jwks              signer.JWKS
		id, user, ts, sig string
		body              []byte
		now               time.Time
		wantErr           error
	}{
		{name: "round trip", jwks: s.JWKS(), id: "whd_abc", user: "42", ts: ts, sig: sig, body: body, now: now},
		{
			name: "clock ahead within window",
			jwks: s.JWKS(),
			id:   "whd_abc",
			user: "42",
			ts:   ts,
			sig:  sig,
			body: body,
			now:  now.Add(window),
		},
		{
			name: "clock behind within window",
			jwks: s.JWKS(),
			id:   "whd_abc",
			user: "42",
			ts:   ts,
			sig:  sig,
			body: body,
			now:  now.Add(-window),
		},
		{
			name: "any published key verifies",
			jwks: rotated.JWKS(),
			id:   "whd_abc",
			user: "42",
			ts:   ts,
			sig:  sig,
			body: body,
			now:  now,
		},
		{
			name:    "unknown key",
			jwks:    other.JWKS(),
			id:      "whd_abc",
			user:    "42",
			ts:      ts,
			sig:     sig,
			body:    body,
			now:     now,
			wantErr: signer.ErrBadSignature,
		},
		{
			name:    "tampered body",
			jwks:    s.JWKS(),
			id:      "whd_abc",
			user:    "42",
			ts:      ts,
			sig:     sig,
			body:    []byte(`{"id":"evt_2","event":"job.succeeded"}`),
			now:     now,
			wantErr: signer.ErrBadSignature,
		},
		{
			name:    "tampered delivery id",
			jwks:    s.JWKS(),
			id:      "whd_abd",
			user:    "42",
			ts:      ts,
			sig:     sig,
			body:    body,
			now:     now,
			wantErr: signer.ErrBadSignature,
		},
		{
			name:    "tampered user id",
			jwks:    s.JWKS(),
			id:      "whd_abc",
			user:    "43",
			ts:      ts,
			sig:     sig,
			body:    body,
			now:     now,
			wantErr: signer.ErrBadSignature,
		},
		{
			name:    "tampered timestamp",
			jwks:    s.JWKS(),
			id:      "whd_abc",
			user:    "42",
			ts:      strconv.FormatInt(now.Unix()+1, 10),
			sig:     sig,
			body:    body,
			now:     now,
			wantErr: signer.ErrBadSignature,
		},
		{
			name:    "signature not base64",
			jwks:    s.JWKS(),
			id:      "whd_abc",
			user:    "42",
			ts:      ts,
			sig:     "%%%",
			body:    body,
			now:     now,
			wantErr: signer.ErrBadSignature,
		},
		{
			name:    "empty key set",
			jwks:    signer.JWKS{},
			id:      "whd_abc",
			user:    "42",
			ts:      ts,
			sig:     sig,
			body:    body,
			now:     now,
			wantErr: signer.ErrBadSignature,
		},
		{
			name:    "stale",
			jwks:    s.JWKS(),
			id:      "whd_abc",
			user:    "42",
			ts:      ts,
			sig:     sig,
			body:    body,
			now:     now.Add(window + time.Second),
			wantErr: signer.ErrStale,
		},
		{
			name:    "from the future",
			jwks:    s.JWKS(),
			id:      "whd_abc",
			user:    "42",
			ts:      ts,
			sig:     sig,
			body:    body,
			now:     now.Add(-window - time.Second),
			wantErr: signer.ErrStale,
		},
		{
			name:    "timestamp not a number",
			jwks:    s.JWKS(),
			id:      "whd_abc",
			user:    "42",
			ts:      "soon",
			sig:     sig,
			body:    body,
			now:     now,
			wantErr: signer.ErrStale,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := signer.Verify(tt.jwks, tt.id, tt.user, tt.ts, tt.sig, tt.body, tt.now, window)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
		})
	}
}

func TestJWKSShape(t *testing.T) {
	k := testKey(7)
	s := signer.New(k)
	raw, err := json.Marshal(s.JWKS())
	require.NoError(t, err)
	x := base64.RawURLEncoding.EncodeToString(k.Public().(ed25519.PublicKey))
	want := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + x + `","kid":"` + s.KeyID() + `","use":"sig","alg":"EdDSA"}]}`
	require.JSONEq(t, want, string(raw))
	require.Equal(t, want, string(raw), "field order as documented")
	require.Len(t, x, 43, "32 bytes, base64url without padding")

	var back signer.JWKS
	require.NoError(t, json.Unmarshal(raw, &back))
	require.Equal(t, s.JWKS(), back)
}
