package faces

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// The face detector the families share (model.create reads skin and hair
// from the face it finds, image.crop keeps faces whole), in CIELAB, on a
// copy at most Side pixels long:
//
//  1. The backdrop: the median colour of the photo's border; every pixel
//     within backdropDE of it, and what a gentle flood reaches from there
//     (a graded backdrop, not hair's grained strands), is left out.
//  2. Skin candidates: a hue and chroma every human skin tone falls in
//     (h_ab skinHueMin–skinHueMax°, chroma skinChromaMin–skinChromaMax,
//     L* over skinLMin) — from very dark to very light skin, but not a
//     grey, white or black (white hair, a white wall, a black top).
//  3. The face: the skin tone the candidates centre on (skinSeeds), then
//     the largest connected region of candidates within FaceDE of it
//     (a hair or a top of a skin-like hue is not the face), holding two
//     eyes with whites and a mouth (isFace, eyes.go).

// The rules' bounds.
const (
	// Side is the long side of the copy a photo is read at.
	Side           = 512
	backdropDE     = 5
	FaceDE         = 14
	skinHueMin     = 18
	skinHueMax     = 88
	skinChromaMin  = 7
	skinChromaMax  = 60
	skinLMin       = 12
	MinPixels      = 150
	trimPercentile = 0.15
	backdropStepDE = 1.5
	backdropSpanDE = 25
	// StrandGrain is the grain (Grain, L* units) from which a pixel shows
	// fine texture — hair's strands — rather than a smooth backdrop, cloth
	// or skin.
	StrandGrain = 1.4
)

// Found is a face found on the copy read at Side: the copy's CIELAB
// pixels (W × H) and backdrop, the face's pixels, its head's box (cut to
// a head's height) and the box of its own pixels.
type Found struct {
	W, H int
	Lab  []colour.Lab
	// Grain is each pixel's grain (see Grain).
	Grain []float64
	Back  []bool
	// Face are the face's pixels (indices into Lab), Head the head's box
	// the eyes and mouth were found in, Box the face pixels' box.
	Face      []int
	Head, Box image.Rectangle
	// Scale is the copy's pixels per pixel of the image read.
	Scale float64
}

// Find finds the face of p read at Side; false when it shows none.
func Find(p image.Image) (Found, bool) {
	img := imaging.Fit(p, Side, Side, imaging.Box)
	W, H := img.Rect.Dx(), img.Rect.Dy()
	bg := colour.LabOf(BorderColour(img))
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
	grain := Grain(lab, W, H)
	floodBackdrop(back, lab, grain, bg, W, H)
	cand := make([]bool, W*H)
	for i := range cand {
		cand[i] = !back[i] && IsSkinLab(lab[i])
	}
	for _, c := range skinSeeds(cand, lab, W, H) {
		if face, head, found := faceOf(cand, lab, c, W, H); found {
			face, box := refineFace(cand, lab, face, head, W, H)
			return Found{W: W, H: H, Lab: lab, Grain: grain, Back: back, Face: face, Head: head, Box: box,
				Scale: float64(W) / float64(max(1, p.Bounds().Dx()))}, true
		}
	}
	return Found{}, false
}

// IsSkinLab is the skin-candidate rule.
func IsSkinLab(c colour.Lab) bool {
	h, ch := c.Hue(), c.Chroma()
	return c.L >= skinLMin && ch >= skinChromaMin && ch <= skinChromaMax && h >= skinHueMin && h <= skinHueMax
}

// floodBackdrop widens back (the pixels near the border's colour bg) to
// everything reached from them by steps under backdropStepDE and within
// backdropSpanDE of bg: a graded or vignetted backdrop, not only its
// median colour. Hair or a top of another colour stops it, and it takes
// no skin-coloured pixel (a beige wall as light as the face) and no pixel
// of StrandGrain or more (white or grey hair's strands, which a smooth
// light backdrop would otherwise flood by their soft steps).
func floodBackdrop(back []bool, lab []colour.Lab, grain []float64, bg colour.Lab, W, H int) {
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
			if !back[j] && !IsSkinLab(lab[j]) && grain[j] < StrandGrain &&
				colour.DeltaE(lab[j], lab[i]) < backdropStepDE &&
				colour.DeltaE(lab[j], bg) < backdropSpanDE {
				back[j] = true
				stack = append(stack, j)
			}
		}
	}
}

// faceOf grows the face from a skin tone seed: the largest region of
// the candidates within FaceDE of it, its box cut to a face's height (a
// neck and shoulders in skin below it are not read), and
// whether it shows a face (isFace).
func faceOf(cand []bool, lab []colour.Lab, seed colour.Lab, W, H int) ([]int, image.Rectangle, bool) {
	near := make([]bool, len(cand))
	for i, c := range cand {
		near[i] = c && colour.DeltaE(lab[i], seed) < FaceDE
	}
	face := LargestRegion(near, W, H)
	if len(face) < MinPixels {
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
// weighted mean of the candidates within FaceDE of it. A hair, a top or a
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
				if w := max(weight[i], 1e-3); c && colour.DeltaE(lab[i], seed) < FaceDE {
					sum, tw = sum.Add(lab[i], w), tw+w
				}
			}
			if tw == 0 {
				break
			}
			seed = sum.Scale(1 / tw)
		}
		if !slices.ContainsFunc(seeds, func(s colour.Lab) bool { return colour.DeltaE(s, seed) < FaceDE/4 }) {
			seeds = append(seeds, seed)
		}
	}
	return seeds
}

