package photoshoot

import (
	"context"
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
)

// productCache keeps the products prepared lately, by job and the digest
// of the photo's bytes: a job's shots — one at a time or side by side —
// share their product photo, and decoding and cutting it out was more than
// half of each shot's CPU. One preparation of a photo runs at a time; a
// shot asking for a photo being prepared waits for it, so 4 shots started
// together prepare it once. A failed preparation (the photo cannot be
// read, or its step was cancelled) is not kept: each waiting shot prepares
// it again itself and answers its own error. The cache holds at most
// cachedProductBytes of pixels, dropping the least recently used first.
var productCache = &products{max: cachedProductBytes, entries: map[productKey]*productEntry{}}

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

// productEntry is a product prepared or being prepared; done is closed
// when prod and err are set.
type productEntry struct {
	done chan struct{}
	prod product
	err  error
}

// products is a bounded cache of prepared products; see productCache.
type products struct {
	mu      sync.Mutex
	max     int
	size    int
	lru     []productKey // kept entries, least recently used first
	entries map[productKey]*productEntry
}

// get is the product of the photo data, from the cache or made by prepare
// (which decodes data and prepares it). The product is shared: callers
// must not change its pixels.
func (c *products) get(ctx context.Context, data []byte, prepare func() (product, error)) (product, error) {
	env, _ := tasks.EnvOf(ctx)
	k := productKey{job: env.JobID, digest: sha256.Sum256(data)}
	for {
		c.mu.Lock()
		e, ok := c.entries[k]
		if !ok {
			e = &productEntry{done: make(chan struct{})}
			c.entries[k] = e
			c.mu.Unlock()
			e.prod, e.err = prepare()
			c.finish(k, e)
			return e.prod, e.err
		}
		c.touch(k)
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return product{}, ctx.Err()
		}
		if e.err == nil {
			return e.prod, nil
		}
	}
}

// finish keeps a prepared product, or forgets a failed one, and wakes the
// shots waiting for it.
func (c *products) finish(k productKey, e *productEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.done)
	if e.err != nil {
		delete(c.entries, k)
		return
	}
	c.lru = append(c.lru, k)
	c.size += len(e.prod.img.Pix)
	for c.size > c.max && len(c.lru) > 1 {
		old := c.lru[0]
		c.lru = c.lru[1:]
		c.size -= len(c.entries[old].prod.img.Pix)
		delete(c.entries, old)
	}
}

// touch marks a kept product as just used; c.mu is held.
func (c *products) touch(k productKey) {
	if i := slices.Index(c.lru, k); i >= 0 {
		c.lru = append(slices.Delete(c.lru, i, i+1), k)
	}
}
