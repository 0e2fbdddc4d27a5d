package image

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The shine set: chrome and polished products, whose bands reflect the
// sweep, and hard cast shadows with a sharp edge, photographed by the
// fifth set's camera (cutout_fifth_render_test.go). It is the set the
// chrome and hard-shadow work was tuned on; the fifth and sixth sets
// measure how it carries over.

// chromeBands is a polished round body's reflection of a studio across
// [cx − half, cx + half]: the backdrop b at its grazing sides, dark
// reflections at the given positions (−1..1) and depths, a white one.
func chromeBands(b rgbf, cx, half float64, darks [][2]float64, white float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		e := math.Max(-1, math.Min(1, (x-cx)/half))
		v := 226.0
		for _, d := range darks {
			v -= d[1] * math.Exp(-math.Pow((e-d[0])/0.1, 2))
		}
		v += 28 * math.Exp(-math.Pow((e-white)/0.06, 2))
		s := math.Pow(math.Abs(e), 5) // the sweep at the sides
		return rgbf{v*(1-s) + b[0]*s, v*(1-s) + b[1]*s + 1, v*(1-s) + b[2]*s + 3}
	}
}

// shineShots is the shine set.
func shineShots() []shot {
	var out []shot
	// A chrome water bottle on a white sweep, a hard shadow falling right:
	// a cylinder of vertical bands (two dark, the sweep at its sides), a
	// black cap. JPEG 84.
	wb := rgbf{246, 246, 247}
	bottle := union(rect(100, 80, 160, 250), ellipse(130, 80, 30, 8), ellipse(130, 250, 30, 4))
	bottleShadow := quad([2]float64{130, 246}, [2]float64{160, 246}, [2]float64{300, 226}, [2]float64{250, 222})
	out = append(out, shot{scene: scene{name: "s_bottle_chrome_hard_white_q84", w: 300, h: 280,
		backdrop: sweep(wb, rgbf{232, 232, 234}, 280),
		parts: []part{{in: bottle, col: chromeBands(wb, 130, 30, [][2]float64{{-0.5, 120}, {0.6, 80}}, 0.1),
			light: true}, {in: union(rect(108, 50, 152, 78), ellipse(130, 50, 22, 5)), col: flat(rgbf{28, 28, 30})}},
		shadow: shadows(softShadow(130, 251, 34, 3, 0.45, 1.5), hardShadow(bottleShadow, 0.3))},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 2, chroma: 1.2, quality: 84}})

	// A chrome toaster on a light grey gradient, its body's front a flat
	// mirror of the sweep with a dark horizon band, black slots and feet;
	// a glossy floor mirrors it. JPEG 86.
	gb := sweep(rgbf{232, 233, 235}, rgbf{208, 209, 212}, 260)
	toasterBody := union(rect(70, 90, 230, 200), ellipse(70, 145, 14, 55), ellipse(230, 145, 14, 55))
	front := func(x, y float64) rgbf {
		b := gb(x, y)
		v := -95*math.Exp(-math.Pow((y-150)/9, 2)) + 20*math.Exp(-math.Pow((x-110)/5, 2))
		e := math.Abs(x-150) / 94
		v -= 60 * math.Pow(e, 8)
		return rgbf{b[0] + v, b[1] + v + 1, b[2] + v + 3}
	}
	toaster := []part{
		{in: toasterBody, col: front, light: true},
		{in: union(rect(100, 86, 140, 92), rect(160, 86, 200, 92)), col: flat(rgbf{25, 25, 27})},
		{in: union(rect(80, 200, 96, 208), rect(204, 200, 220, 208)), col: flat(rgbf{30, 30, 30})},
	}
	out = append(out, shot{scene: scene{name: "s_toaster_chrome_glossy_lgrey_q86", w: 300, h: 260,
		backdrop: glossy(gb, toaster, 208, 0.3, 18), parts: toaster,
		shadow: softShadow(150, 209, 80, 3, 0.4, 2)},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 1.8, chroma: 1, quality: 86}})

	// A chrome ball on warm white: its top half mirrors the sweep behind
	// the camera, a dark horizon band across its middle, the floor below
	// it darker; a hard contact shadow. JPEG 82.
	wwb := sweep(rgbf{248, 245, 238}, rgbf{236, 232, 224}, 260)
	ball := ellipse(150, 140, 62, 62)
	sphere := func(x, y float64) rgbf {
		dx, dy := (x-150)/62, (y-140)/62
		r := math.Min(1, math.Hypot(dx, dy))
		b := wwb(x, y)
		v := 0.0
		if dy > 0.05 {
			v = -60 - 30*dy
		}
		v -= 110 * math.Exp(-math.Pow((dy-0.05)/0.08, 2))
		v += 6*(1-r) - 50*math.Pow(r, 10)
		return rgbf{b[0] + v, b[1] + v, b[2] + v + 2}
	}
	out = append(out, shot{scene: scene{name: "s_ball_chrome_warmwhite_q82", w: 300, h: 260,
		backdrop: wwb, parts: []part{{in: ball, col: sphere, light: true}},
		shadow: shadows(softShadow(150, 203, 40, 3, 0.5, 1.5),
			hardShadow(ellipse(190, 205, 60, 8), 0.25))},
		cam: camera{defocus: 0.7, vignette: 0.14, luma: 2.2, chroma: 1.4, quality: 82}})

	// A white mug on a pale grey sweep with a hard shadow to the left,
	// lit from the right, its handle's hole showing the grey. JPEG 80.
	mugB := union(rect(120, 90, 200, 200), ellipse(160, 200, 40, 5))
	mugH := and(ring(200, 145, 16, 26), func(x, y float64) bool { return x > 196 })
	mugHole := and(ellipse(200, 145, 16, 16), func(x, y float64) bool { return x > 200 })
	mugShadow := quad([2]float64{120, 190}, [2]float64{122, 205}, [2]float64{20, 210}, [2]float64{30, 192})
	out = append(out, shot{scene: scene{name: "s_mug_white_hard_left_q80", w: 280, h: 240,
		backdrop: sweep(rgbf{236, 236, 238}, rgbf{222, 222, 225}, 240),
		parts: []part{{in: union(mugB, mugH), col: litWhite(rgbf{250, 250, 249}, 200, 110, 0.14, 0.003),
			light: true}},
		hole:   mugHole,
		shadow: shadows(softShadow(160, 205, 42, 3, 0.45, 1.5), hardShadow(mugShadow, 0.32))},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 2.2, chroma: 1.4, quality: 80}})

	// A charcoal speaker on a light grey sweep: a neutral dark grey body
	// (all of it in shadow tones) with a darker grey band at its foot (the
	// product's own dark part, in the backdrop's chromaticity, a flat band
	// on the floor), a hard shadow to the right. JPEG 85.
	spk := rect(100, 70, 190, 210)
	spkShadow := quad([2]float64{190, 200}, [2]float64{190, 214}, [2]float64{290, 206}, [2]float64{270, 196})
	speaker := []part{
		{in: spk, col: rounded(rgbf{120, 121, 123}, 145, 45, -0.5, 0.15, grain2(81, 0.01))},
		{in: rect(110, 90, 180, 160), col: flat(rgbf{92, 93, 95})},
		{in: rect(100, 196, 190, 210), col: flat(rgbf{84, 84, 86})},
	}
	out = append(out, shot{scene: scene{name: "s_speaker_grey_foot_hard_q85", w: 300, h: 240,
		backdrop: sweep(rgbf{232, 232, 233}, rgbf{218, 218, 220}, 240), parts: speaker,
		shadow: shadows(softShadow(145, 211, 50, 3, 0.45, 1.5), hardShadow(spkShadow, 0.3))},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 2, chroma: 1.2, quality: 85}})

	// A cream box on beige, a hard shadow falling down and right with a
	// straight edge. JPEG 78.
	boxF := rect(90, 90, 180, 190)
	boxShadowQ := quad([2]float64{180, 100}, [2]float64{236, 128}, [2]float64{236, 204}, [2]float64{180, 190})
	out = append(out, shot{scene: scene{name: "s_box_cream_hard_beige_q78", w: 280, h: 240,
		backdrop: sweep(rgbf{240, 232, 216}, rgbf{226, 216, 198}, 240),
		parts: []part{{in: boxF, col: rounded(rgbf{246, 238, 222}, 135, 45, -0.7, 0.08, grain2(91, 0.005)),
			light: true}},
		shadow: shadows(softShadow(135, 191, 48, 2.5, 0.4, 1.5), hardShadow(boxShadowQ, 0.26))},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2.2, chroma: 1.5, quality: 78}})
	return out
}

