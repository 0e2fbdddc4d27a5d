package image

import (
	"image"
)

// A hard cast shadow next to an opaque product is not clear glass, though
// both are the backdrop darkened: the shadow darkens the sweep by one
// factor, the same in every channel (its hue unchanged), over a thick,
// smooth patch with a short penumbra at its edge, while clear glass dims
// it only along thin rim lines where its walls turn away and leaves its
// middle nearly the backdrop. So a region the clear outline look would add
// (cutclearwide.go) is a cast shadow when a thick core of it, what is
// left of its darker shades once thinned by castCore pixels on every
// side, is at least castCoreShare of what it adds and that core darkens the
// backdrop evenly (its shade factor's spread under castSpread).

const (
	castDark      = 0.94 // a shade at most this share of the backdrop's light is dark enough to be a shadow
	castCore      = 4    // the pixels a shadow's core lies inside its dark patch, on every side
	castCoreShare = 0.12 // the least share of the added region a shadow's core takes
	castSpread    = 0.06 // the most a shadow's shade factor spreads (its standard deviation) over its core
)

// castShadowIn tells whether the added pixels hold a hard cast shadow
// rather than clear glass (see above).
func (st *cutState) castShadowIn(img image.Image, added []bool) bool {
	W, H, n := st.W, st.H, st.n
	chroma2 := st.chroma2()
	px := cloneNRGBA(img)
	dark := boolPool.get(n)
	defer boolPool.put(dark)
	shade := make([]float64, n)
	count := 0
	for i := range n {
		dark[i] = false
		if !added[i] {
			continue
		}
		count++
		p := px.Pix[4*i:]
		ok, s := isShade([3]float64{float64(p[0]), float64(p[1]), float64(p[2])}, st.bd.at(i%W, i/W), chroma2)
		if ok && s <= castDark {
			dark[i], shade[i] = true, s
		}
	}
	light := boolPool.get(n)
	defer boolPool.put(light)
	for i := range n {
		light[i] = !dark[i]
	}
	grown := dilate(light, W, H, castCore)
	defer boolPool.put(grown)
	core, sum, sum2 := 0, 0.0, 0.0
	for i := range n {
		if !grown[i] {
			core++
			sum += shade[i]
			sum2 += shade[i] * shade[i]
		}
	}
	if count == 0 || float64(core) < castCoreShare*float64(count) {
		return false
	}
	mean := sum / float64(core)
	return sum2/float64(core)-mean*mean <= castSpread*castSpread
}

// ownTone is how many of the kept pixels are not a shade of the backdrop
// (isShade): parts of the product's own colour, or darker than any shadow.
func (st *cutState) ownTone(img image.Image, kept []bool) int {
	px := cloneNRGBA(img)
	chroma2, own := st.chroma2(), 0
	for i, k := range kept {
		if !k {
			continue
		}
		p := px.Pix[4*i:]
		if ok, _ := isShade([3]float64{float64(p[0]), float64(p[1]), float64(p[2])}, st.bd.at(i%st.W, i/st.W),
			chroma2); !ok {
			own++
		}
	}
	return own
}
