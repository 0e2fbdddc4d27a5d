package image

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The frame cut set: products cut by the frame, running off one or two
// of its edges, on light and textured backdrops (white marble, light
// wood, linen, a grey sweep, cream, pink), and one control that does not
// touch the frame. The product's stretch of the border is not backdrop:
// it must be kept, not taken into the backdrop model nor dropped as
// backdrop joined to the frame.

// marble is a white marble backdrop: a faint cloud and grey veins that
// wander across the slab.
func marble(c rgbf, seed float64) func(x, y float64) rgbf {
	warp, cloud, fine := valueNoise(seed, 30), valueNoise(seed+1, 45), valueNoise(seed+2, 6)
	return func(x, y float64) rgbf {
		v := math.Abs(math.Sin(0.035*x + 0.02*y + 3*warp(x, y) + 0.6*fine(x, y)))
		vein := 0.1*math.Exp(-v/0.05) + 0.04*math.Exp(-v/0.2)
		k := 1 + 0.015*cloud(x, y) - vein
		return rgbf{c[0] * k, c[1] * k, c[2] * (k + 0.3*vein)}
	}
}

// toned is backdrop f with its texture brought to k of its depth round
// colour c: a paler wood.
func toned(f func(x, y float64) rgbf, c rgbf, k float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		v := f(x, y)
		return rgbf{c[0] + k*(v[0]-c[0]), c[1] + k*(v[1]-c[1]), c[2] + k*(v[2]-c[2])}
	}
}

// towelFolds is a folded towel's texture: a terry weave and the soft
// dark lines of its folds at the given rows.
func towelFolds(seed float64, rows ...float64) func(x, y float64) float64 {
	loop := valueNoise(seed, 1.2)
	return func(x, y float64) float64 {
		k := 0.02 * loop(x, y)
		for _, r := range rows {
			k -= 0.06 * math.Exp(-math.Pow((y-r)/2.5, 2))
		}
		return k
	}
}

// plateShade is a white plate seen from above: a flat well, a shallow
// slope round it darker on the side away from the light, a bright rim.
func plateShade(c rgbf, cx, cy, r float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		d := math.Hypot(x-cx, y-cy) / r
		k := 1.0
		if d > 0.62 && d < 0.8 {
			k -= 0.06 * (1 + (x-cx)/r) * math.Sin((d-0.62)/0.18*math.Pi)
		}
		if d > 0.95 {
			k -= 0.05
		}
		return rgbf{math.Min(255, c[0]*k), math.Min(255, c[1]*k), math.Min(255, c[2]*k)}
	}
}

