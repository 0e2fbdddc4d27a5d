package image

import (
	"context"
	"image"

	"github.com/taskplatform/taskplatform/tasks/resample"
)

// Step 2 of the cut-out: which pixels may be background. A pixel near the
// backdrop model is; so is a darker version of it with the same
// chromaticity (a shadow is the backdrop times a factor below 1; a product
// has its own colour). Thin lines darker than both their sides (rims,
// seams) are walls the walled flood does not cross.

// cutState is what the cut-out's stages share: the image, the backdrop
// model and the masks each stage leaves for the next.
type cutState struct {
	ctx                context.Context
	px                 *image.NRGBA
	W, H, n            int
	bd                 *backdrop
	tol, tolRGB, noise float64
	stepMax2           int    // the squared RGB step sharper than a soft shadow's
	bare               bool   // the third look: a faint outline alone is a product (cutbare.go)
	clearBody          []bool // a body its outline closes whose inside is the backdrop: clear glass
	textured           bool   // the backdrop has a texture (smoothTextures) or chips: its grain's specks are dropped

	near  []bool  // within tolerance of the backdrop model
	cand  []bool  // near, or a shadow of the backdrop
	deep  []bool  // a candidate darker than deepShadow
	lines []bool  // the faint lines (rimLines)
	rims  []bool  // the lines widened by a pixel each way
	wide  []bool  // the lines widened by two (walls for shadow tones)
	body  []int32 // a body in the backdrop's tones the second look found (lookAgain): never a candidate
}

