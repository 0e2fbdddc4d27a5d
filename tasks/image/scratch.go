package image

import (
	"image"
	"sync"
)

// The family's working buffers are kept between steps: a photo-sized
// buffer costs more to allocate, clear and collect than to fill again, and
// a worker runs step after step of like sizes.
var (
	bytePool  scratch[byte]
	boolPool  scratch[bool]
	cachePool sync.Pool // *rgbCache
)

// scratch is a pool of slices of T.
type scratch[T any] struct{ p sync.Pool }

// get is a slice of n with whatever it held before: the caller writes
// every element it reads (or clears it).
func (s *scratch[T]) get(n int) []T {
	if p, ok := s.p.Get().(*[]T); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]T, n)
}

// put gives b back for another step; the caller keeps no reference to it.
func (s *scratch[T]) put(b []T) {
	if cap(b) > 0 {
		s.p.Put(&b)
	}
}

// releaseImage gives the pixels of an image the step made, and no longer
// reads, back for another step.
func releaseImage(img *image.NRGBA) { bytePool.put(img.Pix) }

// newRGBCache is an empty rgbCache.
func newRGBCache() *rgbCache {
	if c, ok := cachePool.Get().(*rgbCache); ok {
		clear(c.keys[:])
		return c
	}
	return new(rgbCache)
}

// release gives the cache back for another step.
func (c *rgbCache) release() { cachePool.Put(c) }
