package image

import (
	"context"
	"image"
)

// A white product on a white sweep lit from one side (issue 46): its lit
// side is the sweep's own tone, so no edge is there to see, and its
// shaded side is a grey of the sweep's hue, as a shadow is; every flood
// runs in through the lit side and takes the body with the sweep. What
// shows it is its outline where it is shaded (faint lines, sharp steps)
// and the shading itself: the sweep is a smooth surface fitted to the
// border, and a body rounded by the light departs from it by far more
// than the noise over a large share of it. When the other looks found
// nothing, a fourth (lookAtShading) closes the outline's long lines by
// their convex hull (a shape's outline seen on its shaded side) and
// keeps the hull as the product when it is one:
//
//   - its outline is seen: the hull's sides lie on the lines over at
//     least shadeOutline of their length;
//   - it is shaded as a body is: at least shadeShare of it departs from
//     the fitted backdrop by more than the backdrop's noise allows (a
//     faint rim is an edge; a flat sweep departs nowhere);
//   - it is compact: at least minObjectShare of the image, touching at
//     most one side of it.
//
// The hull is then kept out of the floods, and the cut-out made as
// usual round it (its contact and cast shadows outside it removed). Its
// outline on the lit side is drawn, not seen: the cut-out is delivered
// with the warning cutout_uncertain and not charged (warnInferred).

const (
	shadeLine    = 40   // the fewest pixels of a line whose hull is looked at
	shadeOutline = 0.4  // the least share of the hull's sides near the lines
	shadeReach   = 10   // near: within a tenth of the hull's width
	shadeShare   = 0.25 // the least share of the hull off the backdrop
	shadeLevel   = 6.0  // how far off the backdrop a pixel is shaded, at least (levels)
	shadeNoise   = 4    // and in units of the backdrop's noise
)

// lookAtShading is the fourth look; ok is false when it finds no shaded
// body inside a seen outline.
func lookAtShading(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool) (
	res cutout, ok bool, err error) {
	body, err := shadedBody(ctx, img, tol)
	if err != nil || body == nil {
		return cutout{}, false, err
	}
	return cutAroundBody(ctx, img, tol, feather, keepShadow, body, true)
}

// cutAroundBody cuts the image out around body, a region a later look
// found and the floods must not enter; inferred marks a cut whose outline
// was partly drawn where no edge shows. ok is false when the cut keeps
// less than minObjectShare.
func cutAroundBody(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool, body []int32,
	inferred bool) (res cutout, ok bool, err error) {
	st, share, bgMid, err := newCutState(ctx, img, tol)
	if err != nil {
		return cutout{}, false, err
	}
	defer st.release()
	st.body = body
	objShare, err := st.cut(feather, keepShadow)
	if err != nil || objShare < minObjectShare {
		return cutout{}, false, err
	}
	return cutout{img: st.px, background: bgMid, objectShare: objShare, confidence: share, inferred: inferred}, true, nil
}

// shadedBody is the hull of the long faint lines of img when it is a
// shaded body (see above), nil otherwise.
func shadedBody(ctx context.Context, img image.Image, tol float64) ([]int32, error) {
	st, err := walledState(ctx, img, tol)
	if err != nil {
		return nil, err
	}
	defer st.release()
	hull := st.outlineHull(longLines(st.lines, st.W, st.H))
	if hull == nil {
		return nil, nil
	}
	return st.shadedParts(hull), nil
}

// walledState is img's cut state with its candidates and walls marked,
// as the shading and hull looks read it; the caller releases it.
func walledState(ctx context.Context, img image.Image, tol float64) (*cutState, error) {
	st, _, _, err := newCutState(ctx, img, tol)
	if err != nil {
		return nil, err
	}
	st.candidates()
	st.walls()
	return st, nil
}

