package image

// Cast and contact shadows the walled flood kept with the product (a
// contact shadow is a faint dark line; a cast shadow to one side is
// walled by it) are given back to the backdrop: a shadow is the backdrop
// times a factor below 1, its chromaticity the backdrop's (the ratio of
// image to backdrop is grey), smooth, with no texture of its own, and it
// grows darker towards the product's base. The peel floods from the
// background into kept pixels whose smoothed colour is such a shade, only
// downhill (each step no brighter than the last): a product in the
// backdrop's tones is entered at most to the darkest line of its outline,
// where its own shading climbs back. A peeled region stays the product
// unless it lies on the floor as a shadow does: darker than the backdrop
// by a shadow's depth somewhere (not a pale part in near-backdrop tones),
// a flat band, with no part of the product below it (a shoe's grey lining
// has the shoe under it; a candle's shaded side is tall). With bands, a
// peeled region that is none of these gives back its contact-shadow
// bands (cutbands.go): the shadow of a body in the backdrop's tones that
// the peel entered with the body's shaded rim.

// peelShadows gives the kept shadow pixels next to the background back to
// it (isBg).
func (st *cutState) peelShadows(isBg []bool, bands bool) {
	W, H, n := st.W, st.H, st.n
	// smooth is pixel i's colour smoothed over a 5 × 5 window (weights
	// 1 2 3 2 1 each way), read only where the peel looks.
	smooth := func(i int) [3]float64 {
		x, y := i%W, i/W
		var c [3]float64
		for dy := -2; dy <= 2; dy++ {
			yy := min(max(y+dy, 0), H-1)
			for dx := -2; dx <= 2; dx++ {
				xx := min(max(x+dx, 0), W-1)
				w := float64((3 - max(dx, -dx)) * (3 - max(dy, -dy)))
				p := st.px.Pix[4*(yy*W+xx):]
				c[0], c[1], c[2] = c[0]+w*float64(p[0]), c[1]+w*float64(p[1]), c[2]+w*float64(p[2])
			}
		}
		return [3]float64{c[0] / 81, c[1] / 81, c[2] / 81}
	}
	thr2, chroma2 := (3+st.noise)*(3+st.noise), st.chroma2()
	shades := make([]float32, n) // the shade factor + 2; 1: not a shade; 0: not read yet
	shade := func(i int) float32 {
		if shades[i] == 0 {
			shades[i] = 1
			b := st.bd.at(i%W, i/W)
			if raw, _ := isShade(st.col(i), b, chroma2); raw && !isBg[i] && st.opaque(i) {
				// (a dark line's core, which smoothing would make grey, is not)
				if ok, s := isShade(smooth(i), b, thr2); ok && s <= 1.01 {
					shades[i] = float32(s) + 2
				}
			}
		}
		return shades[i] - 2
	}
	lum := func(i int) float32 {
		b, p := st.bd.at(i%W, i/W), smooth(i)
		return float32((p[0] + p[1] + p[2]) / max(b[0]+b[1]+b[2], 1))
	}
	peeled := make([]bool, n)
	floor := make([]float32, n) // the darkest shade on the way in
	var queue []int32
	for i := range n {
		if !isBg[i] {
			continue
		}
		st.neighbours(i, func(j int) {
			if isBg[j] || peeled[j] || st.step2(i, j) > st.stepMax2 {
				return
			}
			if s, l := shade(j), lum(i); s >= 0 && s <= l+0.01 {
				peeled[j], floor[j] = true, min(s, l)
				queue = append(queue, int32(j))
			}
		})
	}
	for k := 0; k < len(queue); k++ {
		i := int(queue[k])
		st.neighbours(i, func(j int) {
			if isBg[j] || peeled[j] || st.step2(i, j) > st.stepMax2 {
				return
			}
			if s := shade(j); s >= 0 && s <= floor[i]+0.01 {
				peeled[j], floor[j] = true, min(floor[i], s)
				queue = append(queue, int32(j))
			}
		})
	}
	// Each peeled region is a shadow only where it reaches a shadow's depth.
	seen := make([]bool, n)
	var comp []int32
	for _, q := range queue {
		if seen[q] {
			continue
		}
		comp = comp[:0]
		comp = append(comp, q)
		seen[q] = true
		darkest := float32(2)
		x0, y0, x1, y1 := W, H, 0, 0
		for k := 0; k < len(comp); k++ {
			i := int(comp[k])
			darkest = min(darkest, shade(i))
			x0, y0, x1, y1 = min(x0, i%W), min(y0, i/W), max(x1, i%W), max(y1, i/W)
			st.neighbours(i, func(j int) {
				if peeled[j] && !seen[j] {
					seen[j] = true
					comp = append(comp, int32(j))
				}
			})
		}
		if darkest > 1-peelDepth {
			continue
		}
		// A shadow on the floor is a flat band: under half as tall as wide.
		if 2*(y1-y0+1) <= x1-x0+1 && onTheFloor(comp, func(i int) bool { return !isBg[i] }, W, H) {
			for _, i := range comp {
				isBg[i] = true
			}
			continue
		}
		if bands {
			st.peelBands(comp, shade, smooth, isBg)
		}
	}
}

// peelDepth is how much darker than the backdrop a peeled region must get
// somewhere to be a shadow.
const peelDepth = 0.06

// onTheFloor tells whether region comp lies on the floor: under nine
// tenths of its pixels have a part of the product (product, not in comp)
// below them in their column. A shadow falls below or beside the product's
// base; a grey part (a shoe's lining) has the product under it.
func onTheFloor(comp []int32, product func(i int) bool, W, H int) bool {
	return underShare(comp, product, W, H) < 0.1
}

// underShare is the share of region comp's pixels with a part of the
// product (product, not in comp) below them in their column.
func underShare(comp []int32, product func(i int) bool, W, H int) float64 {
	in := make(map[int32]bool, len(comp))
	for _, q := range comp {
		in[q] = true
	}
	lowest := map[int]int{} // column → the product's lowest row in it
	for _, q := range comp {
		x := int(q) % W
		if _, ok := lowest[x]; ok {
			continue
		}
		lowest[x] = -1
		for y := H - 1; y >= 0; y-- {
			if i := y*W + x; product(i) && !in[int32(i)] {
				lowest[x] = y
				break
			}
		}
	}
	under := 0
	for _, q := range comp {
		if int(q)/W < lowest[int(q)%W] {
			under++
		}
	}
	return float64(under) / float64(max(len(comp), 1))
}
