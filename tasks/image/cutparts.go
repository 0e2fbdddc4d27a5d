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

// partsSide is the long side (px) the image is read at for missedParts.
const partsSide = 512

// partsTolRGB is the distance (RGB) from the backdrop under which a pixel
// is the backdrop: the default tolerance's (12, as the cut's tolRGB).
const partsTolRGB = 1.5 * 12

// missedParts is the area off the backdrop left above the cut (see above)
// over the cut's area (alpha ≥ 13): 0 when the backdrop cannot be fitted.
func missedParts(cut *image.NRGBA, at func(x, y int) [3]int) float64 {
	W0, H0 := cut.Rect.Dx(), cut.Rect.Dy()
	s := max(1, (max(W0, H0)+partsSide-1)/partsSide)
	W, H := W0/s, H0/s
	if W < 8 || H < 8 {
		return 0
	}
	smp := sampleBorderOf(W0, H0, func(i int) ([3]float64, bool) {
		c := at(i%W0, i/W0)
		return [3]float64{float64(c[0]), float64(c[1]), float64(c[2])}, true
	})
	bd, err := fitBackdrop(W0, H0, smp.xs, smp.ys, smp.cols, partsTolRGB)
	if err != nil {
		return 0
	}
	far := max(partsTolRGB, 4*backdropNoise(bd, smp.xs, smp.ys, smp.cols, partsTolRGB))
	kept := boolPool.get(W * H)
	defer boolPool.put(kept)
	area, rows := 0, 0
	for y := range H {
		for x := range W {
			k := cut.Pix[y*s*cut.Stride+4*x*s+3] >= 13
			kept[y*W+x] = k
			if k {
				area++
				rows += y
			}
		}
	}
	if area == 0 {
		return 0
	}
	mid := rows / area
	// Only what lies outside the cut counts: a gap the cut cleared inside
	// the product (a ring's middle in its shadow) is off the backdrop too.
	gone := boolPool.get(W * H)
	defer boolPool.put(gone)
	for i, k := range kept[:W*H] {
		gone[i] = !k
	}
	outside := outerBackground(gone, W, H)
	defer boolPool.put(outside)
	near := dilate(kept, W, H, max(2, missedBand/s))
	defer boolPool.put(near)
	off := boolPool.get(W * H) // off the backdrop, read only above the middle
	defer boolPool.put(off)
	clear(off)
	for y := range min(H, mid+1) {
		for x := range W {
			c := at(x*s, y*s)
			off[y*W+x] = dist3([3]float64{float64(c[0]), float64(c[1]), float64(c[2])}, bd.at(x*s, y*s)) > far
		}
	}
	left := 0 // off pixels whose four neighbours are off too: a solid part, not a backdrop's grain
	for y := 1; y < mid; y++ {
		for x := 1; x < W-1; x++ {
			i := y*W + x
			if !near[i] && outside[i] && off[i] && off[i-1] && off[i+1] && off[i-W] && off[i+W] {
				left++
			}
		}
	}
	return float64(left) / float64(area)
}
