package image

import "math"

// The outline's last pixel. Where the product meets the backdrop through
// a faint rim (a white mug on a white sweep), the floods stop at the rim's
// line, which smoothing and hysteresis widen by a pixel or two: the
// outline then carries a pixel of pure backdrop outside the rim (and
// inside a handle's hole) that the matting cannot unmix, the product's
// colour and the backdrop's being too alike. refineOutline reads each
// outline pixel as a mix of the backdrop beside it and the product's
// colour one pixel in (the two-sample model of robust matting, I = αF +
// (1 − α)B, its samples taken along the outline's normal), and gives to
// the backdrop the pixels that are mostly backdrop.

// refinePasses is how many pixels deep refineOutline peels.
const refinePasses = 2

// lightEdge is, in tolerances, the most the product one pixel in may
// differ from the backdrop for refineOutline to read an outline pixel: a
// faint rim or a light body. Darker edges are unmixed by the matting
// (cutalpha.go), whose product colour is the mean of the product near.
const lightEdge = 2.5

// refineOutline gives to the background (isBg) each object pixel next to
// it whose colour lies on the line from the backdrop beside it, B (the
// mean of the backdrop-coloured background pixels within two pixels), to
// the product's one pixel in, F, at less than half way (α < 0.5), within
// the noise of that line; F and B must differ by more than the noise
// allows to read α, and by no more than lightEdge tolerances.
func (st *cutState) refineOutline(isBg []bool) {
	W := st.W
	minFB := max(6, 3*st.noise)
	fit := max(4, 2.5*st.noise)
	maxFB := lightEdge * st.tolRGB
	for range refinePasses {
		var drop []int32
		for i := range st.n {
			if isBg[i] || !st.opaque(i) {
				continue
			}
			x, y := i%W, i/W
			if !touches(isBg, i, W, st.H) && !touchesCorner(isBg, x, y, W, st.H) {
				continue // inside the object
			}
			B, ok := st.backdropBeside(isBg, x, y)
			if !ok {
				continue
			}
			if a, fit2, ok := st.bestMix(isBg, x, y, B, minFB, maxFB); ok && a < 0.5 && fit2 <= fit*fit {
				drop = append(drop, int32(i))
			}
		}
		if len(drop) == 0 {
			return
		}
		for _, i := range drop {
			isBg[i] = true
		}
	}
}

// bestMix reads outline pixel (x, y) as a mix of B and a product colour
// F taken one or two pixels in, along each of the 8 directions that leads
// from a background neighbour into the object: the pair that explains the
// pixel best (the least squared distance from the line B–F, as robust
// matting picks its samples), whose F differs from B by minFB to maxFB
// and is darker: a rim, or a shaded side. Where the product one pixel in
// is brighter, nothing tells its rim from the backdrop.
// It returns α, that distance, and false where no pair fits.
func (st *cutState) bestMix(isBg []bool, x, y int, B [3]float64, minFB, maxFB float64) (a, fit2 float64, ok bool) {
	W, H := st.W, st.H
	obj := func(x, y int) bool { return x >= 0 && y >= 0 && x < W && y < H && !isBg[y*W+x] }
	p := st.col(y*W + x)
	fit2 = math.Inf(1)
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
		bx, by := x-d[0], y-d[1]
		if bx < 0 || by < 0 || bx >= W || by >= H || !isBg[by*W+bx] {
			continue
		}
		for k := 1; k <= 2 && obj(x+k*d[0], y+k*d[1]); k++ {
			F := st.col((y+k*d[1])*W + x + k*d[0])
			fb := [3]float64{F[0] - B[0], F[1] - B[1], F[2] - B[2]}
			den := fb[0]*fb[0] + fb[1]*fb[1] + fb[2]*fb[2]
			if den < minFB*minFB || den > maxFB*maxFB || fb[0]+fb[1]+fb[2] > -minFB {
				continue // a light body brighter than the backdrop: no rim to read the edge by
			}
			t := max(0, ((p[0]-B[0])*fb[0]+(p[1]-B[1])*fb[1]+(p[2]-B[2])*fb[2])/den)
			var e float64
			for ch := range 3 {
				r := p[ch] - B[ch] - t*fb[ch]
				e += r * r
			}
			if e < fit2 {
				a, fit2, ok = t, e, true
			}
		}
	}
	return a, fit2, ok
}

// backdropBeside is the mean colour of the background pixels near the
// backdrop's colour within two pixels of (x, y), and false for none.
func (st *cutState) backdropBeside(isBg []bool, x, y int) ([3]float64, bool) {
	W, H := st.W, st.H
	var s [3]float64
	k := 0
	for yy := max(0, y-2); yy <= min(H-1, y+2); yy++ {
		for xx := max(0, x-2); xx <= min(W-1, x+2); xx++ {
			j := yy*W + xx
			if !isBg[j] || !st.near[j] {
				continue
			}
			c := st.col(j)
			s[0], s[1], s[2] = s[0]+c[0], s[1]+c[1], s[2]+c[2]
			k++
		}
	}
	if k < 3 {
		return s, false
	}
	return [3]float64{s[0] / float64(k), s[1] / float64(k), s[2] / float64(k)}, true
}

// touchesCorner tells whether a diagonal neighbour of (x, y) is set in m.
func touchesCorner(m []bool, x, y, W, H int) bool {
	for _, d := range [4][2]int{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
		if xx, yy := x+d[0], y+d[1]; xx >= 0 && yy >= 0 && xx < W && yy < H && m[yy*W+xx] {
			return true
		}
	}
	return false
}
