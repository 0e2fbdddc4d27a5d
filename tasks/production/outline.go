package production

import "math"

// pt is a point on a flat, in its pixels.
type pt struct{ x, y float64 }

// bezier is one cubic Bézier segment: from a through controls b and c to d.
type bezier struct{ a, b, c, d pt }

// outlineTolerance is how far, in pixels, the simplified outline may stray
// from the silhouette's traced edge; cornerTurn the turn, in degrees, at
// which a vertex stays a corner instead of being smoothed.
const (
	outlineTolerance = 1.4
	cornerTurn       = 28.0
	minOutlineShare  = 0.02
)

// outlines traces the silhouette of each part of the flat larger than
// minOutlineShare of it and smooths each into closed Bézier curves, as a
// vectoriser (Potrace) does: the pixel edge followed round, simplified
// (Douglas–Peucker) and fitted with curves through the vertices, corners
// kept sharp.
func (f flat) outlines() [][]bezier {
	total := 0
	for _, m := range f.mask {
		if m {
			total++
		}
	}
	return rings(f.w, f.h, f.in, int(minOutlineShare*float64(total)))
}

// rings is the smoothed outer outline of each 4-connected part of the
// pixels in answers true for, of at least minPixels pixels.
func rings(w, h int, in func(x, y int) bool, minPixels int) [][]bezier {
	comp, sizes := components(w, h, in)
	var out [][]bezier
	seen := make([]bool, len(sizes))
	for y := range h {
		for x := range w {
			c := comp[y*w+x]
			if c < 0 || seen[c] {
				continue
			}
			seen[c] = true
			if sizes[c] < max(1, minPixels) {
				continue
			}
			ring := simplify(trace(w, h, comp, c, x, y), outlineTolerance)
			if len(ring) >= 3 {
				out = append(out, smooth(ring))
			}
		}
	}
	return out
}

// components labels the 4-connected parts of the pixels in answers true
// for: comp is each pixel's part (−1 outside), sizes each part's pixel
// count.
func components(w, h int, in func(x, y int) bool) ([]int, []int) {
	comp := make([]int, w*h)
	for i := range comp {
		comp[i] = -1
	}
	var sizes []int
	var stack []int
	for start := range comp {
		if !in(start%w, start/w) || comp[start] >= 0 {
			continue
		}
		id := len(sizes)
		sizes = append(sizes, 0)
		comp[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			sizes[id]++
			x, y := i%w, i/w
			for _, n := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if n[0] >= 0 && n[1] >= 0 && n[0] < w && n[1] < h && comp[n[1]*w+n[0]] < 0 && in(n[0], n[1]) {
					comp[n[1]*w+n[0]] = id
					stack = append(stack, n[1]*w+n[0])
				}
			}
		}
	}
	return comp, sizes
}

// trace follows the outer edge of part c between pixels, the part on the
// right, from the top edge of its first pixel (x0, y0); each step's point
// is the middle of the pixel edge it runs along.
func trace(w, h int, comp []int, c, x0, y0 int) []pt {
	in := func(x, y int) bool { return x >= 0 && y >= 0 && x < w && y < h && comp[y*w+x] == c }
	// pixel is the pixel whose corner nearest (0, 0) is min of the corners
	// v, v+d and v+e.
	pixel := func(vx, vy, dx, dy, ex, ey int) bool {
		return in(vx+min(0, dx)+min(0, ex), vy+min(0, dy)+min(0, ey))
	}
	vx, vy, dx, dy := x0, y0, 1, 0
	var ring []pt
	for steps := 0; steps < 4*w*h; steps++ {
		rx, ry := -dy, dx // the right of the way
		switch {
		case !pixel(vx, vy, dx, dy, rx, ry):
			dx, dy = rx, ry
		case pixel(vx, vy, dx, dy, -rx, -ry):
			dx, dy = -rx, -ry
		}
		ring = append(ring, pt{float64(vx) + float64(dx)/2, float64(vy) + float64(dy)/2})
		vx, vy = vx+dx, vy+dy
		if vx == x0 && vy == y0 {
			break
		}
	}
	return ring
}

// simplify keeps the vertices of a closed ring that a Douglas–Peucker
// pass within tol pixels needs: the ring is cut at its two farthest-apart
// points and each half simplified.
func simplify(ring []pt, tol float64) []pt {
	if len(ring) < 4 {
		return ring
	}
	far, best := 0, 0.0
	for i, p := range ring {
		if d := math.Hypot(p.x-ring[0].x, p.y-ring[0].y); d > best {
			far, best = i, d
		}
	}
	closed := append(append([]pt{}, ring...), ring[0])
	a := dp(closed[:far+1], tol)
	b := dp(closed[far:], tol)
	return append(a[:len(a)-1], b[:len(b)-1]...)
}

// dp is Douglas–Peucker on an open polyline, its ends kept.
func dp(line []pt, tol float64) []pt {
	if len(line) < 3 {
		return line
	}
	a, b := line[0], line[len(line)-1]
	dx, dy := b.x-a.x, b.y-a.y
	n := math.Hypot(dx, dy)
	at, worst := 0, -1.0
	for i := 1; i < len(line)-1; i++ {
		p := line[i]
		var d float64
		if n < 1e-9 {
			d = math.Hypot(p.x-a.x, p.y-a.y)
		} else {
			d = math.Abs(dy*(p.x-a.x)-dx*(p.y-a.y)) / n
		}
		if d > worst {
			at, worst = i, d
		}
	}
	if worst <= tol {
		return []pt{a, b}
	}
	left := dp(line[:at+1], tol)
	right := dp(line[at:], tol)
	return append(left[:len(left)-1], right...)
}

// smooth fits closed Bézier curves through a ring's vertices: at a vertex
// that turns less than cornerTurn the curve passes smoothly (its tangent
// that of the neighbours, Catmull–Rom); at a corner the sides run
// straight into it.
func smooth(ring []pt) []bezier {
	n := len(ring)
	corner := make([]bool, n)
	for i := range ring {
		p, q, r := ring[(i+n-1)%n], ring[i], ring[(i+1)%n]
		a1, a2 := math.Atan2(q.y-p.y, q.x-p.x), math.Atan2(r.y-q.y, r.x-q.x)
		turn := math.Abs(math.Remainder(a2-a1, 2*math.Pi)) * 180 / math.Pi
		corner[i] = turn >= cornerTurn
	}
	// tangent is the curve's direction at vertex i, scaled to a third of the
	// side towards j.
	tangent := func(i, j int) pt {
		q, r := ring[i], ring[j]
		if corner[i] {
			return pt{(r.x - q.x) / 3, (r.y - q.y) / 3}
		}
		p, s := ring[(i+n-1)%n], ring[(i+1)%n]
		side := math.Hypot(r.x-q.x, r.y-q.y)
		t := pt{s.x - p.x, s.y - p.y}
		tn := math.Max(1e-9, math.Hypot(t.x, t.y))
		sign := 1.0
		if j != (i+1)%n {
			sign = -1
		}
		return pt{sign * t.x / tn * side / 3, sign * t.y / tn * side / 3}
	}
	out := make([]bezier, n)
	for i := range ring {
		j := (i + 1) % n
		t0, t1 := tangent(i, j), tangent(j, i)
		a, d := ring[i], ring[j]
		out[i] = bezier{a, pt{a.x + t0.x, a.y + t0.y}, pt{d.x + t1.x, d.y + t1.y}, d}
	}
	return out
}
