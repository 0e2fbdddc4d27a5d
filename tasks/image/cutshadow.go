package image

import "image"

// The kept shadow of a cut-out (keep_shadow): the shadow's density is
// measured on the backdrop — how much darker each background pixel is than
// the fitted backdrop, 1 − I·B/|B|² — smoothed, carried under the
// product's edge, and drawn again as a layer of neutral black with that
// opacity behind the product. On the backdrop it was shot on, the layer
// gives back the shadow's shade; on any other it is a neutral shadow, not
// a patch of the old backdrop's colour.

// shadowDensity is the density (0..1) of the shadow at each pixel: the
// signed darkening of the background pixels, averaged over a window that
// grows with the image (noise and JPEG blocks cancel out), divided by the
// share of background in the window (so it reaches under the product's
// edge without fading), clamped to 0..1; faint values (under 0.02: the
// backdrop's noise and gradient left over by the fit) are no shadow.
func shadowDensity(px *image.NRGBA, bd *backdrop, isBg []bool) []float32 {
	W, H := px.Rect.Dx(), px.Rect.Dy()
	n := W * H
	d := make([]float32, n) // darkening × background
	m := make([]float32, n) // background
	for y := range H {
		v := float64(y)/bd.h - 0.5
		var a0, a1, a2 [3]float64
		for ch := range 3 {
			c := bd.c[ch]
			a0[ch], a1[ch], a2[ch] = c[0]+c[2]*v+c[5]*v*v, c[1]+c[4]*v, c[3]
		}
		for x := range W {
			i := y*W + x
			p := px.Pix[4*i:]
			if !isBg[i] || p[3] < 128 {
				continue
			}
			u := float64(x)/bd.w - 0.5
			var pb, bb float64
			for ch := range 3 {
				b := a0[ch] + (a1[ch]+a2[ch]*u)*u
				pb += float64(p[ch]) * b
				bb += b * b
			}
			d[i] = float32(1 - pb/max(bb, 1))
			m[i] = 1
		}
	}
	r := max(1, min(W, H)/160)
	boxBlur(d, W, H, r)
	boxBlur(m, W, H, r)
	for i := range d {
		v := float32(0)
		if m[i] > 0.05 {
			v = d[i] / m[i]
		}
		if v < 0.02 {
			v = 0
		}
		d[i] = min(1, v)
	}
	return d
}

// boxBlur blurs v in place with two passes of a (2r+1)-wide box each way:
// close to a Gaussian of σ ≈ 0.8 r.
func boxBlur(v []float32, W, H, r int) {
	tmp := make([]float32, max(W, H))
	line := func(get func(k int) float32, set func(k int, x float32), L int) {
		for pass := 0; pass < 2; pass++ {
			var sum float32
			for k := -r; k <= r; k++ {
				sum += get(min(max(k, 0), L-1))
			}
			for k := range L {
				tmp[k] = sum / float32(2*r+1)
				sum += get(min(k+r+1, L-1)) - get(max(k-r, 0))
			}
			for k := range L {
				set(k, tmp[k])
			}
		}
	}
	for y := range H {
		row := v[y*W : y*W+W]
		line(func(k int) float32 { return row[k] }, func(k int, x float32) { row[k] = x }, W)
	}
	for x := range W {
		line(func(k int) float32 { return v[k*W+x] }, func(k int, s float32) { v[k*W+x] = s }, H)
	}
}

// withShadow composites the product (colour c, alpha a in 0..255) over
// black at the shadow's density s: the pixel of the cut-out with its
// shadow kept.
func withShadow(c [3]uint8, a uint8, s float32) ([3]uint8, uint8) {
	fa := float32(a) / 255
	out := fa + s*(1-fa)
	if out <= 0 {
		return [3]uint8{}, 0
	}
	k := fa / out // the product's share of the colour; the rest is black
	return [3]uint8{uint8(float32(c[0])*k + 0.5), uint8(float32(c[1])*k + 0.5), uint8(float32(c[2])*k + 0.5)},
		uint8(out*255 + 0.5)
}
