package e2e_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/signer"
)

// errNoKeyVerifies is verifySpec's refusal of a signature.
var errNoKeyVerifies = errors.New("no published key verifies the signature")

// verifySpec is a receiver's check of a delivery written from the spec's
// steps (Events, Signature verification), apart from package signer, so a
// change of the signed message fails the tests that deliver webhooks:
//
//  1. read the four X-Service-* headers and the raw body bytes;
//  2. reject a timestamp more than window from the receiver's clock;
//  3. the message is four lines joined by a line feed with no trailing
//     one: the delivery id header value, the user id header value, the
//     timestamp header value, the lowercase hexadecimal SHA-256 of the raw
//     body;
//  4. the Ed25519 signature, Base64-decoded from X-Service-Signature, is
//     verified against the OKP/Ed25519 keys (public part in x, Base64url);
//     any key verifying accepts.
func verifySpec(set signer.JWKS, h http.Header, body []byte, now time.Time, window time.Duration) error {
	id, user, ts, sig := h.Get(
		"X-Service-Request-Id",
	), h.Get(
		"X-Service-User-Id",
	), h.Get(
		"X-Service-Timestamp",
	), h.Get(
		"X-Service-Signature",
	)
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("X-Service-Timestamp %q is not Unix seconds", ts)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > window || d < -window {
		return fmt.Errorf("X-Service-Timestamp is %s from the clock", d)
	}
	sum := sha256.Sum256(body)
	message := strings.Join([]string{id, user, ts, hex.EncodeToString(sum[:])}, "\n")
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return fmt.Errorf("X-Service-Signature is not Base64: %w", err)
	}
	for _, k := range set.Keys {
		if k.Kty != "OKP" || k.Crv != "Ed25519" {
			continue
		}
		pub, err := base64.RawURLEncoding.DecodeString(k.X)
		if err != nil || len(pub) != ed25519.PublicKeySize {
			continue
		}
		if ed25519.Verify(pub, []byte(message), raw) {
			return nil
		}
	}
	return errNoKeyVerifies
}
