package image

import (
	"errors"
	"math"
	"slices"
)

// Step 1 of the cut-out: the backdrop model, a quadratic surface per
// channel fitted robustly to a band along the image's border, so sweeps,
// gradients and vignettes are the backdrop everywhere; its noise; and how
// much of the border it explains (the confidence).

// backdrop is a quadratic surface per channel over normalised coordinates.
type backdrop struct {
	c    [3][6]float64
	w, h float64
	// crossed marks the fitted samples on a stretch of the frame the
	// product crosses (frameStretches); nil when none is.
	crossed []bool
}

func terms(u, v float64) [6]float64 { return [6]float64{1, u, v, u * u, u * v, v * v} }

// at is the backdrop colour at pixel (x, y).
func (b *backdrop) at(x, y int) [3]float64 {
	t := terms(float64(x)/b.w-0.5, float64(y)/b.h-0.5)
	var o [3]float64
	for ch := range 3 {
		for k, v := range t {
			o[ch] += b.c[ch][k] * v
		}
	}
	return o
}

// lum is the backdrop's mean level at pixel i of an image w wide.
func (b *backdrop) lum(i, w int) float64 {
	c := b.at(i%w, i/w)
	return (c[0] + c[1] + c[2]) / 3
}

// borderSamples are the opaque pixels of a band along the image's border
// (1% of its shorter side), thinned to about 3000: where and what colour.
type borderSamples struct {
	xs, ys []int
	cols   [][3]float64
}

// sampleBorder reads the border band of st's image.
func sampleBorder(st *cutState) borderSamples {
	return sampleBorderOf(st.W, st.H, func(i int) ([3]float64, bool) { return st.col(i), st.opaque(i) })
}

// sampleBorderOf reads the border band of a W × H image whose pixel i is
// col(i) (ok false: transparent, not read).
func sampleBorderOf(W, H int, col func(i int) ([3]float64, bool)) borderSamples {
	band := max(1, min(W, H)/100)
	step := max(1, 2*(W+H)*band/6000)
	var s borderSamples
	k := 0
	for y := range H {
		for x := range W {
			if x >= band && x < W-band && y >= band && y < H-band {
				continue
			}
			if k++; k%step != 0 {
				continue
			}
			c, ok := col(y*W + x)
			if !ok {
				continue
			}
			s.xs, s.ys, s.cols = append(s.xs, x), append(s.ys, y), append(s.cols, c)
		}
	}
	return s
}

// plainShare is the share of the samples within tolRGB of the backdrop:
// the cut-out's confidence, read on a fit of the whole border (fitBackdrop
// with leaveCrossed false). Read on the fit that leaves the crossed
// stretches out, a backdrop's own uneven stretch left out was no longer
// explained (a tote cut by the frame refused, 0.70); counting the crossed
// stretches as explained made a held-out guitar cut by the frame, refused
// today, be cut (its figure unseen).
func (s borderSamples) plainShare(bd *backdrop, tolRGB float64) float64 {
	plain := 0
	for i := range s.xs {
		if dist3(s.cols[i], bd.at(s.xs[i], s.ys[i])) <= tolRGB {
			plain++
		}
	}
	return float64(plain) / float64(max(1, len(s.xs)))
}

// fitBackdrop fits the surface to samples (x, y, rgb) in fitRounds rounds,
// each on the samples near the last fit, less, when leaveCrossed, the
// frame's stretches the first fit finds the product crossing
// (frameStretches). It fails when too few samples are left.
func fitBackdrop(W, H int, xs, ys []int, cols [][3]float64, tolRGB float64, leaveCrossed bool) (*backdrop, error) {
	b := &backdrop{w: float64(W), h: float64(H)}
	use := nearMedian(cols, tolRGB)
	var crossed []bool // the frame's stretches the product crosses (cutframe.go)
	for round := range fitRounds {
		if !b.fitRound(xs, ys, cols, use) {
			return nil, errors.New("too few backdrop samples")
		}
		if round == fitRounds-1 {
			break
		}
		if round == 0 {
			crossed = frameStretches(b, xs, ys, cols, tolRGB)
		}
		for i := range xs {
			use[i] = dist3(cols[i], b.at(xs[i], ys[i])) <= 1.5*tolRGB && (!leaveCrossed || crossed == nil || !crossed[i])
		}
	}
	b.crossed = crossed
	return b, nil
}

