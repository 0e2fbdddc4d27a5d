package pattern

import (
	"math"
)

// A vector tile is the same pattern as the PNG drawn as shapes, for every
// kind: the continuous picture the PNG's 4 × 4 samples per pixel are taken
// from. The twills (houndstooth, plaid) are drawn thread by thread, a
// rectangle per run of crossings of one colour along a weft thread.
// Tile position (u, v) in pixels reads the pattern at cell coordinates
// ((u+sx)·n/size, (v+sy)·n/size): cell c spans [c, c+1). Shapes are cut
// only by the tile's edge (a clip the files declare), so each stays one
// plain rectangle, circle or closed path a designer can select and recolour.

// pt is a point in tile pixels.
type pt struct{ x, y float64 }

// seg is one piece of a closed path: a line to to, or, curve, a cubic
// Bézier through c1 and c2 to to.
type seg struct {
	curve  bool
	c1, c2 pt
	to     pt
}

// shape is one filled shape in palette colour col: a rectangle (rect, as
// x, y, w, h), a circle (circle, as cx, cy, r) or a closed path from start.
type shape struct {
	col    uint8
	rect   []float64
	circle []float64
	start  pt
	path   []seg
}

// vectorView maps cell coordinates to tile pixels.
type vectorView struct {
	s        *spec
	cell     float64 // a cell's side in pixels
	x0, y0   float64 // the cell coordinates of the tile's top-left corner
	lo, hiX  int     // the cells visible across
	loY, hiY int     // the cells visible down
}

func newView(s *spec) vectorView { return cellView(s, s.repeats) }

// cellView is the view of n cells across the tile (motif repeats, or
// threads of a weave).
func cellView(s *spec, n int) vectorView {
	v := vectorView{s: s, cell: float64(s.size) / float64(n)}
	v.x0, v.y0 = float64(s.sx)/v.cell, float64(s.sy)/v.cell
	v.lo, v.hiX = int(math.Floor(v.x0)), int(math.Floor(v.x0))+n
	v.loY, v.hiY = int(math.Floor(v.y0)), int(math.Floor(v.y0))+n
	return v
}

// woven draws a twill thread by thread: under each weft thread a
// full-width rectangle of the row's commonest colour (one rectangle for
// rows in a row of one such colour: a weft stripe), then over it each run
// of crossings of another colour (the floats), a run the same as the one
// above it lengthening that rectangle. A solid block of one colour is then
// inside one rectangle, with no seam between threads.
func (s *spec) woven(threads int, at func(s *spec, ti, tj int) uint8) []shape {
	v := cellView(s, threads)
	type run struct {
		from, to int
		col      uint8
	}
	var out []shape
	open := map[run]int{} // float runs of the row above → their rectangle in out
	ground, groundAt := -1, -1
	row := make([]uint8, v.hiX-v.lo+1)
	for tj := v.loY; tj <= v.hiY; tj++ {
		var count [256]int
		for i := range row {
			row[i] = at(s, v.lo+i, tj)
			count[row[i]]++
		}
		base := 0
		for c, n := range count {
			if n > count[base] {
				base = c
			}
		}
		if base == ground {
			out[groundAt].rect[3] += v.cell
		} else {
			ground, groundAt, open = base, len(out), map[run]int{}
			out = append(out, shape{col: uint8(base), rect: []float64{0, v.at(0, float64(tj)).y, float64(s.size), v.cell}})
		}
		next := map[run]int{}
		for i := 0; i < len(row); {
			c, end := row[i], i+1
			for end < len(row) && row[end] == c {
				end++
			}
			if int(c) != base {
				r := run{i, end, c}
				if k, ok := open[r]; ok {
					out[k].rect[3] += v.cell
					next[r] = k
				} else {
					next[r] = len(out)
					out = append(out, v.box(c, float64(v.lo+i), float64(tj), float64(end-i), 1))
				}
			}
			i = end
		}
		open = next
	}
	return out
}

// at is the tile point of cell coordinates (X, Y).
func (v vectorView) at(X, Y float64) pt { return pt{(X - v.x0) * v.cell, (Y - v.y0) * v.cell} }

// box is the rectangle of cell coordinates [X, X+w) × [Y, Y+h).
func (v vectorView) box(col uint8, X, Y, w, h float64) shape {
	p := v.at(X, Y)
	return shape{col: col, rect: []float64{p.x, p.y, w * v.cell, h * v.cell}}
}

