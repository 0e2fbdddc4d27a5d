package image

import "math"

// lightNinthShots is the ninth set's first part (cutout_ninth_test.go):
// white on white, light on light of another hue, and products on textured
// backdrops.
func lightNinthShots() []shot {
	out := whiteNinthShots()
	return append(out, texturedNinthShots()...)
}

// whiteNinthShots are white products on white backdrops.
func whiteNinthShots() []shot {
	var out []shot
	// A white ceramic dinner plate on a white seamless sweep, seen from a
	// little above and lit from the left: a glazed rim, a well whose far
	// wall is in shade, a thin lip line, the plate's edge a shade greyer at
	// the front; a contact shadow and a soft one. JPEG 86.
	glaze := grain2(901, 0.003)
	plateTop := func(x, y float64) rgbf {
		k := 0.985 - 0.035*(x-48)/224 + glaze(x, y)
		return rgbf{252 * k, 252 * k, 250 * k}
	}
	inWell := func(x, y float64) rgbf {
		k := 0.925 + 0.05*math.Max(0, math.Min(1, (y-97)/50)) + glaze(x, y)
		return rgbf{250 * k, 250 * k, 248 * k}
	}
	well := ellipse(160, 122, 70, 25)
	plate := []part{
		{in: ellipse(160, 129, 111, 41), col: fromAbove(rgbf{226, 226, 224}, 150, 170, 0.04, none), light: true},
		{in: ellipse(160, 124, 112, 42), col: plateTop, light: true},
		{in: without(ellipse(160, 122, 72, 26.4), well), col: flat(rgbf{233, 233, 231}), light: true},
		{in: well, col: inWell, light: true},
	}
	out = append(out, shot{scene: scene{name: "p9_plate_white_seamless_q86", w: 320, h: 240, scale: 4,
		backdrop: seamless(rgbf{251, 251, 251}, rgbf{244, 244, 245}, 90, 240), parts: plate,
		shadow: shadows(softShadow(160, 133, 110, 40, 0.3, 2.5), softShadow(178, 140, 122, 42, 0.12, 14))},
		cam: camera{defocus: 1.6, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.2, quality: 86}})

	// A white leather court sneaker on white paper, toe left, under a hard
	// key from the upper right: an upper shading down to the sole, a
	// stitched toe cap with perforations, a pale eyestay and laces, a
	// lining in the collar, a grey heel tab, a cupsole with a groove; a hard
	// shadow falls to the lower left from the sole. JPEG 74.
	upper := union(ellipse(98, 142, 44, 18), quad([2]float64{92, 124}, [2]float64{182, 92}, [2]float64{192, 158},
		[2]float64{84, 158}), roundRect(172, 86, 262, 158, 14))
	leather := func(x, y float64) rgbf {
		e := 1 - (x-54)/210
		k := 1 - 0.05*e*e - 0.08*math.Max(0, (y-118)/40) + grain2(902, 0.004)(x, y)
		return rgbf{250 * k, 250 * k, 249 * k}
	}
	var dots []func(x, y float64) bool
	for k := range 6 {
		dots = append(dots, ellipse(72+7*float64(k%3), 136+6*float64(k/3), 1.1, 1.1))
	}
	var laces []func(x, y float64) bool
	for k := range 5 {
		x := 146 + 9*float64(k)
		laces = append(laces, tube(x-3, 104-1.8*float64(k), x+5, 100-1.8*float64(k), 1.4))
	}
	sneaker := []part{
		{in: upper, col: leather, light: true},
		{in: tube(112, 124, 104, 158, 0.5), col: flat(rgbf{222, 222, 220})},
		{in: union(dots...), col: flat(rgbf{206, 206, 204})},
		{in: tube(144, 106, 188, 94, 5), col: flat(rgbf{241, 241, 240}), light: true},
		{in: union(laces...), col: flat(rgbf{252, 252, 252}), light: true},
		{in: ellipse(214, 89, 32, 6), col: flat(rgbf{196, 194, 190})},
		{in: roundRect(250, 92, 264, 140, 4), col: flat(rgbf{214, 214, 214})},
		{in: roundRect(52, 156, 272, 178, 7), col: fromAbove(rgbf{248, 248, 246}, 156, 178, 0.07, none), light: true},
		{in: rect(56, 167, 268, 168.4), col: flat(rgbf{206, 206, 204})},
	}
	sneakerShade := quad([2]float64{56, 177}, [2]float64{270, 177}, [2]float64{252, 192}, [2]float64{30, 192})
	out = append(out, shot{scene: scene{name: "p9_sneaker_white_hardshadow_q74", w: 330, h: 220, scale: 4,
		backdrop: textured(sweep(rgbf{250, 250, 249}, rgbf{240, 240, 239}, 220), 903, 0.01), parts: sneaker,
		shadow: shadows(softShadow(162, 178, 110, 2.5, 0.45, 1.5), hardShadow(sneakerShade, 0.2))},
		cam: camera{defocus: 1.4, vignette: 0.1, luma: 2.6, chroma: 1.8, read: 1.6, quality: 74}})

	// A white pillar candle on a warm white seamless sweep, lit from the
	// left, its right side in shade; a brighter top face with a melted
	// pool a shade deeper and a charred wick; a strong lens vignette, a
	// contact shadow and a soft one to the right. JPEG 90.
	candle := []part{
		{in: union(rect(104, 96, 196, 262), ellipse(150, 262, 46, 6)),
			col: rounded(rgbf{250, 248, 242}, 150, 46, -0.5, 0.14, grain2(904, 0.006)), light: true},
		{in: ellipse(150, 96, 46, 7), col: flat(rgbf{252, 251, 247}), light: true},
		{in: ellipse(150, 97, 38, 4.6), col: flat(rgbf{236, 233, 225}), light: true},
		{in: tube(150, 97, 152, 80, 1.1), col: fromAbove(rgbf{70, 60, 52}, 80, 97, 0.6, none)},
	}
	out = append(out, shot{scene: scene{name: "p9_candle_white_vignette_q90", w: 300, h: 320, scale: 3,
		backdrop: seamless(rgbf{249, 248, 245}, rgbf{241, 239, 235}, 150, 320), parts: candle,
		shadow: shadows(softShadow(150, 263, 44, 3, 0.4, 1.5), softShadow(196, 266, 70, 8, 0.14, 10))},
		cam: camera{defocus: 1.5, vignette: 0.24, luma: 2, chroma: 1.2, read: 1.2, quality: 90}})

	// A folded white shirt on white paper seen from above, lit from the
	// upper left: a collar with its points, the inside of the collar in
	// shade, a placket with its two stitch lines and five buttons, the
	// folded sleeves' creases; a soft shadow to the lower right. JPEG 82.
	cotton := func(x, y float64) rgbf {
		k := 0.985 - 0.03*(x-80)/160 - 0.02*(y-70)/210 + 0.005*math.Sin(x*3.1)*math.Sin(y*2.9)
		return rgbf{252 * k, 252 * k, 251 * k}
	}
	var buttons, buttonRims []func(x, y float64) bool
	for k := range 5 {
		y := 112 + 38*float64(k)
		buttons = append(buttons, ellipse(160, y, 3.4, 3.4))
		buttonRims = append(buttonRims, ring(160, y, 2.6, 3.4))
	}
	points := union(quad([2]float64{160, 62}, [2]float64{120, 70}, [2]float64{130, 106}, [2]float64{160, 86}),
		quad([2]float64{160, 62}, [2]float64{200, 70}, [2]float64{190, 106}, [2]float64{160, 86}))
	shirt := []part{
		{in: union(roundRect(80, 70, 240, 280, 5), and(ellipse(160, 74, 44, 16), rect(0, 0, 400, 80))),
			col: cotton, light: true},
		{in: ellipse(160, 74, 32, 9), col: flat(rgbf{222, 222, 221})},
		{in: union(tube(82, 150, 128, 204, 0.9), tube(238, 150, 192, 204, 0.9), rect(82, 240, 238, 241.4)),
			col: flat(rgbf{232, 232, 231})},
		{in: rect(153, 86, 167, 280), col: fromAbove(rgbf{248, 248, 247}, 86, 280, 0.02, none), light: true},
		{in: union(rect(153, 86, 153.8, 280), rect(166.2, 86, 167, 280)), col: flat(rgbf{230, 230, 229})},
		{in: union(buttons...), col: flat(rgbf{236, 236, 234}), light: true},
		{in: union(buttonRims...), col: flat(rgbf{204, 204, 202})},
		{in: points, col: fromAbove(rgbf{251, 251, 250}, 62, 106, 0.04, none), light: true},
		{in: union(tube(160, 86, 130, 106, 0.5), tube(160, 86, 190, 106, 0.5)), col: flat(rgbf{226, 226, 225})},
	}
	out = append(out, shot{scene: scene{name: "p9_shirt_white_folded_q82", w: 320, h: 330, scale: 3,
		backdrop: textured(sweep(rgbf{248, 248, 247}, rgbf{240, 240, 239}, 330), 905, 0.008), parts: shirt,
		shadow: boxShadow(86, 78, 246, 286, 0.16, 8)},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.2, quality: 82}})
	return out
}

