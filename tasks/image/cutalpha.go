package image

import (
	"math"

	"github.com/taskplatform/taskplatform/tasks/resample"
)

// Steps 4 and 5 of the cut-out: alpha in a band around the outline,
// unmixed between the local backdrop and product colours, and the edge
// pixels' colours decontaminated (the product's colour without the
// backdrop's share, so no halo).

// edge is one band pixel's alpha and decontaminated colour.
type edge struct {
	i       int
	a       uint8
	r, g, b uint8
}

// matting is step 4 and 5's view of the cut: the background found and
// the band's distances from the outline.
type matting struct {
	*cutState
	isBg []bool
	dist []uint8 // 0: not in the band; else 1 + steps from the outline
	R    int     // the sampling window's radius
	wts  []float64
}

// softEdges is the band's edges, feather pixels each side of the outline
// of isBg, in the band's order.
func (st *cutState) softEdges(isBg []bool, feather int) []edge {
	if feather == 0 {
		return nil
	}
	m := &matting{cutState: st, isBg: isBg, dist: bytePool.get(st.n), R: feather + 3}
	defer bytePool.put(m.dist)
	band := m.band(feather)
	R := m.R
	// Samples weigh 1/d²: the nearest backdrop and product colours are
	// the ones mixed at the edge (a shadow's depth, a texture's tone).
	m.wts = make([]float64, (2*R+1)*(2*R+1))
	for dy := -R; dy <= R; dy++ {
		for dx := -R; dx <= R; dx++ {
			m.wts[(dy+R)*(2*R+1)+dx+R] = 1 / float64(max(1, dx*dx+dy*dy))
		}
	}
	// Each band pixel reads the pixels around it and writes only its own
	// result; the edges are applied after, in the band's order.
	found := make([]edge, len(band))
	ok := make([]bool, len(band))
	resample.Rows(len(band), (2*R+1)*(2*R+1), func(k int) { found[k], ok[k] = m.matte(int(band[k])) })
	var edges []edge
	for k := range band {
		if ok[k] {
			edges = append(edges, found[k])
		}
	}
	return edges
}

// band marks dist and lists the band's pixels: the outline (a pixel
// whose right or lower neighbour is of the other side, and that
// neighbour), then outwards breadth first up to feather steps.
func (m *matting) band(feather int) []int32 {
	W, n, isBg, dist := m.W, m.n, m.isBg, m.dist
	clear(dist)
	for i := range n {
		if (i%W < W-1 && isBg[i] != isBg[i+1]) || (i+W < n && isBg[i] != isBg[i+W]) {
			dist[i] = 1
			if i%W < W-1 && isBg[i] != isBg[i+1] {
				dist[i+1] = 1
			}
			if i+W < n && isBg[i] != isBg[i+W] {
				dist[i+W] = 1
			}
		}
	}
	var queue []int32
	for i := range n {
		if dist[i] == 1 {
			queue = append(queue, int32(i))
		}
	}
	for h := 0; h < len(queue); h++ {
		i := int(queue[h])
		if int(dist[i]) > feather {
			continue
		}
		m.neighbours(i, func(j int) {
			if dist[j] == 0 {
				dist[j] = dist[i] + 1
				queue = append(queue, int32(j))
			}
		})
	}
	return queue
}

// sides are the weighted mean backdrop and product colours around pixel
// (x, y), leaving out the outline's own (maybe mixed) pixels, and their
// weights.
func (m *matting) sides(x, y int) (bs, fs [3]float64, nb, nf float64) {
	W, H, R := m.W, m.H, m.R
	for yy := max(0, y-R); yy <= min(H-1, y+R); yy++ {
		wrow := m.wts[(yy-y+R)*(2*R+1) : (yy-y+R+1)*(2*R+1)]
		for xx := max(0, x-R); xx <= min(W-1, x+R); xx++ {
			j := yy*W + xx
			if m.dist[j] == 1 {
				continue
			}
			c, w := m.px.Pix[4*j:4*j+3], wrow[xx-x+R]
			if m.isBg[j] {
				bs[0], bs[1], bs[2] = bs[0]+w*float64(c[0]), bs[1]+w*float64(c[1]), bs[2]+w*float64(c[2])
				nb += w
			} else {
				fs[0], fs[1], fs[2] = fs[0]+w*float64(c[0]), fs[1]+w*float64(c[1]), fs[2]+w*float64(c[2])
				nf += w
			}
		}
	}
	return bs, fs, nb, nf
}

