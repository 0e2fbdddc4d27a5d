package image

import "math"

// Step 3 of the cut-out: region connectivity. A flood from the border
// through the candidates stops at steps sharper than a soft shadow's (a
// product's outline, a seam); with walls, at the faint lines too. Then
// bodies in shadow tones are given back, the deep shadow's last pixels
// along the product go, regions cut off only by shallow lines that
// continue the backdrop join it, enclosed regions that are the backdrop
// itself (a handle's hole) are removed, and so are specks.

// segmentation is one run of step 3: the flood's masks and scratch.
type segmentation struct {
	*cutState
	walled     bool
	gap        int    // how far the walls are widened (gapClose, or wideGap)
	near, cand []bool // the candidates this run floods through
	isBg       []bool
	seen       []bool
	queue      []int32
	comp       []int32
}

// segment runs step 3, with or without the faint lines as walls; the
// background it returns goes back to the pool with boolPool.put.
func (st *cutState) segment(walled bool) []bool { return st.segmentGap(walled, gapClose) }

// segmentGap is segment with the walls widened by gap.
func (st *cutState) segmentGap(walled bool, gap int) []bool {
	s := &segmentation{cutState: st, walled: walled, gap: gap, near: st.near, cand: st.cand}
	n := st.n
	if walled {
		s.near, s.cand = boolPool.get(n), boolPool.get(n)
		defer boolPool.put(s.near)
		defer boolPool.put(s.cand)
		for i := range n {
			s.near[i] = st.near[i] && !st.rims[i]
			s.cand[i] = st.cand[i] && !st.rims[i] && (st.near[i] || !st.wide[i])
		}
	}
	s.seen = boolPool.get(n)
	defer boolPool.put(s.seen)
	s.isBg = boolPool.get(n)
	clear(s.isBg)
	if walled {
		// The walls widened by gapClose close a gap of up to twice that
		// in a faint outline (where its rim turns into a step onto its own
		// shadow, JPEG's ringing); the band they add outside the lines is
		// flooded after.
		band := dilate(st.rims, st.W, st.H, gap)
		cand := s.cand
		s.cand = boolPool.get(n)
		for i := range n {
			s.cand[i] = cand[i] && !band[i]
		}
		s.floodBorder()
		boolPool.put(s.cand)
		s.cand = cand
		s.spreadInto(band)
		boolPool.put(band)
		keepMainFlood(s.isBg, st.W, st.H)
	} else {
		s.floodBorder()
	}
	bodiesInShadow(s.isBg, s.near, st.lum3, func(j int) float64 { return st.bd.lum(j, st.W) }, st.W, st.H)
	s.takeDeepFringe()
	s.joinContinuing()
	s.dropHoles()
	s.dropSpecks()
	return s.isBg
}

// floodBorder floods from the border's candidates. A scanline flood: a
// popped pixel's row is filled left and right as far as the steps allow,
// then the run's pixels above and below are tried one by one. The set
// reached is the one a pixel-by-pixel flood reaches (the test between two
// pixels is symmetric).
func (s *segmentation) floodBorder() {
	W, H, pix, isBg, cand := s.W, s.H, s.px.Pix, s.isBg, s.cand
	s.queue = s.queue[:0]
	for y := range H {
		for x := range W {
			if (x == 0 || y == 0 || x == W-1 || y == H-1) && cand[y*W+x] {
				isBg[y*W+x] = true
				s.queue = append(s.queue, int32(y*W+x))
			}
		}
	}
	enter := func(i, j int) bool {
		return !isBg[j] && cand[j] && (pix[4*i+3] < 128 || pix[4*j+3] < 128 || stepSq(pix, i, j) <= s.stepMax2)
	}
	for len(s.queue) > 0 {
		i := int(s.queue[len(s.queue)-1])
		s.queue = s.queue[:len(s.queue)-1]
		y := i / W
		l, r := i, i
		for l > y*W && enter(l, l-1) {
			l--
			isBg[l] = true
		}
		for r < y*W+W-1 && enter(r, r+1) {
			r++
			isBg[r] = true
		}
		for k := l; k <= r; k++ {
			if y > 0 && enter(k, k-W) {
				isBg[k-W] = true
				s.queue = append(s.queue, int32(k-W))
			}
			if y < H-1 && enter(k, k+W) {
				isBg[k+W] = true
				s.queue = append(s.queue, int32(k+W))
			}
		}
	}
}

