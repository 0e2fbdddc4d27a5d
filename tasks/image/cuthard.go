package image

// Hard cast shadows. A key light from one side casts a shadow with a sharp
// edge: the floods stop at that edge as at a product's outline, and the
// soft peel (cutpeel.go), which crosses no step, never reaches it. Across
// a shadow's edge the light falls, the surface does not change: the
// colour inside is the colour just outside times one factor under 1, the
// same for the three channels (the illumination ratio is grey, the
// chromaticity kept), the level falls monotonically through a penumbra of
// a pixel or two with no rim darker than the inside, and the inside is a
// flat umbra. peelHardShadows enters the kept pixels across such edges and
// walks the umbra (pixels of the same shade of the backdrop, within
// hardUmbra, its mean of the backdrop's chromaticity: notAShade); a region
// so reached is given back to the backdrop when it lies as a cast shadow
// does (castShadow): on the floor the product stands on, with no product
// below it, and, since a sharp shadow comes from a light to one side,
// beside the product — in columns no other part of the product reaches.
// A product's own dark part of the backdrop's hue (a grey foot under a
// charcoal body) has the product above it all along; a part sticking out
// in shadow tones (a chrome spout) ends above the floor; a body in shadow
// tones is the product, and what is left of it would be less than it.

const (
	hardUmbra    = 0.06    // how far a hard shadow's shade wanders from where it was entered
	hardBeside   = 0.9     // beside the product: of a region on the sweep behind it
	hardFlat     = 1.0 / 3 // beside the product: of a flat band on the floor
	hardPenumbra = 4       // the most pixels across a hard shadow's edge
	hardMinSeeds = 8       // the fewest entries across its edge a hard shadow needs
	hardEdge     = 0.4     // the least share of its outline a hard shadow is entered across
	hardUnder    = 0.25    // the most of a hard shadow with the product below it (falling past a toe)
	hardBase     = 0.08    // of the product's height: how far above its base a hard shadow may end
)

// peelHardShadows gives the hard cast shadows kept with the product back
// to the background (isBg); see above.
func (st *cutState) peelHardShadows(isBg []bool) bool {
	W, H, n := st.W, st.H, st.n
	chroma2 := st.chroma2()
	shadeOf := func(i int) (bool, float64) {
		return isShade(st.col(i), st.bd.at(i%W, i/W), chroma2)
	}
	ref := make([]float32, n)  // the shade entered at; 0: not reached
	pen := map[int32][]int32{} // a seed's penumbra pixels
	var queue []int32
	seeds := 0
	for i := range n {
		if !isBg[i] || !st.near[i] {
			continue
		}
		x, y := i%W, i/W
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			q, s, path, ok := st.acrossShadowEdge(isBg, x, y, d, chroma2)
			if !ok || ref[q] != 0 {
				continue
			}
			ref[q] = float32(s)
			pen[int32(q)] = path
			queue = append(queue, int32(q))
			seeds++
		}
	}
	if seeds < hardMinSeeds {
		return false
	}
	for k := 0; k < len(queue); k++ {
		i := int(queue[k])
		r := float64(ref[i])
		st.neighbours(i, func(j int) {
			if isBg[j] || ref[j] != 0 || st.step2(i, j) > st.stepMax2 {
				return
			}
			if ok, s := shadeOf(j); ok && s <= 1-peelDepth/2 && s > r-hardUmbra && s < r+hardUmbra {
				ref[j] = float32(r)
				queue = append(queue, int32(j))
			}
		})
	}
	seen := make([]bool, n)
	var comp []int32
	peeled := false
	for _, q := range queue {
		if seen[q] {
			continue
		}
		comp = append(comp[:0], q)
		seen[q] = true
		entries := 0
		for k := 0; k < len(comp); k++ {
			i := int(comp[k])
			if _, ok := pen[int32(i)]; ok {
				entries++
			}
			st.neighbours(i, func(j int) {
				if ref[j] != 0 && !seen[j] && st.step2(i, j) <= st.stepMax2 && abs32(ref[j]-ref[i]) <= hardUmbra {
					seen[j] = true
					comp = append(comp, int32(j))
				}
			})
		}
		if entries < hardMinSeeds || len(comp) < 30 || st.notAShade(comp) {
			continue
		}
		if float64(entries) < hardEdge*float64(edgeCount(comp, W, H)) {
			continue // a part with a darker rim, entered where the rim is thin
		}
		whole := withEdge(comp, pen, isBg, W, H)
		if !st.castShadow(whole, isBg, chroma2) {
			continue
		}
		peeled = true
		for k, i := range whole { // the umbra, the penumbra crossed, and the edge's shades
			if k < len(comp) || st.isShadeHere(int(i), chroma2) {
				isBg[i] = true
			}
		}
	}
	return peeled
}

