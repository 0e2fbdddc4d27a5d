package image

import (
	"image"
	"math"

	"github.com/taskplatform/taskplatform/tasks/resample"
)

// What the cut-out reads beyond colour: the backdrop's noise, faint rim
// lines that outline a light product, and whether a region enclosed by the
// product continues the backdrop (a hole) or is a light part of it.

// minRidge is the length in pixels of the shortest rim line: shorter dark
// lines are the backdrop's grain.
const minRidge = 8

// rimLines marks the pixels of thin lines darker than both their sides (a
// light product's rim, a seam, a drawn outline) and the middles of sharp
// steps (a light grey side against a white sweep): on the luminance
// smoothed by a 1-2-1 kernel (smoothLum), a pixel at least depth below
// its neighbours one or two pixels away on both sides along a row, a
// column or a diagonal, or the steepest point of a step that is mostly
// made within a pixel each side (lineLevel), in a line of at least
// minRidge pixels (strongLines). Both follow the backdrop's noise, so a
// rim 10 levels deep is found on a clean sweep; a soft shadow has neither
// (its profile is a ramp over several pixels). The mask goes back to the
// pool with boolPool.put.
func rimLines(px *image.NRGBA, noise float64) []bool {
	W, H := px.Rect.Dx(), px.Rect.Dy()
	lum := smoothLum(px)
	lv := lineThresholds{depth: float32(max(3, 2.5*noise)), step: float32(max(6, 3*noise))}
	lv.flat = min(lv.depth/2, lv.step/4)
	level := bytePool.get(W * H)
	defer bytePool.put(level)
	clear(level)
	resample.Rows(H, W, func(y int) {
		if y < 2 || y >= H-2 {
			return
		}
		for x := 2; x < W-2; x++ {
			level[y*W+x] = lv.lineLevel(lum, W, H, x, y)
		}
	})
	return strongLines(level, W, H)
}

// smoothLum is px's mean level smoothed by a 1-2-1 kernel each way, −1
// where a pixel is transparent (no line there).
func smoothLum(px *image.NRGBA) []float32 {
	W, H := px.Rect.Dx(), px.Rect.Dy()
	n := W * H
	lum := make([]float32, n)
	tmp := make([]float32, n)
	for i := range n {
		p := px.Pix[4*i:]
		v := (float32(p[0]) + float32(p[1]) + float32(p[2])) / 3
		if p[3] < 128 {
			v = -1 // transparent: no line
		}
		tmp[i] = v
	}
	resample.Rows(H, W, func(y int) {
		for x := range W {
			i := y*W + x
			l, r := tmp[y*W+max(0, x-1)], tmp[y*W+min(W-1, x+1)]
			lum[i] = (l + 2*tmp[i] + r) / 4
		}
	})
	resample.Rows(H, W, func(y int) {
		for x := range W {
			u, d := lum[max(0, y-1)*W+x], lum[min(H-1, y+1)*W+x]
			tmp[y*W+x] = (u + 2*lum[y*W+x] + d) / 4
		}
	})
	return tmp
}

// lineThresholds are rimLines' levels: a line's depth, a step's change,
// and flat, nearer than which no weak line or step can start.
type lineThresholds struct{ depth, step, flat float32 }

// lineDirs are the directions a line is looked for across: a row, a
// column and the diagonals.
var lineDirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// lineLevel is pixel (x, y)'s level: 2 a strong line pixel, 1 a weak one
// (half the depth or step), kept only where it joins a strong one
// (hysteresis, as in Canny's detector, so a rim that fades for a few
// pixels stays closed), 0 none. (x, y) is at least two pixels in.
func (t lineThresholds) lineLevel(lum []float32, W, H, x, y int) byte {
	c := lum[y*W+x]
	if c < 0 || t.still(lum, W, x, y) {
		return 0
	}
	var got byte
	inner := y >= 4 && y < H-4 && x >= 4 && x < W-4
	for _, d := range lineDirs {
		got = max(got, t.dip(lum, W, x, y, d, inner))
		if got < 2 && inner {
			got = max(got, sharpStep(lum, W, x, y, d, t.step))
		}
		if got == 2 {
			break
		}
	}
	return got
}

