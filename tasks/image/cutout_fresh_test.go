package image

import (
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The fresh held-out set: a third half of the varied light set, drawn for
// issue 46's second round before the cut-out was worked on again, and
// never looked at while it was — measured once before and once after.
// Its shots are of the kinds the hidden set measures, with other
// shapes, sizes, lights, backdrops and JPEG qualities than the other
// sets: white on white with a faint rim (10 to 14 levels), light on
// light, drawings with white fills inside outlines, clear glass, JPEG at
// quality 70 to 90, products off the centre and touching the frame.

// freshScenes is the fresh held-out set.
func freshScenes() []scene {
	var out []scene
	// A white bowl on a white sweep, a rim 12 levels down, JPEG 80.
	bowl := union(and(ellipse(120, 120, 70, 55), func(x, y float64) bool { return y >= 120 }),
		ellipse(120, 120, 70, 12))
	out = append(out, scene{name: "f_bowl_white_q80", w: 240, h: 220, jpeg: true, quality: 80, noise: 1.1,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{237, 237, 238}, 220),
		parts: []part{{in: grown(bowl, 1.3), col: flat(rgbf{236, 236, 237})},
			{in: bowl, col: litWhite(rgbf{249, 249, 248}, 50, 190, 0.13, 0.004), light: true}},
		shadow: softShadow(120, 176, 55, 5, 0.3, 4)})
	// A light beige vase on a light grey backdrop, no rim: only its
	// shading and colour tell it (light on light), PNG.
	vase := union(ellipse(120, 150, 45, 55), rect(105, 50, 135, 110), ellipse(120, 50, 18, 5))
	out = append(out, scene{name: "f_vase_beige_lightgrey", w: 240, h: 240, noise: 1.2,
		backdrop: vignette(rgbf{226, 226, 228}, 240, 240, 0.1),
		parts:    []part{{in: vase, col: shaded(rgbf{232, 220, 200}, 75, 165, 0.01), light: true}},
		shadow:   softShadow(122, 204, 40, 5, 0.3, 3)})
	// A drawn fish on white: a white body and eye inside black outlines, a
	// blue tail; JPEG 85.
	fish := ellipse(110, 115, 60, 35)
	tail := func(x, y float64) bool { return x >= 165 && x < 205 && math.Abs(y-115) < (x-160)*0.8 }
	eye := ellipse(80, 105, 9, 9)
	ink, paper := rgbf{18, 18, 20}, rgbf{255, 255, 255}
	out = append(out, scene{name: "f_drawn_fish_q85", w: 240, h: 230, jpeg: true, quality: 85,
		backdrop: plain(paper),
		parts: []part{{in: grown(union(fish, tail), 2.5), col: flat(ink)},
			{in: fish, col: flat(paper), light: true}, {in: tail, col: flat(rgbf{50, 110, 210})},
			{in: grown(eye, 2), col: flat(ink)}, {in: eye, col: flat(paper), light: true},
			{in: ellipse(82, 106, 3, 3), col: flat(ink)}}})
	// A clear glass bottle on a mid grey sweep with a white cap, JPEG 85.
	bg := sweep(rgbf{205, 205, 207}, rgbf{185, 185, 188}, 240)
	out = append(out, scene{name: "f_glass_clear_grey_q85", w: 240, h: 240, backdrop: bg, noise: 1.3,
		jpeg: true, quality: 85,
		parts: []part{{in: bottle(125, 45, 20, 60, 105, 205), col: glassOver(bg, rgbf{0.93, 0.96, 0.95}, 125, 30, 110)},
			{in: rect(114, 36, 136, 46), col: flat(rgbf{245, 245, 245})}},
		shadow: softShadow(125, 206, 34, 4, 0.3, 3)})
	// A white mug off the centre, handle right, on a very light grey, a rim
	// 14 levels down, JPEG 70.
	mug, mugHole := mugWithHole(30, 100, 95, 180, 1)
	out = append(out, scene{name: "f_mug_offcentre_q70", w: 260, h: 240, jpeg: true, quality: 70,
		backdrop: sweep(rgbf{244, 244, 245}, rgbf{232, 232, 234}, 240), hole: mugHole, noise: 1.2,
		parts: []part{{in: grown(mug, 1.3), col: flat(rgbf{230, 230, 232})},
			{in: mug, col: litWhite(rgbf{250, 250, 249}, 30, 110, 0.12, 0.004), light: true}},
		shadow: softShadow(65, 181, 38, 5, 0.3, 3)})
	// A white box touching the frame's top on a white sweep: a lit front,
	// a shaded side, a seam 16 levels down between them, JPEG 90.
	front, side := rect(60, 0, 150, 170), rect(150, 0, 190, 160)
	out = append(out, scene{name: "f_box_touching_top_q90", w: 240, h: 220, jpeg: true, quality: 90, noise: 1,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{240, 240, 241}, 220),
		parts: []part{{in: grown(union(front, side), 1.2), col: flat(rgbf{234, 234, 235})},
			{in: front, col: litWhite(rgbf{251, 251, 250}, 60, 150, 0.04, 0.004), light: true},
			{in: side, col: flat(rgbf{226, 226, 228})}, {in: rect(149, 0, 151, 160), col: flat(rgbf{222, 222, 224})}},
		shadow: softShadow(125, 172, 70, 5, 0.3, 4)})
	// A five-panel beach ball on light grey, lit from the top right, JPEG 75.
	cols := []rgbf{{248, 248, 247}, {220, 40, 60}, {248, 248, 247}, {30, 150, 90}, {250, 190, 40}}
	out = append(out, scene{name: "f_ball5_lightgrey_q75", w: 240, h: 240, jpeg: true, quality: 75, noise: 1.3,
		backdrop: vignette(rgbf{220, 220, 222}, 240, 240, 0.12),
		parts:    ball(125, 110, 60, 160, 70, cols, func(k int) bool { return k == 0 || k == 2 }),
		shadow:   softShadow(127, 170, 45, 5, 0.35, 4)})
	// A pale blue shirt on white, a hem 10 levels down, JPEG 80.
	shirt := union(rect(85, 60, 165, 205),
		func(x, y float64) bool { return y >= 60 && y < 100 && math.Abs(x-125) < 72-(y-60)*0.4 })
	out = append(out, scene{name: "f_shirt_paleblue_q80", w: 250, h: 240, jpeg: true, quality: 80, noise: 1,
		backdrop: plain(rgbf{249, 249, 249}),
		parts: []part{{in: grown(shirt, 1.2), col: flat(rgbf{225, 230, 238})},
			{in: shirt, col: litWhite(rgbf{235, 240, 250}, 50, 200, 0.1, 0.008), light: true}},
		shadow: softShadow(125, 206, 60, 6, 0.2, 5)})
	// A cream cup on a cream backdrop, a rim 11 levels down, PNG.
	cup, cupHole := mugWithHole(90, 90, 150, 165, -1)
	out = append(out, scene{name: "f_cup_cream_on_cream", w: 240, h: 240, noise: 1,
		backdrop: sweep(rgbf{246, 240, 228}, rgbf{236, 230, 218}, 240), hole: cupHole,
		parts: []part{{in: grown(cup, 1.3), col: flat(rgbf{233, 226, 213})},
			{in: cup, col: litWhite(rgbf{250, 245, 235}, 90, 160, 0.1, 0.004), light: true}},
		shadow: softShadow(120, 166, 36, 5, 0.3, 3)})
	return out
}

