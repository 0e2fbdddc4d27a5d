package image

import (
	"math"
	"math/bits"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// Cues that tell a subject from bright clutter, each a weight on a
// salient region's score (region.score):
//
//   - an outline: a body has a sharp edge round it, a glow (a floodlight's
//     halo, steam lit from below, a sky's glare) fades out — the share of
//     the region's rim within 2 px of a colour step of at least edgeMin ΔE
//     per pixel (objectness as a closed boundary: Alexe, Deselaers and
//     Ferrari, "Measuring the objectness of image windows", 2012);
//   - away from the frame: a region running along two sides of the
//     frame's border is backdrop, its boundary connectivity (border pixels over the square
//     root of its area; Zhu, Liang, Wei and Sun, "Saliency optimization
//     from robust background detection", CVPR 2014) weighing
//     exp(−bnd² / 2σ²) with σ = bndSigma;
//   - not a light: a region brighter than its surroundings whose
//     surroundings are themselves lit above the border (a lamp, a neon
//     tube, the sun, fairy lights, each with its halo) weighs lightWeight;
//   - not a band: a region spanning the frame one way and thin the other
//     (a horizon, a shelf's edge) weighs bandWeight.
const (
	edgeMin     = 12
	bndSigma    = 0.5
	lightHalo   = 5 // L the ring round a light is above the border's
	lightCore   = 8 // L a light is above its ring
	lightWeight = 0.1
	bandSpan    = 0.9
	bandThin    = 0.08
	bandWeight  = 0.1
)

// csWeight scales the centre-surround contrast against the border
// distance in a pixel's salience.
const csWeight = 0.5

// regionCues are one region's measures for those cues.
type regionCues struct {
	rim, sharpRim int     // rim pixels, and those by a sharp colour step
	border        int     // pixels on the frame's edge
	sides         uint8   // the frame's sides it touches, a bit each
	px            int     // pixels
	meanL, ringL  float64 // mean lightness inside, and in a ring 2 to 4 px out
	backL         float64 // the frame border's mean lightness
	band          bool
}

// weight is the product of the cues' weights.
func (c regionCues) weight() float64 {
	if c.px == 0 {
		return 1
	}
	w := 1.0
	if c.rim > 0 {
		w *= 0.15 + 0.85*float64(c.sharpRim)/float64(c.rim)
	}
	// A subject cut by one side (a torso by the bottom, a face filling
	// the frame) is not backdrop: only a region touching two sides is.
	if bits.OnesCount8(c.sides) >= 2 {
		bnd := float64(c.border) / math.Sqrt(float64(c.px))
		w *= math.Exp(-bnd * bnd / (2 * bndSigma * bndSigma))
	}
	if c.ringL-c.backL >= lightHalo && c.meanL-c.ringL >= lightCore {
		w *= lightWeight
	}
	if c.band {
		w *= bandWeight
	}
	return w
}

// measureCues fills each region's cues; label holds each pixel's region
// (its index + 1) or 0.
func (s saliency) measureCues(rs []region, label []int32) {
	W, H := s.w, s.h
	stamp, inner := make([]int32, W*H), make([]int32, W*H)
	sums := make([]struct{ l, ring, inner float64 }, len(rs))
	rings, inners := make([]int, len(rs)), make([]int, len(rs))
	for i, id := range label {
		if id == 0 {
			continue
		}
		x, y := i%W, i/W
		c := &rs[id-1].cues
		c.px++
		sums[id-1].l += s.rawL[i]
		if x == 0 || y == 0 || x == W-1 || y == H-1 {
			c.border++
			switch {
			case x == 0:
				c.sides |= 1
			case x == W-1:
				c.sides |= 2
			case y == 0:
				c.sides |= 4
			default:
				c.sides |= 8
			}
		}
		rim := false
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			nx, ny := x+d[0], y+d[1]
			if nx >= 0 && ny >= 0 && nx < W && ny < H && label[ny*W+nx] != id {
				rim = true
			}
		}
		if rim {
			c.rim++
			if s.edge[i] >= edgeMin {
				c.sharpRim++
			}
			// The ring: the pixels 2 to 4 px out (past the smoothing's
			// spread of the region's own colour), counted with their
			// unsmoothed lightness, those 1 px out taken away after.
			for dy := -4; dy <= 4; dy++ {
				for dx := -4; dx <= 4; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= W || ny >= H {
						continue
					}
					k := ny*W + nx
					if label[k] == id {
						continue
					}
					if near := dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1; near && inner[k] != id {
						inner[k] = id
						sums[id-1].inner += s.rawL[k]
						inners[id-1]++
					}
					if stamp[k] != id {
						stamp[k] = id
						sums[id-1].ring += s.rawL[k]
						rings[id-1]++
					}
				}
			}
		}
	}
	for i := range rs {
		c := &rs[i].cues
		if c.px == 0 {
			continue
		}
		c.backL = s.backL
		c.meanL = sums[i].l / float64(c.px)
		c.ringL = c.meanL
		if n := rings[i] - inners[i]; n > 0 {
			c.ringL = (sums[i].ring - sums[i].inner) / float64(n)
		}
		b := rs[i].box
		if b.Dx() >= int(bandSpan*float64(W)) && float64(c.px)/float64(b.Dx()) < bandThin*float64(H) ||
			b.Dy() >= int(bandSpan*float64(H)) && float64(c.px)/float64(b.Dy()) < bandThin*float64(W) {
			c.band = true
		}
	}
}

