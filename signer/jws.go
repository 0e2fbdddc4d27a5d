package signer

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrMalformedJWS means a JWS is not three Base64url parts, or its header is
// not the EdDSA header this service writes.
var ErrMalformedJWS = errors.New("malformed JWS")

// JWS is a JSON Web Signature (RFC 7515) in its flattened JSON
// serialization (section 7.2.2): any JOSE library verifies it against the
// service's JWKS, as it does the compact form (Compact).
type JWS struct {
	// Protected is the Base64url of the protected header
	// {"alg":"EdDSA","kid":…,"typ":…}.
	Protected string `json:"protected"`
	// Payload is the Base64url of the signed bytes.
	Payload string `json:"payload"`
	// Signature is the Base64url of the Ed25519 signature (RFC 8037) of
	// Protected + "." + Payload.
	Signature string `json:"signature"`
}

// jwsHeader is the protected header, its members in a fixed order.
type jwsHeader struct {
	Alg string `json:"alg"`
	Kid string `json:"kid,omitempty"`
	Typ string `json:"typ,omitempty"`
}

// Compact is the JWS in its compact serialization: header.payload.signature.
func (j JWS) Compact() string { return j.Protected + "." + j.Payload + "." + j.Signature }

// SignJWS signs payload with the active key as an EdDSA JWS whose header
// names the key (kid) and the payload's type (typ).
func (s *Signer) SignJWS(typ string, payload []byte) JWS {
	k := s.keys[0]
	h, _ := json.Marshal(jwsHeader{Alg: "EdDSA", Kid: k.id, Typ: typ})
	j := JWS{Protected: base64.RawURLEncoding.EncodeToString(h), Payload: base64.RawURLEncoding.EncodeToString(payload)}
	sig := ed25519.Sign(k.priv, []byte(j.Protected+"."+j.Payload))
	j.Signature = base64.RawURLEncoding.EncodeToString(sig)
	return j
}

// ParseCompact splits a compact JWS into its three parts.
func ParseCompact(compact string) (JWS, error) {
	parts := strings.Split(strings.TrimSpace(compact), ".")
	if len(parts) != 3 {
		return JWS{}, fmt.Errorf("%w: %d parts, want 3", ErrMalformedJWS, len(parts))
	}
	return JWS{Protected: parts[0], Payload: parts[1], Signature: parts[2]}, nil
}

// VerifyJWS checks j against the OKP/Ed25519 keys of jwks — the key its
// header names when it names one — and returns the signed payload. The
// header must say alg EdDSA; any other answers ErrMalformedJWS, and a
// signature no key verifies ErrBadSignature.
func VerifyJWS(jwks JWKS, j JWS) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(j.Protected)
	if err != nil {
		return nil, fmt.Errorf("%w: header is not Base64url", ErrMalformedJWS)
	}
	var h jwsHeader
	if err := json.Unmarshal(raw, &h); err != nil || h.Alg != "EdDSA" {
		return nil, fmt.Errorf("%w: header must be JSON with alg EdDSA", ErrMalformedJWS)
	}
	payload, err := base64.RawURLEncoding.DecodeString(j.Payload)
	if err != nil {
		return nil, fmt.Errorf("%w: payload is not Base64url", ErrMalformedJWS)
	}
	sig, err := base64.RawURLEncoding.DecodeString(j.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, fmt.Errorf("%w: signature is not Base64url of an Ed25519 signature", ErrBadSignature)
	}
	input := []byte(j.Protected + "." + j.Payload)
	for _, k := range jwks.Keys {
		if k.Kty != "OKP" || k.Crv != "Ed25519" || (h.Kid != "" && k.Kid != h.Kid) {
			continue
		}
		pub, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.X, "="))
		if err != nil || len(pub) != ed25519.PublicKeySize {
			continue
		}
		if ed25519.Verify(ed25519.PublicKey(pub), input, sig) {
			return payload, nil
		}
	}
	return nil, ErrBadSignature
}
