package image

import "math"

// Gaps in shadow. A product that encloses a gap (a stool's legs and
// stretcher, a swim ring's middle, a chair's slats, a bicycle's frame)
// often shades the backdrop seen through it, so the gap is darker than
// the backdrop and dropHoles (cutsegment.go), which grows over pixels of
// the backdrop's own tone, keeps it. A shadow only lowers the light: the
// image-to-backdrop ratio is the same in R, G and B (the chromaticity
// invariance of shadows: Finlayson et al., "On the removal of shadows
// from images"; Cucchiara et al.'s HSV shadow test, value down with hue
// and saturation kept), and it varies slowly. A region of the kept
// object is such a gap when
//
//   - it is not reached from the frame's background (enclosed; a region
//     beside that background is left to the stages that decided it);
//   - it is smooth: grown over candidates (near the backdrop, or a shade
//     of it) through steps under half a soft shadow's;
//   - it is a shade of the backdrop: at least gapCast of its pixels the
//     backdrop times one factor in every channel (castShade's test), its
//     mean not lit above the backdrop, not darker than minShadow;
//   - its rim is on the product along at least gapShare of it: two and
//     four pixels out lie kept pixels out of the backdrop's tones and
//     darker than the gap (a dark leg, a navy tube; not a chrome body's
//     highlight beside its reflection); a grey panel on a white sneaker, or a white body
//     behind a faint rim, has the backdrop's tones round it and stays;
//   - it is not a white fill inside a drawn outline (inkBounded, with ink
//     dark and neutral: a brown leg or a navy tube is no drawn line).

// inkChroma is the widest spread of a drawn line's channels (levels).
const inkChroma = 24

// gapCast is the least share of a gap's pixels that are the backdrop
// darkened by one factor in every channel (castShade's test): less than a
// contact band's castShare, as a wheel's spokes cross its gap.
const gapCast = 0.8

// gapShare is the least share of a gap's rim that is a step onto a product
// out of the backdrop's tones.
const gapShare = 0.7

// clearShadedGaps makes background the enclosed gaps in shadow (above).
func (st *cutState) clearShadedGaps(isBg []bool) {
	W, H, n := st.W, st.H, st.n
	outer := outerBackground(isBg, W, H)
	defer boolPool.put(outer)
	grain := st.roughness(func(j int) bool { return outer[j] }, func(f func(i int)) {
		for i := range n {
			f(i)
		}
	})
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	minGap := max(12, n/4000)
	member := func(j int) bool { return !isBg[j] && st.cand[j] && st.opaque(j) }
	var comp []int32
	for i := range n {
		if seen[i] || !member(i) {
			continue
		}
		comp = append(comp[:0], int32(i))
		seen[i] = true
		touchesOuter := false
		for h := 0; h < len(comp); h++ {
			k := int(comp[h])
			st.neighbours(k, func(j int) {
				if outer[j] {
					touchesOuter = true
				}
				if !seen[j] && member(j) && st.step2(k, j) <= st.stepMax2/4 {
					seen[j] = true
					comp = append(comp, int32(j))
				}
			})
		}
		if touchesOuter || len(comp) < minGap || !st.shadedGap(comp, isBg) || !st.grainy(comp, grain) ||
			st.holdsAnIsland(comp) {
			continue
		}
		for _, j := range comp {
			isBg[j] = true
		}
	}
}

// outerBackground is the background reached from the frame's border; it
// goes back to the pool with boolPool.put.
func outerBackground(isBg []bool, W, H int) []bool {
	out := boolPool.get(W * H)
	clear(out)
	var queue []int32
	for y := range H {
		for x := range W {
			if i := y*W + x; (x == 0 || y == 0 || x == W-1 || y == H-1) && isBg[i] && !out[i] {
				out[i] = true
				queue = append(queue, int32(i))
			}
		}
	}
	for len(queue) > 0 {
		i := int(queue[len(queue)-1])
		queue = queue[:len(queue)-1]
		forNeighbours(i, W, H, func(j int) {
			if isBg[j] && !out[j] {
				out[j] = true
				queue = append(queue, int32(j))
			}
		})
	}
	return out
}

