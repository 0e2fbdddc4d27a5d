package image

import (
	"image"
	"math"
)

// Turned glass (issue 46): a tumbler, a wine glass's bowl or a round
// perfume flask is a body of revolution, and seen from the side its glass
// shows as two walls mirrored about a vertical axis — the thin lines
// where the light crosses the most glass, darker than the backdrop, or
// bright where they reflect it. Between them the glass is nearly clear:
// the backdrop dimmed a little, which the floods give to the backdrop
// when the walls do not close (an open rim, a break in a faint wall).
// The region between two mirrored walls is the body, whatever its tone
// (the symmetry of a body of revolution's contour, as in Ulupinar and
// Nevatia's "Perception of 3-D surfaces from 2-D contours", PAMI 1993);
// its see-through alpha is then read as the clear body's (cutclear.go):
// how much it dims the backdrop, never under glassFloor.
//
// Per row, the runs of marked pixels (off the backdrop by more than the
// noise, smoothed) are paired: two thin runs
// (turnedWall) of like width whose outer and inner edges share an axis.
// The axis most rows agree on is the body's; the rows whose widest pair
// sits on it, joined where the walls move smoothly, are the body when
//
//   - they are many (turnedMinRows) and at least turnedCover of the rows
//     between the first and the last have their pair (symmetric over most
//     of the height), and they are at least turnedSpan of the height of
//     the object over the walls' columns;
//   - the walls look like glass: a shade of the backdrop (its own
//     chromaticity dimmed, not a colour of their own) no darker than
//     turnedDark of it in the median — not black temples, ink outlines or
//     a coloured strap — or brighter than it; and they fade inwards
//     (fades: densest at the silhouette, not a hoop's solid wall);
//   - most of what lies between them is the backdrop seen through
//     (turnedClear of its pixels near it) and the cut-out gave away at
//     least turnedLost of it (else there is nothing to fill).
//
// Only pixels the cut-out left transparent are filled; the walls, a
// label or a highlight between them keep the alpha they had.

const (
	turnedWall    = 0.22 // a wall's widest share of its pair's span
	turnedMinRows = 12   // the fewest rows of a turned body
	turnedCover   = 0.7  // the least share of its rows with both walls on the axis
	turnedSpan    = 0.5  // the least share of the object's height over the walls' columns
	turnedDark    = 0.45 // the darkest a glass wall is, as a share of the backdrop (median)
	turnedClear   = 0.7  // the least share of the inside near the backdrop
	turnedLost    = 0.15 // the least share of the inside the cut-out gave away
	turnedFade    = 0.8  // the most a wall's inner half is off the backdrop, as a share of its outer half's
)

// wallPair is a row's two mirrored walls: the outer edges xl and xr, the
// inner ones il and ir.
type wallPair struct{ xl, il, ir, xr int }

// withTurnedBody fills the turned glass body of the cut-out res of src
// (see above) and gives what it fills its see-through alpha.
func withTurnedBody(src image.Image, res cutout, tol float64) cutout {
	cut := res.img
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	if W < 32 || H < 32 {
		return res
	}
	bd, _, _ := borderBackdrop(src, W, H, 1.5*tol)
	if bd == nil {
		return res
	}
	px, ok := src.(*image.NRGBA)
	if !ok || px.Rect.Min != (image.Point{}) {
		px = cloneNRGBA(src)
	}
	lum := smoothLum(px)
	res3 := make([]float32, W*H) // smoothed level less the backdrop's
	for i := range res3 {
		res3[i] = lum[i] - float32(bd.lum(i, W))
	}
	least := float32(max(5, 4*borderSpread(res3, W, H)))
	marked := make([]bool, W*H) // what the image shows, not the cut-out's object: its kept middle is no wall
	for i := range marked {
		marked[i] = res3[i] >= least || res3[i] <= -least
	}
	rows := findTurnedRows(marked, W, H)
	if rows == nil {
		return res
	}
	t := turnedBody{cut: cut, px: px, bd: bd, W: W, H: H, rows: rows, res3: res3, least: least}
	if !t.looksTurned() {
		return res
	}
	return t.fill(res)
}

