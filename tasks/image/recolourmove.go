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
// target's, so no pixel takes a hue the palette does not have.
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

// sliverDist2 is the squared CIELAB distance from its colour's mean past
// which no pixel around is that colour itself: the pixel's label is only
// the nearest mean to a blend of two others.
const sliverDist2 = 12 * 12

// unmixEdge is the new colour of pixel (x, y) when it lies on an edge
// between two colours: a neighbour of another colour within mixRadius,
// and its own colour on the line (in sRGB, where edges are blended)
// between the purest neighbours of two colours (impurity: a pixel's
// distance from its colour's mean, as float32 bits, which order alike). It is then the same blend
// of their new colours. The two are its own colour and another, or, when
// its own colour is only a sliver here (a blend that happens to lie near
// a third colour, as yellow and blue make a green: no pixel around is
// near that colour's mean), any two around it. ok
// is false for any other pixel.
func unmixEdge(fg, label []uint8, moved, impurity []uint32, W, H, x, y int) (v uint32, ok bool) {
	i := y*W + x
	own := label[i]
	x0, x1, y0, y1 := max(0, x-mixRadius), min(W-1, x+mixRadius), max(0, y-mixRadius), min(H-1, y+mixRadius)
	found := false
	for yy := y0; yy <= y1 && !found; yy++ {
		for xx := x0; xx <= x1; xx++ {
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
	// The purest pixel of each colour around: the one nearest its
	// colour's mean.
	type end struct {
		j, n int
		d    uint32
	}
	var ends []end
	var labels []uint8
	for yy := y0; yy <= y1; yy++ {
		for xx := x0; xx <= x1; xx++ {
			j := yy*W + xx
			l := label[j]
			if l == 255 {
				continue
			}
			d := impurity[j]
			k := slices.Index(labels, l)
			if k < 0 {
				labels, ends = append(labels, l), append(ends, end{j, 1, d})
				continue
			}
			ends[k].n++
			if d < ends[k].d {
				ends[k].j, ends[k].d = j, d
			}
		}
	}
	self := slices.Index(labels, own)
	// A sliver: no pixel around is near its own colour's mean.
	sliver := math.Float32frombits(ends[self].d) > sliverDist2
	best := struct {
		res, t float64
		a, b   int
	}{res: math.Inf(1), a: -1}
	for ka := range ends {
		for kb := range ends {
			// Not a sliver: its own colour and another. A sliver: any two
			// others, each pair once.
			if kb == ka || !sliver && ka != self || sliver && (ka == self || kb == self || kb < ka) {
				continue
			}
			A, B := rgb(ends[ka].j), rgb(ends[kb].j)
			ab := [3]float64{B[0] - A[0], B[1] - A[1], B[2] - A[2]}
			den := ab[0]*ab[0] + ab[1]*ab[1] + ab[2]*ab[2]
			if den < 20*20 {
				continue
			}
			t := ((p[0]-A[0])*ab[0] + (p[1]-A[1])*ab[1] + (p[2]-A[2])*ab[2]) / den
			t = max(0, min(1, t))
			res := dist3(p, [3]float64{A[0] + t*ab[0], A[1] + t*ab[1], A[2] + t*ab[2]})
			// Of the pairs it fits, the one whose ends are purest: a blend
			// lies on the line to another blend of the same two colours too.
			score := res + 0.5*(math.Sqrt(float64(math.Float32frombits(ends[ka].d)))+
				math.Sqrt(float64(math.Float32frombits(ends[kb].d))))
			if res <= max(6, 0.12*math.Sqrt(den)) && score < best.res {
				best.res, best.t, best.a, best.b = score, t, ends[ka].j, ends[kb].j
			}
		}
	}
	if best.a < 0 {
		return 0, false
	}
	// A pixel hardly mixed keeps its own move (its shading); a mixed one
	// is the blend of its two colours' moves.
	na, nb, mine := moved[best.a], moved[best.b], moved[i]
	w := min(1, 10*best.t)
	if best.a != ends[self].j {
		w = 1 // a blend of two other colours: nothing of its own to keep
	}
	for ch := 16; ch >= 0; ch -= 8 {
		ca, cb, cs := float64(na>>ch&0xFF), float64(nb>>ch&0xFF), float64(mine>>ch&0xFF)
		v |= uint32(clamp8(cs+w*(ca+best.t*(cb-ca)-cs))) << ch
	}
	return v, true
}

// unmixBackdrop is the new colour of pixel (x, y) on the product's edge
// (partly covered): its colour on the line (in sRGB) between the backdrop
// around it and the purest product pixel around it, moved by that product
// pixel's share of the move, so the backdrop's share stays as it was. The
// cut-out's matte is an estimate; this reads the share from the pixels
// themselves. ok is false when no such line fits.
func unmixBackdrop(px, cover []uint8, moved, impurity []uint32, W, H, x, y int) (q [3]uint8, ok bool) {
	i := y*W + x
	rgb := func(j int) [3]float64 {
		return [3]float64{float64(px[4*j]), float64(px[4*j+1]), float64(px[4*j+2])}
	}
	p := rgb(i)
	var bsum [3]float64
	nb := 0
	var fs []int
	for yy := max(0, y-mixRadius); yy <= min(H-1, y+mixRadius); yy++ {
		for xx := max(0, x-mixRadius); xx <= min(W-1, x+mixRadius); xx++ {
			j := yy*W + xx
			switch cover[j] {
			case 0:
				c := rgb(j)
				bsum[0], bsum[1], bsum[2] = bsum[0]+c[0], bsum[1]+c[1], bsum[2]+c[2]
				nb++
			case 255:
				fs = append(fs, j)
			}
		}
	}
	if nb == 0 || len(fs) == 0 {
		return q, false
	}
	B := [3]float64{bsum[0] / float64(nb), bsum[1] / float64(nb), bsum[2] / float64(nb)}
	best, bestScore, bestT := -1, math.Inf(1), 0.0
	for _, j := range fs {
		F := rgb(j)
		bf := [3]float64{F[0] - B[0], F[1] - B[1], F[2] - B[2]}
		den := bf[0]*bf[0] + bf[1]*bf[1] + bf[2]*bf[2]
		if den < 20*20 {
			continue
		}
		t := ((p[0]-B[0])*bf[0] + (p[1]-B[1])*bf[1] + (p[2]-B[2])*bf[2]) / den
		t = max(0, min(1, t))
		res := dist3(p, [3]float64{B[0] + t*bf[0], B[1] + t*bf[1], B[2] + t*bf[2]})
		score := res + 0.5*math.Sqrt(float64(math.Float32frombits(impurity[j])))
		if res <= max(6, 0.12*math.Sqrt(den)) && score < bestScore {
			best, bestScore, bestT = j, score, t
		}
	}
	if best < 0 {
		return q, false
	}
	F, m := rgb(best), moved[best]
	// A share within noise of nothing is the backdrop's own pixel, kept.
	bf := dist3(F, B)
	dead := min(0.25, 8/bf)
	if bestT < dead {
		return [3]uint8{px[4*i], px[4*i+1], px[4*i+2]}, true
	}
	bestT = (bestT - dead) / (1 - dead)
	for ch := range 3 {
		nv := float64(m >> (16 - 8*ch) & 0xFF)
		q[ch] = clamp8(p[ch] + bestT*(nv-F[ch]))
	}
	return q, true
}
