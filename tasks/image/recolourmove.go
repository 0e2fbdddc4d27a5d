package image

import (
	"image/color"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// mapper moves colours from their cluster's mean to its target.
type mapper struct {
	means, targets []colour.Lab
	shares         []float64
	// up and down scale a colour's L* offset above and below its mean so
	// the cluster's lightest and darkest colours still fit in 0..100.
	up, down []float64
	same     []bool // the target is the mean: colours stay as they are
}

func newMapper(cl []colour.Swatch, targets []colour.Lab, samples []colour.Weighted) *mapper {
	m := &mapper{targets: targets}
	for _, c := range cl {
		m.means = append(m.means, c.C)
		m.shares = append(m.shares, c.Share)
	}
	hi, lo := make([]float64, len(cl)), make([]float64, len(cl))
	for _, s := range samples {
		j := colour.Nearest(m.means, s.C)
		d := s.C.L - m.means[j].L
		hi[j], lo[j] = max(hi[j], d), min(lo[j], d)
	}
	for j, t := range targets {
		up, down := 1.0, 1.0
		if hi[j] > 0 && t.L+hi[j] > 99 {
			up = max(0, 99-t.L) / hi[j]
		}
		if lo[j] < 0 && t.L+lo[j] < 1 {
			down = max(0, t.L-1) / -lo[j]
		}
		m.up, m.down = append(m.up, up), append(m.down, down)
		m.same = append(m.same, colour.DeltaE(t, m.means[j]) < 0.5)
	}
	return m
}

// move is c, a colour of cluster j, moved to the cluster's target: its
// L* offset from the mean kept (scaled where the target leaves no room),
// its chroma the target's times its own over the mean's, its hue the
// target's (turned by its own small hue offset on colourful clusters).
func (m *mapper) move(j int, c colour.Lab) color.NRGBA {
	mean, t := m.means[j], m.targets[j]
	if m.same[j] {
		return c.NRGBA()
	}
	d := c.L - mean.L
	if d > 0 {
		d *= m.up[j]
	} else {
		d *= m.down[j]
	}
	ratio := min(2, (c.Chroma()+8)/(mean.Chroma()+8))
	h := t.Hue()
	if mean.Chroma() > 15 && c.Chroma() > 15 {
		dh := math.Mod(c.Hue()-mean.Hue()+540, 360) - 180
		h += max(-15, min(15, dh))
	}
	ch := t.Chroma() * ratio
	out := colour.Lab{L: t.L + d, A: ch * math.Cos(h*math.Pi/180), B: ch * math.Sin(h*math.Pi/180)}
	return out.Gamut().NRGBA()
}

// mapping is the pairing as image.recolour reports it, largest share
// first.
func (m *mapper) mapping() []map[string]any {
	var out []map[string]any
	for j, c := range m.means {
		out = append(out, map[string]any{"from": c.Hex(), "to": m.targets[j].Hex(),
			"share": math.Round(m.shares[j]*1e4) / 1e4})
	}
	slices.SortStableFunc(out, func(a, b map[string]any) int {
		return -cmpFloat(a["share"].(float64), b["share"].(float64))
	})
	return out
}

// mixRadius is how far an anti-aliased edge pixel looks for the two
// colours it joins.
const mixRadius = 2

// unmixEdge is the new colour of pixel (x, y) when it lies on an edge
// between two colours: a neighbour of another colour within mixRadius,
// and its own colour on the line (in sRGB, where edges are blended)
// between the purest neighbours of the two. It is then the same blend of
// their new colours. ok is false for any other pixel.
func unmixEdge(fg, label []uint8, moved []uint32, W, H, x, y int) (v uint32, ok bool) {
	i := y*W + x
	own := label[i]
	found := false
	for yy := max(0, y-mixRadius); yy <= min(H-1, y+mixRadius) && !found; yy++ {
		for xx := max(0, x-mixRadius); xx <= min(W-1, x+mixRadius); xx++ {
			if l := label[yy*W+xx]; l != own && l != 255 {
				found = true
				break
			}
		}
	}
	if !found {
		return 0, false
	}
	rgb := func(j int) [3]float64 {
		return [3]float64{float64(fg[4*j]), float64(fg[4*j+1]), float64(fg[4*j+2])}
	}
	p := rgb(i)
	// The purest neighbour of each colour: the one farthest from p along
	// the line to it is the one least mixed.
	type end struct {
		j int
		d float64
	}
	ends := map[uint8]end{}
	for yy := max(0, y-mixRadius); yy <= min(H-1, y+mixRadius); yy++ {
		for xx := max(0, x-mixRadius); xx <= min(W-1, x+mixRadius); xx++ {
			j := yy*W + xx
			l := label[j]
			if l == 255 {
				continue
			}
			d := dist3(rgb(j), p)
			if e, seen := ends[l]; !seen || d > e.d {
				ends[l] = end{j, d}
			}
		}
	}
	a, okA := ends[own]
	if !okA {
		return 0, false
	}
	A := rgb(a.j)
	bestRes, bestT, bestB := math.Inf(1), 0.0, -1
	for l, e := range ends {
		if l == own {
			continue
		}
		B := rgb(e.j)
		ab := [3]float64{B[0] - A[0], B[1] - A[1], B[2] - A[2]}
		den := ab[0]*ab[0] + ab[1]*ab[1] + ab[2]*ab[2]
		if den < 20*20 {
			continue
		}
		t := ((p[0]-A[0])*ab[0] + (p[1]-A[1])*ab[1] + (p[2]-A[2])*ab[2]) / den
		t = max(0, min(1, t))
		res := dist3(p, [3]float64{A[0] + t*ab[0], A[1] + t*ab[1], A[2] + t*ab[2]})
		if res <= max(6, 0.12*math.Sqrt(den)) && (res < bestRes || res == bestRes && e.j < bestB) {
			bestRes, bestT, bestB = res, t, e.j
		}
	}
	if bestB < 0 {
		return 0, false
	}
	// A pixel hardly mixed keeps its own move (its shading); a mixed one
	// is the blend of its two colours' moves.
	na, nb, self := moved[a.j], moved[bestB], moved[i]
	w := min(1, 10*bestT)
	for ch := 16; ch >= 0; ch -= 8 {
		ca, cb, cs := float64(na>>ch&0xFF), float64(nb>>ch&0xFF), float64(self>>ch&0xFF)
		v |= uint32(clamp8(cs+w*(ca+bestT*(cb-ca)-cs))) << ch
	}
	return v, true
}
