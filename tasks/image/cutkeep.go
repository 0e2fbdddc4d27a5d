package image

// The join of the cut-out's two floods (step 3): what the flood walled by
// faint lines keeps that the plain one does not, and the inlets of
// backdrop given back to the product.

// keepCompact joins the two segmentations, plain (the flood stopped by
// steps only) and walled (stopped by faint lines too): the background is
// plain's, less the regions walled keeps as object that are solid — a
// white body inside its rim — and not a thin sliver (a shadow's tail,
// JPEG's ringing beside an edge) nor the backdrop itself (own tells, for
// a region, whether its tones are the product's). A region needs
// coreShare of its pixels, and at least 20, with all of a 7 × 7 box
// around them kept and off the lines (walls of lines alone are not a
// product), and of it only what reconstruct keeps. A region too thin for
// that (a white handle, its rim broken by JPEG's ringing) is kept from its
// lit pixels instead, where it is lit (litPart; lift is a pixel's
// luminance above the backdrop's), or, where it is shaded, from its
// pixels between two faint rims (ribbon, cutribbon.go: lum is a pixel's
// level, depth and faintRim the least and most a rim dips below it).
// walled goes back to the pool.
func keepCompact(plain, walled, lines, thin []bool, W, H int, lift, lum func(i int) float64, depth, faintRim float64,
	own func(c []int32) bool,
) []bool {
	n := W * H
	defer boolPool.put(walled)
	sum := make([]int32, (W+1)*(H+1)) // the integral of walled's object off the lines
	for y := range H {
		row := int32(0)
		for x := range W {
			if !walled[y*W+x] && !lines[y*W+x] {
				row++
			}
			sum[(y+1)*(W+1)+x+1] = sum[y*(W+1)+x+1] + row
		}
	}
	const r = 3
	core := func(i int) bool {
		x, y := i%W, i/W
		if x < r || y < r || x >= W-r || y >= H-r {
			return false
		}
		x0, y0, x1, y1 := x-r, y-r, x+r+1, y+r+1
		return sum[y1*(W+1)+x1]-sum[y0*(W+1)+x1]-sum[y1*(W+1)+x0]+sum[y0*(W+1)+x0] == (2*r+1)*(2*r+1)
	}
	extra := func(i int) bool { return plain[i] && !walled[i] }
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	var comp []int32
	for i := range n {
		if seen[i] || !extra(i) {
			continue
		}
		comp = append(comp[:0], int32(i))
		seen[i] = true
		cores := 0
		for h := 0; h < len(comp); h++ {
			j := int(comp[h])
			if core(j) {
				cores++
			}
			forNeighbours(j, W, H, func(k int) {
				if !seen[k] && extra(k) {
					seen[k] = true
					comp = append(comp, int32(k))
				}
			})
		}
		seed, from, cross := core, comp, maxLineCross
		if cores < 20 || float64(cores) < coreShare*float64(len(comp)) {
			seed = func(i int) bool { return !lines[i] && lift(i) > 1 }
			if from = litPart(comp, lift, lines); from == nil {
				if seed, from = ribbon(comp, lines, lum, lift, depth, faintRim, W, H), comp; seed == nil {
					continue
				}
			}
			cross = thinLineCross
		}
		kept := reconstruct(from, seed, lines, cross, W, H)
		if len(kept) < 20 {
			continue
		}
		if !own(kept) {
			continue
		}
		for _, j := range kept {
			if !lines[j] || thin[j] || !touches(walled, int(j), W, H) {
				plain[j] = false // but the lines' widening onto the backdrop beside them
			}
		}
	}
	return plain
}

// touches tells whether a 4-neighbour of pixel i is set in m.
func touches(m []bool, i, W, H int) bool {
	t := false
	forNeighbours(i, W, H, func(j int) { t = t || m[j] })
	return t
}

// coreShare is the share of a region found only by faint lines that must
// be solid (see keepCompact).
const coreShare = 0.05