// still tells whether (x, y) is a flat spot: every pixel one or two away
// along the four directions within flat of it has neither line nor step.
func (t lineThresholds) still(lum []float32, W, x, y int) bool {
	c := lum[y*W+x]
	for _, d := range lineDirs {
		for _, s := range [4]int{-2, -1, 1, 2} {
			if v := lum[(y+s*d[1])*W+x+s*d[0]] - c; v >= t.flat || v <= -t.flat {
				return false
			}
		}
	}
	return true
}

// dip is the level of (x, y) as a line across d: how far it is below both
// its neighbours one or two pixels away, unless the dip four pixels away
// is far deeper (a shadow's).
func (t lineThresholds) dip(lum []float32, W, x, y int, d [2]int, inner bool) byte {
	c := lum[y*W+x]
	var wide float32
	if inner {
		wide = min(lum[(y-4*d[1])*W+x-4*d[0]], lum[(y+4*d[1])*W+x+4*d[0]]) - c
	}
	var got byte
	for s := 1; s <= 2; s++ {
		a := lum[(y-s*d[1])*W+x-s*d[0]]
		b := lum[(y+s*d[1])*W+x+s*d[0]]
		v := min(a, b) - c
		if wide > 1.6*v {
			continue
		}
		switch {
		case v >= t.depth:
			got = 2
		case v >= t.depth/2:
			got = max(got, 1)
		}
	}
	return got
}

// strongLines keeps the lines of level (8-connected pixels above 0) with
// a strong pixel and at least minRidge pixels: the others are grain.
func strongLines(level []byte, W, H int) []bool {
	n := W * H
	line := boolPool.get(n)
	clear(line)
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	var comp []int32
	for i := range n {
		if level[i] == 0 || seen[i] {
			continue
		}
		comp = append(comp[:0], int32(i))
		seen[i] = true
		strong := false
		for h := 0; h < len(comp); h++ {
			j := int(comp[h])
			strong = strong || level[j] == 2
			x, y := j%W, j/W
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= W || yy >= H {
						continue
					}
					if k := yy*W + xx; level[k] > 0 && !seen[k] {
						seen[k] = true
						comp = append(comp, int32(k))
					}
				}
			}
		}
		if strong && len(comp) >= minRidge {
			for _, j := range comp {
				line[j] = true
			}
		}
	}
	return line
}

// sharpStep is 2 where (x, y) is the middle of a sharp step along d (1
// where the change is only half least):
// the change across it (one pixel each side) is at least min, the most
// of the nearby pixels' along d, and at least 0.7 of the change three
// pixels each side (a ramp spreads its change wider).
func sharpStep(lum []float32, W, x, y int, d [2]int, least float32) byte {
	at := func(s int) float32 { return lum[(y+s*d[1])*W+x+s*d[0]] }
	if at(-4) < 0 || at(4) < 0 || at(-2) < 0 || at(2) < 0 {
		return 0
	}
	abs := func(v float32) float32 { return max(v, -v) }
	c := abs(at(1) - at(-1))
	if c < least/2 || c < abs(at(2)-at(0)) || c < abs(at(0)-at(-2)) || c < 0.55*abs(at(4)-at(-4)) {
		return 0
	}
	if c >= least {
		return 2
	}
	return 1
}

// regionStats is what tells an enclosed region of backdrop-coloured pixels
// from a light part: the residual of its luminance against the backdrop
// model (mean, spread, and the change a fitted plane makes across it).
type regionStats struct {
	mean, spread, tilt float64
	n                  int
}

