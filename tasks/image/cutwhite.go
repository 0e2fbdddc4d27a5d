package image

import (
	"context"
	"image"

	"github.com/taskplatform/taskplatform/tasks/resample"
)

// A white body on a white sweep (issue 46) whose shaded side rounds off
// into a soft step: the step is a shade of the sweep's own hue and too
// soft for the floods to stop at, and not a line darker than both its
// sides, so no wall is there; its lit side is the sweep's tone, outlined
// at best by a faint rim. Every look before this one gives it to the
// backdrop. What outlines it is the edge itself: the residual of the
// image off the fitted backdrop (the sweep's bend, gradient and vignette
// taken out) changes across the outline by a step or a rim over a few
// pixels, where a soft shadow ramps over tens and the sweep nowhere.
//
// When every other look found nothing, a fifth (lookAtEdges) marks the
// edges of that residual (its change across four pixels at least
// whiteEdge levels, and whiteNoise times the backdrop's noise; half that
// where it joins a strong one, as in Canny's hysteresis), adds the faint
// lines, keeps the long ones (shadeLine pixels: never the grain), closes
// their gaps as fillOutlines does, and keeps a region they close as the
// product when it is one:
//
//   - it is compact: at least whiteArea of the image, filling
//     faintFill of its bounding box and touching at most one side;
//   - its outline is seen: at least whiteSeen of the region's border lies
//     within two pixels of an edge or a line;
//   - it is no shadow: whiteRim of its border lies on a long faint line (a rim,
//     which a soft shadow's ramp never makes), or its mean colour is no
//     shade of the backdrop (notAShade).
//
// The region is then kept out of the floods (as lookAtShading's hull) and
// the cut-out made round it. Where part of its outline was closed over a
// gap (under whiteSure of its border seen) it is delivered with the
// warning cutout_uncertain and not charged (warnInferred). whiteSure is
// measured on every set with truth (BenchmarkCutQuality): the white look's
// good cuts saw at least 0.964 of their border (a vase with a rim), the
// cuts it closed over more were a pink soap lost to its sweep (0.942 seen,
// IoU 0.20) and a white box whose rim is lost at its lit top (0.937, IoU
// 0.94).

const (
	whiteEdge  = 8.0     // the least change of the residual across four pixels that is an edge (levels)
	whiteNoise = 4       // and in units of the backdrop's noise
	whiteSeen  = 0.6     // the least share of a region's border on a seen edge
	whiteSure  = 0.95    // the share over which its outline is all seen (no warning)
	whiteRim   = 0.2     // the least share of its border on a faint line, unless its tones are no shade
	whiteArea  = 0.03    // the least share of the image a region holds (the sensor's grain closes smaller ones)
	whiteGap   = wideGap // an outline's gaps are closed up to 2 × whiteGap pixels
)

// lookAtEdges is the fifth look; ok is false when it finds no region its
// edges close.
func lookAtEdges(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool) (
	res cutout, ok bool, err error) {
	body, seen, err := edgedBody(ctx, img, tol, 2)
	if err != nil || body == nil {
		return cutout{}, false, err
	}
	res, ok, err = cutAroundBody(ctx, img, tol, feather, keepShadow, body, seen < whiteSure)
	res.unseen = 1 - seen
	return res, ok, err
}

// edgedBody is the inside of the regions the edges of img close (see
// above), less their outer two pixels, and the least share of a kept
// region's border that was seen; nil when none is a product. A border
// pixel is on a rim when a long faint line lies within reach pixels of it.
func edgedBody(ctx context.Context, img image.Image, tol float64, reach int) ([]int32, float64, error) {
	st, _, _, err := newCutState(ctx, img, tol)
	if err != nil {
		return nil, 0, err
	}
	defer st.release()
	st.candidates()
	st.walls()
	W, H, n := st.W, st.H, st.n
	edges := st.residualEdges()
	for i, l := range st.lines {
		edges[i] = edges[i] || l
	}
	off := longLines(edges, W, H)
	for i := range n {
		edges[i] = !off[i]
	}
	out := closedOutside(edges, W, H, whiteGap)
	defer boolPool.put(out)
	near := integralOf(edges, W, H)
	long := longLines(st.lines, W, H) // true off the long faint lines
	for i := range n {
		long[i] = !long[i]
	}
	rimNear := integralOf(long, W, H)
	rim := dilate(out, W, H, 2) // the region's outer two pixels: the outline's own, decided by the cut
	defer boolPool.put(rim)
	seen := make([]bool, n)
	var body []int32
	least := 1.0
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
		share, ok := st.edgedRegion(comp, out, near, rimNear, reach)
		if !ok {
			continue
		}
		least = min(least, share)
		for _, j := range comp {
			if !rim[j] {
				body = append(body, j)
			}
		}
	}
	if float64(len(body)) < minObjectShare*float64(n) {
		return nil, 0, nil
	}
	return body, least, nil
}

