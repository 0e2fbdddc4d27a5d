package colourwork

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"slices"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
)

// separations keeps the separations made lately, so a job's composite and
// films are cut from one separation: separating a 4-ink design at 280 mm
// and 300 dpi for every output took most of the job's time. One
// separation of a design runs at a time; an output asking for one being
// made waits for it. A failed separation is not kept: each waiting output
// separates again itself and answers its own error. The cache holds at
// most cachedSeparationBytes of ink maps, least recently used dropped
// first. An output whose separation was dropped, or that runs on another
// worker, separates again: the result is the same, as separating is
// deterministic.
var separations = &sepCache{max: cachedSeparationBytes, entries: map[sepKey]*sepEntry{}}

// cachedSeparationBytes bounds separations: two designs of 40 MP (an ink
// map is 3 bytes a pixel).
const cachedSeparationBytes = 240 << 20

// sepKey names a separation: its job (none in a catalogue example), so
// one account's outputs never wait on or reveal another's, the digest of
// the design's bytes and the digest of the request's options.
type sepKey struct {
	job           string
	design, input [sha256.Size]byte
}

type sepEntry struct {
	done chan struct{}
	sep  *separation
	err  error
}

type sepCache struct {
	mu      sync.Mutex
	max     int
	size    int
	lru     []sepKey
	entries map[sepKey]*sepEntry
}

// get is the separation of the design data for in, kept or made by
// separate.
// It is shared: callers must not change it.
func (c *sepCache) get(ctx context.Context, data []byte, in *separateInput,
	separate func() (*separation, error)) (*separation, error) {
	env, _ := tasks.EnvOf(ctx)
	opts, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	k := sepKey{job: env.JobID, design: sha256.Sum256(data), input: sha256.Sum256(opts)}
	for {
		c.mu.Lock()
		e, ok := c.entries[k]
		if !ok {
			e = &sepEntry{done: make(chan struct{})}
			c.entries[k] = e
			c.mu.Unlock()
			e.sep, e.err = separate()
			c.finish(k, e)
			return e.sep, e.err
		}
		if i := slices.Index(c.lru, k); i >= 0 {
			c.lru = append(slices.Delete(c.lru, i, i+1), k)
		}
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err == nil {
			return e.sep, nil
		}
	}
}

// finish keeps a separation, or forgets a failed one, and wakes the
// outputs waiting for it.
func (c *sepCache) finish(k sepKey, e *sepEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.done)
	if e.err != nil {
		delete(c.entries, k)
		return
	}
	c.lru = append(c.lru, k)
	c.size += e.sep.bytes()
	for c.size > c.max && len(c.lru) > 1 {
		old := c.lru[0]
		c.lru = c.lru[1:]
		c.size -= c.entries[old].sep.bytes()
		delete(c.entries, old)
	}
}

// bytes is the memory the separation's ink map holds.
func (s *separation) bytes() int { return len(s.m.label) + len(s.m.other) + len(s.m.share) }
