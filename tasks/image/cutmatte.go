package image

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

// The cut-out in five steps:
//
//  1. A backdrop model: a quadratic surface per channel fitted (robustly,
//     dropping outliers) to a band along the image's border, so sweeps,
//     gradients and vignettes are the backdrop everywhere.
//  2. Background candidates: pixels near the model, or darker versions of
//     it with the same chromaticity (a shadow is the backdrop times a
//     factor below 1; a product has its own colour).
//  3. Region connectivity: a flood from the border through candidates
//     that stops at sharp steps (a product's outline, a seam), then
//     enclosed regions that are the backdrop itself (a handle's hole), and
//     specks removed. It runs twice: once stopped by steps only, once by
//     faint lines too (rimLines: a white mug's rim, a tee's hem); the
//     second adds what it keeps only where that is a solid region whose
//     tones do not continue the backdrop (keepCompact), never a shadow's
//     tail or JPEG's ringing. White fills inside thin black outlines stay
//     (inkBounded); narrow inlets of backdrop reaching into the product
//     go back to it (closeInlets). See cutedges.go.
//  4. Matting in a band around the outline: each pixel's alpha unmixed
//     between the local backdrop and the local product colour.
//  5. Colour decontamination: edge pixels get the product's colour
//     without the backdrop's share, so no halo.

