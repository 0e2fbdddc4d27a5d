package image

import (
	"math"
	"slices"
)

// A body in shadow tones (a grey kettle on white) is as dark as its own
// contact shadow where the two meet, and the flood through the shadow
// enters it there. The two differ at their edges: a shadow fades into
// the backdrop all round, a body ends in a step on its sides and top.

// minHardRun is the fewest hard outline pixels that make a shadow-toned
// region a body, and hardShare the share of its rim on the backdrop
// they must be.
const (
	minHardRun = 20
	hardShare  = 0.25
)

// bodiesInShadow gives back as object the bodies inside the flooded
// shadow-toned regions of isBg: each region (flooded, not near the
// backdrop's colour) whose rim on the backdrop is a hard step along at
// least hardShare of it keeps, as object, its pixels inside the convex
// hull of those hard pixels — the body's outline, closed across its
// contact with the shadow; the shadow's soft part outside stays
// background. lum is a pixel's mean level, bgLum the backdrop's there.
func bodiesInShadow(isBg, near []bool, lum, bgLum func(j int) float64, W, H int) {
	n := W * H
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	in := func(j int) bool { return isBg[j] && !near[j] }
	var comp []int32
	for i := range n {
		if seen[i] || !in(i) {
			continue
		}
		comp = append(comp[:0], int32(i))
		seen[i] = true
		for h := 0; h < len(comp); h++ {
			forNeighbours(int(comp[h]), W, H, func(k int) {
				if !seen[k] && in(k) {
					seen[k] = true
					comp = append(comp, int32(k))
				}
			})
		}
		if len(comp) < 4*minHardRun {
			continue
		}
		hard, rim := hardRim(comp, isBg, near, lum, bgLum, W, H)
		if len(hard) < minHardRun || float64(len(hard)) < hardShare*float64(rim) {
			continue
		}
		hull := convexHull(hard)
		for _, j := range comp {
			if insideHull(hull, int(j)%W, int(j)/W) {
				isBg[j] = false
			}
		}
	}
}

// hardRim is the pixels of region comp next to the backdrop (flooded and
// near its colour, past up to two outline pixels the flood left) across which the level steps by most of the region's
// depth there within two pixels, and the count of its rim pixels on the
// backdrop.
func hardRim(comp []int32, isBg, near []bool, lum, bgLum func(j int) float64, W, H int) (hard [][2]int, rim int) {
	for _, j32 := range comp {
		j := int(j32)
		x, y := j%W, j/W
		onRim, isHard := false, false
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			x1, y1 := x+d[0], y+d[1]
			for range 2 { // across the outline's mixed pixels the flood left
				if x1 < 0 || y1 < 0 || x1 >= W || y1 >= H || isBg[y1*W+x1] {
					break
				}
				x1, y1 = x1+d[0], y1+d[1]
			}
			if x1 < 0 || y1 < 0 || x1 >= W || y1 >= H || !isBg[y1*W+x1] || !near[y1*W+x1] {
				continue
			}
			onRim = true
			x2, y2 := x1+d[0], y1+d[1]
			if x2 < 0 || y2 < 0 || x2 >= W || y2 >= H {
				x2, y2 = x1, y1
			}
			depth := bgLum(j) - lum(j)
			// Inside, two pixels in, the level is the same: a body is flat to
			// its outline, a shadow still darkens toward its core.
			xi, yi := x-2*d[0], y-2*d[1]
			if xi < 0 || yi < 0 || xi >= W || yi >= H {
				xi, yi = x, y
			}
			flat := math.Abs(lum(yi*W+xi)-lum(j)) <= 0.15*depth
			if step := lum(y2*W+x2) - lum(j); depth >= 24 && step >= 0.6*depth && flat {
				isHard = true
			}
		}
		if onRim {
			rim++
		}
		if isHard {
			hard = append(hard, [2]int{x, y})
		}
	}
	return hard, rim
}

// convexHull is the hull of pts, counter-clockwise (Andrew's monotone
// chain); pts is sorted in place.
func convexHull(pts [][2]int) [][2]int {
	slices.SortFunc(pts, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	cross := func(o, a, b [2]int) int { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	var h [][2]int
	for _, p := range pts {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	lower := len(h) + 1
	for k := len(pts) - 2; k >= 0; k-- {
		p := pts[k]
		for len(h) >= lower && cross(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	return h[:max(1, len(h)-1)]
}

// insideHull tells whether (x, y) is inside or on the counter-clockwise
// hull h.
func insideHull(h [][2]int, x, y int) bool {
	if len(h) < 3 {
		return false
	}
	for k := range h {
		a, b := h[k], h[(k+1)%len(h)]
		if (b[0]-a[0])*(y-a[1])-(b[1]-a[1])*(x-a[0]) < 0 {
			return false
		}
	}
	return true
}
