package image

import "math"

// The hue field's colour edges and the regions they close (cuthue.go).

// gauss blurs p (w × h) in place by a Gaussian of σ s, its edges clamped.
func gauss(p []float32, w, h int, s float64) {
	r := int(math.Ceil(2.5 * s))
	k := make([]float32, 2*r+1)
	var sum float32
	for j := range k {
		d := float64(j - r)
		k[j] = float32(math.Exp(-d * d / (2 * s * s)))
		sum += k[j]
	}
	for j := range k {
		k[j] /= sum
	}
	tmp := make([]float32, len(p))
	for y := range h {
		row := p[y*w : y*w+w]
		for x := range w {
			var a float32
			for j, kv := range k {
				a += kv * row[min(w-1, max(0, x+j-r))]
			}
			tmp[y*w+x] = a
		}
	}
	for y := range h {
		for x := range w {
			var a float32
			for j, kv := range k {
				a += kv * tmp[min(h-1, max(0, y+j-r))*w+x]
			}
			p[y*w+x] = a
		}
	}
}

// edges marks g.edge: the hue field's colour edges (Di Zenzo's gradient,
// thinned, hysteresis, chains of at least hueChain cells).
func (g *hueGrid) edges() {
	w, h := g.w, g.h
	m := w * h
	mag := make([]float32, m)
	dir := make([]uint8, m) // the gradient's direction: 0 along x, 1 the diagonal, 2 along y, 3 the anti-diagonal
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			var e, f, gg float64
			for _, ch := range [2][]float32{g.fa, g.fb} {
				gx, gy := sobel(ch, w, x, y)
				e, f, gg = e+gx*gx, f+gx*gy, gg+gy*gy
			}
			l := (e + gg + math.Sqrt((e-gg)*(e-gg)+4*f*f)) / 2
			mag[y*w+x] = float32(math.Sqrt(l))
			th := 0.5 * math.Atan2(2*f, e-gg) // the direction of the largest change
			a := math.Mod(th+math.Pi, math.Pi)
			dir[y*w+x] = uint8(int(math.Round(a/(math.Pi/4))) % 4)
		}
	}
	steps := [4][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}}
	thin := make([]float32, m)
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			d := steps[dir[i]]
			o := d[1]*w + d[0]
			if mag[i] >= mag[i+o] && mag[i] > mag[i-o] {
				thin[i] = mag[i]
			}
		}
	}
	hi, lo := g.edgeLevels(mag)
	onGrid := func(c int) bool { // on a JPEG block's border, across it
		x, y := c%w, c/w
		return g.k == 1 && (dir[c] == 0 && (x%8 == 7 || x%8 == 0) || dir[c] == 2 && (y%8 == 7 || y%8 == 0))
	}
	g.edge = hysteresis(thin, w, h, hi, lo, onGrid)
}

// sobel is the Sobel gradient of p at (x, y), an inner cell, per cell.
func sobel(p []float32, w, x, y int) (float64, float64) {
	at := func(dx, dy int) float64 { return float64(p[(y+dy)*w+x+dx]) }
	gx := (at(1, -1) + 2*at(1, 0) + at(1, 1) - at(-1, -1) - 2*at(-1, 0) - at(-1, 1)) / 8
	gy := (at(-1, 1) + 2*at(0, 1) + at(1, 1) - at(-1, -1) - 2*at(0, -1) - at(1, -1)) / 8
	return gx, gy
}

// edgeLevels are the strong and weak gradients: hueEdgeHi and hueEdgeLo
// times the gradient's noise on the background (its median, scaled: most
// of the background is flat), the strong at least hueEdgeMin.
func (g *hueGrid) edgeLevels(mag []float32) (float32, float32) {
	var v []float64
	for c := range mag {
		if g.bg[c] && mag[c] > 0 {
			v = append(v, float64(mag[c]))
		}
	}
	n := median(v) * 1.4826
	hi := math.Max(hueEdgeMin, hueEdgeHi*n)
	return float32(hi), float32(hi * hueEdgeLo / hueEdgeHi)
}