// nearMedian marks the samples the first round fits: those near the
// border's median colour, or, should too few be that near (a strong
// gradient), within twice or four times that — the nearest third or more.
func nearMedian(cols [][3]float64, tolRGB float64) []bool {
	var med [3]float64
	for ch := range 3 {
		v := make([]float64, len(cols))
		for i, c := range cols {
			v[i] = c[ch]
		}
		med[ch] = median(v)
	}
	use := make([]bool, len(cols))
	for _, k := range []float64{1, 2, 4} {
		for i := range use {
			use[i] = dist3(cols[i], med) <= k*tolRGB
		}
		if 3*count(use) >= len(use) {
			break
		}
	}
	return use
}

// fitRound solves the least-squares surface over the samples in use; it
// is false when fewer than 12 are.
func (b *backdrop) fitRound(xs, ys []int, cols [][3]float64, use []bool) bool {
	var ata [6][6]float64
	var atb [3][6]float64
	used := 0
	for i := range xs {
		if !use[i] {
			continue
		}
		used++
		t := terms(float64(xs[i])/b.w-0.5, float64(ys[i])/b.h-0.5)
		for r := range 6 {
			for c := range 6 {
				ata[r][c] += t[r] * t[c]
			}
			for ch := range 3 {
				atb[ch][r] += t[r] * cols[i][ch]
			}
		}
	}
	if used < 12 {
		return false
	}
	for r := range 6 {
		ata[r][r] += 1e-6 * float64(used) // keeps the system solvable
	}
	for ch := range 3 {
		b.c[ch] = solve6(ata, atb[ch])
	}
	return true
}

// count is the number of true values in v.
func count(v []bool) int {
	k := 0
	for _, b := range v {
		if b {
			k++
		}
	}
	return k
}

// fitRounds is how many times fitBackdrop fits the surface.
const fitRounds = 4

// solve6 solves a·x = y by Gaussian elimination with partial pivoting.
func solve6(a [6][6]float64, y [6]float64) [6]float64 {
	for c := range 6 {
		p := c
		for r := c + 1; r < 6; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		y[c], y[p] = y[p], y[c]
		if a[c][c] == 0 {
			continue
		}
		for r := c + 1; r < 6; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < 6; k++ {
				a[r][k] -= f * a[c][k]
			}
			y[r] -= f * y[c]
		}
	}
	var x [6]float64
	for r := 5; r >= 0; r-- {
		s := y[r]
		for k := r + 1; k < 6; k++ {
			s -= a[r][k] * x[k]
		}
		if a[r][r] != 0 {
			x[r] = s / a[r][r]
		}
	}
	return x
}

// backdropNoise is the backdrop's noise σ in levels of luminance: the
// median absolute residual of the border samples near the fitted surface,
// scaled to a Gaussian's σ.
func backdropNoise(bd *backdrop, xs, ys []int, cols [][3]float64, tolRGB float64) float64 {
	var res []float64
	for i := range xs {
		b := bd.at(xs[i], ys[i])
		if dist3(cols[i], b) > tolRGB {
			continue
		}
		res = append(res, math.Abs((cols[i][0]+cols[i][1]+cols[i][2]-b[0]-b[1]-b[2])/3))
	}
	if len(res) == 0 {
		return 0
	}
	slices.Sort(res)
	return 1.4826 * res[len(res)/2]
}

func dist3(a, b [3]float64) float64 {
	d0, d1, d2 := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return math.Sqrt(d0*d0 + d1*d1 + d2*d2)
}

// stepSq is the squared RGB distance between pixels i and j of pix.
func stepSq(pix []byte, i, j int) int {
	a, b := pix[4*i:4*i+3], pix[4*j:4*j+3]
	d0, d1, d2 := int(a[0])-int(b[0]), int(a[1])-int(b[1]), int(a[2])-int(b[2])
	return d0*d0 + d1*d1 + d2*d2
}
