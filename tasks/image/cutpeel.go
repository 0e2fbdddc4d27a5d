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
// has the shoe under it; a candle's shaded side is tall).

// peelShadows gives the kept shadow pixels next to the background back to
// it (isBg).
func (st *cutState) peelShadows(isBg []bool) {
	W, H, n := st.W, st.H, st.n
	sm := make([]float32, 3*n) // the colour smoothed over a 5 × 5 window
	for ch := range 3 {
		plane := make([]float32, n)
		for i := range n {
			plane[i] = float32(st.px.Pix[4*i+ch])
		}
		boxBlur(plane, W, H, 1)
		for i := range n {
			sm[3*i+ch] = plane[i]
		}
	}
	thr2, chroma2 := (3+st.noise)*(3+st.noise), st.chroma2()
	shade := make([]float32, n) // the shade factor; -1: not a shade
	for i := range n {
		shade[i] = -1
		if isBg[i] || !st.opaque(i) {
			continue
		}
		b := st.bd.at(i%W, i/W)
		p := [3]float64{float64(sm[3*i]), float64(sm[3*i+1]), float64(sm[3*i+2])}
		if raw, _ := isShade(st.col(i), b, chroma2); !raw {
			continue // a dark line's core, which smoothing would make grey
		}
		if ok, s := isShade(p, b, thr2); ok && s <= 1.01 {
			shade[i] = float32(s)
		}
	}
	lum := func(i int) float32 {
		b := st.bd.at(i%W, i/W)
		return (sm[3*i] + sm[3*i+1] + sm[3*i+2]) / float32(max(b[0]+b[1]+b[2], 1))
	}
	peeled := make([]bool, n)
	floor := make([]float32, n) // the darkest shade on the way in
	var queue []int32
	for i := range n {
		if !isBg[i] {
			continue
		}
		st.neighbours(i, func(j int) {
			if shade[j] >= 0 && !peeled[j] && shade[j] <= lum(i)+0.01 && st.step2(i, j) <= st.stepMax2 {
				peeled[j], floor[j] = true, min(shade[j], lum(i))
				queue = append(queue, int32(j))
			}
		})
	}
	for k := 0; k < len(queue); k++ {
		i := int(queue[k])
		st.neighbours(i, func(j int) {
			if shade[j] >= 0 && !peeled[j] && shade[j] <= floor[i]+0.01 && st.step2(i, j) <= st.stepMax2 {
				peeled[j], floor[j] = true, min(floor[i], shade[j])
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
			darkest = min(darkest, shade[i])
			x0, y0, x1, y1 = min(x0, i%W), min(y0, i/W), max(x1, i%W), max(y1, i/W)
			st.neighbours(i, func(j int) {
				if peeled[j] && !seen[j] {
					seen[j] = true
					comp = append(comp, int32(j))
				}
			})
		}
		// A shadow on the floor is a flat band: under half as tall as wide.
		if darkest > 1-peelDepth || 2*(y1-y0+1) > x1-x0+1 || !onTheFloor(comp, isBg, W, H) {
			continue
		}
		for _, i := range comp {
			isBg[i] = true
		}
	}
}

// peelDepth is how much darker than the backdrop a peeled region must get
// somewhere to be a shadow.
const peelDepth = 0.06

// onTheFloor tells whether region comp lies on the floor: under nine
// tenths of its pixels have a part of the product (kept, not in comp)
// below them in their column. A shadow falls below or beside the product's
// base; a grey part (a shoe's lining) has the product under it.
func onTheFloor(comp []int32, isBg []bool, W, H int) bool {
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
			if i := y*W + x; !isBg[i] && !in[int32(i)] {
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
	return 10*under < len(comp)
}
