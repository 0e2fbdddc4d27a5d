package image

import (
	"context"
	"image"
)

// A faint product (a clear tumbler, a small cream ring on white) can sit
// wholly within the asked tolerance of the backdrop, and the cut-out then
// finds no object. Only then, it looks again with a tolerance scaled to
// the backdrop's measured noise, and keeps the object only where it is
// plainly there: a compact region well above the noise whose outline
// closes, not spread along the border. Anything else stays refused, so an
// empty backdrop (plain, noisy, JPEG, graded) is never cut.

const (
	faintNoise    = 4    // the second look's tolerance in units of the backdrop's noise
	faintTol      = 4    // the second look's least tolerance
	faintContrast = 2    // the region's mean distance from the backdrop, in units of the second tolerance
	faintFill     = 0.35 // the least share of its bounding box the closed region fills
)

// lookAgain is the second look: the cut-out at the noise's tolerance when
// it is under tol and a clear object is there; ok is false otherwise.
// The clear regions that are bodies holding their tone to a stepped
// outline (plateau: a black product on charcoal felt) are kept out of
// the floods, which would enter them as a shadow otherwise.
func lookAgain(ctx context.Context, img image.Image, tol, noise float64, feather int,
	keepShadow bool) (res cutout, ok bool, err error) {
	ft := max(faintTol, faintNoise*noise)
	if ft >= tol {
		return cutout{}, false, nil
	}
	st, share, bgMid, err := newCutState(ctx, img, ft)
	if err != nil {
		return cutout{}, false, nil //nolint:nilerr // a backdrop not plain at this tolerance: no second look
	}
	defer st.release()
	regions := st.clearObject()
	if len(regions) == 0 {
		return cutout{}, false, nil
	}
	for _, c := range regions {
		if st.plateau(c.pixels, c.outside) {
			st.body = append(st.body, c.pixels...)
		}
	}
	objShare, err := st.cut(feather, keepShadow)
	if err != nil {
		return cutout{}, false, err
	}
	if objShare < minObjectShare {
		return cutout{}, false, nil
	}
	return cutout{img: st.px, background: bgMid, objectShare: objShare, confidence: share}, true, nil
}

// clearRegion is a region clearObject found: its pixels and the mask of
// all others.
type clearRegion struct {
	pixels  []int32
	outside []bool
}

// clearObject tells whether a region off the backdrop by over tolRGB
// (8-connected) closes an outline round at least minObjectShare of the
// image, fills faintFill of its bounding box, touches at most one side
// of the image and stands faintContrast tolerances off the backdrop on
// average: those regions (none: no clear object).
func (st *cutState) clearObject() []clearRegion {
	W := st.W
	res := make([]float32, st.n)
	for i := range res {
		res[i] = float32(dist3(st.col(i), st.bd.at(i%W, i/W)))
	}
	label := make([]int32, st.n)
	next := int32(0)
	var regions []clearRegion
	for i := range res {
		if label[i] != 0 || float64(res[i]) <= st.tolRGB {
			continue
		}
		next++
		c := st.component(i, next, label, res)
		if st.closesClearly(c, label, next, res) {
			regions = append(regions, clearRegion{pixels: c, outside: outside(label, next)})
		}
	}
	return regions
}

// outside is the mask of the pixels not labelled id.
func outside(label []int32, id int32) []bool {
	m := make([]bool, len(label))
	for i, l := range label {
		m[i] = l != id
	}
	return m
}

// component labels with id the 8-connected region of pixels off the
// backdrop that holds pixel i and returns its pixels.
func (st *cutState) component(i int, id int32, label []int32, res []float32) []int32 {
	W, H := st.W, st.H
	c := []int32{int32(i)}
	label[i] = id
	for k := 0; k < len(c); k++ {
		x, y := int(c[k])%W, int(c[k])/W
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if nx < 0 || ny < 0 || nx >= W || ny >= H {
					continue
				}
				j := ny*W + nx
				if label[j] == 0 && float64(res[j]) > st.tolRGB {
					label[j] = id
					c = append(c, int32(j))
				}
			}
		}
	}
	return c
}

// closesClearly tells whether region c (labelled id) passes clearObject's
// tests: its filled area is what its outline encloses, the pixels of its
// bounding box not reached from the box's rim without crossing it.
func (st *cutState) closesClearly(c []int32, label []int32, id int32, res []float32) bool {
	W, H := st.W, st.H
	minArea := int(minObjectShare*float64(st.n)) + 1
	if len(c) < minArea/8 {
		return false
	}
	x0, y0, x1, y1 := W, H, -1, -1
	sum := 0.0
	for _, j := range c {
		x, y := int(j)%W, int(j)/W
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		sum += float64(res[j])
	}
	if sum/float64(len(c)) < faintContrast*st.tolRGB {
		return false
	}
	sides := 0
	for _, t := range []bool{x0 == 0, y0 == 0, x1 == W-1, y1 == H-1} {
		if t {
			sides++
		}
	}
	if sides > 1 {
		return false
	}
	// Flood the box, a pixel wider each way, from its corner round c.
	bw, bh := x1-x0+3, y1-y0+3
	out := make([]bool, bw*bh)
	inC := func(bx, by int) bool {
		x, y := bx+x0-1, by+y0-1
		return x >= 0 && y >= 0 && x < W && y < H && label[y*W+x] == id
	}
	stack := []int{0}
	out[0] = true
	reached := 1
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		bx, by := k%bw, k/bw
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := bx+d[0], by+d[1]
			if nx < 0 || ny < 0 || nx >= bw || ny >= bh || out[ny*bw+nx] || inC(nx, ny) {
				continue
			}
			out[ny*bw+nx] = true
			reached++
			stack = append(stack, ny*bw+nx)
		}
	}
	filled := bw*bh - reached
	box := (x1 - x0 + 1) * (y1 - y0 + 1)
	return filled >= minArea && float64(filled) >= faintFill*float64(box)
}