// findTurnedRows finds the turned body's rows (see above): each row's pair on
// the common axis, nil for a row without; nil when no axis holds enough
// rows.
func findTurnedRows(marked []bool, W, H int) []*wallPair {
	pairs := make([][]wallPair, H)
	votes := make([]int, 2*W+1)
	for y := range H {
		row := marked[y*W : y*W+W]
		var runs [][2]int
		for x := 0; x < W; {
			if !row[x] {
				x++
				continue
			}
			s := x
			for x < W && row[x] {
				x++
			}
			runs = append(runs, [2]int{s, x - 1})
		}
		if len(runs) < 2 || len(runs) > 16 {
			continue
		}
		seen := map[int]bool{}
		for a := range runs {
			for b := a + 1; b < len(runs); b++ {
				p := wallPair{xl: runs[a][0], il: runs[a][1], ir: runs[b][0], xr: runs[b][1]}
				wl, wr, span := p.il-p.xl+1, p.xr-p.ir+1, p.xr-p.xl+1
				if p.xl == 0 || p.xr == W-1 || p.ir-p.il < 4 || float64(max(wl, wr)) > turnedWall*float64(span) ||
					absInt(wl-wr) > max(2, max(wl, wr)/2) {
					continue
				}
				pairs[y] = append(pairs[y], p)
				c2 := p.xl + p.xr
				if !seen[c2] {
					seen[c2] = true
					votes[c2]++
				}
			}
		}
	}
	best, axis := 0, 0
	for c2 := 1; c2 < len(votes)-1; c2++ {
		if v := votes[c2-1] + votes[c2] + votes[c2+1]; v > best {
			best, axis = v, c2
		}
	}
	if best < turnedMinRows {
		return nil
	}
	// Each row's widest pair on the axis; then the longest run of rows
	// whose walls move smoothly from one to the next.
	on := make([]*wallPair, H)
	for y, ps := range pairs {
		for k := range ps {
			if absInt(ps[k].xl+ps[k].xr-axis) <= 2 && (on[y] == nil || ps[k].xr-ps[k].xl > on[y].xr-on[y].xl) {
				on[y] = &ps[k]
			}
		}
	}
	var bestRows []*wallPair
	bestN := 0
	for y0 := 0; y0 < H; y0++ {
		if on[y0] == nil {
			continue
		}
		seg := make([]*wallPair, H)
		seg[y0] = on[y0]
		last, n := y0, 1
		for y := y0 + 1; y < H && y-last <= 4; y++ {
			if on[y] == nil {
				continue
			}
			d := 2 + 2*(y-last)
			if absInt(on[y].xl-seg[last].xl) > d || absInt(on[y].xr-seg[last].xr) > d {
				continue
			}
			seg[y], last, n = on[y], y, n+1
		}
		if n > bestN {
			bestRows, bestN = seg, n
		}
		y0 = last
	}
	if bestN < turnedMinRows {
		return nil
	}
	return bestRows
}

// turnedBody is a turned body found: its rows' wall pairs (nil for a row
// without) over the source px and its backdrop.
type turnedBody struct {
	cut   *image.NRGBA
	px    *image.NRGBA
	bd    *backdrop
	W, H  int
	rows  []*wallPair
	res3  []float32
	least float32
}

// span is the body's first and last row and how many have their pair.
func (t *turnedBody) span() (y0, y1, n int) {
	y0 = -1
	for y, p := range t.rows {
		if p == nil {
			continue
		}
		if y0 < 0 {
			y0 = y
		}
		y1, n = y, n+1
	}
	return y0, y1, n
}

// pairAt is row y's pair, interpolated between the nearest rows that have
// one; false outside the body.
func (t *turnedBody) pairAt(y int) (wallPair, bool) {
	if p := t.rows[y]; p != nil {
		return *p, true
	}
	a, b := y-1, y+1
	for a >= 0 && t.rows[a] == nil {
		a--
	}
	for b < t.H && t.rows[b] == nil {
		b++
	}
	if a < 0 || b >= t.H {
		return wallPair{}, false
	}
	pa, pb := t.rows[a], t.rows[b]
	f := float64(y-a) / float64(b-a)
	lerp := func(u, v int) int { return int(math.Round(float64(u) + f*float64(v-u))) }
	return wallPair{xl: lerp(pa.xl, pb.xl), il: lerp(pa.il, pb.il), ir: lerp(pa.ir, pb.ir), xr: lerp(pa.xr, pb.xr)},
		true
}