// hysteresis is Canny's: the cells of thin at or over lo 8-connected to
// one at or over hi, in chains of at least hueChain cells of which under
// hueOnGrid lie on the JPEG block grid (onGrid): the edges of JPEG's
// chroma blocks (8 pixels, 16 with 4:2:0 subsampling) are straight and
// on it, a product's seldom.
func hysteresis(thin []float32, w, h int, hi, lo float32, onGrid func(c int) bool) []bool {
	m := w * h
	out := make([]bool, m)
	seen := make([]bool, m)
	var comp []int
	for i := range m {
		if seen[i] || thin[i] < lo || thin[i] == 0 {
			continue
		}
		comp = append(comp[:0], i)
		seen[i] = true
		strong := false
		for q := 0; q < len(comp); q++ {
			j := comp[q]
			strong = strong || thin[j] >= hi
			x, y := j%w, j/w
			for yy := max(0, y-1); yy <= min(h-1, y+1); yy++ {
				for xx := max(0, x-1); xx <= min(w-1, x+1); xx++ {
					if k := yy*w + xx; !seen[k] && thin[k] >= lo && thin[k] > 0 {
						seen[k] = true
						comp = append(comp, k)
					}
				}
			}
		}
		grid := 0
		for _, j := range comp {
			if onGrid(j) {
				grid++
			}
		}
		if !strong || len(comp) < hueChain || float64(grid) >= hueOnGrid*float64(len(comp)) {
			continue
		}
		for _, j := range comp {
			out[j] = true
		}
	}
	return out
}

// closedRegions is the cells of the background regions the chains close
// whose hue is not the backdrop's beside them (cuthue.go), grown into the
// walls' band and the small closed regions round them that are their
// hue; nil when there is none.
func (g *hueGrid) closedRegions(noise float64) []bool {
	w, h := g.w, g.h
	m := w * h
	walls := dilate(g.edge, w, h, hueGap)
	defer boolPool.put(walls)
	least := math.Max(hueLeast, hueNoise*noise)
	open := func(c int) bool { return g.bg[c] && !walls[c] }
	var ba, bb []float64 // the field along the frame: the backdrop's hue there
	frame := func(c int) bool { x, y := c%w, c/w; return x == 0 || y == 0 || x == w-1 || y == h-1 }
	for c := range m {
		if frame(c) && open(c) {
			ba, bb = append(ba, float64(g.fa[c])), append(bb, float64(g.fb[c]))
		}
	}
	a0, b0 := median(ba), median(bb)
	reached := g.backdropPart(open, frame)
	var keep []bool
	seen := make([]bool, m)
	for c := range m {
		if seen[c] || reached[c] || !open(c) {
			continue
		}
		seen[c] = true
		comp := g.spread([]int{c}, seen, func(j int) bool { return open(j) && !reached[j] })
		oa, ob := g.around(comp, reached, a0, b0)
		ma, mb, ok := g.offHue(comp, oa, ob, least)
		if !ok {
			continue
		}
		if keep == nil {
			keep = make([]bool, m)
		}
		for _, j := range comp {
			keep[j] = true
		}
		g.growInto(keep, walls, reached, oa, ob, ma, mb)
	}
	return keep
}

// around is the mean hue of the backdrop (reached) hueGap + 3 cells from
// region comp's cells along a row or a column: the backdrop beside it
// across its walls; (a0, b0) when under 20 such cells are.
func (g *hueGrid) around(comp []int, reached []bool, a0, b0 float64) (float64, float64) {
	w, h := g.w, g.h
	const r = hueGap + 3
	var sa, sb float64
	n := 0
	done := map[int]bool{}
	for _, c := range comp {
		x, y := c%w, c/w
		for _, d := range [4][2]int{{r, 0}, {-r, 0}, {0, r}, {0, -r}} {
			xx, yy := x+d[0], y+d[1]
			if xx < 0 || yy < 0 || xx >= w || yy >= h {
				continue
			}
			if j := yy*w + xx; reached[j] && !done[j] {
				done[j] = true
				sa, sb, n = sa+float64(g.fa[j]), sb+float64(g.fb[j]), n+1
			}
		}
	}
	if n < 20 {
		return a0, b0
	}
	return sa / float64(n), sb / float64(n)
}

