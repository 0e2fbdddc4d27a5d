package colour

import (
	"image/color"
	"math"

	"github.com/taskplatform/taskplatform/tasks/icc"
)

// tableSide is the number of points on each axis of rgbTable.
const tableSide = 65

// rgbTable is a profile's conversion sampled on a 65 × 65 × 65 grid of
// sRGB, CMYK in 1/65535.
type rgbTable struct{ v []uint16 }

func newRGBTable(p *icc.Profile) *rgbTable {
	t := &rgbTable{v: make([]uint16, 4*tableSide*tableSide*tableSide)}
	at := func(i int) uint8 { return uint8(min(255, (i*255+(tableSide-1)/2)/(tableSide-1))) }
	for r := range tableSide {
		for g := range tableSide {
			for b := range tableSide {
				v := p.CMYK(color.NRGBA{at(r), at(g), at(b), 255})
				o := 4 * ((r*tableSide+g)*tableSide + b)
				for i := range 4 {
					t.v[o+i] = uint16(math.Round(clamp01(v[i]/100) * 65535))
				}
			}
		}
	}
	return t
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// at interpolates the table tetrahedrally at an 8-bit sRGB colour.
func (t *rgbTable) at(r, g, b uint8) (uint8, uint8, uint8, uint8) {
	const step = 255.0 / (tableSide - 1)
	split := func(v uint8) (int, float64) {
		p := float64(v) / step
		i := min(int(p), tableSide-2)
		return i, p - float64(i)
	}
	x0, rx := split(r)
	y0, ry := split(g)
	z0, rz := split(b)
	node := func(dx, dy, dz int) int { return 4 * (((x0+dx)*tableSide+y0+dy)*tableSide + z0 + dz) }
	n000, n111 := node(0, 0, 0), node(1, 1, 1)
	// The tetrahedron holding the point: its corners after the origin.
	var n1, n2 int
	var f1, f2, f3 float64
	switch {
	case rx >= ry && ry >= rz:
		n1, n2, f1, f2, f3 = node(1, 0, 0), node(1, 1, 0), rx, ry, rz
	case rx >= rz && rz >= ry:
		n1, n2, f1, f2, f3 = node(1, 0, 0), node(1, 0, 1), rx, rz, ry
	case rz >= rx && rx >= ry:
		n1, n2, f1, f2, f3 = node(0, 0, 1), node(1, 0, 1), rz, rx, ry
	case ry >= rx && rx >= rz:
		n1, n2, f1, f2, f3 = node(0, 1, 0), node(1, 1, 0), ry, rx, rz
	case ry >= rz && rz >= rx:
		n1, n2, f1, f2, f3 = node(0, 1, 0), node(0, 1, 1), ry, rz, rx
	default:
		n1, n2, f1, f2, f3 = node(0, 0, 1), node(0, 1, 1), rz, ry, rx
	}
	var out [4]uint8
	for i := range 4 {
		v := float64(t.v[n000+i])*(1-f1) + float64(t.v[n1+i])*(f1-f2) + float64(t.v[n2+i])*(f2-f3) +
			float64(t.v[n111+i])*f3
		out[i] = uint8(math.Round(v / 65535 * 255))
	}
	return out[0], out[1], out[2], out[3]
}
