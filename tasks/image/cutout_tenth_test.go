package image

import (
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tenth set: nineteen product shots with a visible edge and one
// without, photographed at 720 to 1200 pixels by the fifth set's camera
// (cutout_fifth_render_test.go: defocus, vignette, luma and chroma noise,
// read noise, JPEG with 4:2:0 chroma at quality 74 to 90, or PNG) and
// scored as the ninth set is (IoU of alpha ≥ 0.5; glass by its
// silhouette; a refused shot scores 0). White on white (a hoodie laid
// flat, a lotion bottle under a strong vignette, a watering can whose
// handle hole lies in its soft shadow), light on light of another hue (a
// lilac vase on butter yellow, a sky-blue cap on blush, an oat sweater on
// grey-blue), a car drawn with white fills inside black outlines, clear
// and tinted glass on graded sweeps (a beer mug with a glass handle, a
// cobalt dropper bottle), a faceted aluminium moka pot, dark on dark (a
// cast-iron skillet on walnut, a black boot on slate), thin parts (a
// whisk's wires, a hanger's hook and bar), handles and loops with
// enclosed holes, textured backdrops (walnut, pine, slate, herringbone
// tweed, boucle, plaster), a hard cast shadow, a guitar cut by the frame
// and a small key in a corner. A white card on a table of its exact
// colour has no visible edge at all: it is measured apart, and must be
// refused with a reason.
//
// It is HELD OUT: written from the issue by someone who read no cut-out
// stage and changed none, while others tuned on the earlier sets; nobody
// tunes the cut-out on it. Glass truth follows the served docs as the
// ninth set's does: a glass body's alpha is its opacity, and on a graded
// sweep the docs promise it back.

// p10Walnut is dark walnut planks plank units wide along x: wandering
// dark rings, pores, each plank its own shade and a dark seam.
func p10Walnut(c rgbf, plank, seed float64) func(x, y float64) rgbf {
	wander, pore := valueNoise(seed, 50), valueNoise(seed+1, 0.7)
	return func(x, y float64) rgbf {
		row := math.Floor(y / plank)
		yy := y + 9*wander(x+row*97, y)
		k := 1 + 0.12*math.Sin(yy*0.7+row*1.3) + 0.05*math.Sin(yy*2.9) + 0.04*pore(x*0.2, y*2) +
			0.06*math.Sin(row*2.3)
		if m := y - row*plank; m < 0.6 {
			k -= 0.3
		}
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// p10Pine is pale pine: soft rings along the board that bow a little, a
// fine streak and a few knots.
func p10Pine(c rgbf, seed float64) func(x, y float64) rgbf {
	bend, streak, knot := valueNoise(seed, 70), valueNoise(seed+1, 1.2), valueNoise(seed+2, 30)
	return func(x, y float64) rgbf {
		r := math.Sin((y + 5*bend(x, y) + 0.0006*(x-160)*(x-160)) * 0.55)
		k := 1 - 0.06*math.Max(0, r) + 0.015*streak(x*0.1, y*2) - 0.08*math.Max(0, knot(x, y)-0.75)
		return rgbf{c[0] * k, c[1] * k * (1 - 0.01*r), c[2] * k * (1 - 0.03*r)}
	}
}

// p10Slate is a dark slate tile: strata along a slant, cleft steps and
// a fine grit.
func p10Slate(c rgbf, seed float64) func(x, y float64) rgbf {
	strata, cleft, grit := valueNoise(seed, 16), valueNoise(seed+1, 40), valueNoise(seed+2, 0.6)
	return func(x, y float64) rgbf {
		s := x*0.4 + y
		k := 1 + 0.08*strata(s*0.3, s) + 0.08*math.Floor(3*cleft(x, y))/3 + 0.05*grit(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k * 1.02}
	}
}

// p10Herringbone is a herringbone tweed: diagonal twill ribs that turn
// every period units, flecks of lighter and darker yarn.
func p10Herringbone(c rgbf, period, seed float64) func(x, y float64) rgbf {
	fleck := valueNoise(seed, 0.8)
	return func(x, y float64) rgbf {
		col := math.Floor(x / period)
		d := y + x
		if int(col)%2 != 0 {
			d = y - x
		}
		k := 1 + 0.07*math.Sin(d*2.2) + 0.06*fleck(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// p10Boucle is a boucle throw: yarn loops a few units across in clumps,
// deep shade between them.
func p10Boucle(c rgbf, seed float64) func(x, y float64) rgbf {
	loops, clump := valueNoise(seed, 1.3), valueNoise(seed+1, 5)
	return func(x, y float64) rgbf {
		k := 1 + 0.1*loops(x, y) + 0.06*clump(x, y) - 0.1*math.Max(0, -loops(x+0.7, y-0.5)-0.4)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// tenthShots is the tenth set: the shots with a visible edge.
func tenthShots() []shot {
	out := lightTenthShots()
	out = append(out, shineTenthShots()...)
	return append(out, thinTenthShots()...)
}

// tenthKinds is the kind of each shot, for the benchmark's figures.
var tenthKinds = map[string]string{
	"p10_hoodie_white_flat_q80":             "white on white, faint rim",
	"p10_lotion_white_vignette_q88":         "white on white, vignette",
	"p10_wateringcan_white_hole_shadow_q78": "white on white, hole in shadow",
	"p10_car_drawing_whitefill_q76":         "drawing, white fills",
	"p10_vase_lilac_butter_q82":             "light on light, other hue",
	"p10_cap_sky_blush_q86":                 "light on light, other hue",
	"p10_soap_cream_pine_q80":               "light on pine wood",
	"p10_sweater_oat_greyblue_png":          "light on light, knit, PNG",
	"p10_beermug_clear_handle_q84":          "clear glass, glass handle",
	"p10_dropper_cobalt_glass_q82":          "tinted glass, label",
	"p10_moka_chrome_handle_q84":            "chrome facets, handle hole",
	"p10_skillet_black_walnut_q78":          "dark on dark wood, hole",
	"p10_boot_black_slate_q80":              "dark on slate, loop hole",
	"p10_flask_olive_hardsun_q74":           "hard cast shadow",
	"p10_whisk_wires_tweed_q84":             "thin wires on tweed",
	"p10_hanger_hook_thinbar_q86":           "thin hook and bar, hole",
	"p10_basket_handle_boucle_q76":          "on boucle, handle hole",
	"p10_guitar_cut_by_frame_q82":           "cut by the frame",
	"p10_key_small_corner_q90":              "small, in a corner, hole",
}

// tenthSet is the tenth set, as its floor test and benchmark read it.
var tenthSet = shotSet{
	name:    "tenth",
	shots:   tenthShots,
	kinds:   tenthKinds,
	floors:  tenthFloors,
	mean:    tenthMean,
	refused: tenthRefused,
	drawn:   tenthDrawn,
}

// TestCutoutOnTheTenthSet holds the held-out tenth set to its floors and
// the shots it refused today to a refusal with a reason; the card with no
// visible edge must be refused.
func TestCutoutOnTheTenthSet(t *testing.T) {
	tenthSet.hold(t)
	card := measureFifth(t, []shot{noEdgeTenthShot()}, "")
	require.NotEmpty(t, card.scores["p10_card_white_noedge_q88"].err, "a product with no visible edge is refused")
}

// BenchmarkCutoutTenth prints the tenth set's figures: go test -run '^$'
// -bench CutoutTenth ./tasks/image (CUTOUT_DIR=/some/dir writes each input,
// its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutTenth(b *testing.B) {
	tenthSet.bench(b)
	var card fifthFigures
	for range b.N {
		card = measureFifth(b, []shot{noEdgeTenthShot()}, os.Getenv("CUTOUT_DIR"))
	}
	printShots([]shot{noEdgeTenthShot()}, card)
}

// tenthFloors and tenthMean are the tenth set's figures from one run of
// the cut-out as main had it when the set was written (24d26db), less a
// margin: IoU and light parts 0.02 under, enclosed backdrop, glass alpha
// error and shadow kept 0.03 over. They record today's behaviour, to catch
// regressions — not the targets. That run (BenchmarkCutoutTenth,
// one pass): mean IoU 0.688, lowest 0 (the guitar, refused), light parts
// 0.856, enclosed backdrop 0.555, glass alpha error 0.244. Good: the light
// products on another hue, on pine and the knit (0.99 to 1.00), the hard
// shadow (1.00), the cobalt dropper's silhouette (0.98), the boot on slate
// (0.98), the car drawing (0.97, light 0.965). Bad: the watering can 0.04
// (only its spout kept), the clear beer mug 0.03 (only its highlight), the
// whisk 0.19 (wires joined into a cone with the tweed, holes 0.95), the
// moka pot 0.29 (most facets lost), the hanger 0.58 (hook lost, triangle
// of wall kept), the basket 0.59 (handle's hole kept, flecks of boucle
// kept), the skillet 0.74 (walnut grain kept), the hoodie 0.86 (a sleeve
// cut), the lotion 0.93; the key's hole is kept (1.00). The guitar cut by
// the frame was refused (76 % of the border plain, confidence 0.76 under
// 0.80); the card with no edge was refused ("no object was found: nothing
// in the image differs from its backdrop"). An IoU floor of 0 is a shot
// refused today (tenthRefused); a future cut-out that cuts it instead must
// move it out of tenthRefused. After the stages of the next stop (shaded
// gaps, turned glass, the white hull; one run, still held out): mean
// 0.710; the hanger 0.58 → 0.93 and the key 0.91 → 0.97, their gaps
// cleared: their floors follow. cut_quality warned 6 of the 7 cuts under
// 0.9 (not the basket) and one good cut (the soap on pine, 0.995). After
// the next stop's white hull for a fragment (still held out, one run):
// mean 0.775; the watering can 0.04 → 0.54 (a hull over its spout and
// body, its handle's hole and part of its shadow kept) and the beer mug
// 0.03 → 0.78 (its silhouette, see-through, the handle's hole 0.15 kept),
// both warned and uncharged (tenthDrawn): their floors follow, the hole
// and shadow floors loosened with them. The cut quality's kept-shadow and
// strands cues warn a second good cut, the boot on slate (0.976).
var (
	tenthFloors = map[string]fifthFloor{
		"p10_hoodie_white_flat_q80":             {iou: 0.838, light: 0.867, hole: 1, shadow: 0.09},
		"p10_lotion_white_vignette_q88":         {iou: 0.909, light: 0.939, hole: 1, shadow: 0.10},
		"p10_wateringcan_white_hole_shadow_q78": {iou: 0.524, light: 0.79, hole: 1, shadow: 0.35},
		"p10_car_drawing_whitefill_q76":         {iou: 0.952, light: 0.945, hole: 1},
		"p10_vase_lilac_butter_q82":             {iou: 0.975, light: 0.980, hole: 1, shadow: 0.03},
		"p10_cap_sky_blush_q86":                 {iou: 0.969, light: 0.980, hole: 1, shadow: 0.03},
		"p10_soap_cream_pine_q80":               {iou: 0.975, light: 0.980, hole: 1, shadow: 0.03},
		"p10_sweater_oat_greyblue_png":          {iou: 0.979, light: 0.980, hole: 1, shadow: 0.03},
		"p10_beermug_clear_handle_q84":          {iou: 0.756, hole: 0.18, glassMAE: 0.31, shadow: 0.03},
		"p10_dropper_cobalt_glass_q82":          {iou: 0.962, hole: 1, glassMAE: 0.24, shadow: 0.03},
		"p10_moka_chrome_handle_q84":            {iou: 0.266, hole: 1.00, shadow: 0.03},
		"p10_skillet_black_walnut_q78":          {iou: 0.716, hole: 0.03, shadow: 0.03},
		"p10_boot_black_slate_q80":              {iou: 0.955, hole: 0.07, shadow: 0.04},
		"p10_flask_olive_hardsun_q74":           {iou: 0.979, hole: 1, shadow: 0.03},
		"p10_whisk_wires_tweed_q84":             {iou: 0.170, hole: 0.98, shadow: 0.85},
		"p10_hanger_hook_thinbar_q86":           {iou: 0.907, hole: 0.03, shadow: 0.46},
		"p10_basket_handle_boucle_q76":          {iou: 0.571, hole: 1.00, shadow: 0.03},
		"p10_guitar_cut_by_frame_q82":           {iou: 0, hole: 1, glassMAE: 1, shadow: 1},
		"p10_key_small_corner_q90":              {iou: 0.946, hole: 0.035, shadow: 0.09},
	}
	tenthMean = 0.755
	// tenthDrawn are the shots delivered from the white hull (their outline
	// partly drawn: warned, uncharged) since it backs a fragment.
	tenthDrawn = []string{"p10_wateringcan_white_hole_shadow_q78", "p10_beermug_clear_handle_q84"}
	// tenthRefused are the shots the cut-out refused with a reason in that
	// run: the guitar cut by the frame ("the background cannot be
	// separated"). Today's behaviour, recorded, not a goal.
	tenthRefused = map[string]bool{"p10_guitar_cut_by_frame_q82": true}
)
