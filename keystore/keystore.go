// Package keystore keeps the webhook signing keys in the database and
// builds the service's signer from them. It is the storing half of
// signer, split off so that the verifying half imports no database code.
package keystore

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
)

// Load reads the signing keys from the database, creating the active key on
// first use. Processes racing on an empty table end with the same single key:
// each inserts only if no active key exists, then reads back.
func Load(ctx context.Context, db *gorm.DB) (*signer.Signer, error) {
	rows, err := models.SigningKeys(ctx, db)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || !rows[0].Active {
		seed := make([]byte, ed25519.SeedSize)
		if _, err := rand.Read(seed); err != nil {
			return nil, fmt.Errorf("generate signing key: %w", err)
		}
		k := &models.SigningKey{
			ID: models.NewID("sk_"), Seed: base64.StdEncoding.EncodeToString(seed), CreatedAt: time.Now().UTC(),
		}
		if _, err := models.CreateSigningKeyIfAbsent(ctx, db, k); err != nil {
			return nil, err
		}
		if rows, err = models.SigningKeys(ctx, db); err != nil {
			return nil, err
		}
	}
	if len(rows) == 0 || !rows[0].Active {
		return nil, errors.New("signing key: no active key after creating one")
	}
	keys := make([]signer.Key, 0, len(rows))
	for _, r := range rows {
		seed, err := base64.StdEncoding.DecodeString(r.Seed)
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, fmt.Errorf("signing key %s: malformed seed", r.ID)
		}
		keys = append(keys, signer.Key{ID: r.ID, Private: ed25519.NewKeyFromSeed(seed)})
	}
	return signer.NewWithIDs(keys...), nil
}