// looksTurned applies the gates (see above) to the rows found.
func (t *turnedBody) looksTurned() bool {
	y0, y1, n := t.span()
	if float64(n) < turnedCover*float64(y1-y0+1) {
		return false
	}
	// The object's height over the walls' columns.
	xl, xr := t.W, 0
	for _, p := range t.rows {
		if p != nil {
			xl, xr = min(xl, p.xl), max(xr, p.xr)
		}
	}
	top, bottom := t.H, -1
	for y := range t.H {
		for x := xl; x <= xr; x++ {
			if t.cut.Pix[4*(y*t.W+x)+3] > 0 {
				top, bottom = min(top, y), max(bottom, y)
				break
			}
		}
	}
	top, bottom = min(top, y0), max(bottom, y1)
	if float64(y1-y0+1) < turnedSpan*float64(bottom-top+1) {
		return false
	}
	// The walls: a shade of the backdrop, not too dark, or brighter.
	var ratios, chroma []float64
	inside, near, lost := 0, 0, 0
	for y := y0; y <= y1; y++ {
		p, ok := t.pairAt(y)
		if !ok {
			continue
		}
		for x := p.xl; x <= p.xr; x++ {
			i := y*t.W + x
			if x > p.il && x < p.ir {
				inside++
				if t.res3[i] < t.least && t.res3[i] > -t.least {
					near++
				}
				if t.cut.Pix[4*i+3] == 0 {
					lost++
				}
				continue
			}
			c, b := t.px.Pix[4*i:], t.bd.at(x, y)
			bb := b[0]*b[0] + b[1]*b[1] + b[2]*b[2]
			cb := float64(c[0])*b[0] + float64(c[1])*b[1] + float64(c[2])*b[2]
			s := cb / max(bb, 1)
			ratios = append(ratios, s)
			var d float64
			for ch := range 3 {
				e := float64(c[ch]) - s*b[ch]
				d += e * e
			}
			chroma = append(chroma, math.Sqrt(d))
		}
	}
	if len(ratios) == 0 || inside == 0 {
		return false
	}
	if median(ratios) < turnedDark || median(chroma) > max(8, 2*float64(t.least)) || !t.fades(y0, y1) {
		return false
	}
	return float64(near) >= turnedClear*float64(inside) && float64(lost) >= turnedLost*float64(inside)
}

// fades tells whether the walls fade inwards as glass does: their inner
// halves off the backdrop by at most turnedFade of their outer halves,
// pooled over the rows y0 to y1 — the light crosses the most glass at the
// silhouette. A hoop's or a frame's solid wall is as dense at its inner
// edge as at its outer one.
func (t *turnedBody) fades(y0, y1 int) bool {
	var outer, inner float64
	side := func(y, from, step, w int) {
		for k := range w / 2 {
			outer += math.Abs(float64(t.res3[y*t.W+from+step*k]))
			inner += math.Abs(float64(t.res3[y*t.W+from+step*(w-1-k)]))
		}
	}
	for y := y0; y <= y1; y++ {
		if p := t.rows[y]; p != nil {
			side(y, p.xl, 1, p.il-p.xl+1)
			side(y, p.xr, -1, p.xr-p.ir+1)
		}
	}
	return outer > 0 && inner <= turnedFade*outer
}

// fill gives the cut-out the body's transparent pixels with their
// see-through alpha, read as the clear body's (clearAlpha, cutclear.go)
// with the walls for the densest glass.
func (t *turnedBody) fill(res cutout) cutout {
	W := t.W
	n := W * t.H
	body, gauge := make([]bool, n), make([]bool, n)
	y0, y1, _ := t.span()
	added := 0
	for y := y0; y <= y1; y++ {
		p, ok := t.pairAt(y)
		if !ok {
			continue
		}
		for x := p.xl; x <= p.xr; x++ {
			i := y*W + x
			q := t.cut.Pix[4*i : 4*i+4]
			switch {
			case q[3] == 0:
				copy(q, t.px.Pix[4*i:4*i+3])
				q[3] = 255
				body[i], gauge[i] = true, true
				added++
			case x <= p.il || x >= p.ir:
				gauge[i] = q[3] == 255 // a wall: the densest glass
			}
		}
	}
	if added == 0 {
		return res
	}
	if share, ok := clearAlpha(t.cut, t.bd, body, gauge); ok {
		res.seeThrough = min(1, res.seeThrough+share)
	}
	return res
}

// borderSpread is the spread of v along the image's border (a band of 2
// pixels): 1.4826 × the median absolute deviation, the noise's σ.
func borderSpread(v []float32, W, H int) float64 {
	var s []float64
	for y := range H {
		for x := range W {
			if x >= 2 && x < W-2 && y >= 2 && y < H-2 {
				continue
			}
			s = append(s, float64(v[y*W+x]))
		}
	}
	m := median(s)
	for k := range s {
		s[k] = math.Abs(s[k] - m)
	}
	return 1.4826 * median(s)
}
