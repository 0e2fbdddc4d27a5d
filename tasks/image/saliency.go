package image

import (
	"cmp"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// saliency is where a photo's main subject is, read on a small copy: how
// far each pixel's colour, smoothed, is from the backdrop — the colours
// that fill the frame's border (a plain sweep, a sky, a wall) — and then
// which salient region is the subject: the one with the most salience,
// counted only as far as the region is solid (a lattice or scattered
// lamps fill little of their box, a body fills most of it).
type saliency struct {
	w, h int
	v    []float64 // per pixel, 0 for the backdrop
	// blown marks pixels clipped to white (glare): no detail to show.
	blown []bool
	// l is each pixel's lightness, smoothed; edge the strongest colour
	// step (ΔE per pixel, unsmoothed) within 2 px of it; backL the mean
	// lightness of the frame's border; rawL the lightness unsmoothed.
	// They weigh regions (saliencycues.go).
	l, rawL, edge []float64
	backL         float64
}

// A blown pixel is lighter than blownL with chroma under blownChroma: a
// lamp, the sun or a window burnt out, never the subject's detail. A
// region at least blownShare blown (its core; its blurred rim is not)
// scores as if its salience were blownWeight of it, and fills its box only
// with its pixels that are not blown.
const (
	blownL      = 97
	blownChroma = 6
	blownShare  = 0.25
	blownWeight = 0.1
)

// borderShareMin is the least share of the border a colour must fill to
// count as backdrop (a subject touching the frame fills less).
const borderShareMin = 0.04

// saliencyOf reads img (small: every pixel is visited several times).
func saliencyOf(img image.Image) saliency {
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	lab := make([]colour.Lab, W*H)
	alpha := make([]float64, W*H)
	for y := range H {
		for x := range W {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			lab[y*W+x] = colour.LabOf8(c.R, c.G, c.B)
			alpha[y*W+x] = float64(c.A) / 255
		}
	}
	r := max(1, max(W, H)/100)
	raw := lab
	lab = boxBlurLab(boxBlurLab(lab, W, H, r), W, H, r)
	// The backdrop's colours: the border ring's colours binned by 8 ΔE,
	// each bin filling at least borderShareMin, as its mean.
	ring := max(2, max(W, H)/50)
	type bin struct {
		sum colour.Lab
		n   float64
	}
	bins := map[[3]int]*bin{}
	var total, borderL float64
	for y := range H {
		for x := range W {
			if x >= ring && x < W-ring && y >= ring && y < H-ring {
				continue
			}
			i := y*W + x
			if alpha[i] < 0.5 {
				continue
			}
			c := lab[i]
			k := [3]int{int(math.Floor(c.L / 8)), int(math.Floor(c.A / 8)), int(math.Floor(c.B / 8))}
			if bins[k] == nil {
				bins[k] = &bin{}
			}
			bins[k].sum.L += c.L
			bins[k].sum.A += c.A
			bins[k].sum.B += c.B
			bins[k].n++
			total++
			borderL += c.L
		}
	}
	var backdrop []colour.Lab
	for _, bn := range bins {
		if bn.n >= borderShareMin*total {
			backdrop = append(backdrop, colour.Lab{L: bn.sum.L / bn.n, A: bn.sum.A / bn.n, B: bn.sum.B / bn.n})
		}
	}
	s := saliency{w: W, h: H, v: make([]float64, W*H), blown: make([]bool, W*H), l: make([]float64, W*H),
		rawL: make([]float64, W*H), edge: edgeMap(raw, W, H)}
	if total > 0 {
		s.backL = borderL / total
	}
	cs := centreSurround(raw, W, H)
	for i, c := range lab {
		s.l[i], s.rawL[i] = c.L, raw[i].L
		s.blown[i] = c.L > blownL && c.Chroma() < blownChroma
		if len(backdrop) == 0 { // a transparent border: the opaque pixels are the subject
			s.v[i] = alpha[i]
			continue
		}
		d := math.Inf(1)
		for _, bc := range backdrop {
			d = min(d, math.Sqrt((c.L-bc.L)*(c.L-bc.L)+(c.A-bc.A)*(c.A-bc.A)+(c.B-bc.B)*(c.B-bc.B)))
		}
		// Differences under 10 ΔE are the backdrop's own shading and grain.
		// A pixel standing out from its own surround (cs) is salient too: a
		// dark bird against a sunset sky the colour of no border.
		s.v[i] = math.Max(0, max(d, csWeight*cs[i])-10) * alpha[i]
	}
	return s
}

// boxBlurLab averages each pixel's (2r+1)² neighbourhood, edges clamped.
func boxBlurLab(in []colour.Lab, W, H, r int) []colour.Lab {
	tmp, out := make([]colour.Lab, W*H), make([]colour.Lab, W*H)
	avg := func(get func(k int) colour.Lab, n, k int) colour.Lab {
		var s colour.Lab
		for d := -r; d <= r; d++ {
			c := get(min(n-1, max(0, k+d)))
			s.L, s.A, s.B = s.L+c.L, s.A+c.A, s.B+c.B
		}
		f := float64(2*r + 1)
		return colour.Lab{L: s.L / f, A: s.A / f, B: s.B / f}
	}
	for y := range H {
		for x := range W {
			tmp[y*W+x] = avg(func(k int) colour.Lab { return in[y*W+k] }, W, x)
		}
	}
	for y := range H {
		for x := range W {
			out[y*W+x] = avg(func(k int) colour.Lab { return tmp[k*W+x] }, H, y)
		}
	}
	return out
}

// region is a connected salient region.
type region struct {
	box   image.Rectangle
	mass  float64 // its salience
	px    int     // its pixels
	blown int     // its pixels clipped to white
	cues  regionCues
}

// score is the region's salience weighted by its solidity (the share of
// its box it fills), by how little of it is blown (glare has no detail:
// a lit lamp or the sun beside the subject is not it) and, mildly, by
// nearness to the middle.
func (r region) score(W, H int) float64 {
	fill := float64(r.px) / float64(r.box.Dx()*r.box.Dy())
	c := r.box.Min.Add(r.box.Max).Div(2)
	dx, dy := float64(c.X)/float64(W)-0.5, float64(c.Y)/float64(H)-0.5
	glare := 1.0
	if float64(r.blown) >= blownShare*float64(r.px) {
		// Glare fills nothing of its box either: of a window's burnt-out
		// panes only the frame is detail.
		glare = blownWeight
		fill = float64(r.px-r.blown) / float64(r.box.Dx()*r.box.Dy())
	}
	return r.mass * fill * glare * r.cues.weight() * (1 - 0.4*(dx*dx+dy*dy))
}

// suppressions is how many times subjectRegions reads the regions again
// after weighing clutter down.
const suppressions = 3

// subjectRegions are the regions read again after each region the cues
// weigh under half (a glow, a light, the backdrop along the frame) has
// its salience scaled by its weight: the strongest pixel set the
// threshold, and a sun or a floodlight would otherwise hide a subject
// under a third of its salience. s.v is changed.
func (s saliency) subjectRegions() []region {
	rs, label := s.labelled()
	for range suppressions {
		changed := false
		for i, id := range label {
			if id == 0 {
				continue
			}
			if w := rs[id-1].cues.weight(); w < 0.5 {
				s.v[i] *= w
				changed = true
			}
		}
		if !changed {
			break
		}
		rs, label = s.labelled()
	}
	return rs
}

// labelled are the connected groups of pixels whose salience is over a
// third of the strongest (8-connected, joined across 1-px gaps), with
// each pixel's region (its index + 1, 0 for none).
func (s saliency) labelled() ([]region, []int32) {
	var top float64
	for _, v := range s.v {
		top = max(top, v)
	}
	if top == 0 {
		return nil, nil
	}
	on := make([]bool, len(s.v))
	for i, v := range s.v {
		on[i] = v > top/3
	}
	label := make([]int32, len(s.v))
	var out []region
	for i := range on {
		if !on[i] || label[i] != 0 {
			continue
		}
		out = append(out, region{box: image.Rect(i%s.w, i/s.w, i%s.w+1, i/s.w+1)})
		id := int32(len(out))
		rg := &out[id-1]
		stack := []int{i}
		label[i] = id
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%s.w, j/s.w
			rg.box = rg.box.Union(image.Rect(x, y, x+1, y+1))
			rg.mass += s.v[j]
			rg.px++
			if s.blown[j] {
				rg.blown++
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= s.w || ny >= s.h {
						continue
					}
					if k := ny*s.w + nx; on[k] && label[k] == 0 {
						label[k] = id
						stack = append(stack, k)
					}
				}
			}
		}
	}
	s.measureCues(out, label)
	return out, label
}

