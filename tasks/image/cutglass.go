package image

import (
	"image"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/tasks/resample"
)

// See-through bodies (glass, clear film): after the cut-out, the parts of
// the product that show the backdrop through them get an alpha below 1 and
// their colour un-mixed, so they composite right on any background.
//
//  1. The backdrop model is fitted again to the image's border (the
//     cut-out's own, see cutmatte.go).
//  2. Body candidates: the product's inner pixels (opaque, two pixels in
//     from its outline) whose difference from the backdrop behind them,
//     I − B, points the way of the product's common tint (within
//     glassCos of it) or is too faint to point (under glassFaint: clear
//     glass, the backdrop's noise and JPEG's ringing): a green glass
//     darkens every backdrop towards the same green. Labels, caps, rims
//     of another colour and highlights (lighter than the backdrop on a
//     dark tint) are not candidates and stay opaque.
//  3. A candidate region is see-through only when the backdrop continues
//     inside it: the backdrop model varies across it (a sweep's gradient,
//     at least glassSpan levels, counted within the range the border
//     itself shows: not the model's extrapolation into a corner) and the region's colours follow it, each
//     channel's I = a + s·B with the slope s between glassSlopeMin and
//     glassSlopeMax, the three alike, fitted tightly. An opaque body
//     keeps its colour whatever the backdrop behind it does (s near 0).
//  4. Its alpha: the body's tint F is solved from the fit (α = 1 − s,
//     F = B + (I − B)/α, medians over the region), then each pixel's alpha
//     is the projection of I − B on F − B (the body's alpha where F and
//     B are within glassNear of each other), at least glassFloor (a body is
//     never a hole) and at least the least alpha that keeps its colour in
//     gamut; its colour is un-mixed, F = B + (I − B)/α.
//
// On a flat backdrop nothing continues inside the outline, and a glass
// body cannot be told from an opaque one of its tint: it stays opaque.

const (
	glassCos      = 0.95 // cosine between a pixel's I − B and the body's tint direction
	glassSpan     = 15.0 // levels the backdrop must vary across a body
	glassSlopeMin = 0.2
	glassSlopeMax = 1.05
	glassSlopeDev = 0.15  // the channels' slopes within this of their mean
	glassSlopeSE  = 0.05  // the largest standard error of the mean slope
	glassFloor    = 0.15  // the least alpha of a see-through body
	glassMinShare = 0.1   // of the object: a smaller region is left opaque
	glassFit      = 12.0  // levels per channel a body pixel may be off the body's line (a label is further)
	glassNear     = 40.0  // |F − B| under which a pixel's alpha leans on the body's
	glassFaint    = 8.0   // |I − B| under which a pixel's tint has no direction to tell (clear glass)
	glassWhite    = 1.035 // a body's tint over this × white is an opaque white body's, not glass
)

// withGlass gives the see-through bodies of the cut-out res (of src, cut
// with tolerance tol) their alpha; res.seeThrough is the share of the
// object made see-through.
func withGlass(src image.Image, res cutout, tol float64) cutout {
	if res.clearBody != nil {
		return withClearBody(src, res, tol)
	}
	g := scanGlass(src, res, tol)
	if g == nil {
		return res
	}
	made := 0
	for _, b := range g.bodies {
		made += unmixBody(res.img, b.comp, b.on, b.f, b.a, g.diff)
	}
	if made > 0 {
		res.seeThrough = float64(made) / float64(max(g.object, 1))
	}
	return res
}

// glassScan is what scanGlass finds in a cut-out: the backdrop fitted to
// the border and the see-through bodies.
type glassScan struct {
	cut    *image.NRGBA
	bd     *backdrop
	W, H   int
	object int // the object's pixels (alpha above 0)
	bodies []seeBody
}

// seeBody is one see-through body: its pixels, those on its colour line
// (on), its tint f and its alpha a.
type seeBody struct {
	comp []int32
	on   []bool
	f    [3]float64
	a    float64
}

// diff is pixel i's I − B in the cut-out, and B.
func (g *glassScan) diff(i int) ([3]float64, [3]float64) {
	b := g.bd.at(i%g.W, i/g.W)
	p := g.cut.Pix[4*i:]
	return [3]float64{float64(p[0]) - b[0], float64(p[1]) - b[1], float64(p[2]) - b[2]}, b
}

