package image

import (
	"image"
	"math"
)

// frameLeft is the share of the image's border band that a product
// crossing the frame shows and the cut leaves out (alpha under 128): the
// stretches the backdrop fit finds off the dominant backdrop
// (frameStretches, cutframe.go), less the samples that are the backdrop
// darkened evenly in every channel (a shadow running off the frame, rightly
// left out). A product cut by the frame whose crossing part is dropped as
// backdrop (a towel on marble taken for the backdrop, a plate cut to a
// sliver) shows here though its outline may follow real edges.
func frameLeft(cut *image.NRGBA, at func(x, y int) [3]int) float64 {
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	s := sampleBorderOf(W, H, func(i int) ([3]float64, bool) {
		c := at(i%W, i/W)
		return [3]float64{float64(c[0]), float64(c[1]), float64(c[2])}, true
	})
	bd, err := fitBackdrop(W, H, s.xs, s.ys, s.cols, frameTolRGB, true)
	if err != nil || bd.crossed == nil {
		return 0
	}
	left := 0
	for i, on := range bd.crossed {
		if !on || cut.Pix[s.ys[i]*cut.Stride+4*s.xs[i]+3] >= 128 || evenShade(s.cols[i], bd.at(s.xs[i], s.ys[i])) {
			continue
		}
		left++
	}
	return float64(left) / float64(max(1, len(s.xs)))
}

// evenShade tells whether colour c is backdrop colour b darkened by one
// factor in every channel (within shadeSpread): a shadow, not a product.
func evenShade(c, b [3]float64) bool {
	var r [3]float64
	for ch := range 3 {
		r[ch] = c[ch] / max(1, b[ch])
	}
	lo, hi := math.Min(r[0], math.Min(r[1], r[2])), math.Max(r[0], math.Max(r[1], r[2]))
	return hi < 1 && hi-lo <= shadeSpread
}

// frameTolRGB is the tolerance the quality's backdrop fit reads the border
// with (the cut-out's default, 1.5 × 12); shadeSpread is how far the
// channels' darkening factors of a shadow may differ (JPEG and noise).
const frameTolRGB, shadeSpread = 18, 0.05

// frameWeight is how much the frame's stretches left out (frameLeft) weigh
// against the cut's quality beyond frameFree of the border: a product's
// crossing of 8% of the border dropped about halves it (a cushion cut by
// the frame at a corner, its side along the frame left ragged, 4.6% of the
// border left out, IoU 0.84, quality 0.69 → 0.51).
const frameWeight, frameFree = 16, 0.02