// enclosedStats measures the region c, leaving out pixels next to its rim
// (an edge's ringing and anti-aliasing) when enough are left.
func enclosedStats(c []int32, inner func(j int) bool, lumRes func(j int) float64, W int) regionStats {
	use := make([]int32, 0, len(c))
	for _, j := range c {
		if inner(int(j)) {
			use = append(use, j)
		}
	}
	if len(use) < 20 {
		use = c
	}
	var s regionStats
	s.n = len(use)
	// A least-squares plane r = a + b·x + c·y over the region.
	var sx, sy, sr, sxx, syy, sxy, sxr, syr float64
	x0, x1, y0, y1 := math.MaxInt, 0, math.MaxInt, 0
	for _, j := range use {
		x, y := int(j)%W, int(j)/W
		x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
	}
	cx, cy := float64(x0+x1)/2, float64(y0+y1)/2
	for _, j := range use {
		x, y, r := float64(int(j)%W)-cx, float64(int(j)/W)-cy, lumRes(int(j))
		sx, sy, sr = sx+x, sy+y, sr+r
		sxx, syy, sxy = sxx+x*x, syy+y*y, sxy+x*y
		sxr, syr = sxr+x*r, syr+y*r
	}
	m := float64(s.n)
	s.mean = sr / m
	// Centred sums for the slope.
	cxx, cyy, cxy := sxx-sx*sx/m, syy-sy*sy/m, sxy-sx*sy/m
	cxr, cyr := sxr-sx*sr/m, syr-sy*sr/m
	if det := cxx*cyy - cxy*cxy; det > 1e-9 {
		b := (cxr*cyy - cyr*cxy) / det
		c := (cyr*cxx - cxr*cxy) / det
		s.tilt = math.Abs(b)*float64(x1-x0) + math.Abs(c)*float64(y1-y0)
	}
	var v float64
	for _, j := range use {
		d := lumRes(int(j)) - s.mean
		v += d * d
	}
	s.spread = math.Sqrt(v / m)
	return s
}

// nearBackdrop is continuesBackdrop with room for JPEG's blocks and
// ringing: what is this close is never kept as a product's light part on
// the strength of faint lines alone.
func (s regionStats) nearBackdrop(noise float64) bool {
	return math.Abs(s.mean) <= max(2.5, 1.5*noise) && s.tilt <= max(5, 4*noise) && s.spread <= 2*noise+2
}

// inkBounded tells whether region c is a fill inside a drawn outline: the
// pixels along its outer rim are ink (under half the backdrop's luminance)
// and the ink is a thin line: walking away from the region across it, the
// ink ends within thin pixels on nearly all sides — a hole in a dark
// product has the product's breadth of dark around it. What lies inside
// the fill (islands: a cat's pink ears, a grey patch on its back, its
// eyes) is drawn on it, not its outline, and is left out of the rim.
func inkBounded(c []int32, inRegion func(j int) bool, lum func(j int) float64, bgLum float64, W, H, thin int) bool {
	ink := func(j int) bool { return lum(j) < bgLum/2 }
	island := islands(c, W)
	rim, inked, thinSides := 0, 0, 0
	for _, j := range c {
		x, y := int(j)%W, int(j)/W
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			xx, yy := x+d[0], y+d[1]
			if xx < 0 || yy < 0 || xx >= W || yy >= H || inRegion(yy*W+xx) || island(xx, yy) {
				continue
			}
			// The outline's anti-aliased pixels come first; then a fill of
			// its own, darker than the paper, drawn against the outline
			// (an owl's grey wing), is crossed to the outline beyond it.
			for k := 0; k < fillCross*thin; k++ {
				j := yy*W + xx
				if ink(j) || inRegion(j) || k >= 3 && lum(j) >= fillLum*bgLum {
					break
				}
				xx, yy = xx+d[0], yy+d[1]
				if xx < 0 || yy < 0 || xx >= W || yy >= H {
					break
				}
			}
			out := xx < 0 || yy < 0 || xx >= W || yy >= H
			if !out && inRegion(yy*W+xx) {
				continue // a speck inside the region (JPEG's ringing), not its rim
			}
			rim++
			if out || !ink(yy*W+xx) {
				continue
			}
			inked++
			steps := 0
			for xx >= 0 && yy >= 0 && xx < W && yy < H && ink(yy*W+xx) && steps <= thin {
				if steps >= 2 && lum(yy*W+xx)-lum((yy-2*d[1])*W+xx-2*d[0]) > inkRise {
					break // the line ends in another fill (a roof, a door): still a drawn line
				}
				xx, yy, steps = xx+d[0], yy+d[1], steps+1
			}
			if steps <= thin {
				thinSides++
			}
		}
	}
	return rim > 0 && 10*inked >= 8*rim && 5*thinSides >= 3*inked
}

