package image

import (
	"math"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// Regions of another hue (step 3, last but one): a light product of the
// backdrop's own lightness — a pink planter on a pink sweep of another
// pink, a cream beanie on ivory, a linen cushion on pale sage — has no
// step and no rim for the floods to stop at, only a change of hue. It is
// found as a region that a colour edge closes:
//
//   - The hue field: each pixel's CIELAB chroma less the backdrop
//     model's there, the backdrop shaded to the pixel's lightness first
//     (a*, b* scale with L* + 16 when the light dims), so a shadow and
//     the product's own shading leave it at zero; smoothed by a Gaussian
//     (JPEG's 4:2:0 chroma is half the resolution and blocky).
//   - Colour edges (Di Zenzo's gradient of a multi-channel image, as
//     Canny does it): the largest eigenvalue of the field's structure
//     tensor, thinned to its ridges, kept by hysteresis (a strong pixel
//     starts a chain, weak ones carry it on) and linked into chains of at
//     least hueChain cells: JPEG's chroma blocks and the sensor's colour
//     blotches make short, weak and broken ones.
//   - A flood of the background from the frame, where the field is the
//     backdrop's, stopped by the chains widened by hueGap (a chain's gap
//     of up to twice that is closed).
//   - What the flood does not reach is a region the edges close; it is
//     the product's when it is solid and its mean hue is off the
//     backdrop's by hueLeast (and by hueNoise times the field's noise)
//     with most of its pixels off it the same way — it does not continue
//     the backdrop across its edge. The walls' band round it joins it
//     where its pixels are its hue.
//
// Big images are read on a grid of blocks of at most hueCells cells.

const (
	hueCells   = 600_000 // the most cells the grid has
	hueSigma   = 1.5     // the field's smoothing, in cells
	hueChain   = 16      // the fewest cells of an edge chain
	hueGap     = 4       // how far the chains are widened for the flood
	hueLeast   = 2.6     // the least mean chroma difference of a region (CIELAB units)
	hueNoise   = 5.0     // the same in units of the field's noise
	hueSame    = 0.7     // the least share of a region's cells off the backdrop its way
	hueSolid   = 0.4     // the least share of a region's cells 2 cells inside it
	hueEdgeHi  = 4.0     // a strong edge cell, in units of the gradient's noise
	hueEdgeLo  = 2.0     // a weak one
	hueEdgeMin = 0.25    // the least strong gradient (CIELAB units per cell)
	hueOnGrid  = 0.75    // the share of a chain on the JPEG grid that makes it JPEG's
)

// hueGrid is the image read in blocks of k × k pixels: w × h cells.
type hueGrid struct {
	k, w, h int
	fa, fb  []float32 // the hue field
	bg      []bool    // most of the block is background
	edge    []bool    // the colour edges' chains
}

// keepHueRegions gives to the product the background regions another hue
// closes (see above).
func (st *cutState) keepHueRegions(isBg []bool) {
	g := st.hueGrid(isBg)
	if g == nil {
		return
	}
	sa, sb := g.fieldNoise()
	noise := math.Hypot(sa, sb)
	g.edges()
	keep := g.closedRegions(noise)
	if keep == nil {
		return
	}
	W, k := st.W, g.k
	for i, b := range isBg {
		if b && keep[(i/W/k)*g.w+(i%W)/k] {
			isBg[i] = false
		}
	}
}

// hueGrid reads st's image on its grid; nil when it has too few cells.
func (st *cutState) hueGrid(isBg []bool) *hueGrid {
	W, H := st.W, st.H
	k := max(1, int(math.Ceil(math.Sqrt(float64(st.n)/hueCells))))
	g := &hueGrid{k: k, w: (W + k - 1) / k, h: (H + k - 1) / k}
	if g.w < 16 || g.h < 16 {
		return nil
	}
	m := g.w * g.h
	g.fa, g.fb, g.bg = make([]float32, m), make([]float32, m), make([]bool, m)
	for cy := range g.h {
		for cx := range g.w {
			var r, gr, b float64
			nb, no := 0, 0
			for y := cy * k; y < min(H, cy*k+k); y++ {
				for x := cx * k; x < min(W, cx*k+k); x++ {
					i := y*W + x
					if isBg[i] {
						nb++
					}
					p := st.px.Pix[4*i:]
					if p[3] < 128 {
						continue
					}
					r, gr, b = r+colour.Linear8(p[0]), gr+colour.Linear8(p[1]), b+colour.Linear8(p[2])
					no++
				}
			}
			c := cy*g.w + cx
			g.bg[c] = 2*nb > k*k
			if no == 0 {
				continue
			}
			f := 1 / float64(no)
			p := colour.LabOfLinear(r*f, gr*f, b*f)
			bc := st.bd.at(min(W-1, cx*k+k/2), min(H-1, cy*k+k/2))
			q := colour.LabOfLinear(colour.ToLinear(clamp01(bc[0]/255)), colour.ToLinear(clamp01(bc[1]/255)),
				colour.ToLinear(clamp01(bc[2]/255)))
			s := (p.L + 16) / max(q.L+16, 1)
			g.fa[c], g.fb[c] = float32(p.A-s*q.A), float32(p.B-s*q.B)
		}
	}
	gauss(g.fa, g.w, g.h, hueSigma)
	gauss(g.fb, g.w, g.h, hueSigma)
	return g
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// fieldNoise is the hue field's σ per channel on the background: the
// spread (median absolute value, scaled) of its differences between cells
// three apart, over √2 — a product's hue, or a backdrop model pulled off
// the backdrop by a product cut by the frame, moves the field, not its
// differences.
func (g *hueGrid) fieldNoise() (float64, float64) {
	var a, b []float64
	for c := range g.bg {
		if c%g.w+3 >= g.w || !g.bg[c] || !g.bg[c+3] {
			continue
		}
		a, b = append(a, math.Abs(float64(g.fa[c]-g.fa[c+3]))), append(b, math.Abs(float64(g.fb[c]-g.fb[c+3])))
	}
	return 1.4826 * median(a) / math.Sqrt2, 1.4826 * median(b) / math.Sqrt2
}
