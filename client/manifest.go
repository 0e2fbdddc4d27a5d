package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/wire"
)

// ManifestJWS is a job manifest as the service signs it: a JWS (RFC 7515)
// in the flattened JSON serialization; Compact gives the compact form.
type ManifestJWS = signer.JWS

// Manifest reads the signed manifest of an ended job: the proof of what it
// delivered and was charged. Check it with Verifier.VerifyManifest (or any
// JOSE library against /.well-known/jwks.json) before trusting it. A job
// that has not ended answers *Error result_not_ready.
func (c *Client) Manifest(ctx context.Context, jobID string) (ManifestJWS, error) {
	var j ManifestJWS
	return j, c.getJSON(ctx, "/v1/jobs/"+url.PathEscape(jobID)+"/manifest", &j)
}

// VerifyManifest checks a manifest's EdDSA signature against the service's
// published keys (refetched once if its key is unknown, as a delivery's)
// and returns the manifest it signs; ErrBadSignature when no key verifies.
func (v *Verifier) VerifyManifest(ctx context.Context, jws ManifestJWS) (*wire.Manifest, error) {
	jwks, fresh, err := v.keys(ctx, false)
	if err != nil {
		return nil, err
	}
	payload, err := signer.VerifyJWS(*jwks, jws)
	if errors.Is(err, ErrBadSignature) && !fresh {
		if again, refetched, ferr := v.keys(ctx, true); ferr == nil && refetched {
			payload, err = signer.VerifyJWS(*again, jws)
		}
	}
	if err != nil {
		return nil, err
	}
	var m wire.Manifest
	if err := json.Unmarshal(payload, &m); err != nil {
		return nil, fmt.Errorf("manifest payload: %w", err)
	}
	return &m, nil
}
