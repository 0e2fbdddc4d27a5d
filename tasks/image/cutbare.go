package image

import (
	"context"
	"image"
)

// A product seen only by its outline (issue 46): a clear tumbler on a
// white sweep is the backdrop inside and a faint shade at its sides, so
// every flood gives it to the backdrop; a small white case in a
// photograph has so many of the sensor's grain lines across it that no
// solid core is left for keepCompact. What is left of such a product is
// the closed faint outline round it. When the steps before kept no
// object and the second look (cutfind.go) found none either, a third
// look (lookAtOutlines) cuts again, and a region the faint lines (their gaps closed as fillOutlines
// closes them) shut off from the image's border is the product when it
// looks like one, not like the grain of an empty backdrop:
//
//   - it is solid: at least minObjectShare of the image, and 20 pixels
//     more than 3 pixels from the backdrop outside;
//   - it is compact: it fills at least faintFill of its bounding box and
//     touches at most one side of the image;
//   - its outline stands out: the lines round it lie, on average,
//     bareContrast of the backdrop's noise (and at least bareLeast
//     levels) off the backdrop — a grain line lies within the noise.
//
// Its spurs (a grain line hanging off the outline, a sliver of shadow
// along the base) are opened off it by a 7 × 7 box; a region of it that is
// a shadow on the floor is then peeled (peelShadows); see-through parts
// get their alpha after (cutclear.go).

// lookAtOutlines is the third look: the cut-out at tolerance tol with a
// faint outline alone taken for a product; ok is false when it finds none.
func lookAtOutlines(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool) (
	res cutout, ok bool, err error) {
	st, share, bgMid, err := newCutState(ctx, img, tol)
	if err != nil {
		return cutout{}, false, err
	}
	defer st.release()
	st.bare = true
	objShare, err := st.cut(feather, keepShadow)
	if err != nil || objShare < minObjectShare {
		return cutout{}, false, err
	}
	return cutout{img: st.px, background: bgMid, objectShare: objShare, confidence: share, clearBody: st.clearBody},
		true, nil
}

const (
	bareContrast = 6   // an outline's mean distance from the backdrop, in units of its noise
	bareLeast    = 8.0 // and at least this many levels
)

// fillBareOutlines gives the object the regions of isBg a faint outline
// alone closes (see above) when isBg holds under minObjectShare of object.
func (st *cutState) fillBareOutlines(isBg []bool) {
	W, H, n := st.W, st.H, st.n
	object := 0
	for _, b := range isBg {
		if !b {
			object++
		}
	}
	if float64(object) >= minObjectShare*float64(n) {
		return
	}
	out := outsideWalls(st.rims, func(int) bool { return false }, W, H)
	defer boolPool.put(out)
	outSum := integralOf(out, W, H)
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	minArea := int(minObjectShare*float64(n)) + 1
	for i := range n {
		if seen[i] || out[i] {
			continue
		}
		comp := []int32{int32(i)}
		seen[i] = true
		for h := 0; h < len(comp); h++ {
			forNeighbours(int(comp[h]), W, H, func(k int) {
				if !seen[k] && !out[k] {
					seen[k] = true
					comp = append(comp, int32(k))
				}
			})
		}
		if len(comp) < minArea || !st.looksBare(comp, outSum) {
			continue
		}
		comp = st.opened(comp)
		for _, j := range comp {
			isBg[j] = false
		}
		st.openBareHoles(comp, isBg)
	}
}