// BenchmarkCutoutVariedFresh prints the fresh held-out set's figures:
// go test -run '^$' -bench CutoutVariedFresh ./tasks/image
// (CUTOUT_DIR=/some/dir writes the inputs and the cut-outs beside them).
func BenchmarkCutoutVariedFresh(b *testing.B) {
	var f lightFigures
	for range b.N {
		f = measureScenes(b, freshScenes(), os.Getenv("CUTOUT_DIR"))
	}
	for _, s := range freshScenes() {
		if sc, ok := f.scores[s.name]; ok {
			b.Logf("%-26s IoU %.4f light %.3f hole %.3f", s.name, sc.iou, sc.light, sc.hole)
		}
	}
	for _, e := range f.failed {
		b.Logf("failed: %s", e)
	}
	b.ReportMetric(f.meanIoU, "freshMeanIoU")
	b.ReportMetric(f.minIoU, "freshMinIoU")
	b.ReportMetric(f.light, "freshLight")
	b.ReportMetric(f.hole, "freshHole")
}

// freshShort are the fresh set's images under the 0.93, held at
// floors a little under what they score, and freshHoles those whose
// enclosed backdrop is over its 0.05; the docs' limitations name them.
// Before the second round the set scored a mean IoU of 0.741 (a white
// bowl and a pale blue shirt lost whole: 0.000 and 0.014), light parts
// 0.729; after it 0.964, lowest 0.910 (a cream cup on cream, its
// handle's hole kept at 0.13), light parts 0.996; after the outline
// refinement (cutrefine.go) 0.974, lowest 0.953, holes 0.000.
var (
	freshShort = map[string]float64{}
	freshHoles = map[string]float64{}
)

// TestCutoutKeepsFreshLightProducts holds the fresh held-out set to its
// measured figures: the 0.93 per image but for freshShort.
func TestCutoutKeepsFreshLightProducts(t *testing.T) {
	f := measureScenes(t, freshScenes(), "")
	require.Empty(t, f.failed)
	for name, s := range f.scores {
		floor, short := freshShort[name]
		if !short {
			floor = 0.93
		}
		require.GreaterOrEqual(t, s.iou, floor, "%s: IoU of alpha ≥ 0.5", name)
		holes, over := freshHoles[name]
		if !over {
			holes = 0.05
		}
		if s.hasHole {
			require.LessOrEqual(t, s.hole, holes, "%s: enclosed backdrop's alpha", name)
		}
	}
	require.GreaterOrEqual(t, f.meanIoU, 0.97, "mean IoU")
	require.GreaterOrEqual(t, f.light, 0.98, "light parts' mean alpha")
	require.LessOrEqual(t, f.hole, 0.01, "enclosed backdrop's mean alpha")
}