// poly is the closed polygon of points in cell coordinates.
func (v vectorView) poly(col uint8, pts ...[2]float64) shape {
	sh := shape{col: col, start: v.at(pts[0][0], pts[0][1])}
	for _, p := range pts[1:] {
		sh.path = append(sh.path, seg{to: v.at(p[0], p[1])})
	}
	return sh
}

// ground is the whole tile in palette colour 0, nothing when that colour
// is transparent (one colour sent). Kinds whose shapes already cover the
// tile draw it too, so no hairline of the page shows where two shapes meet
// in a viewer that anti-aliases each shape on its own.
func (v vectorView) ground() []shape {
	if _, _, _, a := v.s.palette[0].RGBA(); a == 0 {
		return nil
	}
	n := float64(v.s.size)
	return []shape{{col: 0, rect: []float64{0, 0, n, n}}}
}

// shapes draws the tile of s as shapes, back to front.
func (s *spec) shapes() []shape {
	v := newView(s)
	switch s.kind {
	case "stripes":
		return v.stripes()
	case "checks":
		out := v.ground()
		for cy := v.loY; cy <= v.hiY; cy++ {
			for cx := v.lo; cx <= v.hiX; cx++ {
				out = append(out, v.box(uint8(mod(cx+cy, len(s.palette))), float64(cx), float64(cy), 1, 1))
			}
		}
		return out
	case "dots":
		return v.dots()
	case "chevron":
		return v.bands(func(f float64) float64 { return math.Abs(2*f - 1) }, 2)
	case "waves":
		return v.bands(func(f float64) float64 { return (1 - math.Cos(2*math.Pi*f)) / 2 }, 8)
	case "houndstooth":
		return s.woven(8*s.repeats, houndstoothThread)
	case "plaid":
		return s.woven(len(s.sett)*s.repeats, plaidThread)
	case "diamonds":
		out := v.ground()
		for cy := v.loY; cy <= v.hiY; cy++ {
			for cx := v.lo; cx <= v.hiX; cx++ {
				X, Y := float64(cx), float64(cy)
				out = append(out, v.poly(uint8(1+mod(cx+cy, len(s.palette)-1)),
					[2]float64{X + 0.5, Y}, [2]float64{X + 1, Y + 0.5}, [2]float64{X + 0.5, Y + 1}, [2]float64{X, Y + 0.5}))
			}
		}
		return out
	}
	return v.cross()
}

// stripes are one shape per band: rectangles across or down the tile, or
// parallelograms for the diagonals.
func (v vectorView) stripes() []shape {
	s := v.s
	total := float64(s.bands[len(s.bands)-1])
	out := v.ground()
	band := func(c int, draw func(a, b float64, col uint8)) {
		prev := 0.0
		for i, b := range s.bands {
			draw(float64(c)+prev/total, float64(c)+float64(b)/total, s.bandCol[i])
			prev = float64(b)
		}
	}
	n := float64(s.repeats)
	switch s.angle {
	case 0, 90:
		lo, hi, across := v.loY, v.hiY, s.angle == 0
		if !across {
			lo, hi = v.lo, v.hiX
		}
		for c := lo; c <= hi; c++ {
			band(c, func(a, b float64, col uint8) {
				if across {
					out = append(out, v.box(col, v.x0, a, n, b-a))
				} else {
					out = append(out, v.box(col, a, v.y0, b-a, n))
				}
			})
		}
	default:
		// The band coordinate is X+Y (45°) or X−Y (135°), offset as the
		// samples are (an eighth of a pixel, render's sample centres).
		sign, off := 1.0, -0.125/v.cell
		if s.angle == 135 {
			sign, off = -1, 0.125/v.cell
		}
		w0 := v.x0 + sign*v.y0 + off
		for c := int(math.Floor(w0)) - s.repeats - 1; c <= int(math.Floor(w0))+2*s.repeats+1; c++ {
			band(c, func(a, b float64, col uint8) {
				// The strip a ≤ X + sign·(Y − off) < b between the rows
				// just above and below the tile.
				yt, yb := v.y0-1, v.y0+n+1
				x := func(w, Y float64) float64 { return w - off - sign*Y }
				out = append(out, v.poly(col,
					[2]float64{x(a, yt), yt}, [2]float64{x(b, yt), yt}, [2]float64{x(b, yb), yb}, [2]float64{x(a, yb), yb}))
			})
		}
	}
	return out
}

