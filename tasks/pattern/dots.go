package pattern

// Polka dots sit on a lattice: one dot in the middle of every cell, or,
// half-drop, every other column of cells dropped by half a cell. The dot
// colour cycles with the cell, ground excluded.

// dotRow places pixel row p (its centre) among the rows of cells of column
// cx: the cell number and the position in it, in [0, 1). A half-drop
// lattice drops the odd columns by half a cell, which is size in the units
// of cellRem (a cell is 2·size).
func (s *spec) dotRow(cx, p int) (int, float64) {
	num, den := (2*p+1)*s.repeats, 2*s.size
	if s.halfDrop && mod(cx, 2) == 1 {
		num -= s.size
	}
	c := floorDiv(num, den)
	return c, float64(num-c*den) / float64(den)
}

func dotsAt(s *spec, x, y int) uint8 {
	cx, fx := s.cellAt(x, s.repeats)
	cy, fy := s.dotRow(cx, y)
	dx, dy, r := fx-0.5, fy-0.5, s.dotSize/2
	if float64(dx*dx)+float64(dy*dy) >= float64(r*r) {
		return 0
	}
	return uint8(1 + mod(cx+cy, len(s.palette)-1))
}

// dotsRows keeps each column's distance to its dot centre in a table; a
// row is decided by its place in its cell and its cell modulo the dot
// colours (the odd columns' place follows from the even ones').
func dotsRows(s *spec) rowDrawer {
	a, k, n := s.axis(s.repeats), len(s.palette), s.repeats
	r := s.dotSize / 2
	r2 := float64(r * r)
	dx2, odd := make([]float64, s.size), make([]bool, s.size)
	for x := range dx2 {
		dx := a.frac[x] - 0.5
		dx2[x], odd[x] = float64(dx*dx), s.halfDrop && mod(a.cell[x], 2) == 1
	}
	return rowDrawer{
		key: func(Y int) int {
			cy, rem := s.cellRem(Y, n)
			return mod(cy, k-1)*2*s.size + rem
		},
		draw: func(y int, row []uint8) {
			cyE, fyE := s.dotRow(0, y+s.sy)
			cyO, fyO := s.dotRow(1, y+s.sy)
			for x := range row {
				cy, fy := cyE, fyE
				if odd[x] {
					cy, fy = cyO, fyO
				}
				dy := fy - 0.5
				if dx2[x]+float64(dy*dy) >= r2 {
					row[x] = 0
					continue
				}
				row[x] = uint8(1 + mod(a.cell[x]+cy, k-1))
			}
		},
	}
}