// frameCutShots is the frame cut set.
func frameCutShots() []shot {
	var out []shot
	// An oatmeal folded towel on white marble, cut by the frame's bottom
	// edge, lit from the left; a soft shadow on the marble. JPEG 80.
	towel := roundRect(70, 110, 230, 300, 10)
	out = append(out, shot{scene: scene{name: "fc_towel_oat_marble_cut_bottom_q80", w: 300, h: 260,
		backdrop: marble(rgbf{244, 243, 240}, 501),
		parts: []part{{in: towel, col: rounded(rgbf{226, 216, 198}, 150, 80, -0.6, 0.08, towelFolds(511, 150, 200)),
			light: true}},
		shadow: boxShadow(62, 114, 240, 300, 0.14, 10)},
		cam: camera{defocus: 0.6, vignette: 0.08, luma: 2, chroma: 1.3, quality: 80}})

	// The same towel whole, not touching the frame: the control. JPEG 80.
	whole := roundRect(70, 60, 230, 200, 10)
	out = append(out, shot{scene: scene{name: "fc_towel_oat_marble_whole_q80", w: 300, h: 260,
		backdrop: marble(rgbf{244, 243, 240}, 501),
		parts: []part{{in: whole, col: rounded(rgbf{226, 216, 198}, 150, 80, -0.6, 0.08, towelFolds(511, 100, 150)),
			light: true}},
		shadow: boxShadow(62, 64, 240, 206, 0.14, 10)},
		cam: camera{defocus: 0.6, vignette: 0.08, luma: 2, chroma: 1.3, quality: 80}})

	// A white dinner plate seen from above on a light oak table, cut by
	// the frame's right edge; a faint shadow round it. JPEG 82.
	plate := ellipse(250, 130, 100, 100)
	out = append(out, shot{scene: scene{name: "fc_plate_white_oak_cut_right_q82", w: 300, h: 260,
		backdrop: toned(woodGrain(rgbf{230, 212, 184}, 60, 521), rgbf{230, 212, 184}, 0.4),
		parts:    []part{{in: plate, col: plateShade(rgbf{248, 248, 246}, 250, 130, 100), light: true}},
		shadow:   softShadow(246, 134, 104, 104, 0.15, 6)},
		cam: camera{defocus: 0.5, vignette: 0.08, luma: 2, chroma: 1.2, quality: 82}})

	// The same plate on a pale linen cloth, JPEG 72.
	out = append(out, shot{scene: scene{name: "fc_plate_white_linen_cut_right_q72", w: 300, h: 260,
		backdrop: linen(rgbf{232, 226, 214}, 260, 531),
		parts:    []part{{in: plate, col: plateShade(rgbf{248, 248, 246}, 250, 130, 100), light: true}},
		shadow:   softShadow(246, 134, 104, 104, 0.15, 6)},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 2.4, chroma: 1.6, quality: 72}})

	// A pale sage towel on a pink sweep, cut by the bottom and right
	// edges, lit from the left; a soft shadow. JPEG 76.
	sage := roundRect(130, 100, 330, 300, 12)
	out = append(out, shot{scene: scene{name: "fc_towel_sage_pink_cut_two_q76", w: 300, h: 260,
		backdrop: sweep(rgbf{244, 226, 226}, rgbf{232, 212, 212}, 260),
		parts: []part{{in: sage, col: rounded(rgbf{214, 226, 206}, 230, 100, -0.6, 0.08, towelFolds(541, 160)),
			light: true}},
		shadow: boxShadow(120, 104, 330, 300, 0.15, 10)},
		cam: camera{defocus: 0.7, vignette: 0.1, luma: 2.2, chroma: 1.5, quality: 76}})

	// A beech cutting board with a handle, cut by the frame's left edge,
	// on a grey sweep; a contact shadow. JPEG 84.
	board := union(roundRect(-40, 90, 190, 210, 14), roundRect(186, 134, 236, 166, 10))
	out = append(out, shot{scene: scene{name: "fc_board_beech_grey_cut_left_q84", w: 300, h: 260,
		backdrop: sweep(rgbf{214, 215, 217}, rgbf{196, 197, 200}, 260),
		parts: []part{
			{in: board, col: woodGrain(rgbf{214, 172, 120}, 400, 551)},
			{in: ellipse(214, 150, 6, 6), col: flat(rgbf{206, 207, 210})},
		},
		hole:   ellipse(214, 150, 6, 6),
		shadow: boxShadow(-40, 96, 240, 216, 0.25, 8)},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 2, chroma: 1.2, quality: 84}})

	// A white shirt's sleeve hanging from the frame's top edge on a cream
	// backdrop, a cuff at its end, a soft fold down its middle. JPEG 85.
	sleeve := quad([2]float64{110, -10}, [2]float64{200, -10}, [2]float64{186, 190}, [2]float64{126, 196})
	cuff := quad([2]float64{124, 190}, [2]float64{188, 184}, [2]float64{190, 220}, [2]float64{126, 226})
	fold := func(x, y float64) float64 { return -0.05 * math.Exp(-math.Pow((x-158+0.04*y)/5, 2)) }
	out = append(out, shot{scene: scene{name: "fc_sleeve_white_cream_cut_top_q85", w: 300, h: 260,
		backdrop: sweep(rgbf{246, 240, 226}, rgbf{236, 229, 214}, 260),
		parts: []part{
			{in: sleeve, col: rounded(rgbf{250, 250, 250}, 156, 46, -0.5, 0.1, fold), light: true},
			{in: cuff, col: rounded(rgbf{248, 248, 248}, 157, 33, -0.5, 0.1, none), light: true},
			{in: tube(126, 188, 188, 183, 0.8), col: flat(rgbf{214, 212, 208})},
		},
		shadow: shadows(softShadow(164, 130, 54, 110, 0.12, 8))},
		cam: camera{defocus: 0.5, vignette: 0.08, luma: 1.8, chroma: 1, quality: 85}})
	return out
}