// backdrop is a quadratic surface per channel over normalised coordinates.
type backdrop struct {
	c    [3][6]float64
	w, h float64
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

// fitBackdrop fits the surface to samples (x, y, rgb) in three rounds, each
// on the samples near the last fit. It fails when too few samples are left.
func fitBackdrop(W, H int, xs, ys []int, cols [][3]float64, tolRGB float64) (*backdrop, error) {
	b := &backdrop{w: float64(W), h: float64(H)}
	// The first round fits the samples near the border's median colour.
	// Should too few be that near (a strong gradient), it takes those
	// within twice that.
	var med [3]float64
	for ch := range 3 {
		v := make([]float64, len(cols))
		for i, c := range cols {
			v[i] = c[ch]
		}
		med[ch] = median(v)
	}
	use := make([]bool, len(xs))
	for _, k := range []float64{1, 2, 4} { // the nearest third or more
		for i := range use {
			use[i] = dist3(cols[i], med) <= k*tolRGB
		}
		if 3*count(use) >= len(use) {
			break
		}
	}
	for round := range fitRounds {
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
			return nil, errors.New("too few backdrop samples")
		}
		for r := range 6 {
			ata[r][r] += 1e-6 * float64(used) // keeps the system solvable
		}
		for ch := range 3 {
			b.c[ch] = solve6(ata, atb[ch])
		}
		if round == fitRounds-1 {
			break
		}
		for i := range xs {
			use[i] = dist3(cols[i], b.at(xs[i], ys[i])) <= 1.5*tolRGB
		}
	}
	return b, nil
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

// minShadow is the darkest a shadow makes the backdrop: darker pixels of
// the backdrop's chromaticity are the product (a black or grey part).
// Between minShadow and deepShadow (a contact shadow's core) a pixel is
// shadow only where the image is smooth all round it: a grey part's
// outline is a step on some side.
const minShadow, deepShadow = 0.3, 0.5

// stepSq is the squared RGB distance between pixels i and j of pix.
func stepSq(pix []byte, i, j int) int {
	a, b := pix[4*i:4*i+3], pix[4*j:4*j+3]
	d0, d1, d2 := int(a[0])-int(b[0]), int(a[1])-int(b[1]), int(a[2])-int(b[2])
	return d0*d0 + d1*d1 + d2*d2
}

func dist3(a, b [3]float64) float64 {
	d0, d1, d2 := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return math.Sqrt(d0*d0 + d1*d1 + d2*d2)
}

// cutOutMatte is cutOut: it fails with the reason when the backdrop is not
// plain (under minBorderShare of the border near the fitted backdrop) or
// no object is left.
// With keepShadow the shadow is not dropped but drawn again behind the
// product as a soft neutral layer (see cutshadow.go).
//
//nolint:gocyclo // being cut into its named stages by issue 43 (another branch); left whole here to merge cleanly.
func cutOutMatte(ctx context.Context, img image.Image, tol float64, feather int, keepShadow bool) (cutout, error) {
	src := newCutSource(img)
	W, H := src.w, src.h
	n := W * H
	px := src.px
	if px == nil {
		px = cloneNRGBA(img) // a JPEG's planes, converted by image/draw's fast path
	}
	col := func(i int) [3]float64 {
		p := px.Pix[4*i : 4*i+3]
		return [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	}
	opaque := func(i int) bool { return px.Pix[4*i+3] >= 128 }

	// 1. The backdrop model, from a band along the border.
	band := max(1, min(W, H)/100)
	step := max(1, 2*(W+H)*band/6000)
	var xs, ys []int
	var cols [][3]float64
	k := 0
	for y := range H {
		for x := range W {
			if x >= band && x < W-band && y >= band && y < H-band {
				continue
			}
			if k++; k%step != 0 || !opaque(y*W+x) {
				continue
			}
			xs, ys, cols = append(xs, x), append(ys, y), append(cols, col(y*W+x))
		}
	}
	tolRGB := 1.5 * tol
	bd, err := fitBackdrop(W, H, xs, ys, cols, tolRGB)
	if err != nil {
		return cutout{}, errors.New("the background cannot be separated: the image's border is transparent")
	}
	plain := 0
	for i := range xs {
		if dist3(cols[i], bd.at(xs[i], ys[i])) <= tolRGB {
			plain++
		}
	}
	share := float64(plain) / float64(len(xs))
	noise := backdropNoise(bd, xs, ys, cols, tolRGB)
	mid := bd.at(W/2, H/2)
	bgMid := colour.LabOf8(clamp8(mid[0]), clamp8(mid[1]), clamp8(mid[2]))
	if share < minBorderShare {
		return cutout{}, &tasks.LowConfidence{Confidence: share, Err: fmt.Errorf(
			"the background cannot be separated: only %.0f%% of the image's border is within tolerance %g of a plain or "+
				"evenly graded backdrop (%s at the centre), a confidence of %.2f, under the %.2f a cut-out needs; a plain "+
				"backdrop is needed, not a scene (or raise tolerance)",
			100*share,
			tol,
			bgMid.Hex(),
			share,
			minBorderShare,
		)}
	}

	// 2. Candidates: near the backdrop, or a shadow of it.
	tol2, chroma2 := tolRGB*tolRGB, 0.75*tolRGB*0.75*tolRGB
	near := boolPool.get(n)
	defer boolPool.put(near)
	cand := boolPool.get(n)
	defer boolPool.put(cand)
	deep := boolPool.get(n) // a candidate darker than deepShadow
	defer boolPool.put(deep)
	clear(deep)
	// Rows (here and below) splits the per-pixel passes across the CPUs:
	// each row writes only its own pixels' flags.
	resample.Rows(H, W, func(y int) {
		if y%64 == 0 && ctx.Err() != nil {
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
			if !opaque(i) {
				near[i], cand[i] = true, true
				continue
			}
			u := float64(x)/bd.w - 0.5
			p := col(i)
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
			bb := b[0]*b[0] + b[1]*b[1] + b[2]*b[2]
			s := (p[0]*b[0] + p[1]*b[1] + p[2]*b[2]) / max(bb, 1)
			c0, c1, c2 := p[0]-s*b[0], p[1]-s*b[1], p[2]-s*b[2]
			cand[i] = s >= minShadow && s <= 1.05 && c0*c0+c1*c1+c2*c2 <= chroma2
			deep[i] = cand[i] && s < deepShadow
		}
	})
	if err := ctx.Err(); err != nil {
		return cutout{}, err
	}

	// A thin line darker than both its sides is a rim or a seam, never the
	// backdrop: the flood stops there even where it is faint.
	// A gap of a pixel or two in a faint line is closed: the line is
	// widened by a pixel each way.
	lines := rimLines(px, noise)
	defer boolPool.put(lines)
	rims := boolPool.get(n) // the lines widened
	defer boolPool.put(rims)
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
	// Shadow tones (a grey body, glass) are walled by the lines widened
	// by two: a gap of up to four pixels where the product's outline meets
	// its own shadow is closed for them.
	wide := boolPool.get(n)
	defer boolPool.put(wide)
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

	// A shaded candidate within two pixels below a much brighter one is a
	// dark line on a light part (a seam), not a shadow: shadows are soft.
	lum := func(i int) float64 { p := px.Pix[4*i:]; return float64(p[0]) + float64(p[1]) + float64(p[2]) }
	lumStep := 3 * max(2.5*tol, 20)
	resample.Rows(H, W, func(y int) {
		for x := range W {
			i := y*W + x
			if !cand[i] || near[i] || !opaque(i) {
				continue
			}
			l := lum(i)
			for _, o := range [4][2]int{{0, -1}, {0, -2}, {-1, 0}, {1, 0}} {
				xx, yy := x+o[0], y+o[1]
				if xx >= 0 && xx < W && yy >= 0 && lum(yy*W+xx)-l > lumStep {
					cand[i] = false
					break
				}
			}
		}
	})

	stepMax := max(2.5*tol, 20)
	stepMax2 := int(stepMax * stepMax)
	pix := px.Pix
	step2 := func(i, j int) int { return stepSq(pix, i, j) }
	var queue []int32
	neighbours := func(i int, f func(j int)) { forNeighbours(i, W, H, f) }
	smooth := func(j int) bool { // no step sharper than a shadow's on any side
		ok := true
		neighbours(j, func(k int) { ok = ok && step2(j, k) <= stepMax2 })
		return ok
	}
	resample.Rows(H, W, func(y int) { // a deep shadow is entered only where it is smooth
		for i := y * W; i < y*W+W; i++ {
			if deep[i] && !smooth(i) {
				cand[i] = false
			}
		}
	})
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	nearAll, candAll := near, cand
	// 3. Regions: the flood from the border through candidates, stopping
	// at steps sharper than a soft shadow's; with walls, at the faint
	// lines too.
	segment := func(walls bool) []bool {
		isBg := boolPool.get(n)
		clear(isBg)
		near, cand := nearAll, candAll
		if walls {
			near, cand = boolPool.get(n), boolPool.get(n)
			defer boolPool.put(near)
			defer boolPool.put(cand)
			for i := range n {
				near[i], cand[i] = nearAll[i] && !rims[i], candAll[i] && !rims[i] && (nearAll[i] || !wide[i])
			}
		}
		queue = queue[:0]
		for y := range H {
			for x := range W {
				if (x == 0 || y == 0 || x == W-1 || y == H-1) && cand[y*W+x] {
					isBg[y*W+x] = true
					queue = append(queue, int32(y*W+x))
				}
			}
		}
		enter := func(i, j int) bool {
			return !isBg[j] && cand[j] && (pix[4*i+3] < 128 || pix[4*j+3] < 128 || stepSq(pix, i, j) <= stepMax2)
		}
		// A scanline flood: a popped pixel's row is filled left and right as
		// far as the steps allow, then the run's pixels above and below are
		// tried one by one. The set reached is the one a pixel-by-pixel flood
		// reaches (the test between two pixels is symmetric).
		for len(queue) > 0 {
			i := int(queue[len(queue)-1])
			queue = queue[:len(queue)-1]
			y := i / W
			l, r := i, i
			for l > y*W && enter(l, l-1) {
				l--
				isBg[l] = true
			}
			for r < y*W+W-1 && enter(r, r+1) {
				r++
				isBg[r] = true
			}
			for k := l; k <= r; k++ {
				if y > 0 && enter(k, k-W) {
					isBg[k-W] = true
					queue = append(queue, int32(k-W))
				}
				if y < H-1 && enter(k, k+W) {
					isBg[k+W] = true
					queue = append(queue, int32(k+W))
				}
			}
		}
		if walls {
			keepMainFlood(isBg, W, H)
		}
		bodiesInShadow(isBg, near, func(j int) float64 { return lum(j) / 3 }, func(j int) float64 {
			b := bd.at(j%W, j/W)
			return (b[0] + b[1] + b[2]) / 3
		}, W, H)
		// The deep shadow's last pixels along the product are not smooth (the
		// product's outline is next to them; JPEG's blocks): two steps of it
		// go too.
		for range 2 {
			queue = queue[:0]
			for i := range n {
				if deep[i] && !isBg[i] {
					take := false
					neighbours(i, func(j int) { take = take || isBg[j] && step2(i, j) <= stepMax2 })
					if take {
						queue = append(queue, int32(i))
					}
				}
			}
			for _, i := range queue {
				isBg[i] = true
			}
		}
		// Enclosed regions that are the backdrop itself become background;
		// specks of object left in the background go too.
		clear(seen)
		minHole := max(12, n/4000)
		lum3 := func(i int) float64 { return lum(i) / 3 }
		lum3bg := func(c []int32) float64 { // the backdrop's luminance at a region's first pixel
			b := bd.at(int(c[0])%W, int(c[0])/W)
			return (b[0] + b[1] + b[2]) / 3
		}
		minSpeck := max(8, n/20000)
		var comp []int32
		grow := func(start int, member func(j int) bool) []int32 {
			comp = comp[:0]
			comp = append(comp, int32(start))
			seen[start] = true
			for h := 0; h < len(comp); h++ {
				neighbours(int(comp[h]), func(j int) {
					if !seen[j] && member(j) {
						seen[j] = true
						comp = append(comp, int32(j))
					}
				})
			}
			return comp
		}
		// A region of backdrop or shadow tones cut off only by faint lines
		// (JPEG's ringing beside an edge, a shadow's grain) is the backdrop
		// when it continues it: across the line its tone is the backdrop's
		// beyond, and the line is shallow — a rim on a white product is
		// deeper, and the product's shading does not continue the sweep.
		shallow := max(8, 4*noise)
		for i := range n {
			if seen[i] || isBg[i] || !cand[i] {
				continue
			}
			c := grow(i, func(j int) bool { return !isBg[j] && cand[j] })
			if continuesAcross(c, px, bd, isBg, rims, cand, shallow) {
				for _, j := range c {
					isBg[j] = true
				}
			}
		}
		clear(seen)
		for i := range n {
			if seen[i] || isBg[i] || !near[i] {
				continue
			}
			c := grow(i, func(j int) bool { return !isBg[j] && near[j] })
			if len(c) < minHole {
				continue
			}
			// A hole shows the backdrop through the product: its colour is the
			// backdrop's, and the product's outline is a step along most of its
			// rim. A light part whose shading passes through the backdrop's
			// tone (a white sole) fades smoothly into the rest of the part.
			inRegion := func(j int) bool { return !isBg[j] && near[j] }
			if inkBounded(c, inRegion, lum3, lum3bg(c), W, H, max(5, min(W, H)/60)) {
				continue // a drawn fill: white inside a black outline
			}
			var d [3]float64
			rim, sharp := 0, 0
			for _, j := range c {
				p, b := col(int(j)), bd.at(int(j)%W, int(j)/W)
				for ch := range 3 {
					d[ch] += p[ch] - b[ch]
				}
				neighbours(int(j), func(k int) {
					if !near[k] || isBg[k] {
						rim++
						if rims[k] || step2(int(j), k) > stepMax2/4 {
							sharp++
						}
					}
				})
			}
			m := float64(len(c))
			if 2*sharp < rim || math.Sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2])/m > max(3, tol/4) {
				continue
			}
			inner := func(j int) bool {
				x, y := j%W, j/W
				for _, o := range [4][2]int{{2, 0}, {-2, 0}, {0, 2}, {0, -2}} {
					xx, yy := x+o[0], y+o[1]
					if xx < 0 || yy < 0 || xx >= W || yy >= H || !inRegion(yy*W+xx) {
						return false
					}
				}
				return true
			}
			lumRes := func(j int) float64 { b := bd.at(j%W, j/W); return lum3(j) - (b[0]+b[1]+b[2])/3 }
			st := enclosedStats(c, inner, lumRes, W)
			if !walls || st.nearBackdrop(noise) {
				for _, j := range c {
					isBg[j] = true
				}
			}
		}
		clear(seen)
		// A small patch apart from the product whose mean colour is a shade of
		// the backdrop is shadow left behind: its pixels failed one by one
		// where JPEG's colour bleeds from the product into a dark shadow.
		shadowPatch := func(c []int32) bool {
			var m [3]float64
			sx, sy := 0, 0
			for _, j := range c {
				p := col(int(j))
				for ch := range 3 {
					m[ch] += p[ch] / float64(len(c))
				}
				sx, sy = sx+int(j)%W, sy+int(j)/W
			}
			b := bd.at(sx/len(c), sy/len(c))
			s := (m[0]*b[0] + m[1]*b[1] + m[2]*b[2]) / max(b[0]*b[0]+b[1]*b[1]+b[2]*b[2], 1)
			c0, c1, c2 := m[0]-s*b[0], m[1]-s*b[1], m[2]-s*b[2]
			return s >= minShadow && s <= 1.05 && c0*c0+c1*c1+c2*c2 <= chroma2
		}
		for i := range n {
			if seen[i] || isBg[i] {
				continue
			}
			c := grow(i, func(j int) bool { return !isBg[j] })
			if len(c) < minSpeck || len(c) < n/500 && shadowPatch(c) {
				for _, j := range c {
					isBg[j] = true
				}
			}
		}

		return isBg
	}
	plainSeg, walledSeg := segment(false), segment(true)
	lum3 := func(i int) float64 { return lum(i) / 3 }
	isBg := keepCompact(plainSeg, walledSeg, rims, W, H, func(c []int32) bool {
		lumRes := func(j int) float64 {
			p, b := px.Pix[4*j:], bd.at(j%W, j/W)
			return (float64(p[0]) + float64(p[1]) + float64(p[2]) - b[0] - b[1] - b[2]) / 3
		}
		// A light part is partly in the backdrop's own tones; a region
		// all in shadow tones is a shadow cut off by JPEG's ringing.
		nearby := 0
		for _, j := range c {
			if nearAll[j] {
				nearby++
			}
		}
		open := func(j int) bool { return nearAll[j] && !rims[j] } // its tones, not the lines round it
		if enclosedStats(c, open, lumRes, W).nearBackdrop(noise) {
			return false
		}
		// Or its outline is a step all round (glass, a grey body).
		return 4*nearby >= len(c) || sharpShare(c, walledSeg, lum3, W, H, max(12, 4*noise)) >= 0.3
	})
	defer boolPool.put(isBg)

	closeInlets(isBg, W, H)

	var shade []float32
	if keepShadow {
		shade = shadowDensity(px, bd, isBg)
	}

	// 4 and 5. Alpha in a band around the outline, unmixed between the
	// local backdrop and product colours; edge colours decontaminated.
	alpha := bytePool.get(n)
	defer bytePool.put(alpha)
	for i := range n {
		alpha[i] = 0
		if !isBg[i] {
			alpha[i] = 255
		}
	}
	type edge struct {
		i       int
		a       uint8
		r, g, b uint8
	}
	var edges []edge
	if feather > 0 {
		dist := bytePool.get(n) // 0: not in the band; else 1 + steps from the outline
		defer bytePool.put(dist)
		clear(dist)
		queue = queue[:0]
		for i := range n { // a pixel whose right or lower neighbour is of the other side: both are outline
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
			neighbours(i, func(j int) {
				if dist[j] == 0 {
					dist[j] = dist[i] + 1
					queue = append(queue, int32(j))
				}
			})
		}
		R := feather + 3
		// Samples weigh 1/d²: the nearest backdrop and product colours are
		// the ones mixed at the edge (a shadow's depth, a texture's tone).
		wts := make([]float64, (2*R+1)*(2*R+1))
		for dy := -R; dy <= R; dy++ {
			for dx := -R; dx <= R; dx++ {
				wts[(dy+R)*(2*R+1)+dx+R] = 1 / float64(max(1, dx*dx+dy*dy))
			}
		}
		// matte is band pixel i's edge, false for none.
		matte := func(i int) (edge, bool) {
			x, y := i%W, i/W
			p := col(i)
			var bs, fs [3]float64
			var nb, nf float64
			far, farD := [3]float64{}, -1.0
			for yy := max(0, y-R); yy <= min(H-1, y+R); yy++ {
				wrow := wts[(yy-y+R)*(2*R+1) : (yy-y+R+1)*(2*R+1)]
				for xx := max(0, x-R); xx <= min(W-1, x+R); xx++ {
					j := yy*W + xx
					if dist[j] == 1 {
						continue // along the outline: maybe mixed
					}
					c, w := px.Pix[4*j:4*j+3], wrow[xx-x+R]
					if isBg[j] {
						bs[0], bs[1], bs[2] = bs[0]+w*float64(c[0]), bs[1]+w*float64(c[1]), bs[2]+w*float64(c[2])
						nb += w
					} else {
						fs[0], fs[1], fs[2] = fs[0]+w*float64(c[0]), fs[1]+w*float64(c[1]), fs[2]+w*float64(c[2])
						nf += w
					}
				}
			}
			var B, F [3]float64
			if isBg[i] { // a backdrop pixel, maybe in a shadow: its own shade of the backdrop
				b := bd.at(x, y)
				s := (p[0]*b[0] + p[1]*b[1] + p[2]*b[2]) / max(b[0]*b[0]+b[1]*b[1]+b[2]*b[2], 1)
				s = max(minShadow, min(1, s))
				B = [3]float64{s * b[0], s * b[1], s * b[2]}
			} else if nb > 0 {
				for ch := range 3 {
					B[ch] = bs[ch] / nb
				}
			} else {
				B = bd.at(x, y)
			}
			if nf > 0 {
				for ch := range 3 {
					F[ch] = fs[ch] / nf
				}
			} else { // a thin part: its most distinct pixel nearby
				for yy := max(0, y-R); yy <= min(H-1, y+R); yy++ {
					for xx := max(0, x-R); xx <= min(W-1, x+R); xx++ {
						if j := yy*W + xx; !isBg[j] {
							if d := dist3(col(j), B); d > farD {
								far, farD = col(j), d
							}
						}
					}
				}
				if farD < 0 {
					return edge{}, false
				}
				F = far
			}
			fb := [3]float64{F[0] - B[0], F[1] - B[1], F[2] - B[2]}
			den := fb[0]*fb[0] + fb[1]*fb[1] + fb[2]*fb[2]
			if den < tolRGB*tolRGB {
				return edge{}, false // product and backdrop too alike to unmix: keep the hard edge
			}
			a := ((p[0]-B[0])*fb[0] + (p[1]-B[1])*fb[1] + (p[2]-B[2])*fb[2]) / den
			a = max(0, min(1, a))
			if isBg[i] && a < 0.15 {
				return edge{}, false
			}
			e := edge{i: i, a: uint8(math.Round(255 * a))}
			if !isBg[i] && a > 0.92 {
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
		// Each band pixel reads the pixels around it and writes only its
		// own result; the edges are applied after, in the band's order.
		found := make([]edge, len(queue))
		ok := make([]bool, len(queue))
		resample.Rows(len(queue), (2*R+1)*(2*R+1), func(k int) { found[k], ok[k] = matte(int(queue[k])) })
		for k := range queue {
			if ok[k] {
				edges = append(edges, found[k])
			}
		}
	}
	for _, e := range edges {
		alpha[e.i] = e.a
		p := px.Pix[4*e.i:]
		p[0], p[1], p[2] = e.r, e.g, e.b
	}
	objects := make([]int, H) // by row
	resample.Rows(H, W, func(y int) {
		for i := y * W; i < y*W+W; i++ {
			p := px.Pix[4*i : 4*i+4]
			a := uint8(int(alpha[i]) * int(p[3]) / 255)
			if a > 0 {
				objects[y]++
			}
			if shade != nil && shade[i] > 0 && a < 255 {
				c, sa := withShadow([3]uint8{p[0], p[1], p[2]}, a, shade[i])
				p[0], p[1], p[2], p[3] = c[0], c[1], c[2], sa
				continue
			}
			if a == 0 {
				p[0], p[1], p[2], p[3] = 0, 0, 0, 0
				continue
			}
			p[3] = a
		}
	})
	object := 0
	for _, k := range objects {
		object += k
	}
	objShare := float64(object) / float64(n)
	if objShare < minObjectShare {
		return cutout{}, fmt.Errorf(
			"no object was found: the whole image is within tolerance %g of the backdrop (%s at the centre)",
			tol,
			bgMid.Hex(),
		)
	}
	return cutout{img: px, background: bgMid, objectShare: objShare, confidence: share}, nil
}