// reconstruct is the part of region comp reached from its core pixels
// without crossing more than three pixels of lines in a row: a handle,
// however thin and however lined, joins its body, and so does its rim;
// a sliver of lines alone along it (a shadow's tail, ringing) is left out.
func reconstruct(comp []int32, core func(i int) bool, lines []bool, cross, W, H int) []int32 {
	in := make(map[int32]bool, len(comp))
	for _, j := range comp {
		in[j] = true
	}
	got := make(map[int32]int, len(comp)) // lines crossed in a row to reach it
	var front []int32
	for _, j := range comp {
		if core(int(j)) {
			got[j] = 0
			front = append(front, j)
		}
	}
	for h := 0; h < len(front); h++ {
		j := front[h]
		d := got[j]
		forNeighbours(int(j), W, H, func(k int) {
			k32 := int32(k)
			if !in[k32] {
				return
			}
			e := 0
			if lines[k] {
				e = d + 1
			}
			if old, ok := got[k32]; e > cross || ok && old <= e {
				return
			}
			got[k32] = e
			front = append(front, k32)
		})
	}
	out := make([]int32, 0, len(got))
	for j := range got {
		out = append(out, j)
	}
	return out
}

// closeInlets gives back to the product the narrow inlets of background
// that reach deep into it: where a light stripe of the product (glass's
// highlight) meets the backdrop with no edge, the flood runs down it. A
// stretch of background the opening by a 7 × 7 box leaves out (under 7
// px across) whose length is at least six times that is an inlet.
func closeInlets(isBg []bool, W, H int) {
	const r = 3
	n := W * H
	integral := func(f func(i int) bool) []int32 {
		s := make([]int32, (W+1)*(H+1))
		for y := range H {
			row := int32(0)
			for x := range W {
				if f(y*W + x) {
					row++
				}
				s[(y+1)*(W+1)+x+1] = s[y*(W+1)+x+1] + row
			}
		}
		return s
	}
	box := func(s []int32, x, y int) int32 {
		x0, y0, x1, y1 := max(0, x-r), max(0, y-r), min(W, x+r+1), min(H, y+r+1)
		return s[y1*(W+1)+x1] - s[y0*(W+1)+x1] - s[y1*(W+1)+x0] + s[y0*(W+1)+x0]
	}
	bg := integral(func(i int) bool { return isBg[i] })
	full := func(i int) bool { // the whole box is background, or off the image
		x, y := i%W, i/W
		x0, y0, x1, y1 := max(0, x-r), max(0, y-r), min(W, x+r+1), min(H, y+r+1)
		return box(bg, x, y) == int32((x1-x0)*(y1-y0))
	}
	eroded := integral(full)
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	inlet := func(i int) bool { return isBg[i] && box(eroded, i%W, i/W) == 0 }
	var comp []int32
	for i := range n {
		if seen[i] || !inlet(i) {
			continue
		}
		comp = append(comp[:0], int32(i))
		seen[i] = true
		x0, y0, x1, y1 := W, H, 0, 0
		for h := 0; h < len(comp); h++ {
			j := int(comp[h])
			x, y := j%W, j/W
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			forNeighbours(j, W, H, func(k int) {
				if !seen[k] && inlet(k) {
					seen[k] = true
					comp = append(comp, int32(k))
				}
			})
		}
		if max(x1-x0, y1-y0)+1 < 6*(2*r+1) {
			continue
		}
		for _, j := range comp {
			isBg[j] = false
		}
	}
}

// maxLineCross is how many pixels of lines in a row reconstruct crosses.
const maxLineCross = 6

// thinLineCross is how many pixels of lines in a row reconstruct crosses
// from a thin part's lit pixels: its own rim, not the hole's beyond.
const thinLineCross = 4

// litPart is the part of region comp, too thin for a core (a handle),
// that is on the lines or not a shade (lift ≥ -1), when at least 20 of
// its pixels off the lines, a quarter of those, are lit (lift > 1): a
// white part brighter than the backdrop, never a shadow's tail with a few
// of JPEG's bright specks. It is nil otherwise.
func litPart(comp []int32, lift func(i int) float64, lines []bool) []int32 {
	lit, off := 0, 0
	var part []int32
	for _, j := range comp {
		l := lift(int(j))
		if !lines[j] {
			off++
			if l > 1 {
				lit++
			}
		}
		if lines[j] || l >= -1 {
			part = append(part, j)
		}
	}
	if lit < 20 || 4*lit < off {
		return nil
	}
	return part
}
