package pattern

import "image/color"

// Woven checks (gingham, buffalo_check, windowpane) are a cross of bands:
// every column is a ground or a coloured band, every row too, and the
// pixel is the colour their crossing gives (spec.cross). In a cell the
// coloured band comes first and takes bandFrac of it.

// band is 1 when position p across the tile falls in a coloured band.
func (s *spec) band(p int) int {
	_, f := s.cellAt(p, s.repeats)
	if f < s.bandFrac {
		return 1
	}
	return 0
}

func crossAt(s *spec, x, y int) uint8 { return s.cross[2*s.band(x)+s.band(y)] }

// crossRows: a row is one of two, ground or coloured band.
func crossRows(s *spec) rowDrawer {
	cols := make([]int, s.size)
	for x := range cols {
		cols[x] = 2 * s.band(x+s.sx)
	}
	return rowDrawer{
		key: func(Y int) int { return s.band(Y) },
		draw: func(y int, row []uint8) {
			b := s.band(y + s.sy)
			for x := range row {
				row[x] = s.cross[cols[x]+b]
			}
		},
	}
}

// mix is half of a and half of b, premultiplied: a stripe at half opacity
// over the other, as a woven crossing of their threads reads.
func mix(a, b color.Color) color.Color {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	h := func(x, y uint32) uint8 { return uint8((x>>8 + y>>8 + 1) / 2) }
	return color.RGBA{h(ar, br), h(ag, bg), h(ab, bb), h(aa, ba)}
}

// weave sets up a woven check from its colours: the ground, the vertical
// bands' colour and the horizontal bands' (the third colour, else the
// second). Gingham and buffalo check mix a coloured band crossing the
// ground; windowpane lines stay solid, the vertical line on top.
func (s *spec) weave(pal []color.Color, lines bool, frac float64) {
	g, v, h := pal[0], pal[1], pal[min(2, len(pal)-1)]
	cells := []color.Color{g, mix(g, h), mix(v, g), mix(v, h)} // (col band, row band)
	if lines {
		cells = []color.Color{g, h, v, v}
	}
	s.palette, s.bandFrac = nil, frac
	for i, c := range cells {
		at := -1
		for j, p := range s.palette {
			if p == c {
				at = j
			}
		}
		if at < 0 {
			at = len(s.palette)
			s.palette = append(s.palette, c)
		}
		s.cross[i] = uint8(at)
	}
}