// openBareHoles gives back to the backdrop the parts of a filled region
// comp, off the lines, whose tones continue the backdrop (nearBackdrop)
// when another part of it does not and is lighter than the backdrop or
// has breadth (broad): a ring's hole inside its body. Where no such body
// is there — every part continues the backdrop, or the rest is a glass's
// thin walls, darker than the backdrop seen through them — all stay (a
// clear tumbler's or jar's inside),
// and the region is a clear body (st.clearBody): see-through glass.
func (st *cutState) openBareHoles(comp []int32, isBg []bool) {
	W, H := st.W, st.H
	in := make(map[int32]bool, len(comp))
	for _, j := range comp {
		if !st.rims[j] {
			in[j] = true
		}
	}
	lumRes := func(j int) float64 {
		p, b := st.col(j), st.bd.at(j%W, j/W)
		return (p[0] + p[1] + p[2] - b[0] - b[1] - b[2]) / 3
	}
	all := func(int) bool { return true }
	seen := make(map[int32]bool, len(in))
	var holes [][]int32
	body := false
	for _, j := range comp {
		if !in[j] || seen[j] {
			continue
		}
		part := []int32{j}
		seen[j] = true
		for h := 0; h < len(part); h++ {
			forNeighbours(int(part[h]), W, H, func(k int) {
				if k32 := int32(k); in[k32] && !seen[k32] {
					seen[k32] = true
					part = append(part, k32)
				}
			})
		}
		if len(part) < 20 {
			continue
		}
		switch stats := enclosedStats(part, all, lumRes, W); {
		case stats.nearBackdrop(st.noise):
			holes = append(holes, part)
		case stats.mean > 0 || broad(part, W, H):
			body = true
		}
	}
	if !body {
		if st.clearBody == nil {
			st.clearBody = make([]bool, st.n)
		}
		for _, j := range comp {
			st.clearBody[j] = true
		}
		return
	}
	for _, part := range holes {
		for _, j := range part {
			isBg[j] = true
		}
	}
}

// looksBare tells whether region comp, shut off by faint lines, is solid,
// compact and outlined clearly (fillBareOutlines); outSum is the integral
// of the backdrop outside.
func (st *cutState) looksBare(comp []int32, outSum []int32) bool {
	W, H := st.W, st.H
	x0, y0, x1, y1 := W, H, -1, -1
	cores := 0
	var off float64
	lines := 0
	for _, j := range comp {
		x, y := int(j)%W, int(j)/W
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		if boxCount(outSum, W, H, x, y, 3) == 0 {
			cores++
		}
		if st.lines[j] {
			lines++
			off += dist3(st.col(int(j)), st.bd.at(x, y))
		}
	}
	sides := 0
	for _, t := range []bool{x0 == 0, y0 == 0, x1 == W-1, y1 == H-1} {
		if t {
			sides++
		}
	}
	box := float64((x1 - x0 + 1) * (y1 - y0 + 1))
	if cores < 20 || sides > 1 || float64(len(comp)) < faintFill*box || lines == 0 {
		return false
	}
	contrast := off / float64(lines)
	return contrast >= max(bareLeast, bareContrast*st.noise)
}

// broad tells whether part has at least 20 pixels whose 7 × 7 box lies
// all in it: a body with breadth, not a glass's thin wall.
func broad(part []int32, W, H int) bool {
	own := make(map[int32]bool, len(part))
	for _, j := range part {
		own[j] = true
	}
	cores := 0
	for _, j := range part {
		x, y := int(j)%W, int(j)/W
		if x < 3 || y < 3 || x >= W-3 || y >= H-3 {
			continue
		}
		whole := true
		for dy := -3; dy <= 3 && whole; dy++ {
			for dx := -3; dx <= 3; dx++ {
				if !own[int32((y+dy)*W+x+dx)] {
					whole = false
					break
				}
			}
		}
		if whole {
			if cores++; cores >= 20 {
				return true
			}
		}
	}
	return false
}

// opened is region comp less its spurs: the pixels no 7 × 7 box wholly
// in it covers (a grain line hanging off the outline, with the pocket of
// backdrop it closes; a sliver of shadow along the base).
func (st *cutState) opened(comp []int32) []int32 {
	W, H := st.W, st.H
	in := boolPool.get(st.n)
	defer boolPool.put(in)
	clear(in)
	for _, j := range comp {
		in[j] = true
	}
	sum := integralOf(in, W, H)
	core := boolPool.get(st.n)
	defer boolPool.put(core)
	clear(core)
	for _, j := range comp {
		x, y := int(j)%W, int(j)/W
		core[j] = x >= 3 && y >= 3 && x < W-3 && y < H-3 && boxCount(sum, W, H, x, y, 3) == 49
	}
	coreSum := integralOf(core, W, H)
	kept := comp[:0:0]
	for _, j := range comp {
		if boxCount(coreSum, W, H, int(j)%W, int(j)/W, 3) > 0 {
			kept = append(kept, j)
		}
	}
	return kept
}
