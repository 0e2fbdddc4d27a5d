package image

import "math"

// A lit part of a round product that turns away from the light (a white
// panel of a ball on its shadow side) is as dark as the contact shadow
// beside it and of the backdrop's hue, so the floods take it with the
// shadow. Two things tell them apart: it lies inside the convex hull of
// what is kept, and its shading follows the object, darkest away from
// the rest of it towards the rim, while a shadow is darkest at the
// object and fades away from it.

// panelMinPixels is the smallest region keepShadedPanels looks at.
const panelMinPixels = 60

// keepShadedPanels gives back to the product each region of background
// inside the convex hull of the kept object that is shaded (its mean
// luminance under the backdrop's by the lit margin, lift < -1) and grows
// darker away from the object (its luminance's correlation with the
// distance to the object under -0.2), the opposite of a shadow.
func (st *cutState) keepShadedPanels(isBg []bool) {
	W, H := st.W, st.H
	hull := objectHull(isBg, W, H)
	if hull == nil {
		return
	}
	in := func(i int) bool {
		x, y := i%W, i/W
		return isBg[i] && x >= int(hull[2*y]) && x <= int(hull[2*y+1])
	}
	seen := boolPool.get(st.n)
	defer boolPool.put(seen)
	clear(seen)
	var comp []int32
	for i := range st.n {
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
		if len(comp) >= panelMinPixels && st.shadedAwayFrom(comp, isBg) {
			for _, j := range comp {
				isBg[j] = false
			}
		}
	}
}

// shadedAwayFrom tells whether region comp (background next to the
// object, !isBg) is shaded and darker the further from the object.
func (st *cutState) shadedAwayFrom(comp []int32, isBg []bool) bool {
	W, H := st.W, st.H
	dist := make(map[int32]int, len(comp)) // -1 until reached
	var front []int32
	for _, j := range comp {
		dist[j] = -1
		obj := false
		forNeighbours(int(j), W, H, func(k int) { obj = obj || !isBg[k] })
		if obj {
			dist[j] = 0
			front = append(front, j)
		}
	}
	if len(front) == 0 {
		return false
	}
	for h := 0; h < len(front); h++ {
		j := front[h]
		forNeighbours(int(j), W, H, func(k int) {
			if d, in := dist[int32(k)]; in && d < 0 {
				dist[int32(k)] = dist[j] + 1
				front = append(front, int32(k))
			}
		})
	}
	var sd, sl, sdd, sll, sdl, m float64
	for _, j := range comp {
		d := dist[j]
		if d < 0 {
			continue
		}
		l, x := st.lift(int(j)), float64(d)
		sd, sl, sdd, sll, sdl, m = sd+x, sl+l, sdd+x*x, sll+l*l, sdl+x*l, m+1
	}
	if m < panelMinPixels || sl/m >= -1 {
		return false
	}
	cov := sdl/m - sd/m*sl/m
	vd, vl := sdd/m-sd/m*sd/m, sll/m-sl/m*sl/m
	if vd <= 0 || vl <= 0 {
		return false
	}
	return cov/math.Sqrt(vd*vl) < -0.2
}

// objectHull is the convex hull of the pixels isBg leaves out, row by row
// as the first and last column in it (2·H entries, first > last where the
// row misses it), or nil where nothing is kept.
func objectHull(isBg []bool, W, H int) []int32 {
	var pts [][2]int
	for y := range H {
		x0, x1 := -1, -1
		for x := range W {
			if !isBg[y*W+x] {
				if x0 < 0 {
					x0 = x
				}
				x1 = x
			}
		}
		if x0 >= 0 {
			pts = append(pts, [2]int{x0, y}, [2]int{x1, y})
		}
	}
	if len(pts) == 0 {
		return nil
	}
	poly := convexHull(pts)
	out := make([]int32, 2*H)
	for y := range H {
		lo, hi := math.Inf(1), math.Inf(-1)
		fy := float64(y)
		for k := range poly {
			a, b := poly[k], poly[(k+1)%len(poly)]
			ay, by := float64(a[1]), float64(b[1])
			if (fy < ay && fy < by) || (fy > ay && fy > by) {
				continue
			}
			if ay == by {
				lo, hi = min(lo, float64(a[0]), float64(b[0])), max(hi, float64(a[0]), float64(b[0]))
				continue
			}
			x := float64(a[0]) + (fy-ay)*float64(b[0]-a[0])/(by-ay)
			lo, hi = min(lo, x), max(hi, x)
		}
		out[2*y], out[2*y+1] = 1, 0
		if lo <= hi {
			out[2*y], out[2*y+1] = int32(math.Ceil(lo)), int32(math.Floor(hi))
		}
	}
	return out
}
