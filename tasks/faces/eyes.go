package faces

import (
	"image"
	"math"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// A face (for model.create and image.crop) is the skin region Find grows (at least
// MinPixels at Side, at least minFaceAspect as tall as wide)
// holding, inside its outline, two eyes and a mouth, measured on the face
// box (its width W, its height fh):
//
//   - an eye is a group of eye-like pixels (hole) of eyeAreaMin–eyeAreaMax
//     of the box's area holding
//     white (sclera: chroma under scleraChroma, L* over 60 and over the
//     skin's) on at least minScleraShare of it, and a pupil or iris at least
//     pupilContrast L* darker than that white;
//   - the two eyes lie in the box's upper 5–60 % (a cap's peak or a fringe
//     down to the brows leaves them near the skin's top), level within 10 % of
//     fh, 20–70 % of W apart, their midpoint within 15 % of W of the box's
//     middle, neither more than 3 times the other's area;
//   - the mouth: at least mouthShare of the box's area, below the eyes
//     (by at least 20 % of fh, in the box's height) and within 15 % of W
//     of their midpoint, is mouthDE or more from the skin, redder or darker
//     (lips, a mouth's shadow).
//
// All of it must hold: a cup, a product or a wall has no such eyes, and a
// cat's eyes have no white around them.
const (
	minFaceAspect  = 0.75
	eyeAreaMin     = 0.001
	eyeAreaMax     = 0.08
	scleraChroma   = 14
	minScleraShare = 0.1
	pupilContrast  = 30
	eyeDarkL       = 20
	mouthDE        = 8
	mouthShare     = 0.004
)

// isSclera is the white of an eye on skin: chroma under scleraChroma, L*
// over 60 and over the skin's.
func isSclera(c, skin colour.Lab) bool { return c.Chroma() < scleraChroma && c.L > 60 && c.L > skin.L }

// hole is a connected group of eye-like pixels inside the face's outline
// (not skin; white, or eyeDarkL darker than the skin, or black): the eyes
// and brows, not a face's shaded side.
type hole struct {
	px         []int
	cx, cy     float64
	sclera     int
	darkestL   float64
	brightestL float64 // of its sclera pixels
}

// isFace says whether the face region face (indices into lab, W wide)
// with box (its height cut to a face's, fh rows) shows two eyes and a
// mouth.
func isFace(face []int, box image.Rectangle, lab []colour.Lab, skin colour.Lab, W int) bool {
	if float64(box.Dy()) < minFaceAspect*float64(box.Dx()) {
		return false
	}
	bw, bh := box.Dx(), box.Dy()
	in := make([]bool, bw*bh)
	left, right := make([]int, bh), make([]int, bh)
	for y := range bh {
		left[y], right[y] = bw, -1
	}
	for _, i := range face {
		x, y := i%W-box.Min.X, i/W-box.Min.Y
		if y < 0 || y >= bh {
			continue
		}
		in[y*bw+x] = true
		left[y], right[y] = min(left[y], x), max(right[y], x)
	}
	// Holes: pixels between a row's outermost skin pixels that are not skin.
	isHole := func(x, y int) bool {
		if x <= left[y] || x >= right[y] || in[y*bw+x] {
			return false
		}
		c := lab[(y+box.Min.Y)*W+x+box.Min.X]
		return isSclera(c, skin) || c.L < skin.L-eyeDarkL || c.L < 25
	}
	seen := make([]bool, bw*bh)
	var holes []hole
	for y := range bh {
		for x := range bw {
			if seen[y*bw+x] || !isHole(x, y) {
				continue
			}
			h := hole{darkestL: math.Inf(1)}
			stack := []int{y*bw + x}
			seen[y*bw+x] = true
			for len(stack) > 0 {
				k := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				h.px = append(h.px, k)
				px, py := k%bw, k/bw
				c := lab[(py+box.Min.Y)*W+px+box.Min.X]
				h.cx, h.cy = h.cx+float64(px), h.cy+float64(py)
				h.darkestL = math.Min(h.darkestL, c.L)
				if isSclera(c, skin) {
					h.sclera++
					h.brightestL = math.Max(h.brightestL, c.L)
				}
				for _, n := range [4][2]int{{px - 1, py}, {px + 1, py}, {px, py - 1}, {px, py + 1}} {
					if n[0] < 0 || n[1] < 0 || n[0] >= bw || n[1] >= bh {
						continue
					}
					if j := n[1]*bw + n[0]; !seen[j] && isHole(n[0], n[1]) {
						seen[j] = true
						stack = append(stack, j)
					}
				}
			}
			h.cx, h.cy = h.cx/float64(len(h.px)), h.cy/float64(len(h.px))
			holes = append(holes, h)
		}
	}
	area := float64(bw * bh)
	fw, fh := float64(bw), float64(bh)
	isEye := func(h hole) bool {
		a := float64(len(h.px))
		return a >= eyeAreaMin*area && a <= eyeAreaMax*area && h.cy >= 0.05*fh && h.cy <= 0.6*fh &&
			float64(h.sclera) >= minScleraShare*a && h.brightestL-h.darkestL >= pupilContrast
	}
	for i, a := range holes {
		for _, b := range holes[i+1:] {
			if !isEye(a) || !isEye(b) {
				continue
			}
			apart, mid := math.Abs(a.cx-b.cx), (a.cx+b.cx)/2
			sizes := float64(len(a.px)) / float64(len(b.px))
			if math.Abs(a.cy-b.cy) > 0.1*fh || apart < 0.2*fw || apart > 0.7*fw ||
				math.Abs(mid-(fw-1)/2) > 0.15*fw || sizes > 3 || sizes < 1.0/3 {
				continue
			}
			if hasMouth(lab, skin, box, W, mid, (a.cy+b.cy)/2) {
				return true
			}
		}
	}
	return false
}

// hasMouth says whether the face box holds lips below the eyes (eyes, the
// eyes' row, and mid, their midpoint, in box coordinates): at least
// mouthPixels pixels, in the box's height from 20 % of it below the eyes
// and within 15 % of its width of mid, that are mouthDE or more from the
// skin and redder (a* higher) or darker (L* lower) than it.
func hasMouth(lab []colour.Lab, skin colour.Lab, box image.Rectangle, W int, mid, eyes float64) bool {
	fw, fh := float64(box.Dx()), float64(box.Dy())
	n := 0
	for y := int(math.Ceil(eyes + 0.2*fh)); y < box.Dy(); y++ {
		for x := int(math.Ceil(mid - 0.15*fw)); x <= int(mid+0.15*fw); x++ {
			c := lab[(y+box.Min.Y)*W+x+box.Min.X]
			if colour.DeltaE(c, skin) >= mouthDE && (c.A > skin.A || c.L < skin.L) {
				n++
			}
		}
	}
	return float64(n) >= mouthShare*fw*fh
}
