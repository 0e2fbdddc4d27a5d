package image

import (
	"context"
	"image"
)

// A see-through product's outline (issue 46). Where the backdrop behind
// clear glass is as light as the glass (a clear bottle's neck and
// shoulders before a sweep's lit top), the glass shows the backdrop's own
// tones and the cut-out's floods give it to the backdrop: what is left of
// it there is its outline, the faint lines along its sides where it bends
// the light, and the cap. When the cut-out has a see-through body
// (cutglass.go), the regions the object and the faint lines (rimLines,
// the walls of the cut-out's walled flood, their gaps of up to
// 2 × gapClose pixels closed) shut off from the image's border are the
// product's when each
//
//   - reaches the outline: at least outlineReach of its rim faces the
//     backdrop outside the lines (a hole is closed by the product all
//     round: a handle's hole stays a hole);
//   - is solid: at least 20 of its pixels more than 3 pixels from the
//     backdrop outside (not a sliver between a line and the object);
//   - and is the glass: at least glassOnLine of its pixels off the lines
//     are on a see-through body's colour line, I = αF + (1 − α)B (a
//     shadow, darker, is not).
//
// They are filled with the image's pixels, and the see-through step gives
// them their alpha with the body they join; their outline (the faint
// lines, which the step leaves opaque) takes the alpha of the glass beside
// it, so the silhouette is whole and the glass see-through to its edge.

const (
	outlineReach = 0.1 // the least share of a region's rim facing the backdrop outside
	glassOnLine  = 0.6 // the least share of a region's pixels on a body's colour line
)

// glassOutline is what fillGlassOutline filled.
type glassOutline struct {
	filled []bool
	bd     *backdrop
	src    *image.NRGBA // the image's pixels
}

// fillGlassOutline fills into the cut-out res (of img, cut with tolerance
// tol and a soft edge of feather pixels) the regions of see-through
// glass its outline closes; nil when it fills none.
func fillGlassOutline(ctx context.Context, img image.Image, res cutout, tol float64, feather int) *glassOutline {
	g := scanGlass(img, res, tol)
	if g == nil {
		return nil
	}
	st, _, _, err := newCutState(ctx, img, tol)
	if err != nil {
		return nil
	}
	defer st.release()
	st.walls()
	W, H, n, cut := st.W, st.H, st.n, res.img
	object := func(i int) bool { return cut.Pix[4*i+3] > 0 }
	out := outsideWalls(st.rims, object, W, H)
	defer boolPool.put(out)
	outSum := integralOf(out, W, H)
	filled := make([]bool, n)
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	member := func(j int) bool { return !out[j] && !object(j) }
	objSum := integralOf(func() []bool { // the object, for a crack's width
		m := make([]bool, n)
		for i := range m {
			m[i] = object(i)
		}
		return m
	}(), W, H)
	thin := func(c []int32) bool { // every pixel within 2 of the object
		for _, j := range c {
			if boxCount(objSum, W, H, int(j)%W, int(j)/W, 2) == 0 {
				return false
			}
		}
		return true
	}
	minSize := max(50, g.object/200)
	made := 0
	for i := range n {
		if seen[i] || !member(i) {
			continue
		}
		comp := []int32{int32(i)}
		seen[i] = true
		toOut, toObject, cores := 0, 0, 0
		for h := 0; h < len(comp); h++ {
			j := int(comp[h])
			if boxCount(outSum, W, H, j%W, j/W, 3) == 0 {
				cores++
			}
			forNeighbours(j, W, H, func(k int) {
				switch {
				case out[k]:
					toOut++
				case object(k):
					toObject++
				case !seen[k]:
					seen[k] = true
					comp = append(comp, int32(k))
				}
			})
		}
		outline := len(comp) >= minSize && cores >= 20 && float64(toOut) >= outlineReach*float64(toOut+toObject)
		crack := toOut == 0 && thin(comp)
		if toObject == 0 || !outline && !crack || !g.onBodyLine(comp, st) {
			continue
		}
		for _, j := range comp {
			filled[j] = true
		}
		made += len(comp)
	}
	if made == 0 {
		releaseImage(st.px)
		return nil
	}
	// The faint line beside a filled region is its edge: a pixel of it.
	var edge []int
	for i := range n {
		if !filled[i] && out[i] && st.rims[i] && touches(filled, i, W, H) {
			edge = append(edge, i)
		}
	}
	for _, i := range edge {
		filled[i] = true
	}
	for i, f := range filled {
		if f {
			p, q := cut.Pix[4*i:4*i+4], st.px.Pix[4*i:4*i+4]
			p[0], p[1], p[2], p[3] = q[0], q[1], q[2], 255
		}
	}
	restoreSeams(cut, st.px, filled, out, W, H, feather+1)
	return &glassOutline{filled: filled, bd: g.bd, src: st.px}
}

// onBodyLine tells whether at least glassOnLine of region c's pixels off
// the lines (st.rims), and at least 20, have the colour of one of the
// see-through bodies over the backdrop behind them.
func (g *glassScan) onBodyLine(c []int32, st *cutState) bool {
	for _, b := range g.bodies {
		on, off := 0, 0
		for _, j := range c {
			if st.rims[j] {
				continue
			}
			off++
			p, bk := st.col(int(j)), g.bd.at(int(j)%g.W, int(j)/g.W)
			var r2 float64
			for ch := range 3 {
				r := p[ch] - b.a*b.f[ch] - (1-b.a)*bk[ch]
				r2 += r * r
			}
			if r2 <= 3*glassFit*glassFit {
				on++
			}
		}
		if off >= 20 && float64(on) >= glassOnLine*float64(off) {
			return true
		}
	}
	return false
}

