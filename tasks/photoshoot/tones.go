package photoshoot

import (
	"image"

	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/faces"
)

// Reading skin and hair from reference photos, in CIELAB:
//
//  1. The backdrop: the median colour of the photo's border; every pixel
//     within backdropDE of it is left out.
//  2. Skin candidates: a hue and chroma every human skin tone falls in
//     (h_ab skinHueMin–skinHueMax°, chroma skinChromaMin–skinChromaMax,
//     L* over skinLMin) — from very dark to very light skin, but not a
//     grey, white or black (white hair, a white wall, a black top).
//  3. The face: the skin tone the candidates centre on (skinSeed), then
//     the largest connected region of candidates within faceDE of it
//     (a hair or a top of a skin-like hue is not the face). Its tone is
//     the median of L*, a* and b* over its pixels between the 15th and
//     85th percentile of L* (no highlights, no shadowed edges).
//  4. The hair (readHair, hair.go): the hair-coloured pixels touching the
//     face above its middle that are neither backdrop nor skin — those
//     showing strands (faces.Grain) when enough do, else by place and
//     colour; its tone is their median in the same way. Too few such
//     pixels (a bald head, hair the backdrop's colour) and the base's hair
//     is kept; a covering (a headscarf, a hood) is said covered.
//
// Over several photos the skin and hair samples are pooled.

// The rules' bounds.
const (
	hairSkinDE     = 12
	minHairShare   = 0.04
	hairGreyChroma = 12
	hairHueMin     = 15
	hairHueMax     = 100
	hairChromaMax  = 65
)

// toneRead is what one photo shows: the face and hair regions found (for
// the style card) and their pixels' colours.
type toneRead struct {
	// found says a face was found (isFace).
	found      bool
	face, hair image.Rectangle
	// hairCovered says the hair is covered (a headscarf): none is read.
	hairCovered bool
	skinPx      []colour.Lab
	hairPx      []colour.Lab
}

// isHairLab is the hair-colour rule: black, grey or white (chroma under
// hairGreyChroma), or a hue of brown, blond, auburn or red
// (hairHueMin–hairHueMax°, chroma up to hairChromaMax). A cap or hat of
// another colour (navy, green, a bright red) is not read as hair.
func isHairLab(c colour.Lab) bool {
	h, ch := c.Hue(), c.Chroma()
	return ch < hairGreyChroma || (h >= hairHueMin && h <= hairHueMax && ch <= hairChromaMax)
}

// readPhoto finds the face (faces.Find) and hair of one photo read at
// faces.Side.
func readPhoto(p image.Image) toneRead {
	f, ok := faces.Find(p)
	if !ok {
		return toneRead{}
	}
	out := toneRead{found: true, face: f.Head}
	mid := faces.Cheeks(f.Head)
	for _, i := range f.Face {
		if image.Pt(i%f.W, i/f.W).In(mid) {
			out.skinPx = append(out.skinPx, f.Lab[i])
		}
	}
	h := readHair(f.Lab, f.Grain, f.Back, f.Face, f.Box, faces.MedianLab(out.skinPx), f.W, f.H)
	out.hair, out.hairPx, out.hairCovered = h.area, h.px, h.covered
	least := minHairShare
	if h.strands {
		least = minSideSeeds // strands beside the face are hair, however few
	}
	if float64(len(out.hairPx)) < least*float64(len(f.Face)) {
		out.hairPx, out.hair = nil, image.Rectangle{}
	}
	return out
}

// tones are the skin and hair colours found in reference photos; "" when
// none was found.
type tones struct{ skin, hair string }

// readTones reads the skin and hair of the photos, pooled; "" for a tone
// none of them shows.
func readTones(photos []image.Image) tones {
	reads := make([]toneRead, len(photos))
	for i, p := range photos {
		reads[i] = readPhoto(p)
	}
	return tonesOf(reads)
}

// tonesOf pools the skin and hair of photos read.
func tonesOf(reads []toneRead) tones {
	var skin, hair []colour.Lab
	for _, r := range reads {
		skin, hair = append(skin, r.skinPx...), append(hair, r.hairPx...)
	}
	var t tones
	if len(skin) > 0 {
		t.skin = faces.MedianLab(skin).Gamut().Hex()
	}
	if len(hair) > 0 {
		t.hair = faces.MedianLab(hair).Gamut().Hex()
	}
	return t
}