// frameCutSet is the frame cut set, as its floor test reads it.
var frameCutSet = shotSet{
	name:   "framecut",
	shots:  frameCutShots,
	floors: frameCutFloors,
	mean:   frameCutMean,
}

// TestCutoutKeepsProductsCutByTheFrame holds the frame cut set to its
// floors: a product cut by the frame is kept up to the frame.
func TestCutoutKeepsProductsCutByTheFrame(t *testing.T) {
	frameCutSet.hold(t)
}

// frameCutFloors and frameCutMean are the set's figures from one run less
// a margin of 0.02. Before the frame's crossed stretches were left out of
// the backdrop fit (cutframe.go) and see-through bodies cut by the frame
// left opaque (crossesFrame): the sage towel cut by two edges 0.990 (its
// model pulled to sage), the white sleeve 0.882, the beech board 0.192
// (unmixed as glass), the others as now. After: the oat towel on marble
// 0.972, the plates on oak 0.998 and linen 0.986, the board 0.993, the
// sleeve 0.959; the sage towel cut by two edges 0.9996 (the confidence
// read on a fit of the whole border, as before: 0.69 on the fit that leaves
// the crossed stretches out, refused then); mean 0.941. The control, the
// towel whole on marble, is 0.683 both before and after: the marble's
// veins close regions the cut keeps and its soft shadow is kept (0.71; not
// a frame cut; cut_quality 0.68 does not flag it — left).
var (
	frameCutFloors = map[string]fifthFloor{
		"fc_towel_oat_marble_cut_bottom_q80": {iou: 0.95, light: 0.9, hole: 1, shadow: 0.05},
		"fc_towel_oat_marble_whole_q80":      {iou: 0.66, light: 0.6, hole: 1, shadow: 0.74},
		"fc_plate_white_oak_cut_right_q82":   {iou: 0.97, light: 0.95, hole: 1, shadow: 0.05},
		"fc_plate_white_linen_cut_right_q72": {iou: 0.96, light: 0.95, hole: 1, shadow: 0.05},
		"fc_towel_sage_pink_cut_two_q76":     {iou: 0.97, light: 0.97, hole: 1, shadow: 1},
		"fc_board_beech_grey_cut_left_q84":   {iou: 0.97, hole: 0.05, shadow: 0.05},
		"fc_sleeve_white_cream_cut_top_q85":  {iou: 0.93, light: 0.9, hole: 1, shadow: 0.11},
	}
	frameCutMean = 0.92
)

// TestCutQualityFlagsAFrameCrossingLeftOut: a cut that leaves out the
// part of a product running off the frame (dropped as backdrop joined to
// the frame) is flagged (under minCutQuality, its frame term over
// frameFree), while the truth's own cut is not flagged for the frame.
func TestCutQualityFlagsAFrameCrossingLeftOut(t *testing.T) {
	for _, s := range frameCutShots() {
		if !strings.Contains(s.name, "_cut_") {
			continue
		}
		tr := s.photograph()
		q := readCutQuality(tr.img, truthCut(tr, nil))
		require.Less(t, q.frame, frameFree, "%s: the truth keeps its frame crossing", s.name)
		w, h := float64(s.w), float64(s.h)
		qb := readCutQuality(tr.img, truthCut(tr, func(x, y float64) bool {
			return min(x, y, w-x, h-y) >= 30
		}))
		t.Logf("%-36s truth %.3f (frame %.3f), crossing left out %.3f (frame %.3f)", s.name, q.score, q.frame,
			qb.score, qb.frame)
		if !strings.Contains(s.name, "board") { // the board's grain is no even colour: not read as crossing
			require.Greater(t, qb.frame, frameFree, "%s: its crossing left out", s.name)
		}
		require.Less(t, qb.score, minCutQuality, "%s: flagged", s.name)
	}
}

// BenchmarkCutoutFrameCut prints the frame cut set's figures per shot: go test -run '^$'
// -bench CutoutFrameCut ./tasks/image.
func BenchmarkCutoutFrameCut(b *testing.B) {
	frameCutSet.bench(b)
}