// gapClose is how far the walled flood's walls are widened past the
// lines' own pixel each way.
const gapClose = 4

// dilate is mask grown by a (2r+1)-pixel square; it goes back to the pool
// with boolPool.put.
func dilate(mask []bool, W, H, r int) []bool {
	n := W * H
	rows, out := boolPool.get(n), boolPool.get(n)
	defer boolPool.put(rows)
	for y := range H {
		last := -1 << 30 // the last set pixel at or left of x+r
		row := mask[y*W : y*W+W]
		for x := range W + r {
			if x < W && row[x] {
				last = x
			}
			if xx := x - r; xx >= 0 {
				rows[y*W+xx] = last >= xx-r
			}
		}
	}
	for x := range W {
		last := -1 << 30
		for y := range H + r {
			if y < H && rows[y*W+x] {
				last = y
			}
			if yy := y - r; yy >= 0 {
				out[yy*W+x] = last >= yy-r
			}
		}
	}
	return out
}

// spreadInto floods on from the background into the candidates of band
// only, through steps no sharper than a soft shadow's, at most 2 × gapClose
// steps: the band outside the lines is the backdrop's, the band inside
// them (reached through a gap) is not walked round.
func (s *segmentation) spreadInto(band []bool) {
	W, H, isBg := s.W, s.H, s.isBg
	s.queue = s.queue[:0]
	for i := range s.n {
		if isBg[i] {
			s.queue = append(s.queue, int32(i))
		}
	}
	next := []int32(nil)
	for range 2 * s.gap {
		next = next[:0]
		for _, i32 := range s.queue {
			i := int(i32)
			forNeighbours(i, W, H, func(j int) {
				if !isBg[j] && band[j] && s.cand[j] && s.step2(i, j) <= s.stepMax2 {
					isBg[j] = true
					next = append(next, int32(j))
				}
			})
		}
		s.queue, next = next, s.queue
	}
}

// takeDeepFringe takes two more steps of the deep shadow along the
// product: its last pixels there are not smooth (the product's outline is
// next to them; JPEG's blocks).
func (s *segmentation) takeDeepFringe() {
	for range 2 {
		s.queue = s.queue[:0]
		for i := range s.n {
			if s.deep[i] && !s.isBg[i] {
				take := false
				s.neighbours(i, func(j int) { take = take || s.isBg[j] && s.step2(i, j) <= s.stepMax2 })
				if take {
					s.queue = append(s.queue, int32(i))
				}
			}
		}
		for _, i := range s.queue {
			s.isBg[i] = true
		}
	}
}

// grow is the region of pixels from start for which member holds
// (4-neighbours), marking them seen; it reuses one slice.
func (s *segmentation) grow(start int, member func(j int) bool) []int32 {
	s.comp = append(s.comp[:0], int32(start))
	s.seen[start] = true
	for h := 0; h < len(s.comp); h++ {
		s.neighbours(int(s.comp[h]), func(j int) {
			if !s.seen[j] && member(j) {
				s.seen[j] = true
				s.comp = append(s.comp, int32(j))
			}
		})
	}
	return s.comp
}

// joinContinuing makes background the regions of backdrop or shadow tones
// cut off only by faint lines (JPEG's ringing beside an edge, a shadow's
// grain) that continue the backdrop: across the line their tone is the
// backdrop's beyond, and the line is shallow — a rim on a white product is
// deeper, and the product's shading does not continue the sweep.
func (s *segmentation) joinContinuing() {
	clear(s.seen)
	shallow := max(8, 4*s.noise)
	member := func(j int) bool { return !s.isBg[j] && s.cand[j] }
	for i := range s.n {
		if s.seen[i] || !member(i) {
			continue
		}
		c := s.grow(i, member)
		if continuesAcross(c, s.px, s.bd, s.isBg, s.rims, s.cand, shallow) {
			for _, j := range c {
				s.isBg[j] = true
			}
		}
	}
}