// subjectSpan is the span [lo, hi) along one axis (x when alongX) that a
// window of the given length should hold: the subject's, widened by the
// other salient regions (companionShare) near it (no further from the
// span than its length) while they fit, with a margin, the window placed
// as near centred on the subject as holds them all; or, when the subject
// alone does not fit, the window's position holding most of its salience.
func (s saliency) subjectSpan(alongX bool, window int) (lo, hi int, ok bool) {
	rs := s.subjectRegions()
	if len(rs) == 0 {
		return 0, 0, false
	}
	slices.SortStableFunc(rs, func(a, b region) int { return cmp.Compare(b.score(s.w, s.h), a.score(s.w, s.h)) })
	best := 0
	span := func(r image.Rectangle) (int, int) {
		if alongX {
			return r.Min.X, r.Max.X
		}
		return r.Min.Y, r.Max.Y
	}
	lo, hi = span(rs[best].box)
	mainLo, mainHi := lo, hi
	if hi-lo > window { // too big for the window: its heaviest part
		return s.heaviest(alongX, lo, hi, window)
	}
	top := rs[best].score(s.w, s.h)
	for i, r := range rs {
		if i == best || r.score(s.w, s.h) < top*companionShare {
			continue
		}
		a, b := span(r.box)
		near := a-hi <= hi-lo && lo-b <= hi-lo // a feature of the subject, not a lamp across the frame
		if near && max(hi, b)-min(lo, a) <= window {
			lo, hi = min(lo, a), max(hi, b)
		}
	}
	// A margin around the span while it fits: a region's strongest pixels
	// are its core (an eye's iris), its rim lies a little outside.
	margin := min((hi-lo)/8, (window-(hi-lo))/2)
	lo, hi = lo-margin, hi+margin
	// The window is centred on the main subject as far as it holds the
	// whole span, then moved off any salient region its edge would cut.
	at := min(max((mainLo+mainHi)/2-window/2, hi-window), lo)
	for _, r := range rs {
		if r.score(s.w, s.h) < top*companionShare {
			continue
		}
		a, b := span(r.box)
		at = uncut(at, window, lo, hi, a, b)
	}
	return at, at + window, true
}

// uncut moves a window at [at, at+window), which must hold [lo, hi), so
// that it does not cut the region [a, b): the region taken in whole when
// both fit, else left out whole when the span allows, else as it was.
func uncut(at, window, lo, hi, a, b int) int {
	if a >= at && b <= at+window || b <= at || a >= at+window {
		return at // wholly in or wholly out
	}
	if max(hi, b)-min(lo, a) <= window {
		return min(max(at, max(hi, b)-window), min(lo, a))
	}
	if a < at && b <= lo { // cut on the left edge: start after it
		return b
	}
	if b > at+window && a >= hi { // cut on the right edge: end before it
		return a - window
	}
	return at
}

// companionShare is the least score, as a share of the subject's, of a
// region kept beside it when both fit: a face's second eye in shadow
// scores a twentieth of the lit one's, and is still the face.
const companionShare = 0.04
