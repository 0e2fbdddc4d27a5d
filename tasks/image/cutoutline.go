package image

import (
	"math"
	"slices"
)

// Step 3's last stage (issue 46): a see-through product's outline closed
// and filled. Clear glass shows the backdrop through it: where the
// backdrop behind is as light as the glass (a clear bottle's neck and
// shoulders before a sweep's lit top, the whole bottle on a white sweep)
// its tones continue the backdrop's and the floods give it to the
// backdrop; what is left of it is its outline, the faint lines along its
// sides where it bends the light, the cap and the base. A region of the
// background that the object and the faint lines (st.rims, their gaps of
// up to 2 × gapClose pixels closed) shut off from the image's border is
// given to the object when it
//
//   - touches the object and reaches its outline: at least outlineReach
//     of its rim faces the backdrop outside the lines, or a thin wall of
//     the object (within 3 pixels of that backdrop);
//   - is solid: at least 20 of its pixels more than 3 pixels from the
//     backdrop outside, and at least minOutlineFill of the image;
//   - shows the backdrop: at least outlineNear of its pixels off the
//     lines are within the tolerance of it (a shadow, darker, is not);
//   - and is seen through: its colours follow the graded backdrop as
//     glass does (bodyLine, cutglass.go), less steeply than the backdrop
//     itself (a slope of at most outlineSlope). A hole is the backdrop,
//     slope 1: a handle's hole stays a hole.
//
// Where the backdrop is graded by less than glassSpan levels the slope
// tells nothing; there, and wherever the slope test fails, a region is
// clear glass's inside when its outline holds it as glass's thin walls
// do: at least clearReach of its rim faces the backdrop outside (a
// handle's hole, or a pocket between a product's bumps, is bounded by the
// product round it), it is at least glassMinShare of the product (not a
// pocket beside a capsule), its tones are the backdrop's or a shade of it
// (notAShade: not a pale ring of its own hue), and it is compact and
// outlined clearly (looksBare, cutbare.go: a mason jar on a warm white
// sweep, with only its highlight kept by the floods). Such a region is a clear body
// (st.clearBody), given its alpha from how much it dims the backdrop
// (cutclear.go).
//
// The faint line beside a filled region is its edge, and is filled too.
// The see-through step (cutglass.go) then gives the glass its alpha.

const (
	outlineReach   = 0.1   // the least share of a region's rim facing the backdrop outside
	outlineNear    = 0.6   // the least share of a region's pixels off the lines near the backdrop
	minOutlineFill = 0.001 // of the image: a smaller solid region is not filled
	outlineSlope   = 0.95  // the steepest a see-through region follows the backdrop (a hole: 1)
	clearReach     = 0.6   // the least share of a clear body's rim facing the backdrop outside (its thin walls)
)

// fillOutlines gives the object the regions of isBg its outline closes
// (see above).
func (st *cutState) fillOutlines(isBg []bool) {
	W, H, n := st.W, st.H, st.n
	graded := st.backdropSpan() >= glassSpan // else too flat to tell glass from a hole by its slope (seeThrough)
	minSize := max(50, int(minOutlineFill*float64(n)))
	object := 0
	for _, b := range isBg {
		if !b {
			object++
		}
	}
	var fill, clearFill []int32
	st.closedRegions(isBg, func(r closedRegion, outSum []int32) {
		rim := float64(r.toOut + r.toObject)
		solid := len(r.comp) >= minSize && r.cores >= 20 && float64(r.toOut+r.toWall) >= outlineReach*rim
		if r.toObject == 0 || !solid || !st.showsBackdropAll(r.comp) {
			return
		}
		share := float64(len(r.comp)) / float64(object+len(fill)+len(r.comp)) // of the product so far
		switch {
		case graded && st.seeThrough(r.comp):
			fill = append(fill, r.comp...)
		case float64(r.toOut) >= clearReach*rim && share >= glassMinShare && !st.notAShade(r.comp) &&
			st.looksBare(r.comp, outSum):
			fill = append(fill, r.comp...)
			clearFill = append(clearFill, r.comp...)
		}
	})
	for _, j := range fill {
		isBg[j] = false
	}
	if len(fill) == 0 {
		return
	}
	if len(clearFill) > 0 {
		if st.clearBody == nil {
			st.clearBody = make([]bool, n)
		}
		for _, j := range clearFill {
			st.clearBody[j] = true
		}
	}
	// The faint line beside a filled region is its edge: a pixel of it.
	var edge []int32
	for _, j := range fill {
		forNeighbours(int(j), W, H, func(k int) {
			if isBg[k] && st.rims[k] {
				edge = append(edge, int32(k))
			}
		})
	}
	for _, k := range edge {
		isBg[k] = false
	}
}

// closedRegion is a region of the background that the object and the
// walls shut off from the image's border, and how its rim meets them.
type closedRegion struct {
	comp                           []int32
	toOut, toWall, toObject, cores int // rim pixels facing the backdrop outside, a thin wall, the object; solid core
}

