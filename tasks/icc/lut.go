package icc

import (
	"encoding/binary"
	"math"
)

// lut is a BToA table: a matrix (lut8 and lut16 on XYZ, before their
// curves), curves, a matrix with offsets (lutBToA, after its B curves),
// curves, a colour look-up table and curves, on values scaled to 0–1.
type lut struct {
	in, out   int
	preMatrix []float64 // 3 × 3, lut8/lut16 on XYZ
	b         []curve
	matrix    []float64 // 3 × 3 and 3 offsets, lutBToA
	m         []curve
	grid      []int // points on each input axis; nil: no table
	clut      []float64
	a         []curve
	trilinear bool
	v2Lab     bool // a lut16 on L*a*b*: its input is in the ICC v2 encoding
}

// readLut reads a lut8 (mft1), lut16 (mft2) or lutBToA (mBA) table.
func readLut(t []byte, lab bool) (*lut, error) {
	if len(t) < 12 {
		return nil, bad("its table is cut short")
	}
	var l *lut
	var err error
	switch string(t[:4]) {
	case "mft1", "mft2":
		l, err = readMft(t, lab)
	case "mBA ":
		l, err = readMBA(t)
	default:
		return nil, bad("its table type %q is not lut8, lut16 or lutBToA", t[:4])
	}
	if err != nil {
		return nil, err
	}
	// Little CMS interpolates an L*a*b* table trilinearly, others
	// tetrahedrally.
	l.trilinear = lab
	l.v2Lab = lab && string(t[:4]) == "mft2"
	return l, nil
}

func s15(b []byte) float64 { return float64(int32(binary.BigEndian.Uint32(b))) / 65536 }

// readMft reads a lut8 or lut16.
func readMft(t []byte, lab bool) (*lut, error) {
	wide := string(t[:4]) == "mft2"
	if len(t) < 48 {
		return nil, bad("its table is cut short")
	}
	l := &lut{in: int(t[8]), out: int(t[9])}
	g := int(t[10])
	if l.in != 3 || l.out < 1 || l.out > 15 || g < 2 {
		return nil, bad("its table has %d inputs, %d outputs and %d grid points", l.in, l.out, g)
	}
	mat := make([]float64, 9)
	identity := true
	for i := range mat {
		mat[i] = s15(t[12+4*i:])
		if want := float64(boolInt(i%4 == 0)); mat[i] != want {
			identity = false
		}
	}
	if !lab && !identity {
		l.preMatrix = mat
	}
	inN, outN, size, pos := 256, 256, 1, 48
	if wide {
		if len(t) < 52 {
			return nil, bad("its table is cut short")
		}
		inN, outN, pos = int(binary.BigEndian.Uint16(t[48:])), int(binary.BigEndian.Uint16(t[50:])), 52
		size = 2
	}
	cells := l.out
	for range l.in {
		cells *= g
	}
	if inN < 2 || outN < 2 || pos+size*(l.in*inN+cells+l.out*outN) > len(t) {
		return nil, bad("its table is cut short")
	}
	read := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			if wide {
				v[i] = float64(binary.BigEndian.Uint16(t[pos+2*i:])) / 65535
			} else {
				v[i] = float64(t[pos+i]) / 255
			}
		}
		pos += n * size
		return v
	}
	for range l.in {
		l.b = append(l.b, curve{table: read(inN)})
	}
	l.grid = []int{g, g, g}
	l.clut = read(cells)
	for range l.out {
		l.a = append(l.a, curve{table: read(outN)})
	}
	return l, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// eval runs v (0–1 on each input) through the table.
func (l *lut) eval(v []float64) []float64 {
	x := []float64{v[0], v[1], v[2]}
	if l.preMatrix != nil {
		x = mul(l.preMatrix, x, nil)
	}
	apply(l.b, x)
	if l.matrix != nil {
		x = mul(l.matrix[:9], x, l.matrix[9:])
	}
	apply(l.m, x)
	out := x
	if l.grid != nil {
		out = l.interpolate(x)
	}
	apply(l.a, out)
	return out
}

func mul(m, x, off []float64) []float64 {
	y := make([]float64, 3)
	for r := range 3 {
		y[r] = m[3*r]*x[0] + m[3*r+1]*x[1] + m[3*r+2]*x[2]
		if off != nil {
			y[r] += off[r]
		}
		y[r] = clamp(y[r])
	}
	return y
}

func apply(cs []curve, x []float64) {
	for i := range cs {
		if i < len(x) {
			x[i] = cs[i].at(x[i])
		}
	}
}

func clamp(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// interpolate reads the colour look-up table at x: trilinearly or
// tetrahedrally between the eight grid points round it.
func (l *lut) interpolate(x []float64) []float64 {
	var base [3]int
	var f [3]float64
	for i := range 3 {
		p := clamp(x[i]) * float64(l.grid[i]-1)
		base[i] = min(int(p), l.grid[i]-2)
		f[i] = p - float64(base[i])
	}
	at := func(dx, dy, dz, o int) float64 {
		i := ((base[0]+dx)*l.grid[1]+base[1]+dy)*l.grid[2] + base[2] + dz
		return l.clut[i*l.out+o]
	}
	out := make([]float64, l.out)
	rx, ry, rz := f[0], f[1], f[2]
	for o := range out {
		c000, c111 := at(0, 0, 0, o), at(1, 1, 1, o)
		if l.trilinear {
			lerp := func(a, b, t float64) float64 { return a + (b-a)*t }
			c00 := lerp(c000, at(0, 0, 1, o), rz)
			c01 := lerp(at(0, 1, 0, o), at(0, 1, 1, o), rz)
			c10 := lerp(at(1, 0, 0, o), at(1, 0, 1, o), rz)
			c11 := lerp(at(1, 1, 0, o), c111, rz)
			out[o] = lerp(lerp(c00, c01, ry), lerp(c10, c11, ry), rx)
			continue
		}
		// The six tetrahedra of the cube, as Little CMS splits it.
		var c1, c2, c3 float64
		switch {
		case rx >= ry && ry >= rz:
			c1, c2, c3 = at(1, 0, 0, o)-c000, at(1, 1, 0, o)-at(1, 0, 0, o), c111-at(1, 1, 0, o)
		case rx >= rz && rz >= ry:
			c1, c2, c3 = at(1, 0, 0, o)-c000, c111-at(1, 0, 1, o), at(1, 0, 1, o)-at(1, 0, 0, o)
		case rz >= rx && rx >= ry:
			c1, c2, c3 = at(1, 0, 1, o)-at(0, 0, 1, o), c111-at(1, 0, 1, o), at(0, 0, 1, o)-c000
		case ry >= rx && rx >= rz:
			c1, c2, c3 = at(1, 1, 0, o)-at(0, 1, 0, o), at(0, 1, 0, o)-c000, c111-at(1, 1, 0, o)
		case ry >= rz && rz >= rx:
			c1, c2, c3 = c111-at(0, 1, 1, o), at(0, 1, 0, o)-c000, at(0, 1, 1, o)-at(0, 1, 0, o)
		default:
			c1, c2, c3 = c111-at(0, 1, 1, o), at(0, 1, 1, o)-at(0, 0, 1, o), at(0, 0, 1, o)-c000
		}
		out[o] = c000 + c1*rx + c2*ry + c3*rz
	}
	return out
}