// acrossShadowEdge looks from background pixel (x, y) along d across a
// hard edge into the kept pixels: the first kept pixel q, within
// hardPenumbra, that is a shade of the backdrop at least peelDepth darker
// than it, a shade of the background pixel's own colour too (the ratio
// across the edge grey), with the next pixel in of the same shade (a flat
// umbra), reached through a level that only falls (no darker rim). It
// returns q, its shade of the backdrop, the pixels crossed before it and
// whether there is such a q.
func (st *cutState) acrossShadowEdge(isBg []bool, x, y int, d [2]int, chroma2 float64) (int, float64, []int32, bool) {
	W, H := st.W, st.H
	at := func(k int) (int, bool) {
		xx, yy := x+k*d[0], y+k*d[1]
		if xx < 0 || yy < 0 || xx >= W || yy >= H {
			return 0, false
		}
		return yy*W + xx, true
	}
	i := y*W + x
	first, ok := at(1)
	if !ok || isBg[first] {
		return 0, 0, nil, false
	}
	out := st.col(i)
	slack := 2 + 2*st.noise
	last := st.lum3(i)
	var path []int32
	for k := 1; k <= hardPenumbra; k++ {
		q, ok := at(k)
		q2, ok2 := at(k + 1)
		if !ok || !ok2 || isBg[q] || isBg[q2] {
			return 0, 0, nil, false
		}
		l := st.lum3(q)
		if l > last+slack {
			return 0, 0, nil, false // a rise: not a shadow's edge
		}
		last = min(last, l)
		b := st.bd.at(q%W, q/W)
		okQ, s := isShade(st.col(q), b, chroma2)
		okN, s2 := isShade(st.col(q2), st.bd.at(q2%W, q2/W), chroma2)
		if okQ && okN && s <= 1-peelDepth && s2 > s-0.03 && s2 < s+0.03 && st.lum3(q2) <= l+slack {
			if ratioOK, _ := isShade(st.col(q), out, chroma2); !ratioOK {
				return 0, 0, nil, false
			}
			// A rim is darker than what it bounds: two more pixels in, the
			// level has not risen.
			for m := k + 2; m <= k+3; m++ {
				if r, ok := at(m); !ok || isBg[r] || st.lum3(r) > l+slack {
					return 0, 0, nil, false
				}
			}
			return q, s, path, true
		}
		path = append(path, int32(q))
	}
	return 0, 0, nil, false
}

// besideShare is the share of region comp's pixels in columns where no
// other kept pixel (not isBg, not in comp) lies, and the count of those
// other kept pixels: the product the region would leave.
func besideShare(comp []int32, product func(i int) bool, W, H int) (float64, int) {
	in := make(map[int32]bool, len(comp))
	for _, q := range comp {
		in[q] = true
	}
	other := make([]int, W) // kept pixels not in comp, by column
	rest := 0
	for i := range W * H {
		if product(i) && !in[int32(i)] {
			other[i%W]++
			rest++
		}
	}
	beside := 0
	for _, q := range comp {
		if other[int(q)%W] == 0 {
			beside++
		}
	}
	return float64(beside) / float64(max(len(comp), 1)), rest
}

