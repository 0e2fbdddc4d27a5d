package photoshoot

import (
	"image"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// refineFace reads the skin from the face's own middle: a face found
// from a seed that took in hair of a skin-like hue (brown hair beside
// light skin) is regrown from the median colour of the cheeks and nose
// (the middle half of the head's width, 35–75 % of its height), and the
// largest region of candidates within faceDE of that tone is the face.
// If that region is too small, the face found is kept.
func refineFace(cand []bool, lab []colour.Lab, face []int, head image.Rectangle, W, H int) ([]int, image.Rectangle) {
	mid := cheeks(head)
	var px []colour.Lab
	for _, i := range face {
		if image.Pt(i%W, i/W).In(mid) {
			px = append(px, lab[i])
		}
	}
	if len(px) == 0 {
		return face, pixelBox(face, W, H)
	}
	tone := medianLab(px)
	near := make([]bool, len(cand))
	for i, c := range cand {
		near[i] = c && colour.DeltaE(lab[i], tone) < faceDE
	}
	if own := largestRegion(near, W, H); len(own) >= minFacePixels {
		face = own
	}
	return face, pixelBox(face, W, H)
}

// cheeks is the middle of a head's box, where its skin is read: the
// middle half of its width, 35–75 % of its height (cheeks and nose, no
// hair, no brows).
func cheeks(head image.Rectangle) image.Rectangle {
	return image.Rect(head.Min.X+head.Dx()/4, head.Min.Y+head.Dy()*35/100, head.Max.X-head.Dx()/4,
		head.Min.Y+head.Dy()*75/100)
}

// pixelBox is the bounding box of pixels (indices, W wide).
func pixelBox(px []int, W, H int) image.Rectangle {
	box := image.Rectangle{Min: image.Pt(W, H)}
	for _, i := range px {
		x, y := i%W, i/W
		box.Min.X, box.Min.Y = min(box.Min.X, x), min(box.Min.Y, y)
		box.Max.X, box.Max.Y = max(box.Max.X, x+1), max(box.Max.Y, y+1)
	}
	return box
}

// hairDE is how far from the hair's tone (read where hair meets the
// face) a pixel of the hair's region may be: strands, highlights, shade.
const hairDE = 18

// readHair reads the hair of a face (its pixels face, its box) whose
// skin tone is skin: where hair is sure to be, touching the face's
// outline above its middle (the hairline, the temples) within an eighth
// of the face's width, the pixels in hair colours (isHairLab: not a navy
// cap, not a green hat) that are neither the backdrop nor the skin; their
// median is the hair's tone. The hair is then every such pixel of the
// region above and around the face (half a face above it, a quarter to
// each side) within hairDE of that tone: a grey wall or a light backdrop
// behind the head is not hair unless the hair is that colour.
func readHair(lab []colour.Lab, back []bool, face []int, box image.Rectangle, skin colour.Lab,
	W, H int) (image.Rectangle, []colour.Lab) {
	fh := min(box.Dy(), box.Dx()*4/3)
	inFace := make([]bool, W*H)
	for _, i := range face {
		inFace[i] = true
	}
	isHair := func(i int) bool {
		return !back[i] && !inFace[i] && colour.DeltaE(lab[i], skin) >= hairSkinDE && isHairLab(lab[i])
	}
	// The ring touching the face's outline, above its middle.
	d := max(2, box.Dx()/8)
	ring := make([]bool, W*H)
	var seedPx []colour.Lab
	for _, i := range face {
		x, y := i%W, i/W
		if y > box.Min.Y+fh/2 {
			continue
		}
		for ny := max(0, y-d); ny <= min(H-1, y+d); ny++ {
			for nx := max(0, x-d); nx <= min(W-1, x+d); nx++ {
				if j := ny*W + nx; !ring[j] && ny <= box.Min.Y+fh/2 && isHair(j) {
					ring[j] = true
					seedPx = append(seedPx, lab[j])
				}
			}
		}
	}
	if len(seedPx) == 0 {
		return image.Rectangle{}, nil
	}
	tone := medianLab(seedPx)
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
	return area, px
}
