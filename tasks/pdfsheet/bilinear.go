package pdfsheet

import "image"

// scaleBilinear is xdraw.ApproxBiLinear.Scale(dst, r, src, sr, xdraw.Src,
// nil) for RGBA images, r inside dst and sr inside src, with the same
// bytes. xdraw blends every output pixel from its four source pixels, the
// two horizontal blends again for every output row; each source row's
// horizontal blends are worked out once here, for all the output rows that
// read it (a swatch scaled up reads each source row two or three times).
func scaleBilinear(dst *image.RGBA, r image.Rectangle, src *image.RGBA, sr image.Rectangle) {
	sw, sh := int32(sr.Dx()), int32(sr.Dy())
	yscale, xscale := float64(sh)/float64(r.Dy()), float64(sw)/float64(r.Dx())
	W := r.Dx()
	// Every output column's two source columns and weights, as xdraw
	// computes them for each pixel.
	type column struct {
		s0, s1       int // byte offsets in a source row
		frac0, frac1 float64
	}
	cols := make([]column, W)
	for dx := range int32(W) {
		sx0, sx1, frac0, frac1 := samples(dx, xscale, sw)
		cols[dx] = column{4 * int(sx0), 4 * int(sx1), frac0, frac1}
	}
	// blended holds the horizontal blends of the two source rows last
	// used, as 16-bit values in float64, four per output column.
	var blended [2]struct {
		row int32
		v   []float64
	}
	for i := range blended {
		blended[i].row, blended[i].v = -1, make([]float64, 4*W)
	}
	rowOf := func(sy, keep int32) []float64 {
		for i := range blended {
			if blended[i].row == sy {
				return blended[i].v
			}
		}
		b := &blended[0]
		if b.row == keep {
			b = &blended[1]
		}
		b.row = sy
		line := src.Pix[(sr.Min.Y+int(sy)-src.Rect.Min.Y)*src.Stride+(sr.Min.X-src.Rect.Min.X)*4:]
		for dx, c := range cols {
			p0, p1, o := line[c.s0:c.s0+4:c.s0+4], line[c.s1:c.s1+4:c.s1+4], b.v[4*dx:4*dx+4:4*dx+4]
			for k := range 4 {
				o[k] = float64(c.frac1*float64(uint32(p0[k])*0x101)) + float64(c.frac0*float64(uint32(p1[k])*0x101))
			}
		}
		return b.v
	}
	for dy := range int32(r.Dy()) {
		sy0, sy1, frac0, frac1 := samples(dy, yscale, sh)
		top := rowOf(sy0, sy1)
		bottom := rowOf(sy1, sy0)
		out := dst.Pix[(r.Min.Y+int(dy)-dst.Rect.Min.Y)*dst.Stride+(r.Min.X-dst.Rect.Min.X)*4:][:4*W]
		for i := range out {
			out[i] = uint8(uint32(float64(frac1*top[i])+float64(frac0*bottom[i])) >> 8)
		}
	}
}

// samples is where output pixel d of an axis reads a source of n pixels at
// scale: the two source pixels and their weights (frac0 for s1, frac1 for
// s0), clamped at the edges, as xdraw's ApproxBiLinear computes them.
func samples(d int32, scale float64, n int32) (s0, s1 int32, frac0, frac1 float64) {
	s := float64((float64(d)+0.5)*scale) - 0.5
	s0 = int32(s)
	frac0 = s - float64(s0)
	frac1 = 1 - frac0
	s1 = s0 + 1
	if s < 0 {
		return 0, 0, 0, 1
	}
	if s1 > n-1 {
		return n - 1, n - 1, 1, 0
	}
	return s0, s1, frac0, frac1
}