// shadedGap tells whether region c (kept, in shade tones, not reached
// from the frame) is the backdrop in shadow seen through the product.
func (st *cutState) shadedGap(c []int32, isBg []bool) bool {
	W, H := st.W, st.H
	in := make(map[int32]bool, len(c))
	for _, j := range c {
		in[j] = true
	}
	// Its tones: a shade of the backdrop, one factor in every channel, its mean not lit.
	ratios := 0
	var sum, lift float64
	for _, j := range c {
		p, b := st.col(int(j)), st.bd.at(int(j)%W, int(j)/W)
		if st.shadeOf(p, b) {
			ratios++
		}
		lift += st.lift(int(j))
		sum += (p[0] + p[1] + p[2]) / max(b[0]+b[1]+b[2], 1)
	}
	m := float64(len(c))
	if float64(ratios) < gapCast*m || lift/m > 1 || sum/m < deepShadow {
		return false
	}
	// Its rim: a step onto a product out of the backdrop's tones.
	// The product round a gap in its shadow is darker than the gap: a chrome
	// body's reflection of the backdrop, a shade of it too, lies between
	// its dark rim and a highlight brighter than it.
	var gapLum float64
	for _, j := range c {
		gapLum += st.lum3(int(j)) / m
	}
	rim, onProduct := 0, 0
	for _, j32 := range c {
		j := int(j32)
		x, y := j%W, j/W
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			xx, yy := x+d[0], y+d[1]
			if xx < 0 || yy < 0 || xx >= W || yy >= H || in[int32(yy*W+xx)] {
				continue
			}
			rim++
			// Two and four pixels on, past the edge's blur: a product's
			// part, not the blur into a light fill.
			at := func(s int) int {
				return min(max(yy+s*d[1], 0), H-1)*W + min(max(xx+s*d[0], 0), W-1)
			}
			k, f := at(1), at(3)
			product := func(k int) bool { return !isBg[k] && !st.near[k] && st.opaque(k) }
			switch {
			case in[int32(k)]:
				rim-- // the gap's own pixels past a speck
			case product(k) && product(f) && st.lum3(f) < gapLum:
				onProduct++
			}
		}
	}
	if rim == 0 || float64(onProduct) < gapShare*float64(rim) {
		return false
	}
	inRegion := func(j int) bool { return in[int32(j)] }
	// Ink is dark and neutral; a brown leg or a navy tube is no drawn line.
	ink := func(j int) float64 {
		p := st.col(j)
		if max(p[0], p[1], p[2])-min(p[0], p[1], p[2]) > inkChroma {
			return 255
		}
		return st.lum3(j)
	}
	// A drawn line is thinner than a leg or a stretcher: min(W, H)/90 pixels.
	return !inkBounded(c, inRegion, ink, st.bd.lum(int(c[0]), W), W, H, max(4, min(W, H)/90))
}

// grainy tells whether region c has the backdrop's grain: its roughness
// (roughness), divided by its mean shade of the backdrop, at least
// grainShare of the frame's background's (grain). A gap shows the
// backdrop's texture (concrete's speckle, paper's fibres); a smooth grey
// body on speckled concrete, a shade of it too, has none.
func (st *cutState) grainy(c []int32, grain float64) bool {
	in := make(map[int32]bool, len(c))
	var shade float64
	for _, j := range c {
		in[j] = true
		b := st.bd.at(int(j)%st.W, int(j)/st.W)
		shade += st.lum(int(j)) / max(b[0]+b[1]+b[2], 1) / float64(len(c))
	}
	r := st.roughness(func(j int) bool { return in[int32(j)] }, func(f func(i int)) {
		for _, j := range c {
			f(int(j))
		}
	})
	return r/max(shade, minShadow) >= grainShare*grain
}

// grainShare is the least share of the background's grain a gap has.
const grainShare = 0.6

// roughness is the mean absolute step in mean level between pixel i of
// region in and its right neighbour, where both are in it, over the
// pixels each calls f with: the texture and noise at the pixel's scale.
func (st *cutState) roughness(in func(j int) bool, each func(f func(i int))) float64 {
	var sum float64
	k := 0
	each(func(i int) {
		if i%st.W < st.W-1 && in(i) && in(i+1) {
			sum += math.Abs(st.lum3(i) - st.lum3(i+1))
			k++
		}
	})
	return sum / float64(max(k, 1))
}

// holdsAnIsland tells whether region c surrounds a part of the product
// that nothing but c touches: an island of product pixels (out of the
// backdrop's tones) of at least max(12, |c|/200) pixels, not reached from
// outside c's bounding box without crossing c. A gap seen through a
// product holds nothing (a wheel's hub is joined to its rim by spokes); a
// flat label of the backdrop's tone inside glass holds its print.
func (st *cutState) holdsAnIsland(c []int32) bool {
	W := st.W
	x0, y0, x1, y1 := W, st.H, -1, -1
	for _, j := range c {
		x, y := int(j)%W, int(j)/W
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	// The box one pixel wider than c's, so its rim is outside c.
	x0, y0, x1, y1 = max(x0-1, 0), max(y0-1, 0), min(x1+1, W-1), min(y1+1, st.H-1)
	bw, bh := x1-x0+1, y1-y0+1
	in := make([]bool, bw*bh)
	for _, j := range c {
		in[(int(j)/W-y0)*bw+int(j)%W-x0] = true
	}
	reached := make([]bool, bw*bh)
	var queue []int
	for y := range bh {
		for x := range bw {
			if i := y*bw + x; (x == 0 || y == 0 || x == bw-1 || y == bh-1) && !in[i] {
				reached[i] = true
				queue = append(queue, i)
			}
		}
	}
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		forNeighbours(i, bw, bh, func(k int) {
			if !in[k] && !reached[k] {
				reached[k] = true
				queue = append(queue, k)
			}
		})
	}
	product := 0
	for y := range bh {
		for x := range bw {
			if i := y*bw + x; !in[i] && !reached[i] && !st.cand[(y+y0)*W+x+x0] {
				product++
			}
		}
	}
	return product >= max(12, len(c)/200)
}