// scanGlass finds the see-through bodies of the cut-out res (steps 1 to 3)
// without changing it; nil when there is none.
func scanGlass(src image.Image, res cutout, tol float64) *glassScan {
	cut := res.img
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	if W < 16 || H < 16 {
		return nil
	}
	bd, seenLo, seenHi := borderBackdrop(src, W, H, 1.5*tol)
	if bd == nil {
		return nil
	}
	n := W * H
	inner, object := innerPixels(cut)
	g := &glassScan{cut: cut, bd: bd, W: W, H: H, object: object}
	u, ok := tintDirection(inner, g.diff)
	if !ok {
		return nil
	}
	member := make([]bool, n)
	for i := range n {
		if !inner[i] {
			continue
		}
		d, _ := g.diff(i)
		l := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
		member[i] = l <= glassFaint || math.Abs(d[0]*u[0]+d[1]*u[1]+d[2]*u[2])/l >= glassCos
	}
	seen := make([]bool, n)
	for s := range n {
		if !member[s] || seen[s] {
			continue
		}
		comp := []int32{int32(s)}
		seen[s] = true
		for h := 0; h < len(comp); h++ {
			forNeighbours(int(comp[h]), W, H, func(j int) {
				if member[j] && !seen[j] {
					seen[j] = true
					comp = append(comp, int32(j))
				}
			})
		}
		if float64(len(comp)) < glassMinShare*float64(object) || len(comp) < 200 || crossesFrame(comp, W, H) {
			continue
		}
		f, a, on, ok := bodyTint(comp, g.diff, seenLo, seenHi)
		if ok {
			g.bodies = append(g.bodies, seeBody{comp: comp, on: on, f: f, a: a})
		}
	}
	if len(g.bodies) == 0 {
		return nil
	}
	return g
}

// innerPixels marks the cut-out's opaque pixels two pixels in from its
// outline, and counts the object's pixels (alpha above 0).
func innerPixels(cut *image.NRGBA) ([]bool, int) {
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	solid := func(i int) bool { return cut.Pix[4*i+3] == 255 }
	inner := make([]bool, W*H)
	object := 0
	for y := range H {
		for x := range W {
			i := y*W + x
			if cut.Pix[4*i+3] > 0 {
				object++
			}
			if x < 2 || y < 2 || x >= W-2 || y >= H-2 || !solid(i) {
				continue
			}
			inner[i] = solid(i-2) && solid(i+2) && solid(i-2*W) && solid(i+2*W) && solid(i-1) && solid(i+1) &&
				solid(i-W) && solid(i+W)
		}
	}
	return inner, object
}

// tintDirection is the object's common tint, the mean direction of I − B
// over the inner pixels darker than the backdrop in every channel by more
// than the noise; false when none is.
func tintDirection(inner []bool, diff func(i int) ([3]float64, [3]float64)) ([3]float64, bool) {
	var u [3]float64
	for i, in := range inner {
		if !in {
			continue
		}
		d, _ := diff(i)
		if d[0] < -3 && d[1] < -3 && d[2] < -3 {
			l := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
			for ch := range 3 {
				u[ch] += d[ch] / l
			}
		}
	}
	ul := math.Sqrt(u[0]*u[0] + u[1]*u[1] + u[2]*u[2])
	if ul == 0 {
		return u, false
	}
	for ch := range 3 {
		u[ch] /= ul
	}
	return u, true
}

// bodyTint is the tint F and alpha of a see-through body, solved from how
// its colours follow the backdrop behind it; false when they do not (an
// opaque body, or a backdrop too flat to tell).
func bodyTint(comp []int32, diff func(i int) ([3]float64, [3]float64), seenLo, seenHi float64) (
	[3]float64, float64, []bool, bool) {
	mean, on, ok := bodyLine(comp, diff, seenLo, seenHi)
	if !ok {
		return [3]float64{}, 0, nil, false
	}
	// The tint: F = B + (I − B)/α with α = 1 − s, the median over the body;
	// α no less than the least that keeps every pixel's F in gamut.
	a := max(glassFloor, 1-mean)
	var fs [3][]float64
	for k, j := range comp {
		if !on[k] {
			continue
		}
		d, b := diff(int(j))
		aj := max(a, leastAlpha(d, b))
		for ch := range 3 {
			fs[ch] = append(fs[ch], b[ch]+d[ch]/aj)
		}
	}
	var f [3]float64
	for ch := range 3 {
		f[ch] = median(fs[ch])
	}
	return f, a, on, true
}