// BenchmarkCutoutShine prints the shine set's figures: go test -run '^$'
// -bench CutoutShine ./tasks/image (CUTOUT_DIR=/some/dir writes each
// input, its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutShine(b *testing.B) {
	shineSet.bench(b)
}

// shineFloors and shineMean are the shine set's figures after the hard
// shadow work less a margin (IoU 0.01 to 0.02 under, shadow kept 0.02 to
// 0.03 over). Before it: the white mug 0.567 (its hard shadow kept, 0.82),
// the cream box 0.373 (0.93), the charcoal speaker 0.896 (0.87). The
// chrome shots' figures guard their silhouettes against regressions: the
// toaster's sides and the ball's contact shadow are not solved yet. The
// white mug's shaded side, kept since a light body's broken outline is
// closed by the third flood (branch whiteshade), comes with a wedge of the
// sweep and the hard shadow joined to it (0.83 of it kept): the hard-shadow
// step does not peel a shadow joined to the product's region; not solved.
var (
	shineFloors = map[string]fifthFloor{
		"s_bottle_chrome_hard_white_q84":    {iou: 0.83, light: 0.86, hole: 1, shadow: 0.09},
		"s_toaster_chrome_glossy_lgrey_q86": {iou: 0.60, light: 0.65, hole: 1, shadow: 1},
		"s_ball_chrome_warmwhite_q82":       {iou: 0.87, light: 0.98, hole: 1, shadow: 1},
		"s_mug_white_hard_left_q80":         {iou: 0.66, light: 0.97, hole: 0.03, shadow: 0.85},
		"s_speaker_grey_foot_hard_q85":      {iou: 0.98, hole: 1, shadow: 0.06},
		"s_box_cream_hard_beige_q78":        {iou: 0.54, light: 0.54, hole: 1, shadow: 0.03},
	}
	shineMean = 0.74
)