// backdropPart is the backdrop: the largest part of the open cells that
// touches the frame (a product cut by the frame, which the backdrop model
// may have followed there, is another).
func (g *hueGrid) backdropPart(open, frame func(c int) bool) []bool {
	m := g.w * g.h
	part := make([]bool, m)
	var best []int
	for c := range m {
		if !frame(c) || !open(c) || part[c] {
			continue
		}
		part[c] = true
		comp := g.spread([]int{c}, part, open)
		if len(comp) > len(best) {
			best = comp
		}
	}
	clear(part)
	for _, c := range best {
		part[c] = true
	}
	return part
}

// spread floods from queue (marked in mark) through the 4-neighbours open
// allows, marking them: every cell reached, queue's first.
func (g *hueGrid) spread(queue []int, mark []bool, open func(c int) bool) []int {
	for q := 0; q < len(queue); q++ {
		forNeighbours(queue[q], g.w, g.h, func(j int) {
			if !mark[j] && open(j) {
				mark[j] = true
				queue = append(queue, j)
			}
		})
	}
	return queue
}

// offHue tells whether region comp is solid and off the hue of the
// backdrop beside it (oa, ob) (cuthue.go), and its mean hue.
func (g *hueGrid) offHue(comp []int, oa, ob, least float64) (float64, float64, bool) {
	w, h := g.w, g.h
	if len(comp) < max(100, w*h/400) {
		return 0, 0, false
	}
	in := make(map[int]bool, len(comp))
	var ma, mb float64
	for _, c := range comp {
		in[c] = true
		ma, mb = ma+float64(g.fa[c]), mb+float64(g.fb[c])
	}
	ma, mb = ma/float64(len(comp)), mb/float64(len(comp))
	da, db := ma-oa, mb-ob
	size := math.Hypot(da, db)
	const r = 2
	solid, same := 0, 0
	for _, c := range comp {
		if g.ownHue(c, oa, ob, da, db, size) {
			same++
		}
		x, y := c%w, c/w
		all := x >= r && y >= r && x < w-r && y < h-r
		for yy := y - r; all && yy <= y+r; yy++ {
			for xx := x - r; all && xx <= x+r; xx++ {
				all = in[yy*w+xx]
			}
		}
		if all {
			solid++
		}
	}
	n := float64(len(comp))
	return ma, mb, size >= least && float64(same) >= hueSame*n && float64(solid) >= hueSolid*n
}

// ownHue tells whether cell c's hue is nearer a region's (the backdrop's
// beside it (oa, ob) plus (da, db), size long) than the backdrop's.
func (g *hueGrid) ownHue(c int, oa, ob, da, db, size float64) bool {
	return ((float64(g.fa[c])-oa)*da+(float64(g.fb[c])-ob)*db)/max(size, 1e-9) > size/2
}

// growInto adds to keep the background cells next to it, in the walls'
// band or closed off from the backdrop (not reached), whose hue is its
// own (ma, mb) more than the backdrop's beside it (oa, ob).
func (g *hueGrid) growInto(keep, walls, reached []bool, oa, ob, ma, mb float64) {
	da, db := ma-oa, mb-ob
	size := math.Hypot(da, db)
	var queue []int
	for c := range keep {
		if keep[c] {
			queue = append(queue, c)
		}
	}
	for q := 0; q < len(queue); q++ {
		forNeighbours(queue[q], g.w, g.h, func(j int) {
			if keep[j] || !g.bg[j] || reached[j] && !walls[j] || !g.ownHue(j, oa, ob, da, db, size) {
				return
			}
			keep[j] = true
			queue = append(queue, j)
		})
	}
}
