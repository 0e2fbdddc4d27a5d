package image

import "image"

// The cut quality's third evidence: parts of the product left in the
// backdrop. A cut that drops a part (a headphone's band, a pump's nozzle, a
// tumbler's rim, a box's lit top) leaves pixels off the backdrop outside
// it; so do the product's shadows, but a shadow lies on the floor, under
// the body's middle. What is left off the backdrop (farther from the
// border-fitted backdrop, cutbackdrop.go, than the tolerance and four
// times its noise), outside the cut (reached from the frame), farther
// than missedBand from the cut and above the
// kept object's centroid, in solid patches (not a textured backdrop's
// grain), is a part the cut missed; its area over the
// kept object's is missedParts. (In the manner of the region terms of
// segmentation-quality estimates, e.g. Kohlberger et al., "Evaluating
// segmentation error without ground truth", MICCAI 2012: the cut's
// consistency with the image outside it.)

// partsSide is the long side (px) the image is read at for missedParts,
// castShadowKept and leftStrands.
const partsSide = 512

// partsTolRGB is the distance (RGB) from the backdrop under which a pixel
// is the backdrop: the default tolerance's (12, as the cut's tolRGB).
const partsTolRGB = 1.5 * 12

// partsView is the cut read at partsSide for the evidence of what it left
// outside (missedParts, leftStrands) or kept (castShadowKept): the fitted
// backdrop, the kept pixels and the backdrop reached from the frame.
type partsView struct {
	at        func(x, y int) [3]int
	bd        *backdrop
	noise     float64 // the backdrop's σ (levels)
	far       float64 // farther than this from the backdrop is off it
	s, W, H   int     // the grid: every s-th pixel, W × H
	kept      []bool  // alpha ≥ 13
	area, mid int     // kept pixels; the kept object's centroid row
	outside   []bool  // not kept, reached from the frame
	near      []bool  // within missedBand of the cut
}

// readPartsView reads cut at partsSide; ok is false when the image is too
// small, the backdrop cannot be fitted or nothing is kept. Its masks go
// back to the pool with release.
func readPartsView(cut *image.NRGBA, at func(x, y int) [3]int) (v partsView, ok bool) {
	W0, H0 := cut.Rect.Dx(), cut.Rect.Dy()
	v.at = at
	v.s = max(1, (max(W0, H0)+partsSide-1)/partsSide)
	v.W, v.H = W0/v.s, H0/v.s
	W, H, s := v.W, v.H, v.s
	if W < 8 || H < 8 {
		return v, false
	}
	smp := sampleBorderOf(W0, H0, func(i int) ([3]float64, bool) {
		c := at(i%W0, i/W0)
		return [3]float64{float64(c[0]), float64(c[1]), float64(c[2])}, true
	})
	bd, err := fitBackdrop(W0, H0, smp.xs, smp.ys, smp.cols, partsTolRGB, true)
	if err != nil {
		return v, false
	}
	v.bd = bd
	v.noise = backdropNoise(bd, smp.xs, smp.ys, smp.cols, partsTolRGB)
	v.far = max(partsTolRGB, 4*v.noise)
	v.kept = boolPool.get(W * H)
	rows := 0
	for y := range H {
		for x := range W {
			k := cut.Pix[y*s*cut.Stride+4*x*s+3] >= 13
			v.kept[y*W+x] = k
			if k {
				v.area++
				rows += y
			}
		}
	}
	if v.area == 0 {
		boolPool.put(v.kept)
		return v, false
	}
	v.mid = rows / v.area
	// Only what lies outside the cut counts: a gap the cut cleared inside
	// the product (a ring's middle in its shadow) is off the backdrop too.
	gone := boolPool.get(W * H)
	defer boolPool.put(gone)
	for i, k := range v.kept[:W*H] {
		gone[i] = !k
	}
	v.outside = outerBackground(gone, W, H)
	v.near = dilate(v.kept, W, H, max(2, missedBand/s))
	return v, true
}

func (v partsView) release() {
	boolPool.put(v.kept)
	boolPool.put(v.outside)
	boolPool.put(v.near)
}

// colour is the image's colour and the backdrop's at grid pixel i.
func (v partsView) colour(i int) (p, b [3]float64) {
	x, y := (i%v.W)*v.s, (i/v.W)*v.s
	c := v.at(x, y)
	return [3]float64{float64(c[0]), float64(c[1]), float64(c[2])}, v.bd.at(x, y)
}

// missedParts is the area off the backdrop left above the cut (see above)
// over the cut's area (alpha ≥ 13).
func missedParts(v partsView) float64 {
	W, H, mid := v.W, v.H, v.mid
	off := boolPool.get(W * H) // off the backdrop, read only above the middle
	defer boolPool.put(off)
	clear(off)
	for i := range min(H, mid+1) * W {
		p, b := v.colour(i)
		off[i] = dist3(p, b) > v.far
	}
	left := 0 // off pixels whose four neighbours are off too: a solid part, not a backdrop's grain
	for y := 1; y < mid; y++ {
		for x := 1; x < W-1; x++ {
			i := y*W + x
			if !v.near[i] && v.outside[i] && off[i] && off[i-1] && off[i+1] && off[i-W] && off[i+W] {
				left++
			}
		}
	}
	return float64(left) / float64(v.area)
}
