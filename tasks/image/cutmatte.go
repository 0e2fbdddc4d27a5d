package image

import (
	"context"
	"errors"
	"fmt"
	"image"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

// The cut-out in five steps, each in its own file:
//
//  1. A backdrop model (cutbackdrop.go): a quadratic surface per channel
//     fitted (robustly, dropping outliers) to a band along the image's
//     border, so sweeps, gradients and vignettes are the backdrop
//     everywhere.
//  2. Background candidates (cutcandidates.go): pixels near the model, or
//     darker versions of it with the same chromaticity (a shadow is the
//     backdrop times a factor below 1; a product has its own colour); and
//     the faint lines (rimLines, cutedges.go) that wall the second flood.
//  3. Region connectivity (cutsegment.go): a flood from the border
//     through candidates that stops at sharp steps (a product's outline, a
//     seam), then enclosed regions that are the backdrop itself (a
//     handle's hole), and specks removed. It runs twice: once stopped by
//     steps only, once by faint lines too (a white mug's rim, a tee's
//     hem); the second adds what it keeps only where that is a solid
//     region whose tones do not continue the backdrop (keepCompact,
//     cutkeep.go), or a thin one brighter than the backdrop (a white
//     handle), never a shadow's tail or JPEG's ringing. White fills
//     inside thin black outlines stay (inkBounded); narrow inlets of
//     backdrop reaching into the product go back to it (closeInlets), and
//     so do shaded regions inside the object's convex hull that grow
//     darker away from it, as a shadow never does (keepShadedPanels,
//     cutpanel.go: a ball's white panel on its shadow side). A thin
//     shaded part between two faint rims is kept too (ribbon,
//     cutribbon.go: a pair of scissors' grey handles); the see-through
//     regions a product's outline closes are filled (fillOutlines,
//     cutoutline.go: clear glass as pale as the sweep); kept shadows on
//     the floor next to the background go back to it (peelShadows,
//     cutpeel.go: a contact shadow walled as a faint line), and small
//     enclosed spots of their own colour back to the product
//     (keepOwnSpots, cutspots.go: a shirt's grey buttons); last, the
//     outline's pixels that are mostly backdrop beside a darker rim go
//     back to it (refineOutline, cutrefine.go: no pixel of backdrop
//     round a white mug or in its handle's hole).
//  4. Matting in a band around the outline (cutalpha.go): each pixel's
//     alpha unmixed between the local backdrop and the local product
//     colour.
//  5. Colour decontamination: edge pixels get the product's colour
//     without the backdrop's share, so no halo.

// cutOutMatte is cutOut: it fails with the reason when the backdrop is not
// plain (under minBorderShare of the border near the fitted backdrop) or
// no object is left.
// With keepShadow the shadow is not dropped but drawn again behind the
// product as a soft neutral layer (see cutshadow.go).
func cutOutMatte(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool) (cutout, error) {
	st, share, bgMid, err := newCutState(ctx, img, tol)
	if err != nil {
		return cutout{}, err
	}
	defer st.release()
	objShare, err := st.cut(feather, keepShadow)
	if err != nil {
		return cutout{}, err
	}
	if objShare < minObjectShare {
		if res, ok, err := lookAgain(ctx, img, st.tol, st.noise, feather, keepShadow); ok || err != nil {
			return res, err
		}
		if res, ok, err := lookAtOutlines(ctx, img, tol, feather, keepShadow); ok || err != nil {
			return res, err
		}
		if res, ok, err := lookAtShading(ctx, img, tol, feather, keepShadow); ok || err != nil {
			return res, err
		}
		if res, ok, err := lookAtEdges(ctx, img, tol, feather, keepShadow); ok || err != nil {
			return res, err
		}
		if res, ok, err := lookAtHull(ctx, img, tol, feather, keepShadow); ok || err != nil {
			return res, err
		}
		return cutout{}, refusal(ctx, img, tol, bgMid)
	}
	if res, ok, err := widerByEdges(ctx, img, tol, feather, keepShadow, st, objShare); ok || err != nil {
		return res, err
	}
	if res, ok, err := widerByClearOutline(ctx, img, tol, feather, keepShadow, st); ok || err != nil {
		return res, err
	}
	return cutout{img: st.px, background: bgMid, objectShare: objShare, confidence: share, clearBody: st.clearBody}, nil
}

// cut runs steps 2 to 5 on st and writes the cut-out into st.px: the
// share of pixels kept.
func (st *cutState) cut(feather int, keepShadow bool) (float64, error) {
	st.candidates()
	if err := st.ctx.Err(); err != nil {
		return 0, err
	}
	st.walls()
	st.dropSeams()
	isBg := st.background()
	defer boolPool.put(isBg)

	var shade []float32
	if keepShadow {
		shade = shadowDensity(st.px, st.bd, isBg)
	}
	return st.compose(isBg, st.softEdges(isBg, feather), shade), nil
}

// newCutState reads img and fits its backdrop (step 1): the state, the
// confidence (the share of the border near the backdrop) and the
// backdrop's colour at the centre. It fails when the border is
// transparent or under minBorderShare of it is near the backdrop.
func newCutState(ctx context.Context, img image.Image, tol float64) (*cutState, float64, colour.Lab, error) {
	src := newCutSource(img)
	px := src.px
	if px == nil {
		px = cloneNRGBA(img) // a JPEG's planes, converted by image/draw's fast path
	}
	stepMax := max(2.5*tol, 20)
	st := &cutState{ctx: ctx, px: px, W: src.w, H: src.h, n: src.w * src.h, tol: tol, tolRGB: 1.5 * tol,
		stepMax2: int(stepMax * stepMax)}
	s := sampleBorder(st)
	bd, err := fitBackdrop(st.W, st.H, s.xs, s.ys, s.cols, st.tolRGB, true)
	whole, errWhole := fitBackdrop(st.W, st.H, s.xs, s.ys, s.cols, st.tolRGB, false)
	if err != nil || errWhole != nil {
		return nil, 0, colour.Lab{}, errors.New("the background cannot be separated: the image's border is transparent")
	}
	st.bd = bd
	share := s.plainShare(whole, st.tolRGB)
	st.noise = backdropNoise(bd, s.xs, s.ys, s.cols, st.tolRGB)
	st.textured = share < chippedShare
	mid := bd.at(st.W/2, st.H/2)
	bgMid := colour.LabOf8(clamp8(mid[0]), clamp8(mid[1]), clamp8(mid[2]))
	if share < minBorderShare {
		return nil, share, bgMid, &tasks.LowConfidence{Confidence: share, Err: fmt.Errorf(
			"the background cannot be separated: only %.0f%% of the image's border is within tolerance %g of a plain or "+
				"evenly graded backdrop (%s at the centre), a confidence of %.2f, under the %.2f a cut-out needs; a plain "+
				"backdrop is needed, not a scene (or raise tolerance)",
			100*share,
			tol,
			bgMid.Hex(),
			share,
			minBorderShare,
		)}
	}
	return st, share, bgMid, nil
}

// background is step 3's result: the plain flood's background less the
// solid regions the walled flood keeps whose tones are the product's
// (keepCompact), with the narrow inlets given back to the product and
// the outline refined (refineOutline). It goes back to the pool with
// boolPool.put.
func (st *cutState) background() []bool {
	plainSeg, walledSeg := st.segment(false), st.segment(true)
	depth := max(3, 2.5*st.noise) // a rim's (rimLines)
	isBg := keepCompact(plainSeg, walledSeg, st.rims, st.lines, st.W, st.H, st.lift, st.lum3, depth,
		lightEdge*st.tolRGB, func(c []int32) bool {
			return st.ownTones(c, walledSeg)
		})
	wideSeg := st.segmentGap(true, wideGap)
	isBg = keepCompact(isBg, wideSeg, st.rims, st.lines, st.W, st.H, st.lift, st.lum3, depth,
		lightEdge*st.tolRGB, func(c []int32) bool {
			return st.ownTones(c, wideSeg) && st.notAShadow(c, wideSeg)
		})
	st.smoothTextures(isBg)
	closeInlets(isBg, st.W, st.H)
	st.keepShadedPanels(isBg)
	st.fillOutlines(isBg)
	if st.bare {
		st.fillBareOutlines(isBg)
	}
	st.peelShadows(isBg, false)
	st.peelHardShadows(isBg)
	st.peelShadows(isBg, true) // the contact shadow the hard one hid, and the bands under a rim
	st.keepOwnSpots(isBg)
	st.keepHueRegions(isBg)
	st.clearShadedGaps(isBg)
	st.refineOutline(isBg)
	st.dropGrainSpecks(isBg)
	return isBg
}

// wideGap is how far the walls are widened for the third flood: a light
// body's faint outline broken for up to 2 × wideGap pixels.
const wideGap = 10

// lift is pixel i's luminance above the backdrop's there in units of
// the lit margin (max(5, 3·noise)): over 1 a lit white part, under -1 a
// shade.
func (st *cutState) lift(i int) float64 {
	p, b := st.px.Pix[4*i:], st.bd.at(i%st.W, i/st.W)
	return (float64(p[0]) + float64(p[1]) + float64(p[2]) - b[0] - b[1] - b[2]) / 3 / max(5, 3*st.noise)
}

// ownTones tells whether region c, kept by the walled flood (walled), is
// the product's: a light part is partly in the backdrop's own tones but
// does not continue them (a region all in shadow tones is a shadow cut
// off by JPEG's ringing), or its outline is a step all round (glass, a
// grey body).
func (st *cutState) ownTones(c []int32, walled []bool) bool {
	W := st.W
	lumRes := func(j int) float64 {
		p, b := st.px.Pix[4*j:], st.bd.at(j%W, j/W)
		return (float64(p[0]) + float64(p[1]) + float64(p[2]) - b[0] - b[1] - b[2]) / 3
	}
	nearby := 0
	for _, j := range c {
		if st.near[j] {
			nearby++
		}
	}
	open := func(j int) bool { return st.near[j] && !st.rims[j] } // its tones, not the lines round it
	if enclosedStats(c, open, lumRes, W).nearBackdrop(st.noise) {
		return false
	}
	return 4*nearby >= len(c) || st.notAShade(c) || sharpShare(c, walled, st.lum3, W, st.H, max(12, 4*st.noise)) >= 0.3 ||
		st.plateau(c, walled)
}

// stepLeast is the least step, in levels, that makes a region's outline
// sharp (ownTones): minStep, or stepNoise times the backdrop's noise —
// a difference of two pixels that noise alone makes once in millions.
// In units of noise, not a fixed ΔE: a grey product 10 levels off a grey
// sweep, or a black one 20 levels under charcoal (under ΔE 12), has one.
func (st *cutState) stepLeast() float64 { return max(minStep, stepNoise*st.noise) }

const minStep, stepNoise = 8, 5

// notAShadow tells whether region c is more than a shadow: not a shade
// (notAShade), or lit in places (at least litShare of its pixels, lift >
// 1) — a white body's lit side, which a shadow never has.
func (st *cutState) notAShadow(c []int32, walled []bool) bool {
	lit := 0
	for _, j := range c {
		if st.lift(int(j)) > 1 {
			lit++
		}
	}
	return float64(lit) >= litShare*float64(len(c)) || st.notAShade(c) || st.plateau(c, walled)
}

// litShare is the least share of lit pixels that makes a region in a
// shadow's mean tones more than a shadow (notAShadow).
const litShare = 0.1

// notAShade tells whether region c's mean colour cannot be a shadow on
// the backdrop: it is brighter than the backdrop there, or its own hue
// (its chromaticity off the backdrop's by more than JPEG's and the
// noise's shifts) — a pale pink or blue product, a cream one on white.
func (st *cutState) notAShade(c []int32) bool {
	var d [3]float64
	var bb [3]float64
	for _, j := range c {
		p, b := st.col(int(j)), st.bd.at(int(j)%st.W, int(j)/st.W)
		for ch := range 3 {
			d[ch] += p[ch] - b[ch]
			bb[ch] += b[ch]
		}
	}
	m := float64(len(c))
	for ch := range 3 {
		d[ch], bb[ch] = d[ch]/m, bb[ch]/m
	}
	if (d[0]+d[1]+d[2])/3 > max(3, 2*st.noise) {
		return true
	}
	// The mean colour less its shade of the backdrop: the chroma left.
	p := [3]float64{bb[0] + d[0], bb[1] + d[1], bb[2] + d[2]}
	s := (p[0]*bb[0] + p[1]*bb[1] + p[2]*bb[2]) / max(bb[0]*bb[0]+bb[1]*bb[1]+bb[2]*bb[2], 1)
	return dist3(p, [3]float64{s * bb[0], s * bb[1], s * bb[2]}) > max(5, 3*st.noise)
}

// compose writes the cut-out into st.px: the soft edges' alpha and
// colours, the kept shadow's layer where shade is not nil, transparent
// black on the background. It returns the share of pixels kept.
func (st *cutState) compose(isBg []bool, edges []edge, shade []float32) float64 {
	W, H, n, px := st.W, st.H, st.n, st.px
	alpha := bytePool.get(n)
	defer bytePool.put(alpha)
	for i := range n {
		alpha[i] = 0
		if !isBg[i] {
			alpha[i] = 255
		}
	}
	for _, e := range edges {
		alpha[e.i] = e.a
		p := px.Pix[4*e.i:]
		p[0], p[1], p[2] = e.r, e.g, e.b
	}
	objects := make([]int, H) // by row
	resample.Rows(H, W, func(y int) {
		for i := y * W; i < y*W+W; i++ {
			p := px.Pix[4*i : 4*i+4]
			a := uint8(int(alpha[i]) * int(p[3]) / 255)
			if a > 0 {
				objects[y]++
			}
			if shade != nil && shade[i] > 0 && a < 255 {
				c, sa := withShadow([3]uint8{p[0], p[1], p[2]}, a, shade[i])
				p[0], p[1], p[2], p[3] = c[0], c[1], c[2], sa
				continue
			}
			if a == 0 {
				p[0], p[1], p[2], p[3] = 0, 0, 0, 0
				continue
			}
			p[3] = a
		}
	})
	object := 0
	for _, k := range objects {
		object += k
	}
	return float64(object) / float64(n)
}
