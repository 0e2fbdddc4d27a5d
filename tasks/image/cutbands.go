package image

// Contact shadows joined to a body's darker rim. When a product in the
// backdrop's tones (a pale grey headphone, a chrome ball, an off-white
// teapot) stands on the sweep, the peel (cutpeel.go) enters its contact
// shadow and its own shaded rim as one region, which is no flat band and
// stays. Its part on the floor — in each column the run of dark pixels
// lowest in it, from its darkest line (the contact) down — is given back
// to the backdrop where it is a cast shadow and nothing else:
//
//   - its colour is the backdrop's times one factor in every channel (a
//     shadow only lowers the light, so the image-to-backdrop ratio is the
//     same in R, G and B: the chromaticity-preserving test of Salvador et
//     al. and the illuminant invariance of Finlayson et al.); a hem or a
//     base has its own colour, however dark or pale;
//   - it fades from the contact into the floor through a penumbra: in
//     most of its columns the light half of the way from its darkest
//     shade back to the backdrop takes several pixels, where a hem's or a
//     base's edge is a step of a pixel or two;
//   - it is mostly lighter than a deep shadow (a flat band darker than
//     that all across is a black wallet's thickness on charcoal).

// peelBands gives the contact-shadow bands of peeled region comp back to
// the background (isBg). shade is a pixel's shade of the backdrop (below
// 0: not a shade) and smooth its colour over a 5 × 5 window.
func (st *cutState) peelBands(comp []int32, shade func(i int) float32, smooth func(i int) [3]float64, isBg []bool) {
	bp := belowProduct(comp, shade, isBg, st.W, st.H)
	for _, band := range st.bands(bp) {
		if st.shadowBand(band, shade) && st.castShade(band, smooth) && st.fades(band, shade) {
			for _, i := range band {
				isBg[i] = true
			}
		}
	}
}

// belowProduct is the part of region comp on the floor: in each column,
// the run of its dark pixels (shade under 1 − peelDepth/2) lowest in it,
// under no kept pixel outside comp, from its darkest pixel (the contact
// line; above it the product's own shading climbs back) down. A shadow
// on the floor is the lowest thing in its column; a body's rim or a
// handle in the backdrop's tones that the peel entered too lies above it.
func belowProduct(comp []int32, shade func(i int) float32, isBg []bool, W, H int) []int32 {
	const darkMax = 1 - peelDepth/2
	in := make(map[int32]bool, len(comp))
	for _, q := range comp {
		in[q] = true
	}
	seen := map[int]bool{}
	var out []int32
	for _, q := range comp {
		x := int(q) % W
		if seen[x] {
			continue
		}
		seen[x] = true
		y := H - 1
		for ; y >= 0; y-- {
			if i := y*W + x; !isBg[i] && (!in[int32(i)] || shade(i) <= darkMax) {
				break
			}
		}
		run := len(out)
		for ; y >= 0 && in[int32(y*W+x)] && shade(y*W+x) <= darkMax; y-- {
			out = append(out, int32(y*W+x))
		}
		top := len(out) - 1
		for k := run; k < len(out); k++ {
			if shade(int(out[k])) < shade(int(out[top])) {
				top = k
			}
		}
		out = out[:top+1]
	}
	return out
}

// bands are the connected parts of region part that are flat bands
// (flatBand) of at least bandMin pixels.
func (st *cutState) bands(part []int32) [][]int32 {
	in := make(map[int32]bool, len(part))
	for _, q := range part {
		in[q] = true
	}
	var out [][]int32
	for _, q := range part {
		if !in[q] {
			continue
		}
		comp := []int32{q}
		delete(in, q)
		for k := 0; k < len(comp); k++ {
			st.neighbours(int(comp[k]), func(j int) {
				if in[int32(j)] {
					delete(in, int32(j))
					comp = append(comp, int32(j))
				}
			})
		}
		if len(comp) >= bandMin && flatBand(comp, st.W) {
			out = append(out, comp)
		}
	}
	return out
}

// bandMin is the fewest pixels a contact shadow's band has.
const bandMin = 30

// shadowBand tells whether band reaches a shadow's depth (peelDepth) and
// is mostly lighter than deepShadow.
func (st *cutState) shadowBand(band []int32, shade func(i int) float32) bool {
	darkest, deep := float32(2), 0
	for _, i := range band {
		s := shade(int(i))
		darkest = min(darkest, s)
		if s < deepShadow {
			deep++
		}
	}
	return darkest <= 1-peelDepth && 2*deep < len(band)
}