// outlineHull is the convex hull of the outline off marks (false on it)
// when the outline is seen along it and it is compact (see above): its
// sides near the outline over at least shadeOutline of their length, at
// least minObjectShare of the image, touching at most one side of it;
// nil otherwise.
func (st *cutState) outlineHull(off []bool) []int32 {
	W, H, n := st.W, st.H, st.n
	hull := objectHull(off, W, H)
	if hull == nil {
		return nil
	}
	var body []int32
	sides, onLine := 0, 0
	top, bottom, left, right := false, false, false, false
	nearLine := func(x, y, d int) bool {
		for yy := max(0, y-2); yy <= min(H-1, y+2); yy++ {
			for xx := max(0, x-d); xx <= min(W-1, x+d); xx++ {
				if !off[yy*W+xx] {
					return true
				}
			}
		}
		return false
	}
	for y := range H {
		x0, x1 := int(hull[2*y]), int(hull[2*y+1])
		if x0 > x1 {
			continue
		}
		x0, x1 = max(0, x0), min(W-1, x1)
		for x := x0; x <= x1; x++ {
			body = append(body, int32(y*W+x))
		}
		for _, x := range [2]int{x0, x1} {
			sides++
			if nearLine(x, y, max(3, (x1-x0)/shadeReach)) {
				onLine++
			}
		}
		top, bottom = top || y == 0, bottom || y == H-1
		left, right = left || x0 == 0, right || x1 == W-1
	}
	frame := 0
	for _, b := range [4]bool{top, bottom, left, right} {
		if b {
			frame++
		}
	}
	if float64(len(body)) < minObjectShare*float64(n) || frame > 1 ||
		float64(onLine) < shadeOutline*float64(sides) {
		return nil
	}
	return body
}

// shadedParts is the part of hull (a convex region) that is shaded: of
// its regions the lines part (4-neighbours off the widened lines), those
// with at least shadeShare of their pixels off the backdrop (a sliver of
// the flat sweep between the outline and the hull's chord is not), with
// the lines round them; nil when that is under minObjectShare.
func (st *cutState) shadedParts(hull []int32) []int32 {
	W, n := st.W, st.n
	lum := smoothLum(st.px)
	least := max(shadeLevel, shadeNoise*st.noise)
	in := make([]bool, n)
	for _, j := range hull {
		in[j] = true
	}
	seen := make([]bool, n)
	keep := make([]bool, n)
	var comp []int32
	for _, j0 := range hull {
		if seen[j0] || st.rims[j0] {
			continue
		}
		comp = append(comp[:0], j0)
		seen[j0] = true
		shaded := 0
		for k := 0; k < len(comp); k++ {
			j := int(comp[k])
			if d := float64(lum[j]) - st.bd.lum(j, W); d < -least || d > least {
				shaded++
			}
			st.neighbours(j, func(q int) {
				if in[q] && !seen[q] && !st.rims[q] {
					seen[q] = true
					comp = append(comp, int32(q))
				}
			})
		}
		if float64(shaded) < shadeShare*float64(len(comp)) {
			continue
		}
		for _, j := range comp {
			keep[j] = true
		}
	}
	var body []int32
	for _, j := range hull {
		k := keep[j]
		if !k && st.rims[j] {
			st.neighbours(int(j), func(q int) { k = k || keep[q] })
		}
		if k {
			body = append(body, j)
		}
	}
	if float64(len(body)) < minObjectShare*float64(n) {
		return nil
	}
	return body
}

// longLines is the mask of the pixels off the lines of at least
// shadeLine pixels (8-connected): true off them.
func longLines(lines []bool, W, H int) []bool {
	n := W * H
	off := make([]bool, n)
	for i := range off {
		off[i] = true
	}
	seen := make([]bool, n)
	var comp []int32
	for i := range n {
		if !lines[i] || seen[i] {
			continue
		}
		comp = append(comp[:0], int32(i))
		seen[i] = true
		for k := 0; k < len(comp); k++ {
			x, y := int(comp[k])%W, int(comp[k])/W
			for yy := max(0, y-1); yy <= min(H-1, y+1); yy++ {
				for xx := max(0, x-1); xx <= min(W-1, x+1); xx++ {
					if j := yy*W + xx; lines[j] && !seen[j] {
						seen[j] = true
						comp = append(comp, int32(j))
					}
				}
			}
		}
		x0, y0, x1, y1 := W, H, 0, 0
		for _, j := range comp {
			x, y := int(j)%W, int(j)/W
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
		if len(comp) >= shadeLine && max(x1-x0, y1-y0) >= shadeLine/2 { // long, not a blob of grain
			for _, j := range comp {
				off[j] = false
			}
		}
	}
	return off
}