// dots are circles on the ground, each column's cells dropped by half a
// cell on a half-drop lattice's odd columns.
func (v vectorView) dots() []shape {
	s := v.s
	out := v.ground()
	r := s.dotSize / 2 * v.cell
	for cx := v.lo - 1; cx <= v.hiX+1; cx++ {
		drop := 0.0
		if s.halfDrop && mod(cx, 2) == 1 {
			drop = 0.5
		}
		for cy := v.loY - 1; cy <= v.hiY+1; cy++ {
			c := v.at(float64(cx)+0.5, float64(cy)+0.5+drop)
			if c.x+r <= 0 || c.y+r <= 0 || c.x-r >= float64(s.size) || c.y-r >= float64(s.size) {
				continue
			}
			out = append(out, shape{col: uint8(1 + mod(cx+cy, len(s.palette)-1)), circle: []float64{c.x, c.y, r}})
		}
	}
	return out
}

// bands are the zigzag or wavy bands of chevron and waves: band B holds
// B/k ≤ Y + amp·shape(X) < (B+1)/k, between two copies of one curve. Each
// cell of a curve is per pieces: straight for chevron (2), cubic Béziers
// from the curve's slopes for waves (8, within 0.01 px of the cosine).
func (v vectorView) bands(cellShape func(float64) float64, per int) []shape {
	s := v.s
	shapeOf := func(X float64) float64 { return cellShape(X - math.Floor(X)) }
	k := len(s.palette)
	amp := s.amp
	X0, X1 := float64(v.lo), float64(v.hiX+1)
	slope := func(X float64) float64 { // d shape / dX, numerically
		const h = 1e-6
		return (shapeOf(X+h) - shapeOf(X-h)) / (2 * h)
	}
	curve := func(base float64, from, to float64) []seg {
		var out []seg
		steps := int(math.Round(math.Abs(to-from))) * per
		d := (to - from) / float64(steps)
		for i := 1; i <= steps; i++ {
			a, b := from+float64(i-1)*d, from+float64(i)*d
			ya, yb := base-amp*shapeOf(a), base-amp*shapeOf(b)
			if per <= 2 {
				out = append(out, seg{to: v.at(b, yb)})
				continue
			}
			sa, sb := -amp*slope(a), -amp*slope(b)
			out = append(out, seg{curve: true, c1: v.at(a+d/3, ya+sa*d/3), c2: v.at(b-d/3, yb-sb*d/3), to: v.at(b, yb)})
		}
		return out
	}
	out := v.ground()
	first := int(math.Floor((v.y0)*float64(k))) - k - 1
	last := int(math.Ceil((v.y0+float64(s.repeats)+amp)*float64(k))) + 1
	for B := first; B <= last; B++ {
		top, bottom := float64(B)/float64(k), float64(B+1)/float64(k)
		sh := shape{col: uint8(mod(B, k)), start: v.at(X0, top-amp*shapeOf(X0))}
		sh.path = append(sh.path, curve(top, X0, X1)...)
		sh.path = append(sh.path, seg{to: v.at(X1, bottom-amp*shapeOf(X1))})
		sh.path = append(sh.path, curve(bottom, X1, X0)...)
		out = append(out, sh)
	}
	return out
}

// cross draws a woven check: the ground, the vertical bands, the
// horizontal bands, then the squares where they cross.
func (v vectorView) cross() []shape {
	s := v.s
	n, f := float64(s.repeats), s.bandFrac
	out := []shape{{col: s.cross[0], rect: []float64{0, 0, float64(s.size), float64(s.size)}}}
	for c := v.lo; c <= v.hiX; c++ {
		out = append(out, v.box(s.cross[2], float64(c), v.y0, f, n))
	}
	for c := v.loY; c <= v.hiY; c++ {
		out = append(out, v.box(s.cross[1], v.x0, float64(c), n, f))
	}
	for cy := v.loY; cy <= v.hiY; cy++ {
		for cx := v.lo; cx <= v.hiX; cx++ {
			out = append(out, v.box(s.cross[3], float64(cx), float64(cy), f, f))
		}
	}
	return out
}
