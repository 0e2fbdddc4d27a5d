package photoshoot

import (
	"image"
	"math"
	"slices"
	"sort"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/tasks/colour"
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
//  4. The hair: the pixels of a band above and around the top of the face
//     that are neither backdrop nor within hairSkinDE of the skin tone;
//     its tone is their median in the same way. Too few such pixels (a
//     bald head, hair the backdrop's colour) and the base's hair is kept.
//
// Over several photos the skin and hair samples are pooled.

// The rules' bounds.
const (
	backdropDE     = 5
	faceDE         = 14
	skinHueMin     = 18
	skinHueMax     = 88
	skinChromaMin  = 7
	skinChromaMax  = 60
	skinLMin       = 12
	hairSkinDE     = 12
	minFacePixels  = 150
	minHairShare   = 0.04
	trimPercentile = 0.15
	backdropStepDE = 1.5
	backdropSpanDE = 25
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
	skinPx     []colour.Lab
	hairPx     []colour.Lab
}

// isSkinLab is the skin-candidate rule.
func isSkinLab(c colour.Lab) bool {
	h, ch := c.Hue(), c.Chroma()
	return c.L >= skinLMin && ch >= skinChromaMin && ch <= skinChromaMax && h >= skinHueMin && h <= skinHueMax
}

// isHairLab is the hair-colour rule: black, grey or white (chroma under
// hairGreyChroma), or a hue of brown, blond, auburn or red
// (hairHueMin–hairHueMax°, chroma up to hairChromaMax). A cap or hat of
// another colour (navy, green, a bright red) is not read as hair.
func isHairLab(c colour.Lab) bool {
	h, ch := c.Hue(), c.Chroma()
	return ch < hairGreyChroma || (h >= hairHueMin && h <= hairHueMax && ch <= hairChromaMax)
}

// floodBackdrop widens back (the pixels near the border's colour bg) to
// everything reached from them by steps under backdropStepDE and within
// backdropSpanDE of bg: a graded or vignetted backdrop, not only its
// median colour. Hair or a top of another colour stops it, and it takes
// no skin-coloured pixel (a beige wall as light as the face).
func floodBackdrop(back []bool, lab []colour.Lab, bg colour.Lab, W, H int) {
	var stack []int
	for i, b := range back {
		if b {
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%W, i/W
		for _, n := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
			if n[0] < 0 || n[1] < 0 || n[0] >= W || n[1] >= H {
				continue
			}
			j := n[1]*W + n[0]
			if !back[j] && !isSkinLab(lab[j]) && colour.DeltaE(lab[j], lab[i]) < backdropStepDE &&
				colour.DeltaE(lab[j], bg) < backdropSpanDE {
				back[j] = true
				stack = append(stack, j)
			}
		}
	}
}

// readPhoto finds the face and hair of one photo read at sampleSide.
func readPhoto(p image.Image) toneRead {
	img := imaging.Fit(p, sampleSide, sampleSide, imaging.Box)
	W, H := img.Rect.Dx(), img.Rect.Dy()
	bg := colour.LabOf(borderColour(img))
	lab := make([]colour.Lab, W*H)
	back := make([]bool, W*H)
	for y := range H {
		for x := range W {
			o := img.PixOffset(x, y)
			i := y*W + x
			if img.Pix[o+3] < 128 {
				back[i] = true
				continue
			}
			lab[i] = colour.LabOf8(img.Pix[o], img.Pix[o+1], img.Pix[o+2])
			back[i] = colour.DeltaE(lab[i], bg) < backdropDE
		}
	}
	floodBackdrop(back, lab, bg, W, H)
	cand := make([]bool, W*H)
	for i := range cand {
		cand[i] = !back[i] && isSkinLab(lab[i])
	}
	var out toneRead
	var face []int
	found := false
	for _, c := range skinSeeds(cand, lab, W, H) {
		if face, out.face, found = faceOf(cand, lab, c, W, H); found {
			break
		}
	}
	if !found {
		return toneRead{}
	}
	out.found = true
	face, box := refineFace(cand, lab, face, out.face, W, H)
	mid := cheeks(out.face)
	for _, i := range face {
		if image.Pt(i%W, i/W).In(mid) {
			out.skinPx = append(out.skinPx, lab[i])
		}
	}
	out.hair, out.hairPx = readHair(lab, back, face, box, medianLab(out.skinPx), W, H)
	if float64(len(out.hairPx)) < minHairShare*float64(len(face)) {
		out.hairPx, out.hair = nil, image.Rectangle{}
	}
	return out
}

// faceOf grows the face from a skin tone seed: the largest region of
// the candidates within faceDE of it, its box cut to a face's height (a
// neck and shoulders in skin below it are not read), and
// whether it shows a face (isFace).
func faceOf(cand []bool, lab []colour.Lab, seed colour.Lab, W, H int) ([]int, image.Rectangle, bool) {
	near := make([]bool, len(cand))
	for i, c := range cand {
		near[i] = c && colour.DeltaE(lab[i], seed) < faceDE
	}
	face := largestRegion(near, W, H)
	if len(face) < minFacePixels {
		return nil, image.Rectangle{}, false
	}
	box := image.Rectangle{Min: image.Pt(W, H)}
	for _, i := range face {
		x, y := i%W, i/W
		box.Min.X, box.Min.Y = min(box.Min.X, x), min(box.Min.Y, y)
		box.Max.X, box.Max.Y = max(box.Max.X, x+1), max(box.Max.Y, y+1)
	}
	// A head is about as tall as it is wide.
	fh := min(box.Dy(), box.Dx()*4/3)
	head := image.Rect(box.Min.X, box.Min.Y, box.Max.X, box.Min.Y+fh)
	return face, head, isFace(face, head, lab, seed, W)
}

// skinSeeds are the skin tones the candidates centre on, the likeliest
// first: the fullest cells of a histogram of their colours (12 units of
// L*, 6 of a* and b*: the shading across a face moves L* most), each
// candidate weighted by its nearness to where a portrait's face is (the
// middle, a little above centre), then the fullest cells unweighted (a
// face high or to the side of the frame); each moved three times to the
// weighted mean of the candidates within faceDE of it. A hair, a top or a
// mottled wall of a skin-like hue weighs less than the face in the first;
// the face is tried from each seed until one shows a face (isFace), so a
// wall the prior favours does not hide the face beside it.
func skinSeeds(cand []bool, lab []colour.Lab, W, H int) []colour.Lab {
	type cell struct{ l, a, b int }
	weight := make([]float64, len(cand))
	hist, flat := map[cell]float64{}, map[cell]float64{}
	sx, sy := 0.08*float64(W), 0.08*float64(H)
	for i, c := range cand {
		if !c {
			continue
		}
		dx, dy := float64(i%W)-0.5*float64(W), float64(i/W)-0.42*float64(H)
		weight[i] = math.Exp(-dx*dx/(2*sx*sx) - dy*dy/(2*sy*sy))
		p := lab[i]
		k := cell{int(p.L / 12), int(math.Floor(p.A / 6)), int(math.Floor(p.B / 6))}
		hist[k] += weight[i]
		flat[k]++
	}
	ranked := func(h map[cell]float64) []cell {
		var cells []cell
		for k, w := range h {
			if w > 0 {
				cells = append(cells, k)
			}
		}
		sort.Slice(cells, func(i, j int) bool {
			a, b := cells[i], cells[j]
			if h[a] != h[b] {
				return h[a] > h[b]
			}
			return a.l < b.l || (a.l == b.l && (a.a < b.a || (a.a == b.a && a.b < b.b)))
		})
		return cells[:min(len(cells), seedCells)]
	}
	var seeds []colour.Lab
	for _, k := range append(ranked(hist), ranked(flat)...) {
		seed := colour.Lab{L: (float64(k.l) + 0.5) * 12, A: (float64(k.a) + 0.5) * 6, B: (float64(k.b) + 0.5) * 6}
		for range 3 {
			var sum colour.Lab
			tw := 0.0
			for i, c := range cand {
				if w := max(weight[i], 1e-3); c && colour.DeltaE(lab[i], seed) < faceDE {
					sum, tw = sum.Add(lab[i], w), tw+w
				}
			}
			if tw == 0 {
				break
			}
			seed = sum.Scale(1 / tw)
		}
		if !slices.ContainsFunc(seeds, func(s colour.Lab) bool { return colour.DeltaE(s, seed) < faceDE/4 }) {
			seeds = append(seeds, seed)
		}
	}
	return seeds
}

// seedCells is how many histogram cells of each ranking skinSeeds tries.
const seedCells = 4

// largestRegion is the largest 4-connected region of set, as indices.
func largestRegion(set []bool, W, H int) []int {
	seen := make([]bool, len(set))
	var best, stack []int
	for s := range set {
		if !set[s] || seen[s] {
			continue
		}
		var region []int
		stack = append(stack[:0], s)
		seen[s] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			region = append(region, i)
			x, y := i%W, i/W
			for _, n := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if n[0] < 0 || n[1] < 0 || n[0] >= W || n[1] >= H {
					continue
				}
				if j := n[1]*W + n[0]; set[j] && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if len(region) > len(best) {
			best = region
		}
	}
	return best
}

// medianLab is the median of L*, a* and b* over the pixels between the
// trimPercentile and 1 − trimPercentile of L*.
func medianLab(px []colour.Lab) colour.Lab {
	if len(px) == 0 {
		return colour.Lab{}
	}
	s := append([]colour.Lab(nil), px...)
	sort.Slice(s, func(i, j int) bool { return s[i].L < s[j].L })
	lo, hi := int(trimPercentile*float64(len(s))), int(math.Ceil((1-trimPercentile)*float64(len(s))))
	s = s[lo:max(hi, lo+1)]
	med := func(f func(colour.Lab) float64) float64 {
		v := make([]float64, len(s))
		for i, c := range s {
			v[i] = f(c)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	return colour.Lab{L: med(func(c colour.Lab) float64 { return c.L }),
		A: med(func(c colour.Lab) float64 { return c.A }), B: med(func(c colour.Lab) float64 { return c.B })}
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
		t.skin = medianLab(skin).Gamut().Hex()
	}
	if len(hair) > 0 {
		t.hair = medianLab(hair).Gamut().Hex()
	}
	return t
}
