package image

import "math"

// moreFifthShots is the fifth set's second half (cutout_fifth_test.go):
// a drawing, chrome, glass, a product touching the frame, a small one.
func moreFifthShots() []shot {
	var out []shot
	// A cartoon cat drawn on cream paper and photographed: its face, ears,
	// body and eyes are the paper inside black outlines; a pink nose, a
	// black tail. JPEG 72.
	pp := paper(rgbf{252, 250, 243}, 260, 280)
	ink := rgbf{22, 20, 24}
	head := union(ellipse(130, 112, 56, 44), quad([2]float64{80, 96}, [2]float64{88, 52}, [2]float64{112, 72}),
		quad([2]float64{148, 72}, [2]float64{172, 52}, [2]float64{180, 96}))
	catBody := ellipse(130, 206, 44, 52)
	eyes := union(ellipse(110, 106, 11, 9), ellipse(150, 106, 11, 9))
	cat := []part{
		{in: union(grown(catBody, 2.2), tube(172, 230, 215, 180, 4)), col: flat(ink)},
		{in: catBody, col: pp, light: true},
		{in: grown(head, 2.2), col: flat(ink)},
		{in: head, col: pp, light: true},
		{in: grown(eyes, 1.8), col: flat(ink)},
		{in: eyes, col: pp, light: true},
		{in: union(ellipse(113, 107, 4, 5), ellipse(153, 107, 4, 5)), col: flat(ink)},
		{in: ellipse(130, 124, 5, 3.5), col: flat(rgbf{235, 140, 150})},
		{in: union(tube(95, 128, 118, 126, 0.8), tube(142, 126, 165, 128, 0.8), rect(129.2, 127, 130.8, 136)),
			col: flat(ink)},
	}
	out = append(out, shot{scene: scene{name: "p5_cartoon_cat_paper_q72", w: 260, h: 280, backdrop: pp, parts: cat},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 2, chroma: 1.5, quality: 72}})

	// A chrome kettle reflecting a white studio on a glossy light sweep:
	// a body of bright bands with two darker reflections, an arched handle
	// whose hole shows the sweep, a black knob, a spout left; the sweep
	// mirrors it. JPEG 85.
	kBody := and(ellipse(140, 175, 75, 70), func(x, y float64) bool { return y >= 120 && y < 215 })
	knob := ellipse(140, 113, 10, 7)
	kHandle := and(ring(140, 120, 34, 41), func(x, y float64) bool { return y < 126 })
	kHole := without(and(ellipse(140, 120, 34, 34), func(x, y float64) bool { return y < 126 }), union(kBody, knob))
	studio := func(x, y float64) rgbf {
		e := (x - 140) / 75
		v := 236 - 110*math.Exp(-math.Pow((e+0.55)/0.08, 2)) - 80*math.Exp(-math.Pow((e-0.7)/0.1, 2)) +
			16*math.Exp(-math.Pow((e+0.25)/0.05, 2)) - 30*math.Pow(math.Abs(e), 6) - 0.1*(y-120)
		return rgbf{v, v + 1, v + 3}
	}
	tubeShine := func(x, y float64) rgbf { // a round bar: the studio's dark edge along its middle
		v := 232 - 95*math.Exp(-math.Pow((math.Hypot(x-140, y-120)-37.5)/1.6, 2))
		return rgbf{v, v + 1, v + 3}
	}
	kettle := []part{
		{in: kHandle, col: tubeShine, light: true},
		{in: tube(78, 188, 44, 150, 6), col: studio, light: true},
		{in: kBody, col: studio, light: true},
		{in: knob, col: flat(rgbf{30, 30, 32})},
	}
	kBg := sweep(rgbf{243, 243, 244}, rgbf{228, 228, 230}, 280)
	out = append(out, shot{scene: scene{name: "p5_kettle_chrome_glossy_q85", w: 280, h: 280,
		backdrop: glossy(kBg, kettle, 215, 0.35, 22), parts: kettle, hole: kHole,
		shadow: shadows(softShadow(140, 216, 60, 2.5, 0.4, 2), softShadow(165, 220, 80, 8, 0.15, 12))},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2, chroma: 1.2, quality: 85}})

	// A clear drinking glass on a cool white sweep: a tapered body nearly
	// see-through in its middle, denser and darker at its sides where it
	// bends the studio's edges into view, a rim, a thick
	// base, a highlight. JPEG 90.
	half := func(y float64) float64 { return 42 - 7*(y-70)/150 }
	tumbler := func(x, y float64) bool { return y >= 70 && y < 220 && math.Abs(x-120) < half(y) }
	glassAlpha := func(x, y float64) float64 {
		e := math.Min(1, math.Abs(x-120)/half(y))
		if y > 204 {
			return 0.55
		}
		return 0.12 + 0.63*math.Pow(e, 6)
	}
	refracted := func(x, y float64) rgbf { // the sides bend a darker studio into view
		e := math.Min(1, math.Abs(x-120)/half(y))
		v := 242 - 70*math.Pow(e, 8)
		return rgbf{v - 4, v, v + 1}
	}
	clear := []part{
		{in: union(tumbler, ellipse(120, 220, 35, 4)), col: refracted, alpha: glassAlpha},
		{in: and(ellipse(120, 70, 42, 6), func(x, y float64) bool { return !ellipse(120, 70, 39, 4.5)(x, y) }),
			col: flat(rgbf{215, 222, 226}), alpha: func(x, y float64) float64 { return 0.7 }},
		{in: and(tumbler, func(x, y float64) bool { return math.Abs(x-(96+(y-70)*0.03)) < 2 && y < 200 }),
			col: flat(rgbf{253, 253, 253}), alpha: func(x, y float64) float64 { return 0.8 }},
	}
	out = append(out, shot{scene: scene{name: "p5_glass_tumbler_coolwhite_q90", w: 240, h: 280,
		backdrop: sweep(rgbf{247, 249, 252}, rgbf{232, 235, 240}, 280), parts: clear,
		shadow: shadows(softShadow(120, 222, 38, 3, 0.2, 2), softShadow(140, 226, 55, 6, 0.08, 10))},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 1.8, chroma: 1, quality: 90}, glass: true})

	// A frosted glass jar with a metal lid on a grey gradient that darkens
	// to the right. JPEG 80.
	jar := union(rect(95, 92, 185, 210), ellipse(140, 210, 45, 6), ellipse(140, 92, 45, 8))
	lidBands := func(x, y float64) rgbf {
		v := 175 + 40*math.Sin((x-100)/80*math.Pi*1.5)
		return rgbf{v, v + 2, v + 6}
	}
	frost := append(glassBody(jar, rgbf{236, 238, 240}, 0.72, 0.9, 140, 45, 112),
		part{in: union(rect(100, 62, 180, 88), ellipse(140, 62, 40, 5)), col: lidBands})
	out = append(out, shot{scene: scene{name: "p5_glass_frosted_greygrad_q80", w: 280, h: 260,
		backdrop: cast(rgbf{214, 214, 216}, rgbf{200, 200, 203}, 260, 0.25, 280), parts: frost,
		shadow: shadows(softShadow(140, 214, 48, 3, 0.35, 2), softShadow(168, 216, 70, 8, 0.15, 12))},
		cam: camera{defocus: 0.7, vignette: 0.15, luma: 2.2, chroma: 1.5, quality: 80}, glass: true})

	// A white pump bottle off the centre, cut by the frame's bottom, on a
	// warm light grey; a pale grey label. JPEG 80.
	pump := union(rect(30, 125, 100, 260), ellipse(65, 125, 35, 12), rect(57, 92, 73, 114), rect(50, 74, 84, 90),
		rect(84, 78, 108, 84))
	pumpParts := []part{
		{in: pump, col: rounded(rgbf{249, 248, 246}, 65, 35, -0.5, 0.18, grain2(7, 0.004)), light: true},
		{in: union(rect(44, 160, 86, 164), rect(44, 170, 78, 173), rect(44, 179, 82, 182)),
			col: flat(rgbf{196, 196, 198})},
	}
	out = append(out, shot{scene: scene{name: "p5_pump_touching_bottom_q80", w: 280, h: 240,
		backdrop: sweep(rgbf{233, 231, 227}, rgbf{219, 216, 211}, 240), parts: pumpParts,
		shadow: softShadow(120, 200, 30, 70, 0.18, 16)},
		cam: camera{defocus: 0.8, vignette: 0.15, luma: 2.4, chroma: 1.6, quality: 80}})

	// A small white earbud case on a cool white sweep (2 % of the frame):
	// a lid seam, a green light, a contact shadow and one cast left. JPEG 85.
	caseIn := func(x, y float64) bool {
		return math.Pow(math.Abs(x-190)/22, 4)+math.Pow(math.Abs(y-150)/17, 4) <= 1
	}
	caseCol := func(x, y float64) rgbf {
		k := 1 - 0.12*math.Max(0, (y-140)/27) - 0.03*math.Abs(x-190)/22
		return rgbf{251 * k, 251 * k, 251 * k}
	}
	earbuds := []part{
		{in: grown(caseIn, 0.8), col: flat(rgbf{226, 227, 229})},
		{in: caseIn, col: caseCol, light: true},
		{in: and(caseIn, rect(0, 144.5, 400, 145.5)), col: flat(rgbf{205, 205, 208})},
		{in: ellipse(190, 156, 1.2, 1.2), col: flat(rgbf{60, 200, 90})},
	}
	out = append(out, shot{scene: scene{name: "p5_earbud_case_small_q85", w: 320, h: 240,
		backdrop: sweep(rgbf{246, 248, 250}, rgbf{234, 237, 240}, 240), parts: earbuds,
		shadow: shadows(softShadow(190, 167, 22, 2.5, 0.5, 1.5), softShadow(176, 169, 28, 5, 0.2, 6))},
		cam: camera{defocus: 0.6, vignette: 0.2, luma: 2.5, chroma: 1.8, quality: 85}})
	return out
}

