package icc

import (
	"encoding/binary"
	"math"
)

// curve is a one-dimensional map of 0–1: a table read with linear
// interpolation, a gamma or an ICC parametric function.
type curve struct {
	table []float64
	kind  int // parametric function type + 1; 0: a table
	p     [7]float64
}

func (c curve) at(x float64) float64 {
	x = clamp(x)
	if c.kind == 0 {
		n := len(c.table)
		if n == 0 {
			return x
		}
		if n == 1 {
			return math.Pow(x, c.table[0])
		}
		pos := x * float64(n-1)
		i := min(int(pos), n-2)
		return c.table[i] + (c.table[i+1]-c.table[i])*(pos-float64(i))
	}
	g, a, b, cc, d, e, f := c.p[0], c.p[1], c.p[2], c.p[3], c.p[4], c.p[5], c.p[6]
	pow := func(v float64) float64 { return math.Pow(math.Max(v, 0), g) }
	var y float64
	switch c.kind - 1 {
	case 0:
		y = pow(x)
	case 1:
		y = 0
		if x >= -b/a {
			y = pow(a*x + b)
		}
	case 2:
		y = cc
		if x >= -b/a {
			y = pow(a*x+b) + cc
		}
	case 3:
		y = cc * x
		if x >= d {
			y = pow(a*x + b)
		}
	default:
		y = cc*x + f
		if x >= d {
			y = pow(a*x+b) + e
		}
	}
	return clamp(y)
}

// readCurve reads a curv or para element at t[off:], answering the curve
// and its size padded to 4 bytes.
func readCurve(t []byte, off int) (curve, int, error) {
	if off < 0 || off+12 > len(t) {
		return curve{}, 0, bad("a curve lies outside its table")
	}
	switch string(t[off : off+4]) {
	case "curv":
		n := int(binary.BigEndian.Uint32(t[off+8:]))
		if off+12+2*n > len(t) {
			return curve{}, 0, bad("a curve is cut short")
		}
		c := curve{table: make([]float64, n)}
		for i := range n {
			v := float64(binary.BigEndian.Uint16(t[off+12+2*i:]))
			if n == 1 {
				v /= 256 // u8Fixed8: a gamma
			} else {
				v /= 65535
			}
			c.table[i] = v
		}
		return c, (12 + 2*n + 3) &^ 3, nil
	case "para":
		kind := int(binary.BigEndian.Uint16(t[off+8:]))
		counts := []int{1, 3, 4, 5, 7}
		if kind > 4 || off+12+4*counts[kind] > len(t) {
			return curve{}, 0, bad("a parametric curve is unknown or cut short")
		}
		c := curve{kind: kind + 1}
		for i := range counts[kind] {
			c.p[i] = s15(t[off+12+4*i:])
		}
		return c, 12 + 4*counts[kind], nil
	}
	return curve{}, 0, bad("a curve's type %q is neither curv nor para", t[off:off+4])
}

// readCurves reads n curves one after another from off.
func readCurves(t []byte, off, n int) ([]curve, error) {
	cs := make([]curve, n)
	for i := range cs {
		c, size, err := readCurve(t, off)
		if err != nil {
			return nil, err
		}
		cs[i], off = c, off+size
	}
	return cs, nil
}

// readMBA reads a lutBToA (mBA) table.
func readMBA(t []byte) (*lut, error) {
	if len(t) < 32 {
		return nil, bad("its table is cut short")
	}
	l := &lut{in: int(t[8]), out: int(t[9])}
	if l.in != 3 || l.out < 1 || l.out > 15 {
		return nil, bad("its table has %d inputs and %d outputs", l.in, l.out)
	}
	offs := make([]int, 5)
	for i := range offs {
		offs[i] = int(binary.BigEndian.Uint32(t[12+4*i:]))
	}
	var err error
	if offs[0] == 0 {
		return nil, bad("its lutBToA has no B curves")
	}
	if l.b, err = readCurves(t, offs[0], l.in); err != nil {
		return nil, err
	}
	if offs[1] != 0 {
		if offs[1]+48 > len(t) {
			return nil, bad("its matrix is cut short")
		}
		l.matrix = make([]float64, 12)
		for i := range l.matrix {
			l.matrix[i] = s15(t[offs[1]+4*i:])
		}
	}
	if offs[2] != 0 {
		if l.m, err = readCurves(t, offs[2], l.in); err != nil {
			return nil, err
		}
	}
	if offs[3] != 0 {
		if err := l.readCLUT(t, offs[3]); err != nil {
			return nil, err
		}
	} else if l.out != l.in {
		return nil, bad("its lutBToA has no colour table yet changes the number of channels")
	}
	if offs[4] != 0 {
		if l.a, err = readCurves(t, offs[4], l.out); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// readCLUT reads a lutBToA's colour look-up table at off.
func (l *lut) readCLUT(t []byte, off int) error {
	if off+20 > len(t) {
		return bad("its colour table is cut short")
	}
	cells := l.out
	for i := range l.in {
		g := int(t[off+i])
		if g < 2 {
			return bad("its colour table has %d points on an axis", g)
		}
		l.grid = append(l.grid, g)
		cells *= g
	}
	size := int(t[off+16])
	if (size != 1 && size != 2) || off+20+size*cells > len(t) {
		return bad("its colour table is cut short")
	}
	l.clut = make([]float64, cells)
	for i := range l.clut {
		if size == 2 {
			l.clut[i] = float64(binary.BigEndian.Uint16(t[off+20+2*i:])) / 65535
		} else {
			l.clut[i] = float64(t[off+20+i]) / 255
		}
	}
	return nil
}
