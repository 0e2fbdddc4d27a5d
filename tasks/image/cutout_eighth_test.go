package image

import (
	"math"
	"testing"
)

// The eighth set: sixteen more shots of the kinds issue 46's hidden set
// measures, photographed at 800 to 1100 pixels by the fifth set's camera
// (cutout_fifth_render_test.go) with read noise that shows in the
// shadows, and scored as it is. Drawn after the seventh with other
// products (a runner, a gift box, a bottle vase, a cream mug, a soap bar,
// a mouse, a perfume flask, an amber jar, a plastic tumbler, a camera, a
// bentwood chair, sunglasses, a lipstick, a canvas tote, a cocktail
// shaker, a drawn rocket), lights (soft from above, hard from the left
// throwing leg shadows, a key from the right), backdrops (paper grain,
// linen, light and dark concrete, seamless sweeps from wall to floor, a
// glossy floor) and formats (JPEG 72 to 90, three PNGs). It is HELD OUT:
// written by someone who changed no pipeline code; nobody tunes the
// cut-out on it — it measures the work on the other sets.

// linen is a woven backdrop of colour c: a fine cross weave, slubs along
// the weft and a gentle fall towards the bottom of the frame (h).
func linen(c rgbf, h, seed float64) func(x, y float64) rgbf {
	slub, mottle := valueNoise(seed, 0.7), valueNoise(seed+1, 14)
	return func(x, y float64) rgbf {
		w := 0.012*math.Sin(x*3.9)*math.Sin(y*3.9) + 0.01*slub(x*0.25, y) + 0.008*mottle(x, y)
		k := 1 + w - 0.05*y/h
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// concrete is a cast concrete backdrop from top to bottom: broad clouds,
// a fine aggregate and small dark pits.
func concrete(top, bottom rgbf, h, seed, depth float64) func(x, y float64) rgbf {
	base := sweep(top, bottom, h)
	cloud, fine, pit := valueNoise(seed, 22), valueNoise(seed+1, 0.6), valueNoise(seed+2, 1.1)
	return func(x, y float64) rgbf {
		c := base(x, y)
		k := 1 + depth*(0.8*cloud(x, y)+0.35*fine(x, y)) - 0.12*math.Max(0, pit(x, y)-0.82)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// seamless is a paper sweep seen from the front: the wall at the top, a
// soft bend at the horizon, then the floor coming towards the camera,
// brighter where the light falls on it, with a faint paper grain.
func seamless(wall, floor rgbf, horizon, h float64) func(x, y float64) rgbf {
	grain := valueNoise(77, 0.5)
	return func(x, y float64) rgbf {
		t := 1 / (1 + math.Exp(-(y-horizon)/18))
		f := 1 + 0.03*math.Max(0, (y-horizon)/(h-horizon)) + 0.004*grain(x, y)
		var c rgbf
		for ch := range 3 {
			c[ch] = (wall[ch]*(1-t) + floor[ch]*t) * f
		}
		return c
	}
}

// eighthShots is the eighth set.
func eighthShots() []shot {
	var out []shot
	// A white low running shoe on a white seamless sweep, toe right, lit
	// softly from above and the left: an upper shading to its toe and its
	// foot, a stitched panel, pale laces, a chunky midsole a shade greyer,
	// a grey outsole line; a contact shadow and a soft one. JPEG 84.
	upper := without(union(blob(158, 132, 96, 34, 2.6), ellipse(236, 148, 32, 20), tube(126, 104, 196, 122, 14)),
		ellipse(96, 94, 30, 10))
	midsole := union(rect(60, 160, 262, 184), ellipse(60, 172, 6, 12), ellipse(260, 170, 12, 14))
	shoeWhite := func(x, y float64) rgbf {
		e := (x-160)/100 + 0.5
		k := 1 - 0.05*e*e - 0.09*math.Max(0, (y-112)/56) + grain2(801, 0.005)(x, y)
		return rgbf{251 * k, 251 * k, 250 * k}
	}
	laces := func(x, y float64) bool {
		for k := range 5 {
			if tube(136+13*float64(k), 102+3*float64(k), 150+13*float64(k), 112+3*float64(k), 1.6)(x, y) {
				return true
			}
		}
		return false
	}
	panel := without(ring(120, 190, 58, 60), rect(0, 160, 400, 400))
	runner := []part{
		{in: grown(upper, 0.9), col: flat(rgbf{226, 226, 226})},
		{in: upper, col: shoeWhite, light: true},
		{in: and(upper, panel), col: flat(rgbf{232, 232, 231})},
		{in: laces, col: flat(rgbf{240, 240, 240}), light: true},
		{in: midsole, col: fromAbove(rgbf{243, 243, 241}, 160, 184, 0.08, none), light: true},
		{in: rect(60, 182, 262, 185), col: flat(rgbf{176, 176, 178})},
	}
	out = append(out, shot{scene: scene{name: "p8_runner_white_seamless_q84", w: 320, h: 240, scale: 3,
		backdrop: seamless(rgbf{250, 250, 250}, rgbf{242, 242, 243}, 120, 240), parts: runner,
		shadow: shadows(softShadow(162, 186, 102, 3, 0.5, 1.5), softShadow(186, 190, 112, 9, 0.2, 12))},
		cam: camera{defocus: 1.6, vignette: 0.1, luma: 2.2, chroma: 1.4, read: 1.2, quality: 84}})

	// A white gift box with soft, rounded edges on white paper, seen from
	// above the front and lit from the upper left: a bright top, a front a
	// little greyer, a side in shade, each edge a lighter bevel; its shadow
	// falls to the right. JPEG 78.
	boxFront := roundRect(90, 110, 200, 210, 4)
	boxSide := quad([2]float64{199, 111}, [2]float64{236, 90}, [2]float64{236, 186}, [2]float64{199, 209})
	boxTop := quad([2]float64{91, 111}, [2]float64{128, 90}, [2]float64{236, 90}, [2]float64{199, 111})
	bevel := union(tube(92, 110, 198, 110, 1.2), tube(199, 111, 199, 208, 1.2), tube(199, 110, 235, 90, 1.1))
	box := []part{
		{in: boxFront, col: fromAbove(rgbf{244, 244, 243}, 110, 210, 0.04, grain2(802, 0.004)), light: true},
		{in: boxTop, col: flat(rgbf{252, 252, 251}), light: true},
		{in: boxSide, col: fromAbove(rgbf{226, 226, 226}, 90, 210, 0.04, none), light: true},
		{in: bevel, col: flat(rgbf{254, 254, 254}), light: true},
	}
	boxShade := quad([2]float64{200, 208}, [2]float64{236, 186}, [2]float64{262, 182}, [2]float64{232, 212})
	out = append(out, shot{scene: scene{name: "p8_giftbox_white_paper_q78", w: 320, h: 260, scale: 3,
		backdrop: textured(sweep(rgbf{249, 249, 247}, rgbf{238, 238, 236}, 260), 803, 0.012), parts: box,
		shadow: shadows(boxShadow(92, 206, 236, 212, 0.35, 3), hardShadow(boxShade, 0.18))},
		cam: camera{defocus: 1.4, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.4, quality: 78}})

	// A white ceramic bottle vase on a white seamless sweep, lit from the
	// right: a soft terminator, its left in shade, a faint rim 12 levels
	// under the sweep, a narrow neck and a lip. JPEG 90.
	vaseHalf := func(y float64) float64 {
		switch {
		case y < 96:
			return 16
		case y < 150:
			return 16 + 36*math.Pow((y-96)/54, 1.6)
		}
		return 52 - 8*(y-150)/110
	}
	vase := union(func(x, y float64) bool { return y >= 70 && y < 260 && math.Abs(x-150) < vaseHalf(y) },
		ellipse(150, 70, 20, 5))
	vaseCol := func(x, y float64) rgbf {
		e := (x - 150) / vaseHalf(math.Max(70, y))
		k := 0.84 + 0.15/(1+math.Exp(-(e+0.1)*6)) - 0.03*math.Max(0, (y-200)/60)
		return rgbf{252 * k, 251 * k, 249 * k}
	}
	out = append(out, shot{scene: scene{name: "p8_vase_white_rim_seamless_q90", w: 300, h: 300, scale: 3,
		backdrop: seamless(rgbf{251, 251, 250}, rgbf{244, 244, 243}, 160, 300), parts: []part{
			{in: grown(vase, 0.8), col: flat(rgbf{236, 236, 235})},
			{in: vase, col: vaseCol, light: true},
			{in: ellipse(150, 70, 14, 3), col: flat(rgbf{206, 205, 202})},
		}, shadow: shadows(softShadow(150, 261, 46, 2.5, 0.45, 1.5), softShadow(118, 264, 72, 7, 0.16, 10))},
		cam: camera{defocus: 1.5, vignette: 0.1, luma: 2, chroma: 1.2, read: 1, quality: 90}})

	// A cream ceramic mug on beige linen, lit from the left: a body
	// rounding into shade, a rim with the darker inside, a handle whose hole
	// shows the linen; a soft shadow to the right. JPEG 80.
	mugBody := roundRect(100, 110, 190, 222, 6)
	mugHandle := without(and(ring(194, 164, 17, 26), func(x, y float64) bool { return x > 186 }), mugBody)
	mugHole := without(and(ellipse(194, 164, 17, 17), func(x, y float64) bool { return x > 186 }), mugBody)
	cream := rgbf{242, 233, 214}
	mug := []part{
		{in: union(mugBody, mugHandle, ellipse(145, 110, 45, 7)), col: rounded(cream, 145, 50, -0.6, 0.16,
			grain2(804, 0.004)), light: true},
		{in: ellipse(145, 110, 41, 5), col: flat(rgbf{206, 194, 172})},
	}
	out = append(out, shot{scene: scene{name: "p8_mug_cream_linen_q80", w: 300, h: 270, scale: 3,
		backdrop: linen(rgbf{234, 224, 205}, 270, 805), parts: mug, hole: mugHole,
		shadow: shadows(softShadow(146, 223, 48, 3, 0.45, 2), softShadow(176, 226, 66, 8, 0.18, 10))},
		cam: camera{defocus: 1.4, vignette: 0.14, luma: 2.4, chroma: 1.6, read: 1.4, quality: 80}})

	// A pale pink soap bar on pale pink plaster of another tone, seen from
	// above the front under a soft light from above: a rounded top with an
	// embossed oval, its thickness a shade deeper. JPEG 86.
	soapEdge := blob(160, 150, 82, 46, 3.4)
	soapTop := blob(160, 143, 80, 42, 3.4)
	emboss := without(ellipse(160, 143, 40, 20), ellipse(160, 143, 37, 17.5))
	soap := []part{
		{in: soapEdge, col: flat(rgbf{230, 200, 202}), light: true},
		{in: soapTop, col: fromAbove(rgbf{246, 224, 224}, 101, 185, 0.05, grain2(806, 0.004)), light: true},
		{in: emboss, col: flat(rgbf{234, 208, 209}), light: true},
	}
	out = append(out, shot{scene: scene{name: "p8_soap_pink_on_pink_q86", w: 320, h: 260, scale: 3,
		backdrop: textured(sweep(rgbf{248, 231, 229}, rgbf{238, 219, 218}, 260), 807, 0.014), parts: soap,
		shadow: shadows(softShadow(160, 194, 80, 5, 0.3, 4), softShadow(164, 200, 90, 10, 0.12, 12))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2, chroma: 1.4, read: 1.2, quality: 86}})

	// A light grey wireless mouse on a light grey seamless sweep, seen
	// from above under a hard light from the upper left: a domed body, the
	// seam between its buttons, a dark wheel; a hard shadow to the lower
	// right. JPEG 72.
	mouse := blob(150, 140, 48, 74, 2.3)
	dome := func(x, y float64) rgbf {
		u, v := (x-150)/48, (y-140)/74
		z := math.Sqrt(math.Max(0, 1-u*u-v*v))
		k := 0.84 + 0.16*math.Max(0, -0.45*u-0.4*v+0.8*z) + grain2(808, 0.003)(x, y)
		return rgbf{232 * k, 232 * k, 234 * k}
	}
	mouseShade := func(x, y float64) bool { return blob(160, 150, 48, 74, 2.3)(x, y) }
	out = append(out, shot{scene: scene{name: "p8_mouse_grey_on_grey_q72", w: 300, h: 280, scale: 3,
		backdrop: seamless(rgbf{226, 226, 228}, rgbf{218, 218, 221}, 60, 280), parts: []part{
			{in: mouse, col: dome, light: true},
			{in: rect(149.3, 68, 150.7, 120), col: flat(rgbf{190, 190, 193})},
			{in: roundRect(146, 86, 154, 106, 3), col: flat(rgbf{70, 70, 74})},
		}, shadow: hardShadow(mouseShade, 0.22)},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.6, chroma: 1.8, read: 1.6, quality: 72}})
	return append(out, moreEighthShots()...)
}

// eighthKinds is the kind of each shot, for the benchmark's figures.
var eighthKinds = map[string]string{
	"p8_runner_white_seamless_q84":       "white on white",
	"p8_giftbox_white_paper_q78":         "white on white",
	"p8_vase_white_rim_seamless_q90":     "white on white, faint rim",
	"p8_mug_cream_linen_q80":             "light on light, handle hole",
	"p8_soap_pink_on_pink_q86":           "light on light",
	"p8_mouse_grey_on_grey_q72":          "light on light, hard shadow",
	"p8_perfume_clear_palegrey_q88":      "clear glass",
	"p8_jar_amber_linen_q82":             "tinted glass",
	"p8_tumbler_translucent_paper_png":   "translucent plastic",
	"p8_camera_black_concrete_q80":       "dark on dark",
	"p8_chair_thinlegs_hardlight_q85":    "thin parts, enclosed gaps",
	"p8_sunglasses_temples_concrete_png": "thin parts",
	"p8_lipstick_small_offcentre_q88":    "small, off the centre",
	"p8_tote_cut_by_frame_q76":           "cut by the frame, holes",
	"p8_shaker_mirror_glossy_q86":        "mirror metal, glossy floor",
	"p8_rocket_drawing_whitefill_png":    "drawing, white fills",
}

// eighthFloors and eighthMean are the eighth set's figures from one run
// of the cut-out as main had it when the set was written (f565e95), less a
// margin: IoU and light parts 0.02 under, enclosed backdrop, glass alpha
// error and shadow kept 0.03 over. They record today's behaviour, to catch
// regressions — not the targets. That run (BenchmarkCutoutEighth,
// one pass): mean IoU 0.537, lowest 0, light parts 0.622, enclosed
// backdrop 0.667, glass alpha error 0.341. Under 0.5: the gift box 0.05,
// the soap 0.03 and the camera 0.06 (most of each deleted), the perfume
// 0.22 (its body holed), the mug 0.41 (0.44 of its light parts kept), the
// chair 0.44 (its enclosed gaps kept, as the tote's); the mouse keeps its
// hard shadow (0.98 of it); the runner and the vase are refused. An IoU
// floor of 0 is a shot the cut-out refused today (eighthRefused); that it
// refuses with a reason is asserted for now, and a future cut-out that
// cuts it instead must move it out of eighthRefused. Raised where the
// pale parts' repair (branch paleadd, cutpaleadd.go, not tuned on this
// set) gave a part back: the cream mug 0.412 -> 0.910 (light parts 0.44 ->
// 0.98, its handle's hole still backdrop), the translucent tumbler 0.848
// -> 0.988 with its white lid (alpha error 0.50 -> 0.41).
var (
	eighthFloors = map[string]fifthFloor{
		"p8_runner_white_seamless_q84":       {iou: 0, hole: 1, glassMAE: 1, shadow: 1},
		"p8_giftbox_white_paper_q78":         {iou: 0.827, light: 0.02, hole: 1.00, shadow: 0.567},
		"p8_vase_white_rim_seamless_q90":     {iou: 0, hole: 1, glassMAE: 1, shadow: 1},
		"p8_mug_cream_linen_q80":             {iou: 0.89, light: 0.96, hole: 0.03, shadow: 0.03},
		"p8_soap_pink_on_pink_q86":           {iou: 0.01, light: 0.00, hole: 1.00, shadow: 0.03},
		"p8_mouse_grey_on_grey_q72":          {iou: 0.81, light: 0.96, hole: 1.00, shadow: 1.00},
		"p8_perfume_clear_palegrey_q88":      {iou: 0.955, hole: 1.00, glassMAE: 0.175, shadow: 0.03},
		"p8_jar_amber_linen_q82":             {iou: 0.96, hole: 1.00, glassMAE: 0.25, shadow: 0.03},
		"p8_tumbler_translucent_paper_png":   {iou: 0.96, hole: 1.00, glassMAE: 0.44, shadow: 0.03},
		"p8_camera_black_concrete_q80":       {iou: 0.04, hole: 1.00, shadow: 0.03},
		"p8_chair_thinlegs_hardlight_q85":    {iou: 0.41, hole: 1.00, shadow: 0.08},
		"p8_sunglasses_temples_concrete_png": {iou: 0.97, hole: 1.00, shadow: 0.03},
		"p8_lipstick_small_offcentre_q88":    {iou: 0.97, hole: 1.00, shadow: 0.03},
		"p8_tote_cut_by_frame_q76":           {iou: 0.73, light: 0.84, hole: 1.00, shadow: 0.03},
		"p8_shaker_mirror_glossy_q86":        {iou: 0.95, light: 0.97, hole: 1.00, shadow: 0.18},
		"p8_rocket_drawing_whitefill_png":    {iou: 0.97, light: 0.98, hole: 1.00, shadow: 1.00},
	}
	eighthMean = 0.51
	// eighthRefused are the shots the cut-out refused with a reason in that
	// run ("no object was found"): today's behaviour, recorded, not a goal.
	// The runner and the vase, refused in that run, are cut out by the fifth
	// look (cutwhite.go): none is refused now.
	eighthRefused = map[string]bool{}
	// The gift box, of which the cut kept only its lit top, is cut since
	// the sixth look backs the fragment test (widerByEdges, cutwhite.go),
	// delivered as uncertain; it keeps its hard cast shadow (its shadow
	// floor follows).
	eighthDrawn = []string{"p8_giftbox_white_paper_q78"}
	// The clear perfume flask, of which the cut kept its cap, liquid and
	// highlight, is cut whole since the clear outline look (cutclearwide.go)
	// tells a cast shadow from glass (cutcastshade.go): 0.62 → 0.976, glass
	// alpha error 0.50 → 0.145; its floor follows (one run, mean 0.757 →
	// 0.779).
)

// eighthSet is the eighth set, as its floor test and benchmark read it.
var eighthSet = shotSet{
	name:    "eighth",
	shots:   eighthShots,
	kinds:   eighthKinds,
	floors:  eighthFloors,
	mean:    eighthMean,
	refused: eighthRefused,
	drawn:   eighthDrawn,
}

// TestCutoutOnTheEighthSet holds the held-out eighth set to its floors,
// and the shots it refused today to a refusal with a reason.
func TestCutoutOnTheEighthSet(t *testing.T) {
	eighthSet.hold(t)
}

// BenchmarkCutoutEighth prints the eighth set's figures: go test -run
// '^$' -bench CutoutEighth ./tasks/image (CUTOUT_DIR=/some/dir writes each
// input, its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutEighth(b *testing.B) {
	eighthSet.bench(b)
}
