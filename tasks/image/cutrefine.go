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
			in, ok := st.inward(isBg, x, y)
			if !ok {
				continue
			}
			B, ok := st.backdropBeside(isBg, x, y)
			if !ok {
				continue
			}
			p, F := st.col(i), st.col(in)
			fb := [3]float64{F[0] - B[0], F[1] - B[1], F[2] - B[2]}
			den := fb[0]*fb[0] + fb[1]*fb[1] + fb[2]*fb[2]
			if den < minFB*minFB || den > maxFB*maxFB {
				continue
			}
			a := ((p[0]-B[0])*fb[0] + (p[1]-B[1])*fb[1] + (p[2]-B[2])*fb[2]) / den
			a = max(0, a)
			var d2 float64
			for ch := range 3 {
				r := p[ch] - B[ch] - a*fb[ch]
				d2 += r * r
			}
			if a < 0.5 && math.Sqrt(d2) <= fit {
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

// inward is the object pixel one step into the product from outline
// pixel (x, y): opposite a 4-neighbour in the background, itself and the
// pixel past it in the object; false where (x, y) is not on the outline
// or no side has that depth.
func (st *cutState) inward(isBg []bool, x, y int) (int, bool) {
	W, H := st.W, st.H
	obj := func(x, y int) bool { return x >= 0 && y >= 0 && x < W && y < H && !isBg[y*W+x] }
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		bx, by := x-d[0], y-d[1]
		if bx < 0 || by < 0 || bx >= W || by >= H || !isBg[by*W+bx] {
			continue
		}
		if obj(x+d[0], y+d[1]) && obj(x+2*d[0], y+2*d[1]) {
			return (y+d[1])*W + x + d[0], true
		}
	}
	return 0, false
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
