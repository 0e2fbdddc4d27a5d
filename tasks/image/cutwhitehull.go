package image

import (
	"context"
	"image"
)

// A white body on a white sweep whose outline shows on some sides only (a
// plate's back edge, a candle's lit side, a shirt's lit top are the
// sweep's own tone): the edges of the residual off the fitted backdrop
// (residualEdges) outline its shaded and rimmed sides but close no region,
// so the fifth look (lookAtEdges) finds none. The sixth (lookAtHull)
// closes them as the fourth closes faint lines: by their convex hull, a
// shape's outline seen on some of its sides (lookAtShading's outlineHull
// and shadedParts, on the residual's edges and the faint lines together).
// A soft shadow alone has such an outline too (its ramp), and the sweep's
// grain may join into one by chance, so the hull is kept only where it
// holds a product's own marks: a long faint line inside it (hullLines
// pixels at least: a rim, a seam, a plate's well, a shirt's placket; a
// shadow's smooth ramp makes none), pixels lit above the sweep or a hue
// of its own (notAShade); and only where something inside it is shaded
// (over 1 − hullFlat of it off the fitted backdrop by more than the
// noise: a flat sweep departs nowhere). Of the hull the shaded parts are
// kept (shadedParts), or all of it where none is (a shirt as pale as its
// paper). Its outline is partly drawn: the cut is delivered with the
// warning cutout_uncertain and not charged (warnInferred).

// hullLines is the fewest pixels of the longest faint line inside the
// hull that mark it a product's: the grain inside a soft shadow's hull
// joins into lines of about a hundred (107 in the JPEG q70 shadow of
// TestCutoutRefusesAShadowAloneOrGrain), a candle's top rim makes 167 —
// a narrow margin, which the ninth set's candle holds. hullFlat is the
// share of the hull within the noise of the fitted backdrop over which
// nothing inside the outline is shaded (an outline the grain drew by
// chance on a flat sweep, whose lines may be longer).
const (
	hullLines = 3.5 * shadeLine
	hullFlat  = 0.95
)

// lookAtHull is the sixth look; ok is false when it finds no product.
func lookAtHull(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool) (
	res cutout, ok bool, err error) {
	body, err := hulledBody(ctx, img, tol)
	if err != nil || body == nil {
		return cutout{}, false, err
	}
	return cutAroundBody(ctx, img, tol, feather, keepShadow, body, true)
}

// hulledBody is the shaded part of the hull of img's residual edges and
// faint lines when it holds a product's marks (see above), nil otherwise.
func hulledBody(ctx context.Context, img image.Image, tol float64) ([]int32, error) {
	st, err := walledState(ctx, img, tol)
	if err != nil {
		return nil, err
	}
	defer st.release()
	hull, marks := st.edgeHull()
	if hull == nil || !marks {
		return nil, nil
	}
	if body := st.shadedParts(hull); body != nil {
		return body, nil
	}
	return hull, nil
}

// edgeHull is the hull of st's long residual edges and faint lines
// (outlineHull), and whether it holds a product's marks.
func (st *cutState) edgeHull() ([]int32, bool) {
	W, H := st.W, st.H
	edges := st.residualEdges()
	defer boolPool.put(edges)
	for i, l := range st.lines {
		edges[i] = edges[i] || l
	}
	hull := st.outlineHull(mainOutline(longLines(edges, W, H), W, H))
	if hull == nil {
		return nil, false
	}
	in := boolPool.get(st.n)
	defer boolPool.put(in)
	clear(in)
	for _, j := range hull {
		in[j] = true
	}
	inside := longestLine(st.lines, in, W, H)
	lit, flat := 0, 0
	lum := smoothLum(st.px)
	least := max(shadeLevel, shadeNoise*st.noise)
	for _, j := range hull {
		if st.lift(int(j)) > 1 {
			lit++
		}
		if d := float64(lum[j]) - st.bd.lum(int(j), W); d > -least && d < least {
			flat++
		}
	}
	shaded := float64(flat) < hullFlat*float64(len(hull))
	return hull, shaded && (inside >= hullLines || float64(lit) >= litShare*float64(len(hull)) || st.notAShade(hull))
}

// mainOutline drops from off (false on the lines) the lines apart from
// the product's outline: the longest line and those whose bounding boxes,
// grown by whiteGap, overlap its box are kept (a plate's well inside its
// rim), a stray one across the sweep (grain joined into a long run, a
// crease in the paper) is set to true.
func mainOutline(off []bool, W, H int) []bool {
	type box struct{ x0, y0, x1, y1, n int }
	label := make([]int32, W*H)
	var boxes []box
	var comp []int32
	for i := range off {
		if off[i] || label[i] != 0 {
			continue
		}
		boxes = append(boxes, box{x0: W, y0: H, x1: -1, y1: -1})
		id := int32(len(boxes))
		b := &boxes[id-1]
		comp = append(comp[:0], int32(i))
		label[i] = id
		for h := 0; h < len(comp); h++ {
			x, y := int(comp[h])%W, int(comp[h])/W
			b.x0, b.y0, b.x1, b.y1, b.n = min(b.x0, x), min(b.y0, y), max(b.x1, x), max(b.y1, y), b.n+1
			for yy := max(0, y-1); yy <= min(H-1, y+1); yy++ {
				for xx := max(0, x-1); xx <= min(W-1, x+1); xx++ {
					if j := yy*W + xx; !off[j] && label[j] == 0 {
						label[j] = id
						comp = append(comp, int32(j))
					}
				}
			}
		}
	}
	if len(boxes) < 2 {
		return off
	}
	big := 0
	for k, b := range boxes {
		if b.n > boxes[big].n {
			big = k
		}
	}
	m := boxes[big]
	keep := make([]bool, len(boxes))
	for k, b := range boxes {
		keep[k] = b.x0 <= m.x1+whiteGap && b.x1 >= m.x0-whiteGap && b.y0 <= m.y1+whiteGap && b.y1 >= m.y0-whiteGap
	}
	for i, id := range label {
		if id != 0 && !keep[id-1] {
			off[i] = true
		}
	}
	return off
}

// longestLine is the pixel count of the longest line of lines
// (8-connected) inside in.
func longestLine(lines, in []bool, W, H int) int {
	seen := make([]bool, W*H)
	best := 0
	var comp []int32
	for i := range lines {
		if !lines[i] || !in[i] || seen[i] {
			continue
		}
		comp = append(comp[:0], int32(i))
		seen[i] = true
		for h := 0; h < len(comp); h++ {
			x, y := int(comp[h])%W, int(comp[h])/W
			for yy := max(0, y-1); yy <= min(H-1, y+1); yy++ {
				for xx := max(0, x-1); xx <= min(W-1, x+1); xx++ {
					if j := yy*W + xx; lines[j] && in[j] && !seen[j] {
						seen[j] = true
						comp = append(comp, int32(j))
					}
				}
			}
		}
		best = max(best, len(comp))
	}
	return best
}
