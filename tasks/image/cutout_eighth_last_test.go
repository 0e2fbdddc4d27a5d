package image

import "math"

// lastEighthShots closes the eighth set (cutout_eighth_test.go): thin
// legs and temples, a small product, one cut by the frame, a mirror-like
// metal and a drawing.
func lastEighthShots() []shot {
	var out []shot
	// A walnut bentwood chair on a warm light seamless sweep under a hard
	// light from the upper left: thin legs, a stretcher, a backrest of two
	// uprights, a top rail and a slat whose gaps show the sweep; each leg
	// and the seat throw a hard shadow to the right. JPEG 85.
	legs := union(tube(96, 176, 88, 268, 2), tube(204, 176, 212, 268, 2), tube(118, 160, 122, 252, 1.8),
		tube(182, 160, 178, 252, 1.8), tube(92, 228, 208, 228, 1.4))
	back := union(tube(118, 160, 112, 62, 2), tube(182, 160, 188, 62, 2), tube(110, 60, 190, 60, 4),
		tube(114, 100, 186, 100, 2.4))
	seat := union(ellipse(150, 166, 70, 16), and(ellipse(150, 172, 70, 16), func(x, y float64) bool { return y > 166 }))
	walnut := valueNoise(821, 3)
	wood := func(x, y float64) rgbf {
		k := 1 + 0.06*walnut(x*0.3, y) - 0.25*math.Max(0, (x-150)/80)
		return rgbf{118 * k, 78 * k, 50 * k}
	}
	chair := []part{
		{in: union(legs, back), col: wood},
		{in: seat, col: wood},
		{in: ellipse(150, 166, 66, 13), col: fromAbove(rgbf{150, 104, 70}, 153, 179, 0.2, none)},
	}
	chairHoles := union(rect(116, 65, 184, 97), rect(118, 103, 182, 150), rect(100, 186, 200, 225))
	legShadow := func(fx, fy float64) func(x, y float64) bool {
		return quad([2]float64{fx - 2, fy}, [2]float64{fx + 2, fy}, [2]float64{fx + 82, fy - 8},
			[2]float64{fx + 78, fy - 8})
	}
	chairShadow := union(legShadow(88, 268), legShadow(212, 268), legShadow(122, 252), legShadow(178, 252),
		ellipse(226, 244, 62, 9))
	out = append(out, shot{scene: scene{name: "p8_chair_thinlegs_hardlight_q85", w: 320, h: 290, scale: 3,
		backdrop: seamless(rgbf{240, 236, 230}, rgbf{232, 227, 220}, 150, 290), parts: chair, hole: chairHoles,
		shadow: hardShadow(chairShadow, 0.3)},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.4, quality: 85}})

	// Black sunglasses lying open on light concrete, seen from above the
	// front: thick acetate rims, dark lenses graded to brown with a sky
	// reflection, a keyhole bridge and two thin temples reaching back; soft
	// shadows below. PNG.
	lens := union(blob(105, 150, 40, 30, 2.6), blob(205, 150, 40, 30, 2.6))
	rims := grown(lens, 5)
	temples := union(tube(62, 132, 40, 58, 1.3), tube(248, 132, 272, 60, 1.3))
	lensCol := func(x, y float64) rgbf {
		t := (y - 120) / 60
		sky := 40 * math.Exp(-math.Pow((y-132+0.3*(x-100))/6, 2))
		return rgbf{30 + 40*t + sky, 32 + 26*t + sky, 36 + 14*t + sky}
	}
	glasses := []part{
		{in: union(temples, rims, tube(142, 136, 168, 136, 4)), col: func(x, y float64) rgbf {
			v := 20 + 40*math.Exp(-math.Pow((y-126)/2.5, 2))
			return rgbf{v, v, v + 1}
		}},
		{in: lens, col: lensCol},
	}
	out = append(out, shot{scene: scene{name: "p8_sunglasses_temples_concrete_png", w: 310, h: 230, scale: 3,
		backdrop: concrete(rgbf{222, 220, 216}, rgbf{208, 206, 202}, 230, 822, 0.03), parts: glasses,
		shadow: shadows(softShadow(108, 190, 42, 6, 0.25, 6), softShadow(208, 190, 42, 6, 0.25, 6),
			softShadow(56, 104, 4, 40, 0.12, 3), softShadow(266, 104, 4, 40, 0.12, 3))},
		cam: camera{defocus: 1.1, vignette: 0.1, luma: 2, chroma: 1.2, read: 1.2}})

	// A small lipstick (2 % of the frame) high on the right of a beige
	// sweep: a gold tube with a bright band, a slanted red bullet; a soft
	// shadow. JPEG 88.
	lipstick := []part{
		{in: rect(240, 108, 262, 150), col: rounded(rgbf{206, 164, 84}, 251, 11, -0.4, 0.5, none)},
		{in: rect(240, 108, 262, 111), col: flat(rgbf{246, 222, 160})},
		{in: rect(243, 84, 259, 108), col: rounded(rgbf{176, 26, 48}, 251, 8, -0.4, 0.4, none)},
		{in: quad([2]float64{243, 88}, [2]float64{259, 76}, [2]float64{259, 84}, [2]float64{243, 84}),
			col: flat(rgbf{150, 20, 40})},
	}
	out = append(out, shot{scene: scene{name: "p8_lipstick_small_offcentre_q88", w: 320, h: 240, scale: 3,
		backdrop: sweep(rgbf{238, 228, 214}, rgbf{224, 212, 196}, 240), parts: lipstick,
		shadow: shadows(softShadow(251, 151, 14, 2, 0.45, 1.5), softShadow(266, 152, 24, 4, 0.18, 5))},
		cam: camera{defocus: 1.2, vignette: 0.14, luma: 2.2, chroma: 1.4, read: 1.4, quality: 88}})

	// A natural canvas tote cut by the frame's left and bottom edges on
	// light grey concrete: a weave, a darker hem, a printed green mark,
	// two straps whose loops show the concrete. JPEG 76.
	toteBody := rect(-30, 118, 170, 300)
	strap := func(cx float64) func(x, y float64) bool {
		return without(and(ring(cx, 118, 22, 29), func(x, y float64) bool { return y < 118 }), toteBody)
	}
	toteHole := union(and(ellipse(30, 118, 22, 22), rect(-10, 0, 70, 117)),
		and(ellipse(120, 118, 22, 22), rect(80, 0, 160, 117)))
	canvas := valueNoise(823, 0.45)
	weave := func(x, y float64) rgbf {
		k := 1 + 0.02*canvas(x, y) + 0.01*math.Sin(x*4.2) - 0.08*math.Max(0, x-120)/50
		return rgbf{224 * k, 210 * k, 182 * k}
	}
	tote := []part{
		{in: union(toteBody, strap(30), strap(120)), col: weave, light: true},
		{in: rect(-30, 118, 170, 126), col: flat(rgbf{200, 186, 158})},
		{in: union(ellipse(70, 190, 24, 24), rect(40, 226, 100, 232)), col: flat(rgbf{46, 92, 64})},
	}
	out = append(out, shot{scene: scene{name: "p8_tote_cut_by_frame_q76", w: 300, h: 260, scale: 3,
		backdrop: concrete(rgbf{230, 230, 228}, rgbf{216, 216, 214}, 260, 824, 0.04), parts: tote, hole: toteHole,
		shadow: boxShadow(-30, 122, 178, 300, 0.22, 8)},
		cam: camera{defocus: 1.4, vignette: 0.14, luma: 2.6, chroma: 1.8, read: 1.6, quality: 76}})

	// A mirror-polished steel cocktail shaker on a glossy white floor that
	// mirrors it: a knob, a cap and a body reflecting the studio in sharp
	// dark and bright bands, seams between them. JPEG 86.
	shakerHalf := func(y float64) float64 {
		switch {
		case y < 62:
			return 12
		case y < 112:
			return 16 + 12*(y-62)/50
		}
		return 31 + 5*(y-112)/140
	}
	shaker := func(x, y float64) bool { return y >= 48 && y < 252 && math.Abs(x-150) < shakerHalf(y) }
	mirror := func(x, y float64) rgbf {
		e := (x - 150) / shakerHalf(math.Max(48, math.Min(251, y)))
		v := 214 - 170*math.Exp(-math.Pow((e+0.55)/0.12, 2)) + 40*math.Exp(-math.Pow((e-0.05)/0.07, 2)) -
			130*math.Exp(-math.Pow((e-0.72)/0.1, 2)) - 40*math.Pow(math.Abs(e), 6)
		if math.Abs(y-112) < 1.2 || math.Abs(y-62) < 1 {
			v -= 90
		}
		v = math.Max(8, math.Min(255, v))
		return rgbf{v, v + 1, v + 3}
	}
	shakerParts := []part{{in: union(shaker, ellipse(150, 252, 36, 3)), col: mirror, light: true}}
	floor := seamless(rgbf{246, 246, 247}, rgbf{238, 238, 240}, 140, 300)
	out = append(out, shot{scene: scene{name: "p8_shaker_mirror_glossy_q86", w: 300, h: 300, scale: 3,
		backdrop: glossy(floor, shakerParts, 254, 0.45, 26), parts: shakerParts,
		shadow: softShadow(150, 255, 38, 2.5, 0.4, 1.5)},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2, chroma: 1.2, read: 1.2, quality: 86}})

	// A rocket drawn in black ink with white fills on white paper and
	// scanned: a body and a round window filled with the paper's white,
	// red fins, an orange flame, a white nozzle. PNG.
	pp := paper(rgbf{251, 250, 246}, 300, 320)
	ink := rgbf{20, 20, 24}
	body := and(ellipse(150, 150, 42, 104), func(x, y float64) bool { return y < 222 })
	window := ellipse(150, 120, 17, 17)
	fins := union(quad([2]float64{112, 170}, [2]float64{80, 238}, [2]float64{116, 222}),
		quad([2]float64{188, 170}, [2]float64{220, 238}, [2]float64{184, 222}))
	nozzle := rect(130, 222, 170, 234)
	flame := ellipse(150, 256, 16, 22)
	rocket := []part{
		{in: grown(union(fins, flame), 2.2), col: flat(ink)},
		{in: fins, col: flat(rgbf{214, 58, 54})},
		{in: flame, col: flat(rgbf{246, 150, 40})},
		{in: grown(union(body, nozzle), 2.2), col: flat(ink)},
		{in: body, col: pp, light: true},
		{in: nozzle, col: pp, light: true},
		{in: rect(130, 221, 170, 223.5), col: flat(ink)},
		{in: grown(window, 2.6), col: flat(ink)},
		{in: window, col: pp, light: true},
	}
	out = append(out, shot{scene: scene{name: "p8_rocket_drawing_whitefill_png", w: 300, h: 300, scale: 3,
		backdrop: pp, parts: rocket},
		cam: camera{defocus: 0.9, vignette: 0.05, luma: 1.6, chroma: 0.8, read: 0.8}})
	return out
}
