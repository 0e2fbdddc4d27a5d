package pattern

import "math"

// rowDrawer draws a tile row by row, as index does pixel by pixel. draw
// fills row y of the tile: row[x] is index(x, y). key, when set, numbers
// the rows by what they depend on (its argument is y+sy): rows of equal key
// are equal, so render draws each key once and copies it.
type rowDrawer struct {
	draw func(y int, row []uint8)
	key  func(Y int) int
}

// axis is cellAt of every column of the tile (x+sx for x in [0, size)),
// among n cells: the tile's one per-axis table per kind.
type axis struct {
	cell []int
	frac []float64
}

func (s *spec) axis(n int) axis {
	a := axis{make([]int, s.size), make([]float64, s.size)}
	for x := range s.size {
		a.cell[x], a.frac[x] = s.cellAt(x+s.sx, n)
	}
	return a
}

// stripesRows: a stripe is a function of one line. At 0° a row is one
// band; at 90° every row is the same line across; at 45° and 135° row y is
// a window, moved by one per row, of one line of 2·size − 1 positions.
func stripesRows(s *spec) rowDrawer {
	n := s.size
	switch s.angle {
	case 90:
		line := make([]uint8, n)
		for x := range line {
			line[x] = s.stripe(x + s.sx)
		}
		return rowDrawer{draw: func(_ int, row []uint8) { copy(row, line) }, key: func(int) int { return 0 }}
	case 45, 135:
		// 45°: p = (x+sx) + (y+sy), line[j] at j = x+y.
		// 135°: p = (x+sx) − (y+sy), line[j] at j = x−y+size−1.
		base, flip := s.sx+s.sy, false
		if s.angle == 135 {
			base, flip = s.sx-s.sy-(n-1), true
		}
		line := make([]uint8, 2*n-1)
		for j := range line {
			line[j] = s.stripe(base + j)
		}
		return rowDrawer{draw: func(y int, row []uint8) {
			if flip {
				y = n - 1 - y
			}
			copy(row, line[y:y+n])
		}}
	}
	return rowDrawer{
		key: func(Y int) int { return int(s.stripe(Y)) },
		draw: func(y int, row []uint8) {
			v := s.stripe(y + s.sy)
			for x := range row {
				row[x] = v
			}
		},
	}
}

func checksRows(s *spec) rowDrawer {
	a, k := s.axis(s.repeats), len(s.palette)
	return rowDrawer{
		key: func(Y int) int {
			cy, _ := s.cellRem(Y, s.repeats)
			return mod(cy, k)
		},
		draw: func(y int, row []uint8) {
			cy, _ := s.cellRem(y+s.sy, s.repeats)
			for x := range row {
				row[x] = uint8(mod(a.cell[x]+cy, k))
			}
		},
	}
}

// bandsRows: a band's colour is mod(cy·k + m, k) = mod(m, k), so a row
// depends only on its position in the cell.
func bandsRows(s *spec, shape func(f float64) float64) rowDrawer {
	a, k := s.axis(s.repeats), len(s.palette)
	lift := make([]float64, s.size)
	for x := range lift {
		lift[x] = float64(s.amp * shape(a.frac[x]))
	}
	return rowDrawer{
		key: func(Y int) int {
			_, rem := s.cellRem(Y, s.repeats)
			return rem
		},
		draw: func(y int, row []uint8) {
			cy, fy := s.cellAt(y+s.sy, s.repeats)
			for x := range row {
				band := cy*k + int(math.Floor((fy+lift[x])*float64(k)))
				row[x] = uint8(mod(band, k))
			}
		},
	}
}

func chevronRows(s *spec) rowDrawer {
	return bandsRows(s, func(f float64) float64 { return math.Abs(2*f - 1) })
}

func wavesRows(s *spec) rowDrawer {
	return bandsRows(s, func(f float64) float64 { return (1 - math.Cos(2*math.Pi*f)) / 2 })
}

func diamondsRows(s *spec) rowDrawer {
	a, k := s.axis(s.repeats), len(s.palette)
	ax := make([]float64, s.size)
	for x := range ax {
		ax[x] = math.Abs(a.frac[x] - 0.5)
	}
	return rowDrawer{
		key: func(Y int) int {
			cy, rem := s.cellRem(Y, s.repeats)
			return mod(cy, k-1)*2*s.size + rem
		},
		draw: func(y int, row []uint8) {
			cy, fy := s.cellAt(y+s.sy, s.repeats)
			ay := math.Abs(fy - 0.5)
			for x := range row {
				if ax[x]+ay >= 0.5 {
					row[x] = 0
					continue
				}
				row[x] = uint8(1 + mod(a.cell[x]+cy, k-1))
			}
		},
	}
}

// houndstoothRows: a row depends on its thread tj modulo 8 (dark or
// light, and the twill) and on its block of 8 threads modulo the k−1
// colours: on tj modulo 8(k−1).
func houndstoothRows(s *spec) rowDrawer {
	a, k := s.axis(8*s.repeats), len(s.palette)
	twillX, darkX, blockX := make([]int, s.size), make([]bool, s.size), make([]int, s.size)
	for x, ti := range a.cell {
		twillX[x], darkX[x], blockX[x] = mod(ti, 4), mod(ti, 8) < 4, floorDiv(ti, 8)
	}
	return rowDrawer{
		key: func(Y int) int {
			tj, _ := s.cellRem(Y, 8*s.repeats)
			return mod(tj, 8*(k-1))
		},
		draw: func(y int, row []uint8) {
			tj, _ := s.cellRem(y+s.sy, 8*s.repeats)
			twillY, darkY, blockY := mod(tj, 4), mod(tj, 8) < 4, floorDiv(tj, 8)
			for x := range row {
				dark := darkY
				if (twillX[x]+twillY)%4 < 2 {
					dark = darkX[x]
				}
				if !dark {
					row[x] = 0
					continue
				}
				row[x] = uint8(1 + mod(blockX[x]+blockY, k-1))
			}
		},
	}
}

// plaidRows: a row depends on its thread tj modulo the sett and the
// twill's 4: on tj modulo 4·len(sett).
func plaidRows(s *spec) rowDrawer {
	t := len(s.sett)
	a := s.axis(t * s.repeats)
	twillX, warp := make([]int, s.size), make([]uint8, s.size)
	for x, ti := range a.cell {
		twillX[x], warp[x] = mod(ti, 4), uint8(s.sett[mod(ti, t)])
	}
	return rowDrawer{
		key: func(Y int) int {
			tj, _ := s.cellRem(Y, t*s.repeats)
			return mod(tj, 4*t)
		},
		draw: func(y int, row []uint8) {
			tj, _ := s.cellRem(y+s.sy, t*s.repeats)
			twillY, weft := mod(tj, 4), uint8(s.sett[mod(tj, t)])
			for x := range row {
				if (twillX[x]+twillY)%4 < 2 {
					row[x] = warp[x]
				} else {
					row[x] = weft
				}
			}
		},
	}
}
