// Package signer signs webhook deliveries with Ed25519, publishes the public
// keys as a JWKS, and implements the receiver's verification algorithm of the
// spec (section Events, Signature verification). It is crypto only — the
// standard library and nothing of ours — so the Go client can import it;
// the keys' storage is keystore.
package signer

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Errors of Verify.
var (
	// ErrStale means the timestamp is missing, malformed or outside the window.
	ErrStale = errors.New("webhook timestamp outside the accepted window")
	// ErrBadSignature means no published key verifies the signature.
	ErrBadSignature = errors.New("webhook signature does not verify")
)

type key struct {
	id   string
	priv ed25519.PrivateKey
}

// Signer holds the signing key (the first) and every key it publishes.
// It is safe for concurrent use.
type Signer struct {
	keys []key
}

// New returns a Signer that signs with the first key and publishes all of
// them; for tests. Key ids are derived from the public keys.
func New(keys ...ed25519.PrivateKey) *Signer {
	s := &Signer{}
	for _, k := range keys {
		pub := k.Public().(ed25519.PublicKey)
		sum := sha256.Sum256(pub)
		s.keys = append(s.keys, key{id: "sk_" + hex.EncodeToString(sum[:10]), priv: k})
	}
	return s
}

// Key is a signing key with its id ("kid"), as the key store keeps it.
type Key struct {
	ID      string
	Private ed25519.PrivateKey
}

// NewWithIDs returns a Signer that signs with the first key and publishes
// all of them under their own ids; the key store builds one this way.
func NewWithIDs(keys ...Key) *Signer {
	s := &Signer{}
	for _, k := range keys {
		s.keys = append(s.keys, key{id: k.ID, priv: k.Private})
	}
	return s
}

// KeyID is the id ("kid") of the key that signs.
func (s *Signer) KeyID() string { return s.keys[0].id }

// Message is the signed text: the delivery id, the user id, the timestamp
// and the lowercase hex SHA-256 of the body, joined by line feeds with no
// trailing one.
func Message(deliveryID, userID, timestamp string, body []byte) []byte {
	sum := sha256.Sum256(body)
	return []byte(deliveryID + "\n" + userID + "\n" + timestamp + "\n" + hex.EncodeToString(sum[:]))
}

// Sign returns the standard Base64 Ed25519 signature of a delivery, the value
// of X-Service-Signature.
func (s *Signer) Sign(deliveryID string, userID uint64, timestamp int64, body []byte) string {
	msg := Message(deliveryID, strconv.FormatUint(userID, 10), strconv.FormatInt(timestamp, 10), body)
	return base64.StdEncoding.EncodeToString(ed25519.Sign(s.keys[0].priv, msg))
}

// JWK is one public key of the key document.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
}

// JWKS is the document served at /.well-known/jwks.json.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// JWKS returns the public keys, the signing key first.
func (s *Signer) JWKS() JWKS {
	out := JWKS{Keys: make([]JWK, 0, len(s.keys))}
	for _, k := range s.keys {
		pub := k.priv.Public().(ed25519.PublicKey)
		out.Keys = append(
			out.Keys,
			JWK{
				Kty: "OKP",
				Crv: "Ed25519",
				X:   base64.RawURLEncoding.EncodeToString(pub),
				Kid: k.id,
				Use: "sig",
				Alg: "EdDSA",
			},
		)
	}
	return out
}

// Verify is the receiver's check of a delivery: the timestamp (Unix seconds)
// must be within window of now (else ErrStale), and the Base64 signature of
// the message must verify with at least one OKP/Ed25519 key of jwks (else
// ErrBadSignature). The header values are used exactly as received.
func Verify(
	jwks JWKS,
	deliveryID, userID, timestamp, signature string,
	body []byte,
	now time.Time,
	window time.Duration,
) error {
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: timestamp %q is not Unix seconds", ErrStale, timestamp)
	}
	if d := now.Sub(time.Unix(ts, 0)).Abs(); d > window {
		return fmt.Errorf("%w: %s from the clock", ErrStale, d)
	}
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(signature))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return fmt.Errorf("%w: signature is not Base64 of an Ed25519 signature", ErrBadSignature)
	}
	msg := Message(deliveryID, userID, timestamp, body)
	for _, k := range jwks.Keys {
		if k.Kty != "OKP" || k.Crv != "Ed25519" {
			continue
		}
		pub, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.X, "="))
		if err != nil || len(pub) != ed25519.PublicKeySize {
			continue
		}
		if ed25519.Verify(ed25519.PublicKey(pub), msg, sig) {
			return nil
		}
	}
	return ErrBadSignature
}