// backdropAt is B for band pixel i: a backdrop pixel (maybe in a shadow)
// its own shade of the backdrop, else the backdrop nearby, else the model.
func (m *matting) backdropAt(i int, p, bs [3]float64, nb float64) [3]float64 {
	x, y := i%m.W, i/m.W
	switch {
	case m.isBg[i]:
		b := m.bd.at(x, y)
		s := (p[0]*b[0] + p[1]*b[1] + p[2]*b[2]) / max(b[0]*b[0]+b[1]*b[1]+b[2]*b[2], 1)
		s = max(minShadow, min(1, s))
		return [3]float64{s * b[0], s * b[1], s * b[2]}
	case nb > 0:
		return [3]float64{bs[0] / nb, bs[1] / nb, bs[2] / nb}
	}
	return m.bd.at(x, y)
}

// farthest is, for a thin part with no product pixel off the outline
// nearby, its pixel most distinct from B; false for none.
func (m *matting) farthest(x, y int, B [3]float64) ([3]float64, bool) {
	var far [3]float64
	farD := -1.0
	for yy := max(0, y-m.R); yy <= min(m.H-1, y+m.R); yy++ {
		for xx := max(0, x-m.R); xx <= min(m.W-1, x+m.R); xx++ {
			if j := yy*m.W + xx; !m.isBg[j] {
				if d := dist3(m.col(j), B); d > farD {
					far, farD = m.col(j), d
				}
			}
		}
	}
	return far, farD >= 0
}

// matte is band pixel i's edge, false for none.
func (m *matting) matte(i int) (edge, bool) {
	x, y := i%m.W, i/m.W
	p := m.col(i)
	bs, fs, nb, nf := m.sides(x, y)
	B := m.backdropAt(i, p, bs, nb)
	var F [3]float64
	if nf > 0 {
		F = [3]float64{fs[0] / nf, fs[1] / nf, fs[2] / nf}
	} else {
		var ok bool
		if F, ok = m.farthest(x, y, B); !ok {
			return edge{}, false
		}
	}
	fb := [3]float64{F[0] - B[0], F[1] - B[1], F[2] - B[2]}
	den := fb[0]*fb[0] + fb[1]*fb[1] + fb[2]*fb[2]
	if den < m.tolRGB*m.tolRGB {
		return edge{}, false // product and backdrop too alike to unmix: keep the hard edge
	}
	a := ((p[0]-B[0])*fb[0] + (p[1]-B[1])*fb[1] + (p[2]-B[2])*fb[2]) / den
	a = max(0, min(1, a))
	if m.isBg[i] && a < 0.15 {
		return edge{}, false
	}
	e := edge{i: i, a: uint8(math.Round(255 * a))}
	if !m.isBg[i] && a > 0.92 {
		e.a = 255 // opaque, but without the backdrop's share of its colour
	}
	if e.a == 0 {
		return e, true
	}
	// The colour: F solved from I = a·F + (1 − a)·B, leaning on the
	// product's colour nearby where a is too low to solve it well.
	var c [3]float64
	for ch := range 3 {
		v := (p[ch] - (1-a)*B[ch]) / a
		w := min(1, 2*a)
		c[ch] = w*v + (1-w)*F[ch]
	}
	e.r, e.g, e.b = clamp8(c[0]), clamp8(c[1]), clamp8(c[2])
	return e, true
}