// grain2 is a fine texture of the given depth.
func grain2(seed, depth float64) func(x, y float64) float64 {
	n := valueNoise(seed, 1.6)
	return func(x, y float64) float64 { return depth * n(x, y) }
}

// fifthFloor is what a fifth-set shot is held to: the least IoU and
// share of light parts kept, the most alpha on enclosed backdrop, glass
// alpha error and share of the shadow kept as product.
type fifthFloor struct{ iou, light, hole, glassMAE, shadow float64 }

// fifthFloors and fifthMean are the fifth set's figures after the shadow,
// spot and glass-gate work (shadow5) less a margin (IoU and light parts
// 0.01 to 0.02 under, enclosed backdrop, glass alpha error and shadow kept
// 0.02 to 0.03 over). The BEFORE figures, for the record: sneaker 0.757
// (shadow 0.07), shirt 0.912 (shadow 0.32), candle 0.914 (0.28), gift box
// 0.801 (0.58), kettle 0.814 (0.42), pump 0.698 (light 0.66), mean 0.666.
// The targets are far above several (the benchmark prints each).
// The teapot was 0.158 (light 0.149) before its faint, broken outline
// kept its body (branch whiteshade); its contact shadow's band under the
// body is now kept with it (0.36 of the shadow).
// The clear tumbler and the earbud case, refused as "no object" before
// the outline look (cutbare.go), are held to that work's figures (0.940
// with a glass alpha error of 0.116 and 0.02 of its shadow kept, and
// 0.884 with 0.07) less the margin.
// An IoU floor of 0 is a shot the cut-out answered "no object was found".
var (
	fifthFloors = map[string]fifthFloor{
		"p5_sneaker_white_warm_q82":      {iou: 0.75, light: 0.78, hole: 1, shadow: 0.03},
		"p5_teapot_hole_offwhite_q78":    {iou: 0.80, light: 0.97, hole: 0.05, shadow: 0.39},
		"p5_shirt_folded_coolgrey_q75":   {iou: 0.95, light: 0.98, hole: 1, shadow: 0.06},
		"p5_candle_cream_beige_q88":      {iou: 0.90, light: 0.98, hole: 1, shadow: 0.30},
		"p5_giftbox_pink_on_pink_q80":    {iou: 0.84, light: 0.83, hole: 1, shadow: 0.11},
		"p5_board_hole_coolwhite_q85":    {iou: 0.96, light: 0.98, hole: 1, shadow: 0.11},
		"p5_cartoon_cat_paper_q72":       {iou: 0.98, light: 0.98, hole: 1, shadow: 1},
		"p5_kettle_chrome_glossy_q85":    {iou: 0.80, light: 0.98, hole: 1, shadow: 0.45},
		"p5_glass_tumbler_coolwhite_q90": {iou: 0.92, hole: 1, glassMAE: 0.14, shadow: 0.05},
		"p5_glass_frosted_greygrad_q80":  {iou: 0.95, hole: 1, glassMAE: 0.17, shadow: 0.03},
		"p5_pump_touching_bottom_q80":    {iou: 0.87, light: 0.94, hole: 1, shadow: 0.07},
		"p5_earbud_case_small_q85":       {iou: 0.86, light: 0.97, hole: 1, shadow: 0.10},
	}
	fifthMean = 0.83
)