// closedRegions calls visit with each region of isBg the object and the
// faint lines (their gaps of up to 2 × gapClose pixels closed) shut off
// from the border, and the integral of the backdrop outside.
func (st *cutState) closedRegions(isBg []bool, visit func(r closedRegion, outSum []int32)) {
	W, H, n := st.W, st.H, st.n
	object := func(i int) bool { return !isBg[i] }
	out := outsideWalls(st.rims, object, W, H)
	defer boolPool.put(out)
	member := func(j int) bool { return isBg[j] && !out[j] }
	if !slices.ContainsFunc(isBg, func(b bool) bool { return b }) {
		return
	}
	outSum := integralOf(out, W, H)
	seen := boolPool.get(n)
	defer boolPool.put(seen)
	clear(seen)
	for i := range n {
		if seen[i] || !member(i) {
			continue
		}
		r := closedRegion{comp: []int32{int32(i)}}
		seen[i] = true
		for h := 0; h < len(r.comp); h++ {
			j := int(r.comp[h])
			if boxCount(outSum, W, H, j%W, j/W, 3) == 0 {
				r.cores++
			}
			forNeighbours(j, W, H, func(k int) {
				switch {
				case out[k]:
					r.toOut++
				case object(k):
					r.toObject++
					if boxCount(outSum, W, H, k%W, k/W, 3) > 0 {
						r.toWall++ // a thin wall of the object: its outline
					}
				case !seen[k]:
					seen[k] = true
					r.comp = append(r.comp, int32(k))
				}
			})
		}
		visit(r, outSum)
	}
}

// seeThrough tells whether region c's colours follow the backdrop behind
// it as see-through glass does (bodyLine), less steeply than the backdrop
// itself (a slope under outlineSlope): a hole is the backdrop, slope 1.
func (st *cutState) seeThrough(c []int32) bool {
	diff := func(i int) ([3]float64, [3]float64) {
		b, p := st.bd.at(i%st.W, i/st.W), st.col(i)
		return [3]float64{p[0] - b[0], p[1] - b[1], p[2] - b[2]}, b
	}
	slope, _, ok := bodyLine(c, diff, math.Inf(-1), math.Inf(1))
	return ok && slope <= outlineSlope
}

// backdropSpan is the range of the backdrop model's luminance over the
// image (on a 17 × 17 grid).
func (st *cutState) backdropSpan() float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for gy := range 17 {
		for gx := range 17 {
			b := st.bd.at(gx*(st.W-1)/16, gy*(st.H-1)/16)
			l := (b[0] + b[1] + b[2]) / 3
			lo, hi = min(lo, l), max(hi, l)
		}
	}
	return hi - lo
}

// showsBackdropAll tells whether at least outlineNear of region c's pixels
// off the lines, and at least 20, are within the tolerance of the
// backdrop (st.near).
func (st *cutState) showsBackdropAll(c []int32) bool {
	near, off := 0, 0
	for _, j := range c {
		if st.rims[j] {
			continue
		}
		off++
		if st.near[j] {
			near++
		}
	}
	return off >= 20 && float64(near) >= outlineNear*float64(off)
}

// outsideWalls is the backdrop outside the object and the walls: flooded
// from the border through pixels neither object nor within gapClose of
// the walls, grown back 2 × gapClose + 1 steps up to the walls, and 3
// steps on into the walls' pixels (the lines and a pixel each side). It
// goes back to the pool with boolPool.put.
func outsideWalls(walls []bool, object func(i int) bool, W, H int) []bool {
	n := W * H
	band := dilate(walls, W, H, gapClose)
	open := boolPool.get(n)
	for i := range n {
		open[i] = !band[i] && !object(i)
	}
	boolPool.put(band)
	seeds := borderSeeds(W, H)
	out := flood(open, W, H, seeds)
	boolPool.put(open)
	grow := func(steps int, through func(j int) bool) {
		var front, next []int32
		for i := range n {
			if out[i] && touches(out, i, W, H) != allOut(out, i, W, H) {
				front = append(front, int32(i))
			}
		}
		for range steps {
			next = next[:0]
			for _, i := range front {
				forNeighbours(int(i), W, H, func(j int) {
					if !out[j] && through(j) {
						out[j] = true
						next = append(next, int32(j))
					}
				})
			}
			front, next = next, front
		}
	}
	grow(2*gapClose+1, func(j int) bool { return !walls[j] && !object(j) })
	grow(3, func(j int) bool { return walls[j] && !object(j) }) // the outline, not the product
	return out
}

// allOut tells whether every 4-neighbour of pixel i is set in m.
func allOut(m []bool, i, W, H int) bool {
	all := true
	forNeighbours(i, W, H, func(j int) { all = all && m[j] })
	return all
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
