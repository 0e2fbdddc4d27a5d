package image

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The turned glass set: clear glass bodies of revolution (a tumbler, a
// wine glass, a carafe, a vase) whose middle is as pale as the backdrop
// behind, so only their two mirrored walls show (cutturned.go), drawn with
// a known alpha through the fifth set's camera; and a silver hoop, whose
// two sides mirror each other too but whose middle is a hole, not glass.

// turnedShots is the turned glass set.
func turnedShots() []shot {
	clear, edge := rgbf{238, 242, 246}, rgbf{118, 124, 130}
	var out []shot
	// A clear tumbler on a flat off-white card (no gradient to read a
	// slope from): walls 0.12 opaque in the middle, 0.75 at the sides, an
	// open rim seen a little from above, a thick base; a soft contact
	// shadow. JPEG 85.
	half := func(y float64) float64 { return 40 - 6*(y-80)/150 }
	tumbler := func(x, y float64) bool { return y >= 80 && y < 230 && math.Abs(x-120) < half(y) }
	rim := without(ellipse(120, 80, 40, 7), ellipse(120, 80, 37.5, 5.4))
	out = append(out, shot{scene: scene{name: "tg_tumbler_flat_card_q85", w: 240, h: 270, scale: 2,
		backdrop: plain(rgbf{244, 243, 240}),
		parts: []part{glassRows(union(tumbler, ellipse(120, 80, 40, 7)), 120, clear, edge, 0.12, 0.75),
			{in: rim, col: flat(rgbf{160, 164, 168}), alpha: func(x, y float64) float64 { return 0.6 }},
			{in: rect(86, 220, 154, 230), col: flat(rgbf{200, 206, 210}), alpha: func(x, y float64) float64 { return 0.6 }},
			highlight(tumbler, 100)},
		shadow: softShadow(120, 231, 36, 3, 0.3, 2)},
		cam: camera{defocus: 1.2, vignette: 0.08, luma: 1.8, chroma: 1, read: 1, quality: 85}, glass: true})

	// A clear wine glass on a pale grey sweep graded 20 levels: a bowl open
	// at its lip, a stem and a foot. PNG.
	bowl := and(ellipse(120, 100, 44, 52), func(x, y float64) bool { return y >= 60 })
	out = append(out, shot{scene: scene{name: "tg_wineglass_palegrey_png", w: 240, h: 260, scale: 2,
		backdrop: sweep(rgbf{240, 240, 242}, rgbf{220, 220, 223}, 260),
		parts: []part{glassRows(bowl, 120, clear, edge, 0.12, 0.8), highlight(bowl, 98),
			{in: union(rect(117, 150, 123, 214), ellipse(120, 215, 34, 4)), col: flat(rgbf{226, 230, 234}),
				alpha: func(x, y float64) float64 { return 0.6 }}},
		shadow: softShadow(120, 216, 36, 3, 0.2, 2)},
		cam: camera{defocus: 1.1, vignette: 0.06, luma: 1.6, chroma: 1, read: 0.8}, glass: true})

	// A clear carafe on a warm pale sweep: a round belly, a tapering neck
	// with a lip. JPEG 80.
	carafeHalf := func(y float64) float64 {
		switch {
		case y < 70:
			return 16
		case y < 140:
			t := (y - 70) / 70
			return 16 + 38*t*t*(3-2*t)
		}
		return 54 - 10*math.Pow((y-140)/100, 3)
	}
	carafe := func(x, y float64) bool { return y >= 40 && y < 240 && math.Abs(x-130) < carafeHalf(y) }
	out = append(out, shot{scene: scene{name: "tg_carafe_warm_q80", w: 260, h: 280, scale: 2,
		backdrop: sweep(rgbf{246, 242, 236}, rgbf{230, 224, 214}, 280),
		parts: []part{glassRows(carafe, 130, rgbf{240, 240, 238}, rgbf{126, 122, 116}, 0.15, 0.8),
			highlight(carafe, 112)},
		shadow: softShadow(130, 241, 42, 3, 0.25, 2)},
		cam: camera{defocus: 1.3, vignette: 0.1, luma: 2, chroma: 1.2, read: 1, quality: 80}, glass: true})

	// A clear cylinder vase off the centre on a cool white sweep. JPEG 90.
	vase := union(rect(64, 70, 124, 236), ellipse(94, 236, 30, 4))
	out = append(out, shot{scene: scene{name: "tg_vase_offcentre_q90", w: 260, h: 270, scale: 2,
		backdrop: sweep(rgbf{250, 251, 252}, rgbf{232, 234, 238}, 270),
		parts: []part{glassRows(vase, 94, clear, edge, 0.1, 0.75), highlight(vase, 80),
			{in: without(ellipse(94, 70, 30, 5), ellipse(94, 70, 28, 3.6)), col: flat(rgbf{170, 174, 178}),
				alpha: func(x, y float64) float64 { return 0.6 }}},
		shadow: softShadow(94, 237, 32, 3, 0.25, 2)},
		cam: camera{defocus: 1.2, vignette: 0.08, luma: 1.8, chroma: 1, read: 1, quality: 90}, glass: true})

	// A brushed silver hoop on a pale grey sweep: its two sides mirror each
	// other, but its middle is a hole that must stay one. JPEG 85.
	hoop := ring(130, 130, 70, 78)
	out = append(out, shot{scene: scene{name: "tg_hoop_silver_q85", w: 260, h: 260, scale: 2,
		backdrop: sweep(rgbf{236, 236, 238}, rgbf{214, 214, 217}, 260),
		parts: []part{{in: hoop, col: func(x, y float64) rgbf {
			v := 170 + 40*math.Sin(math.Atan2(y-130, x-130))
			return rgbf{v, v + 1, v + 3}
		}}},
		hole: ellipse(130, 130, 68, 68), shadow: softShadow(132, 210, 60, 3, 0.15, 3)},
		cam: camera{defocus: 1.2, vignette: 0.08, luma: 1.8, chroma: 1, read: 1, quality: 85}})
	return out
}

// turnedFloors are the turned set's floors from one run with the turned
// body's fill (cutturned.go): IoU (the silhouette's for glass) 0.02 under,
// glass alpha error 0.03 over, the hoop's hole kept at most 0.03 (it is
// 0: the fill leaves it, its walls do not fade as glass's do). The hoop's
// low IoU is its light lower arc lost on the pale sweep, not this stage.
var turnedFloors = map[string]fifthFloor{
	"tg_tumbler_flat_card_q85":  {iou: 0.83, hole: 1, glassMAE: 0.15},
	"tg_wineglass_palegrey_png": {iou: 0.80, hole: 1, glassMAE: 0.24},
	"tg_carafe_warm_q80":        {iou: 0.85, hole: 1, glassMAE: 0.11},
	"tg_vase_offcentre_q90":     {iou: 0.89, hole: 1, glassMAE: 0.27},
	"tg_hoop_silver_q85":        {iou: 0.30, hole: 0.03},
}

// turnedMean is the set's mean IoU in that run (0.756), less 0.02.
const turnedMean = 0.73

// turnedSet is the turned set, as its floor test and benchmark read it.
var turnedSet = shotSet{
	name:   "turned",
	shots:  turnedShots,
	floors: turnedFloors,
	mean:   turnedMean,
}

// TestCutoutOnTheTurnedSet holds the turned glass set to its floors.
func TestCutoutOnTheTurnedSet(t *testing.T) {
	f := turnedSet.hold(t)
	for name, s := range f.scores {
		require.Empty(t, s.err, name)
	}
}

// BenchmarkCutoutTurned prints the turned set's figures: go test -run
// '^$' -bench CutoutTurned ./tasks/image (CUTOUT_DIR=/some/dir writes each
// input, its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutTurned(b *testing.B) {
	turnedSet.bench(b)
}
