package tasks

import (
	"context"
	"slices"
	"sync"
)

// Shared keeps values a task's outputs share (a job's prepared product
// photo, its one colour separation), made lately, by key. One making of a
// key runs at a time: a caller asking for a value being made waits for
// it, so outputs started together make it once. A failed making is not
// kept: each waiting caller makes it again itself and answers its own
// error. It holds at most max of the values' cost, dropping the least
// recently used first (always keeping the newest). Values are shared:
// callers must not change them.
type Shared[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	size    int
	cost    func(V) int
	lru     []K // kept entries, least recently used first
	entries map[K]*sharedEntry[V]
}

// sharedEntry is a value made or being made; done is closed when v and err
// are set.
type sharedEntry[V any] struct {
	done chan struct{}
	v    V
	err  error
}

// NewShared is a Shared holding at most max of cost.
func NewShared[K comparable, V any](max int, cost func(V) int) *Shared[K, V] {
	return &Shared[K, V]{max: max, cost: cost, entries: map[K]*sharedEntry[V]{}}
}

// Get is the value of k, kept or made by build.
func (c *Shared[K, V]) Get(ctx context.Context, k K, build func() (V, error)) (V, error) {
	for {
		c.mu.Lock()
		e, ok := c.entries[k]
		if !ok {
			e = &sharedEntry[V]{done: make(chan struct{})}
			c.entries[k] = e
			c.mu.Unlock()
			e.v, e.err = build()
			c.finish(k, e)
			return e.v, e.err
		}
		if i := slices.Index(c.lru, k); i >= 0 {
			c.lru = append(slices.Delete(c.lru, i, i+1), k)
		}
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		if e.err == nil {
			return e.v, nil
		}
	}
}

// Len is how many values are kept.
func (c *Shared[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.lru)
}

// Size is the cost of the values kept.
func (c *Shared[K, V]) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// finish keeps a value, or forgets a failed one, and wakes the callers
// waiting for it.
func (c *Shared[K, V]) finish(k K, e *sharedEntry[V]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.done)
	if e.err != nil {
		delete(c.entries, k)
		return
	}
	c.lru = append(c.lru, k)
	c.size += c.cost(e.v)
	for c.size > c.max && len(c.lru) > 1 {
		old := c.lru[0]
		c.lru = c.lru[1:]
		c.size -= c.cost(c.entries[old].v)
		delete(c.entries, old)
	}
}
