package signer_test

import (
	"crypto/ed25519"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/wire"
)

// clientsFixture is clients/testdata/signed.json: a webhook delivery and a
// job manifest signed by this package with fixed keys, which the
// TypeScript and Python clients' offline tests verify (and refuse altered).
type clientsFixture struct {
	Comment       string            `json:"comment"`
	JWKS          signer.JWKS       `json:"jwks"`
	OtherJWKS     signer.JWKS       `json:"other_jwks"`
	WindowSeconds int               `json:"window_seconds"`
	Headers       map[string]string `json:"headers"`
	Body          string            `json:"body"`
	Manifest      signer.JWS        `json:"manifest"`
	Compact       string            `json:"manifest_compact"`
	Payload       wire.Manifest     `json:"manifest_payload"`
}

// seededKey is the Ed25519 key whose 32-byte seed is first, first+1, ….
func seededKey(first byte) ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = first + byte(i)
	}
	return ed25519.NewKeyFromSeed(seed)
}

// TestClientsFixture holds clients/testdata/signed.json to what this
// signer writes (Ed25519 signatures are deterministic); TP_UPDATE_FIXTURES=1
// writes it anew.
func TestClientsFixture(t *testing.T) {
	s := signer.New(seededKey(1))
	const ts = 1764331200 // 2025-11-28T12:00:00Z
	event := wire.Event{ID: "evt_fixture", OccurredAt: time.Unix(ts, 0).UTC(), Event: "job.succeeded",
		APIVersion: "2026-09-29", JobID: "job_fixture", Task: "pattern.generate", Lifecycle: "terminal",
		Outcome: ptr("succeeded"), Progress: wire.Progress{Done: 1, Total: ptr(1), Phase: "done"}}
	body, err := json.Marshal(event)
	require.NoError(t, err)
	sum := "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	ended := time.Unix(ts, 0).UTC()
	payload := wire.Manifest{Issuer: "http://127.0.0.1:8080", JobID: "job_fixture", Task: "pattern.generate",
		TaskVersion: "2026-09-29", InputSHA256: sum, Outcome: ptr("succeeded"), CreatedAt: ended.Add(-time.Second),
		EndedAt: &ended, Outputs: []wire.ManifestFile{{Index: 0, File: "file_fixture", MediaType: "image/png",
			Bytes: 4, SHA256: &sum}}, Credits: wire.Credits{CreditType: "standard", Held: 1, Charged: ptr[int64](1)}}
	raw, err := json.Marshal(payload)
	require.NoError(t, err)
	jws := s.SignJWS(wire.ManifestType, raw)
	f := clientsFixture{
		Comment: "Written by signer.TestClientsFixture (TP_UPDATE_FIXTURES=1); keys from fixed seeds, " +
			"signed at the Unix time in X-Service-Timestamp.",
		JWKS: s.JWKS(), OtherJWKS: signer.New(seededKey(101)).JWKS(), WindowSeconds: 300,
		Headers: map[string]string{"X-Service-Request-Id": "whd_fixture", "X-Service-User-Id": "42",
			"X-Service-Timestamp": "1764331200", "X-Service-Signature": s.Sign("whd_fixture", 42, ts, body)},
		Body: string(body), Manifest: jws, Compact: jws.Compact(), Payload: payload,
	}
	want, err := json.MarshalIndent(f, "", "  ")
	require.NoError(t, err)
	want = append(want, '\n')
	root := ".." // the repository: signer is a module of its own, tested in its folder
	path := filepath.Join(root, "clients", "testdata", "signed.json")
	if os.Getenv("TP_UPDATE_FIXTURES") == "1" {
		require.NoError(t, os.WriteFile(path, want, 0o644))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "clients/testdata/signed.json is what the signer writes; "+
		"TP_UPDATE_FIXTURES=1 go test ./signer -run TestClientsFixture writes it")
	require.NoError(t, signer.Verify(f.JWKS, "whd_fixture", "42", "1764331200", f.Headers["X-Service-Signature"],
		body, time.Unix(ts, 0), time.Minute))
}

func ptr[T any](v T) *T { return &v }