// edgeMap is, per pixel, the largest colour step (ΔE to the next pixel
// right or down) within 2 px: where an outline passes.
func edgeMap(lab []colour.Lab, W, H int) []float64 {
	step := make([]float64, W*H)
	for y := range H {
		for x := range W {
			i := y*W + x
			if x+1 < W {
				step[i] = math.Sqrt(lab[i].Dist2(lab[i+1]))
			}
			if y+1 < H {
				step[i] = max(step[i], math.Sqrt(lab[i].Dist2(lab[i+W])))
			}
		}
	}
	return maxFilter(step, W, H, 2)
}

// maxFilter is each pixel's largest value in its (2r+1)² neighbourhood.
func maxFilter(in []float64, W, H, r int) []float64 {
	tmp, out := make([]float64, W*H), make([]float64, W*H)
	for y := range H {
		for x := range W {
			m := 0.0
			for d := max(0, x-r); d <= min(W-1, x+r); d++ {
				m = max(m, in[y*W+d])
			}
			tmp[y*W+x] = m
		}
	}
	for y := range H {
		for x := range W {
			m := 0.0
			for d := max(0, y-r); d <= min(H-1, y+r); d++ {
				m = max(m, tmp[d*W+x])
			}
			out[y*W+x] = m
		}
	}
	return out
}

// centreSurround is each pixel's colour (smoothed only over 3 × 3)
// difference (ΔE) from its surround, the image blurred over about a
// 24th of its long side: the centre–surround contrast of Itti, Koch and Niebur ("A model of
// saliency-based visual attention for rapid scene analysis", 1998), on
// one scale, in Lab as Achanta et al. ("Frequency-tuned salient region
// detection", 2009) compare a smoothed pixel with a far smoother image.
func centreSurround(lab []colour.Lab, W, H int) []float64 {
	r := max(2, max(W, H)/24)
	centre := boxBlurLab(lab, W, H, 1) // 3 × 3: a gull's wing is a pixel or two thick here
	sur := boxBlurLab(boxBlurLab(boxBlurLab(lab, W, H, r), W, H, r), W, H, r)
	out := make([]float64, W*H)
	for i := range lab {
		out[i] = math.Sqrt(centre[i].Dist2(sur[i]))
	}
	return out
}
