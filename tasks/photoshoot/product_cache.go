package photoshoot

import (
	"context"
	"crypto/sha256"

	"github.com/taskplatform/taskplatform/tasks"
)

// productCache keeps the products prepared lately, by job and the digest
// of the photo's bytes: a job's shots — one at a time or side by side —
// share their product photo, and decoding and cutting it out was more than
// half of each shot's CPU. Shots started together prepare it once; a
// failed preparation (the photo cannot be read, or its step was
// cancelled) is not kept (tasks.Shared). It holds at most
// cachedProductBytes of pixels.
var productCache = newProducts(cachedProductBytes)

// cachedProductBytes bounds productCache: six products at the largest
// size (maxProductSide square, 10 MB each).
const cachedProductBytes = 64 << 20

// productKey names a prepared product: its job (none in a catalogue
// example), so one account's shots never wait on or reveal another's, and
// the digest of the photo's bytes, so a changed photo is prepared anew.
type productKey struct {
	job    string
	digest [sha256.Size]byte
}

// products is a bounded cache of prepared products; see productCache.
type products struct {
	*tasks.Shared[productKey, product]
}

func newProducts(maxBytes int) products {
	return products{tasks.NewShared[productKey](maxBytes, func(p product) int { return len(p.img.Pix) })}
}

// get is the product of the photo data, from the cache or made by prepare
// (which decodes data and prepares it). The product is shared: callers
// must not change its pixels.
func (c products) get(ctx context.Context, data []byte, prepare func() (product, error)) (product, error) {
	env, _ := tasks.EnvOf(ctx)
	return c.Get(ctx, productKey{job: env.JobID, digest: sha256.Sum256(data)}, prepare)
}