// edgedRegion tells whether region comp, closed off from the border (out
// is the outside), is a product (see above), and the share of its border
// within two pixels of an edge (near is the edges' integral); a border
// pixel is on a rim within reach pixels of a long faint line (rimNear).
func (st *cutState) edgedRegion(comp []int32, out []bool, near, rimNear []int32, reach int) (float64, bool) {
	W, H := st.W, st.H
	if float64(len(comp)) < whiteArea*float64(st.n) {
		return 0, false
	}
	x0, y0, x1, y1 := W, H, -1, -1
	border, onEdge, onRim := 0, 0, 0
	for _, j := range comp {
		x, y := int(j)%W, int(j)/W
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		if !touches(out, int(j), W, H) {
			continue
		}
		border++
		a, b, c, d := max(0, x-2), max(0, y-2), min(W, x+3), min(H, y+3)
		if near[d*(W+1)+c]-near[b*(W+1)+c]-near[d*(W+1)+a]+near[b*(W+1)+a] > 0 {
			onEdge++
		}
		a, b, c, d = max(0, x-reach), max(0, y-reach), min(W, x+reach+1), min(H, y+reach+1)
		if rimNear[d*(W+1)+c]-rimNear[b*(W+1)+c]-rimNear[d*(W+1)+a]+rimNear[b*(W+1)+a] > 0 {
			onRim++
		}
	}
	sides := 0
	for _, t := range [4]bool{x0 == 0, y0 == 0, x1 == W-1, y1 == H-1} {
		if t {
			sides++
		}
	}
	box := (x1 - x0 + 1) * (y1 - y0 + 1)
	if sides > 1 || float64(len(comp)) < faintFill*float64(box) || border == 0 {
		return 0, false
	}
	if float64(onRim) < whiteRim*float64(border) && !st.notAShade(comp) {
		return 0, false // a soft shadow alone: its ramp is an edge, but no rim and no tone of its own
	}
	share := float64(onEdge) / float64(border)
	return share, share >= whiteSeen
}

// residualEdges marks the edges of the image's residual off the fitted
// backdrop: 2 where it changes across four pixels (along a row or a
// column) by at least the edge level, 1 by half of it, kept by
// strongLines where a weak run joins a strong pixel. The mask goes back
// to the pool with boolPool.put.
func (st *cutState) residualEdges() []bool {
	W, H := st.W, st.H
	lum := smoothLum(st.px)
	res := make([]float32, st.n)
	resample.Rows(H, W, func(y int) {
		for i := y * W; i < y*W+W; i++ {
			if lum[i] < 0 {
				res[i] = 0
				continue
			}
			res[i] = lum[i] - float32(st.bd.lum(i, W))
		}
	})
	strong := float32(max(whiteEdge, whiteNoise*st.noise))
	level := bytePool.get(st.n)
	defer bytePool.put(level)
	clear(level)
	resample.Rows(H, W, func(y int) {
		if y < 2 || y >= H-2 {
			return
		}
		for x := 2; x < W-2; x++ {
			i := y*W + x
			g := max(abs32(res[i+2]-res[i-2]), abs32(res[i+2*W]-res[i-2*W]))
			switch {
			case g >= strong:
				level[i] = 2
			case g >= strong/2:
				level[i] = 1
			}
		}
	})
	return strongLines(level, W, H)
}

// closedOutside is what the edges leave open from the image's border once
// their gaps of up to 2g pixels are closed: the border's flood round the
// edges grown by g, grown back by g (a closing of the regions the edges
// shut off). It goes back to the pool with boolPool.put.
func closedOutside(edges []bool, W, H, g int) []bool {
	n := W * H
	band := dilate(edges, W, H, g)
	for i := range n {
		band[i] = !band[i]
	}
	seeds := borderSeeds(W, H)
	far := flood(band, W, H, seeds)
	boolPool.put(band)
	out := dilate(far, W, H, g)
	boolPool.put(far)
	return out
}

// A white body of which the cut-out keeps only a fragment (the gift box's
// lit top, a rim's sliver): the floods took the rest with the sweep. When
// the kept object is under fragmentShare of the image, the fifth look is
// tried too, and the sixth (lookAtHull) when the fifth finds no region
// its edges close (a box whose lit top and front share the sweep's tone
// leaves a gap of hundreds of pixels in its outline, more than any
// closing bridges) and the hull adds mostly the product (hullAddsProduct,
// cutwhiteguard.go); a look's cut is taken when it holds what was kept
// (fragmentHeld of it) and is at least fragmentGrowth times larger.
const (
	fragmentShare  = 0.02
	fragmentHeld   = 0.8
	fragmentGrowth = 3
)

// widerByEdges is the fifth or sixth look's cut-out of img when the
// cut-out st made (objShare of the image) is a fragment of it (see
// above); ok is false otherwise.
func widerByEdges(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool,
	st *cutState, objShare float64) (cutout, bool, error) {
	kept := st.px
	if objShare >= fragmentShare {
		return cutout{}, false, nil
	}
	res, ok, err := lookAtEdges(ctx, img, tol, feather, keepShadow)
	if err != nil {
		return cutout{}, false, err
	}
	if !ok {
		if res, ok, err = lookAtHull(ctx, img, tol, feather, keepShadow); err != nil || !ok {
			return cutout{}, false, err
		}
		if !st.hullAddsProduct(res) {
			return cutout{}, false, nil
		}
	}
	if res.objectShare < fragmentGrowth*objShare {
		return cutout{}, false, nil
	}
	was, held := 0, 0
	for i := 3; i < len(kept.Pix); i += 4 {
		if kept.Pix[i] > 0 {
			was++
			if res.img.Pix[i] > 0 {
				held++
			}
		}
	}
	if float64(held) < fragmentHeld*float64(was) {
		return cutout{}, false, nil
	}
	return res, true, nil
}
