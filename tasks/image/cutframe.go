package image

import "math"

// A product cut by the frame runs off one or more of the image's edges: a
// stretch of the border band is the product, not the backdrop. Fitted
// with the rest, it bends the backdrop model towards the product's own
// colour there (a pale sage towel on pink, 24 levels off it, is within
// the later rounds' 1.5 × tolerance), and the product is then read as
// backdrop. As a professional tool treats the border, the border is read
// as a loop of runs: the dominant backdrop, fitted first, and the
// stretches that stay off it for a good length in one direction. Those
// are the product (or its shadow) crossing the frame, and are left out of
// the later rounds of the fit.

// perimeterPos is the position of pixel (x, y) of a W × H image along the
// frame's loop, clockwise from the top left corner, read at its nearest
// edge; ok is false when the pixel is deeper than depth from every edge.
func perimeterPos(x, y, W, H, depth int) (pos int, ok bool) {
	top, right, bottom, left := y, W-1-x, H-1-y, x
	d := min(top, right, bottom, left)
	if d > depth {
		return 0, false
	}
	switch d {
	case top:
		return x, true
	case right:
		return W - 1 + y, true
	case bottom:
		return W - 1 + H - 1 + (W - 1 - x), true
	}
	return 2*(W-1) + H - 1 + (H - 1 - y), true
}

// frameStretches marks the samples (xs, ys, colours cols) that lie on a
// stretch of the frame the product crosses, given the first fit b: the
// loop is cut into bins (about 1/200 of it each); a bin is off the
// backdrop when its samples' mean residual is over tolRGB and they spread
// round their mean by at most stretchSpread × tolRGB (a product's even
// colour, not a busy wall's pattern, which stays unexplained); a run of off
// bins (gaps of one bin closed) at least minStretch of the loop long is a
// stretch, provided the off bins are under maxStretches of the loop in
// all (the rest is the dominant backdrop). Samples deeper than the
// border band are never marked.
func frameStretches(b *backdrop, xs, ys []int, cols [][3]float64, tolRGB float64) []bool {
	W, H := int(b.w), int(b.h)
	loop := 2*(W-1) + 2*(H-1)
	if loop < 200 {
		return nil
	}
	nb := 200
	depth := max(1, min(W, H)/100)
	sum := make([][3]float64, nb)
	sq := make([]float64, nb)
	cnt := make([]int, nb)
	bin := make([]int, len(xs))
	for i := range xs {
		p, ok := perimeterPos(xs[i], ys[i], W, H, depth)
		if !ok {
			bin[i] = -1
			continue
		}
		k := p * nb / loop
		bin[i] = k
		m := b.at(xs[i], ys[i])
		for ch := range 3 {
			d := cols[i][ch] - m[ch]
			sum[k][ch] += d
			sq[k] += d * d
		}
		cnt[k]++
	}
	off := make([]bool, nb)
	nOff := 0
	for k := range nb {
		if cnt[k] == 0 {
			continue
		}
		s := sum[k]
		n := float64(cnt[k])
		mean2 := (s[0]*s[0] + s[1]*s[1] + s[2]*s[2]) / (n * n)
		spread := math.Sqrt(max(0, sq[k]/n-mean2))
		off[k] = math.Sqrt(mean2) > tolRGB && spread <= stretchSpread*tolRGB
		if off[k] {
			nOff++
		}
	}
	if nOff == 0 || float64(nOff) > maxStretches*float64(nb) {
		return nil
	}
	for k := range nb { // close gaps of one bin
		if !off[k] && off[(k+nb-1)%nb] && off[(k+1)%nb] {
			off[k] = true
		}
	}
	start := 0 // a bin on the backdrop, where the loop is cut open
	for start < nb && off[start] {
		start++
	}
	if start == nb {
		return nil
	}
	keep := make([]bool, nb)
	for k := 0; k < nb; {
		if !off[(start+k)%nb] {
			k++
			continue
		}
		e := k
		for e < nb && off[(start+e)%nb] {
			e++
		}
		if float64(e-k) >= minStretch*float64(nb) {
			for j := k; j < e; j++ {
				keep[(start+j)%nb] = true
			}
		}
		k = e
	}
	mark := make([]bool, len(xs))
	any := false
	for i, k := range bin {
		if k >= 0 && keep[k] {
			mark[i], any = true, true
		}
	}
	if !any {
		return nil
	}
	return mark
}

// minStretch is the least length of a stretch of the frame crossed by the
// product, as a share of the frame's loop (5 bins of 200); maxStretches
// is the most the crossed stretches may take in all: the dominant
// backdrop is most of the border.
const minStretch, maxStretches = 0.025, 0.4

// stretchSpread is the most a crossed bin's samples may spread round their
// mean (RMS over the three channels), in units of the tolerance.
const stretchSpread = 0.4

// crossesFrame tells whether region comp of a W × H image (inner pixels,
// two in from the cut's outline) runs off the frame along at least
// minStretch of the frame's loop: a product cut by the frame. Its tint
// over the backdrop is the product's own colour, not a see-through body's
// (a beech board, a sage towel cut by the frame were unmixed as glass,
// IoU 0.99 → 0.19 and 0.61), so scanGlass leaves it opaque.
func crossesFrame(comp []int32, W, H int) bool {
	touch := 0
	for _, i := range comp {
		x, y := int(i)%W, int(i)/W
		if x <= 2 || y <= 2 || x >= W-3 || y >= H-3 {
			touch++
		}
	}
	return float64(touch) >= minStretch*float64(2*(W+H))
}