// bodyLine fits a body's colours against the backdrop behind them (see
// bodyTint): the mean slope of I = a + s·B over the channels and the
// pixels on the line; false when they do not follow the backdrop.
func bodyLine(comp []int32, diff func(i int) ([3]float64, [3]float64), seenLo, seenHi float64) (
	float64, []bool, bool) {
	// The body's colour against the backdrop's, a median per level of the
	// backdrop's luminance (a cap or a label of another tone beside the
	// body moves a few levels' medians, not the line through them).
	type level struct{ b, i [3][]float64 }
	levels := map[int]*level{}
	for _, j := range comp {
		d, b := diff(int(j))
		k := int(math.Round((b[0] + b[1] + b[2]) / 3))
		lv := levels[k]
		if lv == nil {
			lv = &level{}
			levels[k] = lv
		}
		for ch := range 3 {
			lv.b[ch] = append(lv.b[ch], b[ch])
			lv.i[ch] = append(lv.i[ch], d[ch]+b[ch])
		}
	}
	var bs, is [3][]float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, lv := range levels {
		if len(lv.b[0]) < 5 {
			continue
		}
		lo, hi = min(lo, float64(k)), max(hi, float64(k))
		for ch := range 3 {
			bs[ch], is[ch] = append(bs[ch], median(lv.b[ch])), append(is[ch], median(lv.i[ch]))
		}
	}
	if min(hi, seenHi)-max(lo, seenLo) < glassSpan { // only where the border shows the backdrop so
		return 0, nil, false
	}
	// Each channel's line I = a + s·B by repeated medians (Siegel): robust
	// to the levels a cap or a label moves.
	var slope, icept [3]float64
	mean := 0.0
	for ch := range 3 {
		var outer []float64
		for a := range bs[ch] {
			var inner []float64
			for b := range bs[ch] {
				if db := bs[ch][b] - bs[ch][a]; math.Abs(db) >= 1 {
					inner = append(inner, (is[ch][b]-is[ch][a])/db)
				}
			}
			if len(inner) > 0 {
				outer = append(outer, median(inner))
			}
		}
		if len(outer) == 0 {
			return 0, nil, false
		}
		slope[ch] = median(outer)
		res := make([]float64, len(bs[ch]))
		for k := range res {
			res[k] = is[ch][k] - slope[ch]*bs[ch][k]
		}
		icept[ch] = median(res)
		mean += slope[ch] / 3
	}
	// The body: the pixels on the line; the fit's standard error from
	// their residuals over the backdrop's spread.
	on := make([]bool, len(comp))
	var rss, sb, sbb float64
	m := 0.0
	for k, j := range comp {
		d, b := diff(int(j))
		var r2 float64
		for ch := range 3 {
			r := d[ch] + b[ch] - icept[ch] - slope[ch]*b[ch]
			r2 += r * r
		}
		if on[k] = r2 <= glassFit*glassFit*3; on[k] {
			rss += r2
			l := (b[0] + b[1] + b[2]) / 3
			sb, sbb, m = sb+l, sbb+l*l, m+1
		}
	}
	if m < 0.5*float64(len(comp)) {
		return 0, nil, false
	}
	varB := sbb/m - (sb/m)*(sb/m)
	se := math.Sqrt(rss/(3*m)) / math.Sqrt(max(varB, 1e-9)*m)
	if mean < glassSlopeMin || mean > glassSlopeMax || se > glassSlopeSE {
		return 0, nil, false
	}
	// The line's tint, (a₀ + a₁ + a₂)/3/(1 − s), past white: no body mixed
	// with the backdrop gives it, an opaque white one lit or vignetted as
	// the backdrop is does (a white bottle down a graded sweep). The glass
	// of every set reads at most 253 (0.99 × white), the white pump bottle
	// 271 (1.065 ×): the gate sits between.
	if (icept[0]+icept[1]+icept[2])/3 > glassWhite*255*(1-mean) {
		return 0, nil, false
	}
	for ch := range 3 {
		if math.Abs(slope[ch]-mean) > glassSlopeDev {
			return 0, nil, false
		}
	}
	return mean, on, true
}

