package image

import (
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The ribbon set: six shots drawn for issue 46's third round, before the
// cut-out's outline refinement (cutrefine.go) was written, and measured
// before and after it: white on white with a faint rim at JPEG 75, light
// on light, a drawing with white fills, a holed product in low contrast
// (a pair of scissors' handles), a product off the centre and one
// touching the frame.

// ribbonScenes is the ribbon set.
func ribbonScenes() []scene {
	var out []scene
	// A white cup with a handle on a white sweep, a rim 10 levels down,
	// lit from the right, JPEG 75.
	cup, cupHole := mugWithHole(70, 95, 140, 175, 1)
	out = append(out, scene{name: "s_cup_white_faint_q75", w: 250, h: 240, jpeg: true, quality: 75, noise: 1.1,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{239, 239, 240}, 240), hole: cupHole,
		parts: []part{{in: grown(cup, 1.4), col: flat(rgbf{233, 233, 234})},
			{in: cup, col: litWhite(rgbf{251, 251, 250}, 160, 70, 0.11, 0.004), light: true}},
		shadow: softShadow(105, 176, 40, 5, 0.3, 3)})
	// A pale grey soap bottle with a pump on a light warm grey backdrop,
	// no rim: its shading and its cooler hue tell it, PNG.
	soap := union(ellipse(125, 160, 42, 50), rect(95, 100, 155, 160), rect(117, 70, 133, 100))
	out = append(out, scene{name: "s_soap_light_on_light", w: 250, h: 240, noise: 1.2,
		backdrop: vignette(rgbf{228, 225, 220}, 250, 240, 0.08),
		parts: []part{{in: soap, col: shaded(rgbf{222, 226, 232}, 85, 170, 0.01), light: true},
			{in: rect(110, 60, 140, 72), col: flat(rgbf{245, 245, 246}), light: true},
			{in: rect(108, 58, 142, 60), col: flat(rgbf{200, 200, 204})}},
		shadow: softShadow(127, 208, 40, 5, 0.3, 3)})
	// A drawn cloud with a white fill and a white speech bubble inside
	// black outlines, a yellow sun; JPEG 80.
	ink, paper := rgbf{15, 15, 18}, rgbf{255, 255, 255}
	cloud := union(ellipse(100, 130, 45, 28), ellipse(135, 115, 35, 30), ellipse(160, 135, 30, 22))
	bubble := ellipse(70, 70, 30, 18)
	sun := ellipse(185, 70, 20, 20)
	out = append(out, scene{name: "s_drawn_cloud_q80", w: 240, h: 220, jpeg: true, quality: 80,
		backdrop: plain(paper),
		parts: []part{{in: grown(union(cloud, bubble, sun), 2.5), col: flat(ink)},
			{in: cloud, col: flat(paper), light: true}, {in: bubble, col: flat(paper), light: true},
			{in: sun, col: flat(rgbf{250, 200, 40})}, {in: rect(62, 66, 80, 69), col: flat(ink)},
			{in: rect(62, 73, 76, 76), col: flat(ink)}}})
	// A pair of scissors' light grey handles, two rings with holes, on a
	// pale grey sweep: low contrast, JPEG 85.
	handles := union(ring(95, 150, 14, 22), ring(150, 150, 14, 22),
		func(x, y float64) bool { return y >= 40 && y < 132 && math.Abs(x-122.5-(y-132)*0.05) < 5 })
	holes := union(ellipse(95, 150, 14, 14), ellipse(150, 150, 14, 14))
	out = append(out, scene{name: "s_scissors_holes_q85", w: 240, h: 220, jpeg: true, quality: 85, noise: 1.1,
		backdrop: sweep(rgbf{236, 236, 238}, rgbf{224, 224, 227}, 220), hole: holes,
		parts: []part{{in: grown(handles, 1.2), col: flat(rgbf{200, 200, 204})},
			{in: handles, col: shaded(rgbf{218, 219, 224}, 70, 175, 0.01), light: true}},
		shadow: softShadow(122, 176, 45, 4, 0.2, 3)})
	// A white vase off the centre (bottom left) on a light grey vignette,
	// a rim 13 to 22 levels down, JPEG 80.
	vase := union(ellipse(60, 170, 32, 38), rect(48, 105, 72, 150), ellipse(60, 105, 16, 5))
	out = append(out, scene{name: "s_vase_offcentre_q80", w: 240, h: 240, jpeg: true, quality: 80, noise: 1.2,
		backdrop: vignette(rgbf{232, 232, 233}, 240, 240, 0.1),
		parts: []part{{in: grown(vase, 1.3), col: flat(rgbf{210, 210, 211})},
			{in: vase, col: litWhite(rgbf{250, 250, 249}, 30, 95, 0.12, 0.004), light: true}},
		shadow: softShadow(62, 207, 30, 4, 0.3, 3)})
	// A white jar touching the frame's right edge on a white sweep, a rim
	// 11 levels down, JPEG 90.
	jar := union(rect(160, 90, 240, 190), rect(168, 75, 240, 90))
	out = append(out, scene{name: "s_jar_touching_right_q90", w: 240, h: 240, jpeg: true, quality: 90, noise: 1,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{240, 240, 241}, 240),
		parts: []part{{in: grown(jar, 1.3), col: flat(rgbf{236, 236, 237})},
			{in: jar, col: litWhite(rgbf{251, 251, 250}, 240, 160, 0.1, 0.004), light: true}},
		shadow: softShadow(200, 191, 45, 5, 0.3, 3)})
	return out
}

