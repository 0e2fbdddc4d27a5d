package photoshoot

import (
	"image"

	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/faces"
)

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
	tone := faces.MedianLab(seedPx)
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
