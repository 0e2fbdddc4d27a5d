package image

import (
	"image"
	"math"
	"slices"
)

// A clear body found by its outline (cutbare.go, cutoutline.go) shows the
// backdrop through it: inside it, the image is the backdrop dimmed by how much
// glass the light crosses, I ≈ t·B with t the transmission — near 1 in a
// tumbler's middle, lowest at its sides where the light crosses the most
// glass. Its alpha is read from that ratio: the densest part (the 98th
// percentile of 1 − I/B) is taken as opaque, the rest scaled to it, never
// under glassFloor (a body is never a hole); a highlight brighter than the
// backdrop gets the least alpha that keeps its colour in gamut. Colours
// are un-mixed as the see-through step does, F = B + (I − B)/α.

// withClearBody gives res's clear body its alpha (see above).
func withClearBody(src image.Image, res cutout, tol float64) cutout {
	W, H := res.img.Rect.Dx(), res.img.Rect.Dy()
	bd, _, _ := borderBackdrop(src, W, H, 1.5*tol)
	if bd == nil {
		return res
	}
	if share, ok := clearAlpha(res.img, bd, res.clearBody, res.clearBody); ok {
		res.seeThrough = share
	}
	return res
}

// clearAlpha gives the opaque pixels of body in cut their see-through
// alpha (see above), the densest glass measured over the opaque pixels of
// gauge (body, or body and the walls round it): the share of the object
// made see-through; false when too little of gauge is opaque to measure.
func clearAlpha(cut *image.NRGBA, bd *backdrop, body, gauge []bool) (float64, bool) {
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	// I − B over a 5 × 5 window of the gauge's opaque pixels: the sensor's
	// grain averaged out, so the glass is not speckled.
	diff := func(i int) [3]float64 {
		x, y := i%W, i/W
		var d [3]float64
		k := 0.0
		for yy := max(0, y-2); yy <= min(H-1, y+2); yy++ {
			for xx := max(0, x-2); xx <= min(W-1, x+2); xx++ {
				j := yy*W + xx
				if !gauge[j] || cut.Pix[4*j+3] != 255 {
					continue
				}
				p, b := cut.Pix[4*j:], bd.at(xx, yy)
				for ch := range 3 {
					d[ch] += float64(p[ch]) - b[ch]
				}
				k++
			}
		}
		return [3]float64{d[0] / k, d[1] / k, d[2] / k}
	}
	dim := func(i int, d [3]float64) float64 {
		b := bd.at(i%W, i/W)
		return -(d[0] + d[1] + d[2]) / max(b[0]+b[1]+b[2], 1)
	}
	ds := make(map[int][3]float64)
	var dims []float64
	object := 0
	for i, in := range gauge {
		if cut.Pix[4*i+3] > 0 {
			object++
		}
		if in && cut.Pix[4*i+3] == 255 {
			ds[i] = diff(i)
			dims = append(dims, dim(i, ds[i]))
		}
	}
	if len(dims) < 20 {
		return 0, false
	}
	slices.Sort(dims)
	dense := dims[len(dims)*98/100]
	if dense <= 0 {
		return 0, false
	}
	made := 0
	for i, in := range body {
		if !in || cut.Pix[4*i+3] != 255 {
			continue
		}
		p, b, d := cut.Pix[4*i:], bd.at(i%W, i/W), ds[i]
		a := max(glassFloor, min(1, dim(i, d)/dense), leastAlpha(d, b))
		if a >= 0.98 {
			continue
		}
		for ch := range 3 {
			p[ch] = clamp8(b[ch] + d[ch]/a)
		}
		p[3] = uint8(math.Round(255 * a))
		made++
	}
	return float64(made) / float64(max(object, 1)), true
}