// LargestRegion is the largest 4-connected region of set, as indices.
func LargestRegion(set []bool, W, H int) []int {
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

// MedianLab is the median of L*, a* and b* over the pixels between the
// trimPercentile and 1 − trimPercentile of L*.
func MedianLab(px []colour.Lab) colour.Lab {
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

// seedCells is how many histogram cells of each ranking skinSeeds tries.
const seedCells = 4

// refineFace reads the skin from the face's own middle: a face found
// from a seed that took in hair of a skin-like hue (brown hair beside
// light skin) is regrown from the median colour of the Cheeks and nose
// (the middle half of the head's width, 35–75 % of its height), and the
// largest region of candidates within FaceDE of that tone is the face.
// If that region is too small, the face found is kept.
func refineFace(cand []bool, lab []colour.Lab, face []int, head image.Rectangle, W, H int) ([]int, image.Rectangle) {
	mid := Cheeks(head)
	var px []colour.Lab
	for _, i := range face {
		if image.Pt(i%W, i/W).In(mid) {
			px = append(px, lab[i])
		}
	}
	if len(px) == 0 {
		return face, PixelBox(face, W, H)
	}
	tone := MedianLab(px)
	near := make([]bool, len(cand))
	for i, c := range cand {
		near[i] = c && colour.DeltaE(lab[i], tone) < FaceDE
	}
	if own := LargestRegion(near, W, H); len(own) >= MinPixels {
		face = own
	}
	return face, PixelBox(face, W, H)
}

// Cheeks is the middle of a head's box, where its skin is read: the
// middle half of its width, 35–75 % of its height (Cheeks and nose, no
// hair, no brows).
func Cheeks(head image.Rectangle) image.Rectangle {
	return image.Rect(head.Min.X+head.Dx()/4, head.Min.Y+head.Dy()*35/100, head.Max.X-head.Dx()/4,
		head.Min.Y+head.Dy()*75/100)
}

// PixelBox is the bounding box of pixels (indices, W wide).
func PixelBox(px []int, W, H int) image.Rectangle {
	box := image.Rectangle{Min: image.Pt(W, H)}
	for _, i := range px {
		x, y := i%W, i/W
		box.Min.X, box.Min.Y = min(box.Min.X, x), min(box.Min.Y, y)
		box.Max.X, box.Max.Y = max(box.Max.X, x+1), max(box.Max.Y, y+1)
	}
	return box
}

// BorderColour is the median colour of an image's border, by channel.
func BorderColour(img *image.NRGBA) color.NRGBA {
	var rs, gs, bs []int
	b := img.Rect
	add := func(x, y int) {
		o := img.PixOffset(x, y)
		rs, gs, bs = append(rs, int(img.Pix[o])), append(gs, int(img.Pix[o+1])), append(bs, int(img.Pix[o+2]))
	}
	for x := b.Min.X; x < b.Max.X; x++ {
		add(x, b.Min.Y)
		add(x, b.Max.Y-1)
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		add(b.Min.X, y)
		add(b.Max.X-1, y)
	}
	return color.NRGBA{uint8(medianInt(rs)), uint8(medianInt(gs)), uint8(medianInt(bs)), 255}
}

// Grain is each pixel's grain: over the 5 × 5 pixels around it, how far
// L* goes up and down along each row and column beyond its net change
// from end to end, per step (in L* units). Strands of hair go up and down
// every few pixels; a single edge (a cap's brim, a face's outline) or a
// smooth gradient goes one way and has no grain.
func Grain(lab []colour.Lab, W, H int) []float64 {
	// rows[y*W+x] is the sum of |ΔL*| from (0, y) to (x, y); cols likewise down.
	rows, cols := make([]float64, W*H), make([]float64, W*H)
	for y := range H {
		for x := range W {
			i := y*W + x
			if x > 0 {
				rows[i] = rows[i-1] + math.Abs(lab[i].L-lab[i-1].L)
			}
			if y > 0 {
				cols[i] = cols[i-W] + math.Abs(lab[i].L-lab[i-W].L)
			}
		}
	}
	out := make([]float64, W*H)
	for y := range H {
		for x := range W {
			x0, y0, x1, y1 := max(0, x-2), max(0, y-2), min(W-1, x+2), min(H-1, y+2)
			sum, steps := 0.0, 0
			for v := y0; v <= y1; v++ {
				a, b := v*W+x0, v*W+x1
				sum += rows[b] - rows[a] - math.Abs(lab[b].L-lab[a].L)
				steps += x1 - x0
			}
			for u := x0; u <= x1; u++ {
				a, b := y0*W+u, y1*W+u
				sum += cols[b] - cols[a] - math.Abs(lab[b].L-lab[a].L)
				steps += y1 - y0
			}
			out[y*W+x] = sum / float64(max(1, steps))
		}
	}
	return out
}

func medianInt(v []int) int {
	counts := [256]int{}
	for _, x := range v {
		counts[x]++
	}
	seen := 0
	for i, c := range counts {
		if seen += c; seen*2 > len(v) {
			return i
		}
	}
	return 0
}
