package photoshoot

import (
	"image"

	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/faces"
)

// hairDE is how far from the hair's tone (read where hair meets the
// face) a pixel of the hair's region may be: strands, highlights, shade.
const hairDE = 18

// minSideSeeds is the least number of seeds, as a share of the face's
// pixels, that must lie beside the face (the temples) for their tone to be
// read as the hair's apart from what covers the top of the head.
const minSideSeeds = 0.01

// wrapShare is the share of the band under the chin that, in the tone
// framing the face, makes it a covering (a headscarf wraps under the
// chin; hair falls behind the neck).
const wrapShare = 0.5

// hairRead is readHair's answer: the region read and its pixels, or
// covered when what frames the face is a headscarf (no hair read).
type hairRead struct {
	area    image.Rectangle
	px      []colour.Lab
	covered bool
}

// readHair reads the hair of a face (its pixels face, its box) whose
// skin tone is skin: where hair is sure to be, touching the face's
// outline above its middle (the hairline, the temples) within an eighth
// of the face's width, the pixels in hair colours (isHairLab: not a navy
// cap, not a green hat) that are neither the backdrop nor the skin. The
// seeds beside the face, at the temples, show the hair even where the top
// of the head is covered (a black cap or a brown hat over grey or blond
// hair): when there are enough of them their median is the hair's tone,
// otherwise (hair only over the forehead) all seeds' median is.
// When that tone also fills the band under the chin, it wraps the face
// (a headscarf): the hair is covered and none is read. The hair is then
// every such pixel of the region above and around the face (half a face
// above it, a quarter to each side) within hairDE of the tone: a grey
// wall or a light backdrop behind the head is not hair unless the hair is
// that colour.
func readHair(lab []colour.Lab, back []bool, face []int, box image.Rectangle, skin colour.Lab,
	W, H int) hairRead {
	fh := min(box.Dy(), box.Dx()*4/3)
	inFace := make([]bool, W*H)
	for _, i := range face {
		inFace[i] = true
	}
	isHair := func(i int) bool {
		return !back[i] && !inFace[i] && colour.DeltaE(lab[i], skin) >= hairSkinDE && isHairLab(lab[i])
	}
	// The ring touching the face's outline, above its middle; the temples
	// are its part beside the face, below the head's top third.
	d := max(2, box.Dx()/8)
	ring := make([]bool, W*H)
	var side, top []colour.Lab
	for _, i := range face {
		x, y := i%W, i/W
		if y > box.Min.Y+fh/2 {
			continue
		}
		for ny := max(0, y-d); ny <= min(H-1, y+d); ny++ {
			for nx := max(0, x-d); nx <= min(W-1, x+d); nx++ {
				j := ny*W + nx
				if ring[j] || ny > box.Min.Y+fh/2 || !isHair(j) {
					continue
				}
				ring[j] = true
				if ny > box.Min.Y+fh/3 && (nx < box.Min.X+d || nx >= box.Max.X-d) {
					side = append(side, lab[j])
				} else {
					top = append(top, lab[j])
				}
			}
		}
	}
	if len(side)+len(top) == 0 {
		return hairRead{}
	}
	tone := faces.MedianLab(append(append([]colour.Lab{}, side...), top...))
	if float64(len(side)) >= minSideSeeds*float64(len(face)) {
		tone = faces.MedianLab(side) // the temples show the hair, whatever covers the top of the head
	}
	if wrapsChin(lab, box, fh, tone, W, H, func(i int) bool {
		return !back[i] && colour.DeltaE(lab[i], skin) >= hairSkinDE && isHairLab(lab[i])
	}) {
		return hairRead{covered: true}
	}
	area := image.Rect(box.Min.X-box.Dx()/4, box.Min.Y-fh/2, box.Max.X+box.Dx()/4, box.Min.Y+fh/2).
		Intersect(image.Rect(0, 0, W, H))
	var px []colour.Lab
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			i := y*W + x
			if !isHair(i) || colour.DeltaE(lab[i], tone) >= hairDE {
				continue
			}
			if y >= box.Min.Y && x >= box.Min.X && x < box.Max.X && !ring[i] {
				continue // beside the face only, not over its features
			}
			px = append(px, lab[i])
		}
	}
	return hairRead{area: area, px: px}
}

// wrapsChin says whether the band under the face's chin (a tenth of the
// face's height, across its middle half) is at least wrapShare in tone,
// within hairDE, of pixels that could be hair (hairLike: not the skin of
// the neck): a headscarf closed under the chin, where hair leaves the
// neck to show.
func wrapsChin(lab []colour.Lab, box image.Rectangle, fh int, tone colour.Lab, W, H int,
	hairLike func(int) bool) bool {
	chin := box.Min.Y + fh
	band := image.Rect(box.Min.X+box.Dx()/4, chin, box.Max.X-box.Dx()/4, chin+max(2, fh/10)).
		Intersect(image.Rect(0, 0, W, H))
	n, in := 0, 0
	for y := band.Min.Y; y < band.Max.Y; y++ {
		for x := band.Min.X; x < band.Max.X; x++ {
			i := y*W + x
			n++
			if hairLike(i) && colour.DeltaE(lab[i], tone) < hairDE {
				in++
			}
		}
	}
	return n > 0 && float64(in) >= wrapShare*float64(n)
}