// withEdge is region comp with its edge: the penumbra crossed to enter it
// (pen) and the kept pixels within two pixels of either.
func withEdge(comp []int32, pen map[int32][]int32, isBg []bool, W, H int) []int32 {
	in := make(map[int32]bool, len(comp))
	out := append([]int32(nil), comp...)
	for _, q := range comp {
		in[q] = true
	}
	for _, q := range comp {
		for _, p := range pen[q] {
			if !in[p] {
				in[p] = true
				out = append(out, p)
			}
		}
	}
	core := len(out)
	for k := range core {
		x, y := int(out[k])%W, int(out[k])/W
		for yy := max(0, y-2); yy <= min(H-1, y+2); yy++ {
			for xx := max(0, x-2); xx <= min(W-1, x+2); xx++ {
				if j := int32(yy*W + xx); !isBg[j] && !in[j] {
					in[j] = true
					out = append(out, j)
				}
			}
		}
	}
	return out
}

// isShadeHere tells whether pixel i is a shade of the backdrop there, at
// least a little darker than it.
func (st *cutState) isShadeHere(i int, chroma2 float64) bool {
	ok, s := isShade(st.col(i), st.bd.at(i%st.W, i/st.W), chroma2)
	return ok && s <= 1-peelDepth/2
}

// flatBand tells whether region comp is under half as tall as it is wide.
func flatBand(comp []int32, W int) bool {
	x0, y0, x1, y1 := W, 1<<30, 0, 0
	for _, q := range comp {
		x, y := int(q)%W, int(q)/W
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	return 2*(y1-y0+1) <= x1-x0+1
}

func abs32(v float32) float32 { return max(v, -v) }

// reachesBase tells whether region comp reaches down to the floor the
// product stands on: its lowest row within hardBase of the product's
// height above the lowest row of the rest of the product (kept, not in
// comp, a part four pixels tall). A shadow is cast on the floor; a part
// sticking out (a spout) is above it.
func (st *cutState) reachesBase(comp []int32, isBg []bool) bool {
	W, H := st.W, st.H
	in := make(map[int32]bool, len(comp))
	low := 0
	for _, q := range comp {
		in[q] = true
		low = max(low, int(q)/W)
	}
	part := func(i int) bool { return i >= 0 && !isBg[i] && !in[int32(i)] }
	top, base := H, -1
	for i := range st.n {
		if part(i) && part(i-W) && part(i-2*W) && part(i-3*W) {
			top, base = min(top, i/W-3), max(base, i/W)
		}
	}
	return base < 0 || float64(low) >= float64(base)-hardBase*float64(base-top)
}

// castShadow tells whether region comp (an umbra with its edge) lies as a
// cast shadow does: it leaves at least as much product as it is, reaches
// the floor the product stands on (reachesBase), has the product below
// under hardUnder of it, and lies beside the product — at least
// hardBeside of it in columns no other part of the product reaches, or
// hardFlat for a flat band on the floor.
func (st *cutState) castShadow(comp []int32, isBg []bool, chroma2 float64) bool {
	W, H := st.W, st.H
	// Below it, neither a shade left (the darker core where a contact
	// shadow meets it) nor a sliver of JPEG's ringing along its edge is the
	// product it would stand on: a part is lit and four pixels tall.
	lit := func(i int) bool {
		for k := range 4 {
			if j := i - k*W; j < 0 || isBg[j] || st.near[j] || st.isShadeHere(j, 4*chroma2) {
				return false
			}
		}
		return true
	}
	beside, rest := besideShare(comp, func(i int) bool { return !isBg[i] }, W, H)
	if 2*rest < len(comp) || !st.reachesBase(comp, isBg) || underShare(comp, lit, W, H) >= hardUnder {
		return false
	}
	return beside >= hardBeside || flatBand(comp, W) && beside >= hardFlat
}

// edgeCount is the count of region comp's pixels with a 4-neighbour outside
// it.
func edgeCount(comp []int32, W, H int) int {
	in := make(map[int32]bool, len(comp))
	for _, q := range comp {
		in[q] = true
	}
	k := 0
	for _, q := range comp {
		edge := false
		forNeighbours(int(q), W, H, func(j int) { edge = edge || !in[int32(j)] })
		if edge {
			k++
		}
	}
	return k
}