// dropHoles makes background the enclosed regions of backdrop colour that
// show the backdrop through the product: their colour is the backdrop's,
// and the product's outline is a step along most of their rim. A light
// part whose shading passes through the backdrop's tone (a white sole)
// fades smoothly into the rest of the part, and a white fill inside a
// drawn outline (inkBounded) stays.
func (s *segmentation) dropHoles() {
	clear(s.seen)
	W, H := s.W, s.H
	minHole := max(12, s.n/4000)
	inRegion := func(j int) bool { return !s.isBg[j] && s.near[j] }
	for i := range s.n {
		if s.seen[i] || !inRegion(i) {
			continue
		}
		c := s.grow(i, inRegion)
		if len(c) < minHole {
			continue
		}
		if inkBounded(c, inRegion, s.lum3, s.bd.lum(int(c[0]), W), W, H, max(5, min(W, H)/60)) {
			continue // a drawn fill: white inside a black outline
		}
		if !s.showsBackdrop(c) {
			continue
		}
		inner := func(j int) bool {
			x, y := j%W, j/W
			for _, o := range [4][2]int{{2, 0}, {-2, 0}, {0, 2}, {0, -2}} {
				xx, yy := x+o[0], y+o[1]
				if xx < 0 || yy < 0 || xx >= W || yy >= H || !inRegion(yy*W+xx) {
					return false
				}
			}
			return true
		}
		lumRes := func(j int) float64 { return s.lum3(j) - s.bd.lum(j, W) }
		if !s.walled || enclosedStats(c, inner, lumRes, W).nearBackdrop(s.noise) {
			for _, j := range c {
				s.isBg[j] = true
			}
		}
	}
}

// showsBackdrop tells whether region c's mean colour is the backdrop's
// and its rim a sharp step (or a line) along at least half of it.
func (s *segmentation) showsBackdrop(c []int32) bool {
	var d [3]float64
	rim, sharp := 0, 0
	for _, j := range c {
		p, b := s.col(int(j)), s.bd.at(int(j)%s.W, int(j)/s.W)
		for ch := range 3 {
			d[ch] += p[ch] - b[ch]
		}
		s.neighbours(int(j), func(k int) {
			if !s.near[k] || s.isBg[k] {
				rim++
				if s.rims[k] || s.step2(int(j), k) > s.stepMax2/4 {
					sharp++
				}
			}
		})
	}
	m := float64(len(c))
	return 2*sharp >= rim && math.Sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2])/m <= max(3, s.tol/4)
}

// dropSpecks makes background the specks of object left in it, and the
// small patches apart from the product whose mean colour is a shade of
// the backdrop: shadow left behind, its pixels failed one by one where
// JPEG's colour bleeds from the product into a dark shadow.
func (s *segmentation) dropSpecks() {
	clear(s.seen)
	W, n := s.W, s.n
	minSpeck := max(8, n/20000)
	chroma2 := s.chroma2()
	shadowPatch := func(c []int32) bool {
		var m [3]float64
		sx, sy := 0, 0
		for _, j := range c {
			p := s.col(int(j))
			for ch := range 3 {
				m[ch] += p[ch] / float64(len(c))
			}
			sx, sy = sx+int(j)%W, sy+int(j)/W
		}
		ok, _ := isShade(m, s.bd.at(sx/len(c), sy/len(c)), chroma2)
		return ok
	}
	member := func(j int) bool { return !s.isBg[j] }
	for i := range n {
		if s.seen[i] || s.isBg[i] {
			continue
		}
		c := s.grow(i, member)
		if len(c) < minSpeck || len(c) < n/500 && shadowPatch(c) {
			for _, j := range c {
				s.isBg[j] = true
			}
		}
	}
}