// castShade tells whether at least castShare of band's pixels (smoothed)
// are the backdrop darkened by one factor in every channel: the spread of
// their three image-to-backdrop ratios within ratioSpread (or the noise's
// share of the backdrop's level, if more).
func (st *cutState) castShade(band []int32, smooth func(i int) [3]float64) bool {
	W, ok := st.W, 0
	for _, i := range band {
		if st.shadeOf(smooth(int(i)), st.bd.at(int(i)%W, int(i)/W)) {
			ok++
		}
	}
	return float64(ok) >= castShare*float64(len(band))
}

// ratioSpread is the widest spread of a shade's channel ratios to the
// backdrop (JPEG's chroma and the smoothing leave a little); castShare the
// least share of a band's pixels that must be such shades.
const ratioSpread, castShare = 0.04, 0.9

// fades tells whether band fades into the floor: in at least half of its
// core's columns (those at least half as deep as its deepest), from the
// darkest pixel of the column's run down, the shade takes penumbra pixels
// or more to climb the light half of the way back to the backdrop (from
// halfway between its darkest and the backdrop to within a tenth of the
// depth of it), never darker than at the contact on the way (a shadow
// lightens away from the contact; under a grey base's lowest row lies its
// darker contact shadow). Shades here are the unsmoothed pixels'
// luminance ratios to the backdrop, so a hard edge stays hard.
func (st *cutState) fades(band []int32, shade func(i int) float32) bool {
	W, H := st.W, st.H
	ratio := func(i int) float64 {
		p, b := st.col(i), st.bd.at(i%W, i/W)
		return (p[0] + p[1] + p[2]) / max(b[0]+b[1]+b[2], 1)
	}
	cols := map[int]int{} // column → its darkest pixel in the band
	for _, q := range band {
		x := int(q) % W
		if k, ok := cols[x]; !ok || shade(int(q)) < shade(k) {
			cols[x] = int(q)
		}
	}
	deepest := 0.0
	for _, top := range cols {
		deepest = max(deepest, 1-ratio(top))
	}
	soft, core := 0, 0
	for x, top := range cols {
		dark := ratio(top)
		depth := 1 - dark
		if depth < deepest/2 {
			continue // the core is the contact; a hard cast shadow may trail from it
		}
		core++
		half, near := dark+depth/2, 1-depth/10
		width, lower := 0, false
		for y := top/W + 1; y < min(H, top/W+fadeLook); y++ {
			r := ratio(y*W + x)
			if r >= near {
				break
			}
			if r < dark-fadeSlack {
				lower = true // darker below: the contact is lower down, this is a base
				break
			}
			if r >= half {
				width++
			}
		}
		if !lower && width >= penumbra {
			soft++
		}
	}
	return core > 0 && 2*soft >= core
}

// fadeLook is the farthest, in pixels, fades looks down a column;
// fadeSlack how much darker than the contact a pixel below it may be
// (noise and JPEG) before the column is no contact shadow.
const fadeLook, fadeSlack = 40, 0.03

// penumbra is the fewest pixels a cast shadow's light half takes to fade
// into the floor: more than a hard edge's step (with a lens's blur and
// JPEG's ringing) takes.
const penumbra = 3

// shadeOf tells whether colour p is backdrop colour b times one factor in
// every channel, its three ratios within ratioSpread (shadeFactor).
func (st *cutState) shadeOf(p, b [3]float64) bool {
	ok, _ := shadeFactor(p, b, ratioSpread, st.noise)
	return ok
}

// shadeFactor tells whether colour p is backdrop colour b times one
// factor in every channel — the spread of the three ratios p/b within
// spread, or three times the noise's share of the backdrop's level if
// more (a shadow lowers the light, not the hue) — and that factor, the
// ratios' mean.
func shadeFactor(p, b [3]float64, spread, noise float64) (bool, float64) {
	lo, hi, sum := 2.0, -1.0, 0.0
	for ch := range 3 {
		r := p[ch] / max(b[ch], 1)
		lo, hi, sum = min(lo, r), max(hi, r), sum+r
	}
	level := max((b[0]+b[1]+b[2])/3, 1)
	return hi-lo <= max(spread, 3*noise/level), sum / 3
}