// BenchmarkCutoutRibbon prints the ribbon set's figures: go test -run '^$'
// -bench CutoutRibbon ./tasks/image (CUTOUT_DIR=/some/dir writes the
// inputs and the cut-outs beside them).
func BenchmarkCutoutRibbon(b *testing.B) {
	var f lightFigures
	for range b.N {
		f = measureScenes(b, ribbonScenes(), os.Getenv("CUTOUT_DIR"))
	}
	for _, s := range ribbonScenes() {
		if sc, ok := f.scores[s.name]; ok {
			b.Logf("%-26s IoU %.4f light %.3f hole %.3f", s.name, sc.iou, sc.light, sc.hole)
		}
	}
	for _, e := range f.failed {
		b.Logf("failed: %s", e)
	}
	b.ReportMetric(f.meanIoU, "ribbonMeanIoU")
	b.ReportMetric(f.minIoU, "ribbonMinIoU")
	b.ReportMetric(f.light, "ribbonLight")
	b.ReportMetric(f.hole, "ribbonHole")
}

// ribbonShort are the ribbon set's images under the 0.93, held at
// floors a little under what they score; the docs' limitations name them.
// Before the outline refinement and the ribbon the set scored a mean IoU
// of 0.743 (lowest 0.102: the scissors, lost whole but a lit arc), its
// holes 0.112; after them 0.850 (lowest 0.568), holes 0.019; after the
// third flood that keeps a light body behind a broken outline (branch
// whiteshade) 0.946 (lowest 0.860; the soap bottle 0.573 → 0.969).
var ribbonShort = map[string]float64{
	"s_scissors_holes_q85": 0.84, // a part of the lit ring's shaded half is lost, a sliver of shadow kept
	"s_vase_offcentre_q80": 0.89, // a pixel of its lit side lost, a shadow's tail kept
}

// TestCutoutKeepsTheRibbonSet holds the ribbon set to its measured figures:
// the 0.93 per image but for ribbonShort, holes at 0.05 or less.
func TestCutoutKeepsTheRibbonSet(t *testing.T) {
	f := measureScenes(t, ribbonScenes(), "")
	require.Empty(t, f.failed)
	for name, s := range f.scores {
		floor, short := ribbonShort[name]
		if !short {
			floor = 0.93
		}
		require.GreaterOrEqual(t, s.iou, floor, "%s: IoU of alpha ≥ 0.5", name)
		if s.hasHole {
			require.LessOrEqual(t, s.hole, 0.05, "%s: enclosed backdrop's alpha", name)
		}
	}
	require.GreaterOrEqual(t, f.meanIoU, 0.93, "mean IoU")
	require.LessOrEqual(t, f.hole, 0.03, "enclosed backdrop's mean alpha")
}
