package production

import (
	"image"
	"image/draw"
)

// over is draw.Draw(dst, r, src, sp, draw.Over) for NRGBA images, with the
// same bytes: an opaque source pixel is copied, and a transparent one over
// an opaque destination pixel leaves it as it is, which is what Over gives
// them; each run of other pixels is left to draw.Draw. image/draw has no
// fast path for an NRGBA destination, and a print's source is mostly
// opaque on an opaque page.
func over(dst *image.NRGBA, r image.Rectangle, src *image.NRGBA, sp image.Point) {
	orig := r.Min
	r = r.Intersect(dst.Bounds()).Intersect(src.Bounds().Add(orig.Sub(sp)))
	if r.Empty() {
		return
	}
	sp = sp.Add(r.Min.Sub(orig))
	w := r.Dx()
	for y := 0; y < r.Dy(); y++ {
		d := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):][:4*w]
		s := src.Pix[src.PixOffset(sp.X, sp.Y+y):][:4*w]
		// kind is 0 to copy, 1 to keep, 2 for draw.Draw.
		kind := func(x int) int {
			switch {
			case s[4*x+3] == 0xff:
				return 0
			case s[4*x+3] == 0 && d[4*x+3] == 0xff:
				return 1
			}
			return 2
		}
		for x := 0; x < w; {
			k, e := kind(x), x+1
			for e < w && kind(e) == k {
				e++
			}
			switch k {
			case 0:
				copy(d[4*x:4*e], s[4*x:4*e])
			case 2:
				draw.Draw(
					dst,
					image.Rect(r.Min.X+x, r.Min.Y+y, r.Min.X+e, r.Min.Y+y+1),
					src,
					image.Pt(sp.X+x, sp.Y+y),
					draw.Over,
				)
			}
			x = e
		}
	}
}
