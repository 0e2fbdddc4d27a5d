package e2e_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
)

// TestManifestProvesWhatTheJobDelivered runs a two-output job, downloads
// its files and checks its manifest as a customer would, with nothing of
// ours: the JWS verifies with plain Ed25519 against the key of the served
// JWKS its header names (and go-jose verifies it too), and its payload names the task, the outputs'
// digests and sizes (equal to the downloaded bytes' and to the result's
// sha256 and bytes) and the credits charged.
func TestManifestProvesWhatTheJobDelivered(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	early := s.submit(pattern(2))
	require.Equal(t, http.StatusAccepted, early.status, "%s", early.body)
	id := early.json(t)["job_id"].(string)
	if job := s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t); job["lifecycle"] != "terminal" {
		res := s.do(http.MethodGet, "/v1/jobs/"+id+"/manifest", nil)
		require.Equal(t, http.StatusConflict, res.status, "%s", res.body)
		require.Equal(t, "result_not_ready", res.errorCode(t))
	}
	job := s.waitTerminal(id)
	require.Equal(t, "succeeded", job["outcome"])

	result := s.do(http.MethodGet, "/v1/jobs/"+id+"/result", nil)
	require.Equal(t, http.StatusOK, result.status, "%s", result.body)
	files := result.json(t)["files"].([]any)
	require.Len(t, files, 2)

	var jwks struct {
		Keys []struct{ Kid, Kty, Crv, X string } `json:"keys"`
	}
	require.NoError(t, json.Unmarshal(s.do(http.MethodGet, "/.well-known/jwks.json", nil).body, &jwks))

	flat := s.do(http.MethodGet, "/v1/jobs/"+id+"/manifest", nil)
	require.Equal(t, http.StatusOK, flat.status, "%s", flat.body)
	var jws struct{ Protected, Payload, Signature string }
	require.NoError(t, json.Unmarshal(flat.body, &jws))
	compact := s.do(http.MethodGet, "/v1/jobs/"+id+"/manifest", nil, "Accept", "application/jose")
	require.Equal(t, http.StatusOK, compact.status, "%s", compact.body)
	require.Equal(t, "application/jose", compact.header.Get("Content-Type"))
	require.Equal(t, jws.Protected+"."+jws.Payload+"."+jws.Signature, string(compact.body),
		"the same job gives the same manifest, in either serialization")

	// A JOSE library of its own (go-jose) reads the served JWKS and
	// verifies the compact JWS with the key its header names.
	var set jose.JSONWebKeySet
	require.NoError(t, json.Unmarshal(s.do(http.MethodGet, "/.well-known/jwks.json", nil).body, &set))
	parsed, err := jose.ParseSigned(string(compact.body), []jose.SignatureAlgorithm{jose.EdDSA})
	require.NoError(t, err)
	keys := set.Key(parsed.Signatures[0].Header.KeyID)
	require.Len(t, keys, 1, "the JWKS holds the key the manifest names")
	verified, err := parsed.Verify(keys[0])
	require.NoError(t, err, "go-jose verifies the manifest")
	require.Equal(t, decodeB64URL(t, jws.Payload), verified)

	header := decodeB64URL(t, jws.Protected)
	var h struct{ Alg, Kid, Typ string }
	require.NoError(t, json.Unmarshal(header, &h))
	require.Equal(t, "EdDSA", h.Alg)
	var pub ed25519.PublicKey
	for _, k := range jwks.Keys {
		if k.Kid == h.Kid && k.Kty == "OKP" && k.Crv == "Ed25519" {
			pub = decodeB64URL(t, k.X)
		}
	}
	require.Len(t, pub, ed25519.PublicKeySize, "the header's kid %q is in the JWKS", h.Kid)
	sig := decodeB64URL(t, jws.Signature)
	require.True(t, ed25519.Verify(pub, []byte(jws.Protected+"."+jws.Payload), sig), "the signature verifies")
	tampered := strings.Replace(string(decodeB64URL(t, jws.Payload)), `"charged":`, `"charged":1`, 1)
	forged := base64.RawURLEncoding.EncodeToString([]byte(tampered))
	require.False(t, ed25519.Verify(pub, []byte(jws.Protected+"."+forged), sig), "an altered payload does not")

	var m struct {
		JobID       string `json:"job_id"`
		Task        string
		TaskVersion string `json:"task_version"`
		InputSHA256 string `json:"input_sha256"`
		Outcome     string
		Outputs     []struct {
			Index  int
			File   string
			Bytes  int64
			SHA256 string
		}
		Credits struct{ Held, Charged int64 }
	}
	require.NoError(t, json.Unmarshal(decodeB64URL(t, jws.Payload), &m))
	require.Equal(t, id, m.JobID)
	require.Equal(t, "pattern.generate", m.Task)
	require.Equal(t, "succeeded", m.Outcome)
	require.Regexp(t, `^[0-9a-f]{64}$`, m.InputSHA256)
	require.Regexp(t, `^\d{4}-\d{2}-\d{2}$`, m.TaskVersion)
	require.Len(t, m.Outputs, 2)
	charged := job["credits"].(map[string]any)["charged"].(float64)
	require.Equal(t, int64(charged), m.Credits.Charged)
	require.Positive(t, m.Credits.Charged)
	for i, f := range files {
		file := f.(map[string]any)
		raw := download(t, file["url"].(string))
		sum := sha256.Sum256(raw)
		require.Equal(t, i, m.Outputs[i].Index)
		require.Equal(t, file["file"], m.Outputs[i].File)
		require.Equal(t, hex.EncodeToString(sum[:]), m.Outputs[i].SHA256, "output %d's digest is its bytes'", i)
		require.Equal(t, int64(len(raw)), m.Outputs[i].Bytes)
		require.Equal(t, m.Outputs[i].SHA256, file["sha256"], "the result names the same digest")
		require.Equal(t, float64(len(raw)), file["bytes"])
	}
}

func decodeB64URL(t *testing.T, s string) []byte {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(s)
	require.NoError(t, err)
	return raw
}
