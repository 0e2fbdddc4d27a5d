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
	// strands says the hair was read from its strands (grained seeds).
	strands bool
}

// hairGrain is the grain (faces.Grain, in L* units) from which a pixel
// shows strands: hair in a photo read at 512 px is fine-grained, a cap, a
// hood or a painted backdrop is smooth.
const hairGrain = faces.StrandGrain

// readHair reads the hair of a face (its pixels face, its box) whose
// skin tone is skin: where hair is sure to be, touching the face's
// outline above its middle (the hairline, the temples) within an eighth
// of the face's width, the pixels in hair colours (isHairLab: not a navy
// cap, not a green hat) that are neither the backdrop nor the skin. The
// seeds beside the face, at the temples, show the hair even where the top
// of the head is covered (a black cap or a brown hat over grey or blond
// hair): when there are enough of them their median is the hair's tone,
// otherwise (hair only over the forehead) all seeds' median is. Where one
// group of seeds shows strands (its median grain at least hairGrain) and
// the other does not, the grained group is the hair: a smooth cap of a
// hair colour over the top of the head, or a mottled backdrop beside a
// short cut, is not.
// When that tone also fills the band under the chin, it wraps the face
// (a headscarf), or when smooth it runs unbroken from the face down to the
// photo's bottom edge (a hood, part of the garment), the hair is covered
// and none is read. The hair is then every such pixel of the region above
// and around the face (half a face above it, a quarter to each side)
// within hairDE of the tone, and grained like the seeds when they are: a
// grey wall or a light backdrop behind the head is not hair unless the
// hair is that colour.
func readHair(lab []colour.Lab, grain []float64, back []bool, face []int, box image.Rectangle, skin colour.Lab,
	W, H int) hairRead {
	fh := min(box.Dy(), box.Dx()*4/3)
	inFace := make([]bool, W*H)
	for _, i := range face {
		inFace[i] = true
	}
	// Hair is hair-coloured and apart from the skin: hairSkinDE from its
	// tone, or of no skin's hue and chroma (white or grey hair beside very
	// light skin is nearer than that but has no skin's colour).
	hairLike := func(i int) bool {
		return !back[i] && isHairLab(lab[i]) &&
			(colour.DeltaE(lab[i], skin) >= hairSkinDE || !faces.IsSkinLab(lab[i]))
	}
	isHair := func(i int) bool { return !inFace[i] && hairLike(i) }
	// The ring touching the face's outline, above its middle; the temples
	// are its part beside the face, below the head's top third.
	d := max(2, box.Dx()/8)
	ring := make([]bool, W*H)
	var side, top []int
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
					side = append(side, j)
				} else {
					top = append(top, j)
				}
			}
		}
	}
	if len(side)+len(top) == 0 {
		return hairRead{}
	}
	seeds := append(append([]int{}, side...), top...)
	// The face's outline, row by row: what lies inside it (the eyes, the
	// brows) is a feature, not hair.
	left, right := make([]int, H), make([]int, H)
	for y := range H {
		left[y], right[y] = W, -1
	}
	for _, i := range face {
		x, y := i%W, i/W
		left[y], right[y] = min(left[y], x), max(right[y], x)
	}
	var grained []int
	for _, i := range seeds {
		if x, y := i%W, i/W; grain[i] >= hairGrain && (x < left[y] || x > right[y]) {
			grained = append(grained, i)
		}
	}
	if float64(len(grained)) >= minSideSeeds*float64(len(face)) {
		// The hair shows strands: it is the grained seeds, wherever they
		// are; a smooth cap, hood or painted backdrop beside them is not.
		tone := faces.MedianLab(labsOf(lab, grained))
		if wrapsChin(lab, box, fh, tone, W, H, hairLike) {
			return hairRead{covered: true}
		}
		var px []colour.Lab
		for _, i := range grained {
			if colour.DeltaE(lab[i], tone) < hairDE {
				px = append(px, lab[i])
			}
		}
		return hairRead{area: faces.PixelBox(grained, W, H), px: px, strands: true}
	}
	if float64(len(side)) >= minSideSeeds*float64(len(face)) {
		seeds = side // the temples show the hair, whatever covers the top of the head
	}
	tone := faces.MedianLab(labsOf(lab, seeds))
	if wrapsChin(lab, box, fh, tone, W, H, hairLike) || runsToBottom(lab, seeds, tone, W, H, hairLike) {
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

// labsOf is the colours of the pixels px.
func labsOf(lab []colour.Lab, px []int) []colour.Lab {
	out := make([]colour.Lab, len(px))
	for k, i := range px {
		out[k] = lab[i]
	}
	return out
}

// runsToBottom says whether the region of pixels that could be hair
// (hairLike) within hairDE of tone, grown from seeds, reaches the photo's
// bottom row: what frames the face runs on into the garment (a hood), as
// hair does not.
func runsToBottom(lab []colour.Lab, seeds []int, tone colour.Lab, W, H int, hairLike func(int) bool) bool {
	seen := make([]bool, W*H)
	stack := append([]int{}, seeds...)
	for _, i := range seeds {
		seen[i] = true
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%W, i/W
		if y == H-1 {
			return true
		}
		for _, n := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
			if n[0] < 0 || n[1] < 0 || n[0] >= W || n[1] >= H {
				continue
			}
			if j := n[1]*W + n[0]; !seen[j] && hairLike(j) && colour.DeltaE(lab[j], tone) < hairDE {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return false
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
