package resample

import (
	"image"
	"sync"
)

// pixPool holds pixel buffers between scalings: a print-sized image costs
// more to allocate (and collect) than to clear.
var pixPool sync.Pool // *[]byte

// newImage is image.NewNRGBA(image.Rect(0, 0, w, h)), cleared, on a
// buffer given back when one is at hand: one of at least its size and at
// most twice it, so a large buffer is not spent on a small image.
func newImage(w, h int) *image.NRGBA {
	n := 4 * w * h
	if p, ok := pixPool.Get().(*[]byte); ok {
		if cap(*p) >= n && cap(*p) <= 2*n {
			pix := (*p)[:n]
			clear(pix)
			return &image.NRGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
		}
		pixPool.Put(p)
	}
	return image.NewNRGBA(image.Rect(0, 0, w, h))
}

// Release gives the pixels of img back for another scaling: the caller
// reads and writes img no more (nor any image sharing its pixels).
func Release(img *image.NRGBA) {
	if img != nil && cap(img.Pix) > 0 {
		pix := img.Pix
		pixPool.Put(&pix)
	}
}