// outsideWalls is the backdrop outside the object and the walls: flooded
// from the border through pixels neither object nor within gapClose of
// the walls, grown back 2 × gapClose + 1 steps up to the walls, and 3 steps
// on into the walls' pixels (the lines and a pixel each side). It goes
// back to the pool with boolPool.put.
func outsideWalls(walls []bool, object func(i int) bool, W, H int) []bool {
	n := W * H
	band := dilate(walls, W, H, gapClose)
	open := boolPool.get(n)
	for i := range n {
		open[i] = !band[i] && !object(i)
	}
	boolPool.put(band)
	var seeds []int
	for x := range W {
		seeds = append(seeds, x, (H-1)*W+x)
	}
	for y := 1; y < H-1; y++ {
		seeds = append(seeds, y*W, y*W+W-1)
	}
	out := flood(open, W, H, seeds)
	boolPool.put(open)
	var front, next []int32
	for i := range n {
		if out[i] {
			front = append(front, int32(i))
		}
	}
	for range 2*gapClose + 1 {
		next = next[:0]
		for _, i := range front {
			forNeighbours(int(i), W, H, func(j int) {
				if !out[j] && !walls[j] && !object(j) {
					out[j] = true
					next = append(next, int32(j))
				}
			})
		}
		front, next = next, front
	}
	// The walls' own pixels along it: the outline, not the product.
	front = front[:0]
	for i := range n {
		if out[i] {
			front = append(front, int32(i))
		}
	}
	for range 3 {
		next = next[:0]
		for _, i := range front {
			forNeighbours(int(i), W, H, func(j int) {
				if !out[j] && walls[j] && !object(j) {
					out[j] = true
					next = append(next, int32(j))
				}
			})
		}
		front, next = next, front
	}
	return out
}

// integralOf is the summed-area table of m, (W+1) × (H+1).
func integralOf(m []bool, W, H int) []int32 {
	s := make([]int32, (W+1)*(H+1))
	for y := range H {
		row := int32(0)
		for x := range W {
			if m[y*W+x] {
				row++
			}
			s[(y+1)*(W+1)+x+1] = s[y*(W+1)+x+1] + row
		}
	}
	return s
}

// boxCount is how many pixels of the table s's mask lie within r of
// (x, y) (a (2r+1)-pixel square, clipped to the image).
func boxCount(s []int32, W, H, x, y, r int) int32 {
	x0, y0, x1, y1 := max(0, x-r), max(0, y-r), min(W, x+r+1), min(H, y+r+1)
	return s[y1*(W+1)+x1] - s[y0*(W+1)+x1] - s[y1*(W+1)+x0] + s[y0*(W+1)+x0]
}

// restoreSeams gives the object's soft edge where it meets a filled
// region (within r of it and not within r of the backdrop outside) the
// image's pixels again, opaque: it is inside the product now.
func restoreSeams(cut, src *image.NRGBA, filled, out []bool, W, H, r int) {
	fs, os := integralOf(filled, W, H), integralOf(out, W, H)
	for i := range W * H {
		p := cut.Pix[4*i : 4*i+4]
		if filled[i] || p[3] == 0 || p[3] == 255 {
			continue
		}
		x, y := i%W, i/W
		if boxCount(fs, W, H, x, y, r) == 0 || boxCount(os, W, H, x, y, r) > 0 {
			continue
		}
		q := src.Pix[4*i:]
		p[0], p[1], p[2], p[3] = q[0], q[1], q[2], 255
	}
}

// finish gives the filled outline's pixels the see-through step left
// opaque within two pixels of the backdrop (the faint lines at the glass's
// edge) the mean alpha of the see-through pixels within two pixels of
// them, their colour un-mixed at it; it gives the image's pixels back.
func (o *glassOutline) finish(cut *image.NRGBA) {
	defer releaseImage(o.src)
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	alpha := func(i int) uint8 { return cut.Pix[4*i+3] }
	var set []int32
	var as []float64
	for i, f := range o.filled {
		if !f || alpha(i) != 255 {
			continue
		}
		x, y := i%W, i/W
		edge, sum, k := false, 0.0, 0
		for yy := max(0, y-2); yy <= min(H-1, y+2); yy++ {
			for xx := max(0, x-2); xx <= min(W-1, x+2); xx++ {
				switch a := alpha(yy*W + xx); {
				case a == 0:
					edge = true
				case a < 255:
					sum += float64(a) / 255
					k++
				}
			}
		}
		if edge && k > 0 {
			set, as = append(set, int32(i)), append(as, sum/float64(k))
		}
	}
	for k, i32 := range set {
		i := int(i32)
		b := o.bd.at(i%W, i/W)
		p := cut.Pix[4*i:]
		d := [3]float64{float64(p[0]) - b[0], float64(p[1]) - b[1], float64(p[2]) - b[2]}
		a := max(glassFloor, as[k], leastAlpha(d, b))
		for ch := range 3 {
			p[ch] = clamp8(b[ch] + d[ch]/a)
		}
		p[3] = uint8(min(255, 255*a+0.5))
	}
}
