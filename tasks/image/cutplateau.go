package image

// A product in the backdrop's own tone (a grey speaker on a grey sweep, a
// black wallet on charcoal) is a shade of the backdrop, as a shadow is.
// What tells them apart is the edge: a shadow's density fades towards
// its penumbra, a product's tone holds up to its outline and steps there,
// within the lens's blur. plateau measures that in units of the
// backdrop's noise, not a fixed ΔE (in dark tones a 20-level step is
// under ΔE 12).

// Depths into and out of a region, in pixels: its edge band (from its
// outline to edgeDepth in), its core (coreDepth in and further) and the
// ring of backdrop round it (ringFrom to ringTo out).
const (
	edgeDepth, coreDepth = 3, 6
	ringFrom, ringTo     = 2, 4
	plateauHold          = 0.7 // the least share of the core's contrast the edge band keeps
	plateauCore          = 0.5 // the least share of the region in its core: a body, not a band
)

// plateau tells whether region c holds its tone to its outline and steps
// there: a body (plateauCore of it at least coreDepth in), its core's luminance is at least stepLeast off the ring of
// background round it (isBg), the same way as its edge band's, which
// keeps plateauHold of that contrast.
func (st *cutState) plateau(c []int32, isBg []bool) bool {
	W, H := st.W, st.H
	depth := make(map[int32]int, len(c))
	var q []int32
	for _, j := range c {
		depth[j] = 0
	}
	for _, j := range c {
		out := false
		forNeighbours(int(j), W, H, func(k int) {
			_, in := depth[int32(k)]
			out = out || !in
		})
		if out {
			depth[j] = 1
			q = append(q, j)
		}
	}
	for h := 0; h < len(q); h++ {
		j := q[h]
		if depth[j] >= coreDepth {
			continue
		}
		forNeighbours(int(j), W, H, func(k int) {
			if d, in := depth[int32(k)]; in && d == 0 {
				depth[int32(k)] = depth[j] + 1
				q = append(q, int32(k))
			}
		})
	}
	res := func(j int) float64 { return st.lum3(j) - st.bd.lum(j, W) }
	var edge, core, ring float64
	var ne, nc, nr int
	for j, d := range depth {
		switch {
		case d == 0 || d >= coreDepth:
			core += res(int(j))
			nc++
		case d <= edgeDepth:
			edge += res(int(j))
			ne++
		}
	}
	// The ring: background pixels ringFrom to ringTo out along the four
	// directions from the outline.
	for j, d := range depth {
		if d != 1 {
			continue
		}
		x, y := int(j)%W, int(j)/W
		for _, dd := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			for s := ringFrom; s <= ringTo; s++ {
				xx, yy := x+s*dd[0], y+s*dd[1]
				if xx < 0 || yy < 0 || xx >= W || yy >= H {
					break
				}
				k := yy*W + xx
				if _, in := depth[int32(k)]; in || !isBg[k] {
					break
				}
				ring += res(k)
				nr++
			}
		}
	}
	if nc < 20 || ne < 20 || nr < 20 || float64(nc) < plateauCore*float64(len(c)) {
		return false
	}
	core, edge, ring = core/float64(nc), edge/float64(ne), ring/float64(nr)
	contrast := core - ring
	if contrast < st.stepLeast() && contrast > -st.stepLeast() {
		return false
	}
	return (edge-ring)/contrast >= plateauHold
}