// leastAlpha is the least alpha whose un-mixed colour B + d/α stays within
// 0..255 in every channel.
func leastAlpha(d, b [3]float64) float64 {
	a := 0.0
	for ch := range 3 {
		switch {
		case d[ch] < 0 && b[ch] > 0:
			a = max(a, -d[ch]/b[ch])
		case d[ch] > 0 && b[ch] < 255:
			a = max(a, d[ch]/(255-b[ch]))
		}
	}
	return min(1, a)
}

// unmixBody writes the alpha and un-mixed colour of a see-through body's
// pixels (comp, tint f, alpha body): those on the body's line (on), and
// those off it that are the same glass denser (a rim where it bends the
// light: along the tint, projecting to more than the body's alpha, where
// the tint is far enough from the backdrop to tell); it returns how many
// pixels it made see-through.
func unmixBody(cut *image.NRGBA, comp []int32, on []bool, f [3]float64, body float64,
	diff func(i int) ([3]float64, [3]float64)) int {
	made := make([]int, len(comp))
	resample.Rows(len(comp), 16, func(k int) {
		i := int(comp[k])
		d, b := diff(i)
		fb := [3]float64{f[0] - b[0], f[1] - b[1], f[2] - b[2]}
		den := fb[0]*fb[0] + fb[1]*fb[1] + fb[2]*fb[2]
		if !on[k] && den < glassNear*glassNear {
			return // off the body's line where its tint is too near the backdrop to tell: opaque
		}
		// Where the backdrop is near the tint the projection tells little:
		// it leans on the body's alpha there.
		w := min(1, math.Sqrt(den)/glassNear)
		a := body
		if den > 0 {
			a = w*(d[0]*fb[0]+d[1]*fb[1]+d[2]*fb[2])/den + (1-w)*body
		}
		if !on[k] && a < body {
			return // off the line and not a denser part of the glass (a rim): opaque
		}
		a = max(glassFloor, leastAlpha(d, b), min(1, a))
		if a >= 0.98 {
			return
		}
		p := cut.Pix[4*i:]
		for ch := range 3 {
			p[ch] = clamp8(b[ch] + d[ch]/a)
		}
		p[3] = uint8(math.Round(255 * a))
		made[k] = 1
	})
	total := 0
	for _, v := range made {
		total += v
	}
	return total
}

// borderBackdrop is the backdrop model fitted to a band along src's border,
// as the cut-out fits it, and the range (5th to 95th percentile) of the
// luminance the border shows of it (samples within a third of the
// tolerance of it); nil when it cannot be fitted.
func borderBackdrop(src image.Image, W, H int, tolRGB float64) (bd *backdrop, lo, hi float64) {
	b := src.Bounds()
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
			if k++; k%step != 0 {
				continue
			}
			r, g, bl, a := src.At(b.Min.X+x, b.Min.Y+y).RGBA()
			if a < 0x8000 {
				continue
			}
			xs, ys = append(xs, x), append(ys, y)
			cols = append(cols, [3]float64{float64(r >> 8), float64(g >> 8), float64(bl >> 8)})
		}
	}
	bd, err := fitBackdrop(W, H, xs, ys, cols, tolRGB, true)
	if err != nil {
		return nil, 0, 0
	}
	var ls []float64 // the samples' own luminance, where they are the backdrop
	for i := range xs {
		if dist3(cols[i], bd.at(xs[i], ys[i])) <= tolRGB/3 {
			ls = append(ls, (cols[i][0]+cols[i][1]+cols[i][2])/3)
		}
	}
	if len(ls) == 0 {
		return nil, 0, 0
	}
	slices.Sort(ls)
	return bd, ls[len(ls)*5/100], ls[len(ls)*95/100]
}