// shineSet is the shine set, as its floor test and benchmark read it.
var shineSet = shotSet{
	name:   "shine",
	shots:  shineShots,
	floors: shineFloors,
	mean:   shineMean,
}

// TestCutoutOnTheShineSet holds the shine set to its floors: a hard cast
// shadow is not kept as product, chrome silhouettes keep what they reach.
func TestCutoutOnTheShineSet(t *testing.T) {
	shineSet.hold(t)
}

// TestDarkProductsOwnDarkPartIsKept: a charcoal speaker on light grey, all
// of it in shadow tones, with a darker grey foot band on the floor (the
// backdrop's hue, a flat band, as a shadow is) and a hard shadow beside
// it: the shadow goes, the body and the foot stay opaque.
func TestDarkProductsOwnDarkPartIsKept(t *testing.T) {
	var s shot
	for _, sh := range shineShots() {
		if sh.name == "s_speaker_grey_foot_hard_q85" {
			s = sh
		}
	}
	tr := s.photograph()
	res, err := cutOutGlass(context.Background(), tr.img, 12, 2, false)
	require.NoError(t, err)
	W := res.img.Rect.Dx()
	mean := func(x0, y0, x1, y1 int) float64 {
		var a float64
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				a += float64(res.img.Pix[4*(y*W+x)+3]) / 255
			}
		}
		return a / float64((x1-x0)*(y1-y0))
	}
	require.Greater(t, mean(104, 198, 186, 208), 0.98, "the foot band is the product's")
	require.Greater(t, mean(104, 74, 186, 194), 0.98, "the charcoal body is the product's")
	require.Less(t, mean(200, 202, 260, 208), 0.05, "the hard shadow beside it is gone")
}