// col is pixel i's colour.
func (st *cutState) col(i int) [3]float64 {
	p := st.px.Pix[4*i : 4*i+3]
	return [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
}

// opaque tells whether pixel i is opaque enough to read.
func (st *cutState) opaque(i int) bool { return st.px.Pix[4*i+3] >= 128 }

// lum is pixel i's sum of channels (three times its mean level).
func (st *cutState) lum(i int) float64 {
	p := st.px.Pix[4*i:]
	return float64(p[0]) + float64(p[1]) + float64(p[2])
}

// lum3 is pixel i's mean level.
func (st *cutState) lum3(i int) float64 { return st.lum(i) / 3 }

// step2 is the squared RGB step between pixels i and j.
func (st *cutState) step2(i, j int) int { return stepSq(st.px.Pix, i, j) }

// neighbours calls f with each 4-neighbour of pixel i.
func (st *cutState) neighbours(i int, f func(j int)) { forNeighbours(i, st.W, st.H, f) }

// release gives the stages' masks back to the pool.
func (st *cutState) release() {
	for _, m := range [][]bool{st.near, st.cand, st.deep, st.lines, st.rims, st.wide} {
		if m != nil {
			boolPool.put(m)
		}
	}
}

// minShadow is the darkest a shadow makes the backdrop: darker pixels of
// the backdrop's chromaticity are the product (a black or grey part).
// Between minShadow and deepShadow (a contact shadow's core) a pixel is
// shadow only where the image is smooth all round it: a grey part's
// outline is a step on some side.
const minShadow, deepShadow = 0.3, 0.5

// isShade tells whether colour p is a shade of backdrop colour b between
// minShadow and a touch brighter than b, within chroma2 of its
// chromaticity, and that shade.
func isShade(p, b [3]float64, chroma2 float64) (bool, float64) {
	s := (p[0]*b[0] + p[1]*b[1] + p[2]*b[2]) / max(b[0]*b[0]+b[1]*b[1]+b[2]*b[2], 1)
	c0, c1, c2 := p[0]-s*b[0], p[1]-s*b[1], p[2]-s*b[2]
	return s >= minShadow && s <= 1.05 && c0*c0+c1*c1+c2*c2 <= chroma2, s
}

// chroma2 is the squared chromaticity distance a shade may have.
func (st *cutState) chroma2() float64 { return 0.75 * st.tolRGB * 0.75 * st.tolRGB }

// candidates marks near, cand and deep.
func (st *cutState) candidates() {
	W, H, n, bd := st.W, st.H, st.n, st.bd
	tol2, chroma2 := st.tolRGB*st.tolRGB, st.chroma2()
	st.near, st.cand, st.deep = boolPool.get(n), boolPool.get(n), boolPool.get(n)
	near, cand, deep := st.near, st.cand, st.deep
	clear(deep)
	// Rows (here and below) splits the per-pixel passes across the CPUs:
	// each row writes only its own pixels' flags.
	resample.Rows(H, W, func(y int) {
		if y%64 == 0 && st.ctx.Err() != nil {
			return
		}
		v := float64(y)/bd.h - 0.5
		var a0, a1, a2 [3]float64 // the backdrop along the row: a0 + a1·u + a2·u²
		for ch := range 3 {
			c := bd.c[ch]
			a0[ch], a1[ch], a2[ch] = c[0]+c[2]*v+c[5]*v*v, c[1]+c[4]*v, c[3]
		}
		for x := range W {
			i := y*W + x
			if !st.opaque(i) {
				near[i], cand[i] = true, true
				continue
			}
			u := float64(x)/bd.w - 0.5
			p := st.col(i)
			var b [3]float64
			for ch := range 3 {
				b[ch] = a0[ch] + (a1[ch]+a2[ch]*u)*u
			}
			d0, d1, d2 := p[0]-b[0], p[1]-b[1], p[2]-b[2]
			near[i] = d0*d0+d1*d1+d2*d2 <= tol2
			if near[i] {
				cand[i] = true
				continue
			}
			var s float64
			cand[i], s = isShade(p, b, chroma2)
			deep[i] = cand[i] && s < deepShadow
		}
	})
	for _, j := range st.body {
		near[j], cand[j], deep[j] = false, false, false
	}
}

// walls marks rims, the faint lines (rimLines) widened by a pixel each
// way so a gap of a pixel or two in a faint line is closed, carried on to
// the frame where they end near it; and wide, the lines widened by two: a
// gap of up to four pixels where the product's outline meets its own
// shadow is closed for shadow tones (a grey body, glass).
func (st *cutState) walls() {
	W, H, n := st.W, st.H, st.n
	st.lines = rimLines(st.px, st.noise)
	lines := st.lines
	st.rims = boolPool.get(n)
	rims := st.rims
	clear(rims)
	for i, r := range lines {
		if !r {
			continue
		}
		x, y := i%W, i/W
		for yy := max(0, y-1); yy <= min(H-1, y+1); yy++ {
			for xx := max(0, x-1); xx <= min(W-1, x+1); xx++ {
				rims[yy*W+xx] = true
			}
		}
	}
	toFrame(lines, rims, W, H)
	st.wide = boolPool.get(n)
	wide := st.wide
	copy(wide, rims)
	resample.Rows(H, W, func(y int) {
		for x := range W {
			if rims[y*W+x] {
				continue
			}
			for yy := max(0, y-1); yy <= min(H-1, y+1) && !wide[y*W+x]; yy++ {
				for xx := max(0, x-1); xx <= min(W-1, x+1); xx++ {
					if rims[yy*W+xx] {
						wide[y*W+x] = true
						break
					}
				}
			}
		}
	})
}

// dropSeams takes out of the candidates the shaded pixels within two
// pixels below (or beside) a much brighter one: a dark line on a light
// part (a seam), not a shadow, which is soft. And a deep shadow is
// entered only where it is smooth (no step sharper than a shadow's on
// any side).
func (st *cutState) dropSeams() {
	W, H := st.W, st.H
	near, cand, deep := st.near, st.cand, st.deep
	lumStep := 3 * max(2.5*st.tol, 20)
	resample.Rows(H, W, func(y int) {
		for x := range W {
			i := y*W + x
			if !cand[i] || near[i] || !st.opaque(i) {
				continue
			}
			l := st.lum(i)
			for _, o := range [4][2]int{{0, -1}, {0, -2}, {-1, 0}, {1, 0}} {
				xx, yy := x+o[0], y+o[1]
				if xx >= 0 && xx < W && yy >= 0 && st.lum(yy*W+xx)-l > lumStep {
					cand[i] = false
					break
				}
			}
		}
	})
	smooth := func(j int) bool {
		ok := true
		st.neighbours(j, func(k int) { ok = ok && st.step2(j, k) <= st.stepMax2 })
		return ok
	}
	resample.Rows(H, W, func(y int) {
		for i := y * W; i < y*W+W; i++ {
			if deep[i] && !smooth(i) {
				cand[i] = false
			}
		}
	})
}
