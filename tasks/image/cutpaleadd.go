package image

import (
	"image"
	"math"
)

// The repair for paleParts' evidence (cutpale.go): a pale part left
// outside the cut, walled in beside it by its own faint outline (a white
// lid on a tumbler, a perfume's pale foot, a cream mug's lit side on
// linen), is given back to the cut as opaque product. Only a pocket that
// is a part is: one attached to the body along a stretch of its rim
// (paleShared), no larger than the cut, beside no see-through body (the glass stages made the
// kept pixels round it see-through: the pocket is the backdrop seen
// through clear glass, paleSeeThrough) and whose content departs from the
// backdrop seen just beyond its wall (paleDepart): the backdrop inside a
// hanger's thin bar, a picture frame, a ring or a handle continues the
// backdrop outside, so such a hole stays backdrop.

// paleShared is the least length of a pocket's rim (grid neighbours, as
// palePocket counts it) beside the cut for it to be a part of the body,
// and paleSharedShare the least share of its rim: a part sits on the body
// (a cream mug's lit side 0.084 of its rim and 399 long, a white lid 0.13
// and 181, a pale foot 0.17 and 102, a pile's white box 87, a cream lid on
// linen 69), the backdrop under a headphones' thin band touches it at the
// band's ends only (0.063), the pale pockets beside their ear cups along
// 14 and 16. A pocket larger than the whole cut is no part
// either: the inside of a wire hanger (6 times its wire), of a band.
const (
	paleShared      = 24
	paleSharedShare = 0.075
)

// paleSeeThrough is the largest share of the kept pixels round a pocket
// (2 to 5 grid px from it) that may be see-through (alpha under 200); over
// it the pocket is the inside of a glass (a clear tumbler's: 0.98; a
// translucent tumbler's lid 0.19, a pile's white box 0.48).
const paleSeeThrough = 0.5

// paleDepart is the least departure (levels summed over the channels) of
// a pocket's mean colour, less the fitted backdrop, from that of the
// backdrop reached from the frame just beyond its wall (within 7 grid
// px; a pocket with none that near is not given back: a white jug's
// handle hole, walled in by the jug, was filled when read against the
// fitted backdrop, and so is a pile's white box walled in among other
// boxes), or paleDepartNoise times the noise if more: a pile's white box
// departs by 4.2 from the fitted backdrop, a perfume's pale foot by 11.8,
// a hanger's inside by 0.0.
const (
	paleDepart      = 3
	paleDepartNoise = 2
)

// withPaleParts gives back to the cut the pale parts that paleParts finds
// left outside it (see above); a cut whose clear body was found by its
// outline (res.clearBody) is glass and left as it is.
func withPaleParts(src image.Image, res cutout) cutout {
	if res.clearBody != nil {
		return res
	}
	v, ok := readPartsView(res.img, pixelReader(src))
	if !ok {
		return res
	}
	defer v.release()
	pockets, _ := palePockets(v)
	if len(pockets) == 0 {
		return res
	}
	W, H := v.W, v.H
	free := paleFreeOf(v)
	defer boolPool.put(free)
	reach := outerBackground(free, W, H)
	defer boolPool.put(reach)
	in := boolPool.get(W * H)
	defer boolPool.put(in)
	for _, p := range pockets {
		if p.cutSide < paleShared || float64(p.cutSide) < paleSharedShare*float64(p.own+p.cutSide) ||
			len(p.px) > v.area || 2*p.light < len(p.px) {
			continue
		}
		clear(in)
		for _, j := range p.px {
			in[j] = true
		}
		grown := dilate(in, W, H, 2)
		if palePart(res.img, v, p, in, reach) {
			fillPocket(src, res.img, v, grown, reach)
		}
		boolPool.put(grown)
	}
	return res
}

// palePart tells whether pocket p (its grid pixels in) is a part of the
// product: beside no see-through body and departing from the backdrop
// beyond its wall (see paleSeeThrough and paleDepart).
func palePart(cut *image.NRGBA, v partsView, p palePocket, in, reach []bool) bool {
	W, H := v.W, v.H
	d2, d5, d7 := dilate(in, W, H, 2), dilate(in, W, H, 5), dilate(in, W, H, 7)
	defer boolPool.put(d2)
	defer boolPool.put(d5)
	defer boolPool.put(d7)
	var mIn, mOut [3]float64
	nOut, kept, see := 0, 0, 0
	for i := range W * H {
		switch {
		case d5[i] && !d2[i] && v.kept[i]:
			kept++
			if cut.Pix[(i/W)*v.s*cut.Stride+4*(i%W)*v.s+3] < 200 {
				see++
			}
		case d7[i] && reach[i]:
			pc, bc := v.colour(i)
			for c := range 3 {
				mOut[c] += pc[c] - bc[c]
			}
			nOut++
		}
	}
	if float64(see) > paleSeeThrough*float64(kept) || nOut == 0 {
		return false
	}
	for _, j := range p.px {
		pc, bc := v.colour(j)
		for c := range 3 {
			mIn[c] += pc[c] - bc[c]
		}
	}
	diff := 0.0
	for c := range 3 {
		diff += mIn[c]/float64(len(p.px)) - mOut[c]/float64(nOut)
	}
	return math.Abs(diff) >= max(paleDepart, paleDepartNoise*v.noise)
}

// fillPocket makes the full-resolution pixels of cut under grid pixels of
// grown (a pocket grown into its walls) that are neither kept nor reached
// from the frame opaque product, in src's colour.
func fillPocket(src image.Image, cut *image.NRGBA, v partsView, grown, reach []bool) {
	at := pixelReader(src)
	W0, H0 := cut.Rect.Dx(), cut.Rect.Dy()
	for y := range H0 {
		gy := min(y/v.s, v.H-1)
		for x := range W0 {
			i := gy*v.W + min(x/v.s, v.W-1)
			if !grown[i] || v.kept[i] || reach[i] {
				continue
			}
			o := y*cut.Stride + 4*x
			c := at(x, y)
			cut.Pix[o], cut.Pix[o+1], cut.Pix[o+2], cut.Pix[o+3] = uint8(c[0]), uint8(c[1]), uint8(c[2]), 255
		}
	}
}