// texturedNinthShots are light products of another hue on off-white, and
// products on terrazzo, oak and kraft paper.
func texturedNinthShots() []shot {
	var out []shot
	// A pastel mint ceramic jug on a cream seamless sweep, lit from the
	// left: a round belly, a lip with the darker inside, a pinched spout, a
	// glaze highlight and a handle whose hole shows the cream sweep; a
	// contact shadow and a soft one to the right. JPEG 84.
	jugHalf := func(y float64) float64 { return 34 + 20*math.Sin(math.Pi*math.Min(1, (y-80)/190)) }
	jugBody := func(x, y float64) bool { return y >= 80 && y < 250 && math.Abs(x-150) < jugHalf(y) }
	jugHandle := without(and(ring(206, 152, 22, 31), func(x, y float64) bool { return x > 190 }), jugBody)
	jugHole := without(and(ellipse(206, 152, 22, 22), func(x, y float64) bool { return x > 190 }), jugBody)
	jug := []part{
		{in: union(jugBody, jugHandle, ellipse(150, 80, 36, 5),
			quad([2]float64{118, 74}, [2]float64{98, 68}, [2]float64{106, 86}, [2]float64{122, 90})),
			col: rounded(rgbf{196, 226, 212}, 150, 56, -0.5, 0.2, grain2(906, 0.004)), light: true},
		{in: ellipse(150, 80, 32, 3.4), col: flat(rgbf{146, 176, 162})},
		{in: and(jugBody, func(x, y float64) bool { return math.Abs(x-126) < 2.2 && y > 108 && y < 226 }),
			col: flat(rgbf{232, 246, 238}), light: true},
	}
	out = append(out, shot{scene: scene{name: "p9_jug_mint_cream_handle_q84", w: 300, h: 300, scale: 3,
		backdrop: seamless(rgbf{246, 241, 230}, rgbf{238, 232, 220}, 170, 300), parts: jug, hole: jugHole,
		shadow: shadows(softShadow(150, 251, 40, 2.5, 0.4, 1.5), softShadow(178, 255, 70, 8, 0.16, 10))},
		cam: camera{defocus: 1.4, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.3, quality: 84}})

	// A pale peach cosmetics box with a lid on a cool off-white paper, left
	// of the centre, seen from above the front and lit from the upper
	// left: a bright top, a lid band with its lower edge, a front, a side
	// in shade, a gold foil ring; a soft shadow to the right. JPEG 88.
	peach := []part{
		{in: roundRect(60, 96, 180, 176, 3), col: fromAbove(rgbf{246, 212, 194}, 116, 176, 0.04,
			grain2(907, 0.004)), light: true},
		{in: rect(58, 92, 182, 116), col: flat(rgbf{250, 221, 205}), light: true},
		{in: rect(58, 115, 182, 116.4), col: flat(rgbf{224, 188, 170})},
		{in: quad([2]float64{60, 93}, [2]float64{88, 76}, [2]float64{208, 76}, [2]float64{182, 93}),
			col: flat(rgbf{252, 228, 214}), light: true},
		{in: quad([2]float64{181, 93}, [2]float64{208, 76}, [2]float64{208, 158}, [2]float64{181, 176}),
			col: fromAbove(rgbf{230, 194, 176}, 76, 176, 0.05, none), light: true},
		{in: ring(120, 146, 10, 12), col: flat(rgbf{204, 170, 108})},
	}
	peachShade := quad([2]float64{182, 176}, [2]float64{208, 158}, [2]float64{232, 156}, [2]float64{206, 178})
	out = append(out, shot{scene: scene{name: "p9_box_peach_offwhite_q88", w: 300, h: 220, scale: 4,
		backdrop: textured(sweep(rgbf{242, 240, 236}, rgbf{232, 230, 226}, 220), 908, 0.01), parts: peach,
		shadow: shadows(boxShadow(62, 172, 208, 178, 0.3, 3), hardShadow(peachShade, 0.12))},
		cam: camera{defocus: 1.3, vignette: 0.1, luma: 2, chroma: 1.3, read: 1.2, quality: 88}})

	// A white espresso cup on its saucer on a cream terrazzo, seen from
	// above the front, lit from the left: the cup's inside in shade under
	// its rim, a saucer with a well, a loop handle whose hole shows the
	// terrazzo; a soft shadow round the saucer. JPEG 80.
	cupHalf := func(y float64) float64 { return 38 - 10*math.Pow((y-120)/66, 2) }
	cupBody := func(x, y float64) bool { return y >= 120 && y < 186 && math.Abs(x-150) < cupHalf(y) }
	cupHandle := without(and(ring(196, 146, 9, 15), func(x, y float64) bool { return x > 182 }), cupBody)
	cupHole := without(and(ellipse(196, 146, 9, 9), func(x, y float64) bool { return x > 182 }), cupBody)
	porcelain := rounded(rgbf{251, 251, 249}, 150, 40, -0.5, 0.14, grain2(909, 0.003))
	cup := []part{
		{in: ellipse(150, 192, 92, 30), col: fromAbove(rgbf{240, 240, 238}, 162, 222, 0.05, none), light: true},
		{in: ellipse(150, 188, 88, 27), col: rounded(rgbf{250, 250, 248}, 150, 88, -0.4, 0.06, none), light: true},
		{in: ellipse(150, 186, 50, 14), col: flat(rgbf{238, 238, 236}), light: true},
		{in: union(cupBody, cupHandle, ellipse(150, 120, 38, 11)), col: porcelain, light: true},
		{in: ellipse(150, 121, 34.5, 9), col: fromAbove(rgbf{206, 206, 204}, 112, 130, -0.12, none)},
	}
	out = append(out, shot{scene: scene{name: "p9_cup_white_terrazzo_q80", w: 300, h: 270, scale: 3,
		backdrop: terrazzo(rgbf{236, 232, 224}, 910), parts: cup, hole: cupHole,
		shadow: shadows(softShadow(156, 196, 93, 31, 0.22, 5), softShadow(170, 202, 100, 34, 0.1, 12))},
		cam: camera{defocus: 1.3, vignette: 0.14, luma: 2.4, chroma: 1.6, read: 1.4, quality: 80}})

	// A cognac leather card holder lying turned on oak planks, lit from the
	// upper left: a pebbled grain, a card slot, a stitched border; a small
	// hard contact shadow to the lower right and a soft one. JPEG 78.
	pebble := valueNoise(911, 0.6)
	hide := func(x, y float64) rgbf {
		k := 1.05 - 0.12*(x-70)/120 + 0.04*pebble(x, y)
		return rgbf{172 * k, 100 * k, 56 * k}
	}
	stitch := func(x, y float64) rgbf {
		if math.Sin((x+y)*1.7) > 0 {
			return rgbf{226, 196, 150}
		}
		return hide(x, y)
	}
	holder := []part{
		{in: turned(130, 100, 56, 38, 8), col: hide},
		{in: without(turned(130, 100, 51, 33, 8), turned(130, 100, 50.2, 32.2, 8)), col: stitch},
		{in: turned(132, 86, 44, 0.6, 8), col: flat(rgbf{96, 52, 28})},
	}
	out = append(out, shot{scene: scene{name: "p9_cardholder_oak_planks_q78", w: 260, h: 200, scale: 4,
		backdrop: woodGrain(rgbf{214, 174, 126}, 46, 912), parts: holder,
		shadow: shadows(hardShadow(turned(133, 103, 56, 38, 8), 0.3), softShadow(136, 108, 62, 44, 0.12, 10))},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.6, quality: 78}})

	// A natural cotton drawstring pouch on kraft paper, lit from the left:
	// a gathered neck with folds, a body with soft vertical folds, a black
	// stamp, a cord whose two tails hang out, one of them over the paper,
	// each ending in a knot; a soft shadow below. JPEG 76.
	weave := func(x, y float64) rgbf {
		k := 1.02 - 0.1*(x-80)/120 - 0.05*math.Abs(math.Sin((x-80)*0.09)) + 0.012*math.Sin(x*3.3)*math.Sin(y*3.1)
		return rgbf{234 * k, 224 * k, 202 * k}
	}
	ruffle := func(x, y float64) rgbf {
		k := 0.96 - 0.1*math.Abs(math.Sin(x*0.35))
		return rgbf{232 * k, 222 * k, 200 * k}
	}
	cord := rgbf{236, 230, 214}
	pouch := []part{
		{in: union(roundRect(80, 100, 200, 250, 10), quad([2]float64{90, 104}, [2]float64{190, 104},
			[2]float64{170, 80}, [2]float64{110, 80})), col: weave, light: true},
		{in: ellipse(140, 78, 34, 10), col: ruffle, light: true},
		{in: ellipse(140, 170, 14, 9), col: flat(rgbf{58, 56, 54})},
		{in: union(tube(126, 84, 112, 150, 1.3), tube(156, 84, 232, 150, 1.3), ellipse(112, 152, 3.4, 3.4),
			ellipse(233, 152, 3.4, 3.4)), col: rounded(cord, 150, 100, -0.5, 0.06, none), light: true},
	}
	out = append(out, shot{scene: scene{name: "p9_pouch_cream_kraft_q76", w: 280, h: 300, scale: 3,
		backdrop: kraftPaper(rgbf{194, 152, 110}, 913), parts: pouch,
		shadow: shadows(softShadow(142, 251, 62, 4, 0.35, 3), softShadow(160, 256, 80, 10, 0.15, 12),
			softShadow(236, 155, 4, 3, 0.3, 2))},
		cam: camera{defocus: 1.3, vignette: 0.14, luma: 2.6, chroma: 1.8, read: 1.6, quality: 76}})
	return out
}
