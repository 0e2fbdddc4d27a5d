package activities

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/taskplatform/taskplatform/contract"
)

// errNoSigner is a worker configured without a signing key asked for an
// engine input URL.
var errNoSigner = errors.New("activities: no signer for engine input URLs")

// engineInputs publishes the service's copy of a step's input file for a
// model server (engines.InputURLs): the bytes under a key of their SHA-256
// (EngineInputPrefix), and a URL whose signed grant names that blob alone
// and expires with the step.
type engineInputs struct{ a *Activities }

// URL implements engines.InputURLs.
func (e engineInputs) URL(ctx context.Context, base string, data []byte, mediaType string,
	expires time.Time) (string, error) {
	if e.a.Signer == nil {
		return "", errNoSigner
	}
	sum := sha256.Sum256(data)
	key := contract.EngineInputPrefix + hex.EncodeToString(sum[:])
	if ok, err := e.a.Blob.Exists(ctx, key); err != nil {
		return "", err
	} else if !ok {
		if err := e.a.Blob.WriteAll(ctx, key, data, nil); err != nil {
			return "", err
		}
	}
	grant, err := json.Marshal(contract.EngineInput{Key: key, MediaType: mediaType, Expires: expires.Unix()})
	if err != nil {
		return "", err
	}
	if base == "" {
		base = e.a.FilesBaseURL
	}
	return strings.TrimRight(base, "/") + contract.EngineInputPath +
		e.a.Signer.SignJWS(contract.EngineInputType, grant).Compact(), nil
}