// fillCross (in thin's units) is how far a drawn fill against the outline
// is crossed to reach it (inkBounded), and fillLum, as a share of the
// backdrop's luminance, the lightest such a fill is.
const fillCross, fillLum = 16, 0.85

// islands tells which pixels region c encloses: those of its bounding box,
// not in c, that a flood from the box's frame through the 4-neighbours
// not in c does not reach.
func islands(c []int32, W int) func(x, y int) bool {
	x0, y0, x1, y1 := math.MaxInt, math.MaxInt, -1, -1
	for _, j := range c {
		x, y := int(j)%W, int(j)/W
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	// A box one pixel wider all round, so its frame is outside c.
	x0, y0, x1, y1 = x0-1, y0-1, x1+1, y1+1
	bw, bh := x1-x0+1, y1-y0+1
	// 0: not in c, unreached; 1: in c; 2: reached from the frame.
	m := make([]uint8, bw*bh)
	for _, j := range c {
		m[(int(j)/W-y0)*bw+int(j)%W-x0] = 1
	}
	var stack []int32
	push := func(k int) {
		if m[k] == 0 {
			m[k] = 2
			stack = append(stack, int32(k))
		}
	}
	for x := range bw {
		push(x)
		push((bh-1)*bw + x)
	}
	for y := range bh {
		push(y * bw)
		push(y*bw + bw - 1)
	}
	for len(stack) > 0 {
		k := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		forNeighbours(k, bw, bh, push)
	}
	return func(x, y int) bool {
		if x <= x0 || y <= y0 || x >= x1 || y >= y1 {
			return false
		}
		return m[(y-y0)*bw+x-x0] == 0
	}
}

// inkRise is the rise in luminance over two pixels (levels) that ends a
// drawn line where it meets a darker-than-paper fill: the outline is the
// darkest, a fill beside it (a red roof, a brown door) is lighter.
const inkRise = 25

// forNeighbours calls f with each 4-neighbour of pixel i.
func forNeighbours(i, W, H int, f func(j int)) {
	x, y := i%W, i/W
	if x > 0 {
		f(i - 1)
	}
	if x < W-1 {
		f(i + 1)
	}
	if y > 0 {
		f(i - W)
	}
	if y < H-1 {
		f(i + W)
	}
}

// continuesAcross tells whether region c (pixels of backdrop or shadow
// tones the flood did not reach) continues the backdrop across the lines
// around it: walking from its edge across a line (at most five pixels) to
// the flooded backdrop, the line is shallower than shallow levels below
// both sides and the two sides are the same shade of the backdrop, on at
// least 85% of at least ten such crossings.
func continuesAcross(c []int32, px *image.NRGBA, bd *backdrop, isBg, rims, inRegion []bool, shallow float64) bool {
	W, H := px.Rect.Dx(), px.Rect.Dy()
	lum := func(j int) float64 { p := px.Pix[4*j:]; return (float64(p[0]) + float64(p[1]) + float64(p[2])) / 3 }
	shade := func(j int) float64 {
		b := bd.at(j%W, j/W)
		return lum(j) / max(1, (b[0]+b[1]+b[2])/3)
	}
	crossings, matches := 0, 0
	for _, j32 := range c {
		j := int(j32)
		x, y := j%W, j/W
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			xx, yy := x+d[0], y+d[1]
			if xx < 0 || yy < 0 || xx >= W || yy >= H || !rims[yy*W+xx] {
				continue
			}
			low := lum(j)
			k := -1
			for range 5 {
				low = min(low, lum(yy*W+xx))
				xx, yy = xx+d[0], yy+d[1]
				if xx < 0 || yy < 0 || xx >= W || yy >= H {
					break
				}
				if isBg[yy*W+xx] {
					k = yy*W + xx
					break
				}
				if !rims[yy*W+xx] {
					break
				}
			}
			if k < 0 {
				continue
			}
			crossings++
			if min(lum(j), lum(k))-low < shallow && math.Abs(shade(j)-shade(k)) <= 0.03 {
				matches++
			}
		}
	}
	return crossings >= 10 && 100*matches >= 85*crossings
}
