package image

import "math"

// whiteEleventhShots is the eleventh set's first part
// (cutout_eleventh_test.go): white products on white backdrops.
func whiteEleventhShots() []shot {
	return []shot{p11TeapotShot(), p11SneakerShot(), p11TowelShot(), p11EarbudsShot(), p11PlateShot()}
}

// p11TeapotShot: a white glazed ceramic teapot on a white seamless sweep,
// lit from the upper left: a round body shading to the right, a lid with
// a knob and a seam a shade greyer, a long spout to the left, a loop
// handle to the right whose hole shows the sweep; a contact shadow and a
// soft one cast right. JPEG 82.
func p11TeapotShot() shot {
	body := union(ellipse(160, 172, 70, 58), ellipse(160, 120, 46, 12))
	spout := union(quad([2]float64{104, 196}, [2]float64{100, 164}, [2]float64{60, 124}, [2]float64{52, 130}),
		ellipse(56, 126, 6, 4))
	hole := without(and(ellipse(234, 166, 20, 28), func(x, y float64) bool { return x > 222 }), body)
	handle := without(and(ellipse(234, 166, 30, 38), func(x, y float64) bool { return x > 222 }), union(body, hole))
	glaze := rounded(rgbf{251, 251, 249}, 160, 70, -0.5, 0.13, grain2(1101, 0.003))
	teapot := []part{
		{in: outline(union(body, spout, handle), 1), col: flat(rgbf{232, 232, 230})},
		{in: union(body, spout, handle), col: glaze, light: true},
		{in: without(ellipse(160, 118, 40, 9), ellipse(160, 118, 38.6, 7.8)), col: flat(rgbf{214, 214, 212})},
		{in: ellipse(160, 104, 9, 7), col: rounded(rgbf{248, 248, 246}, 160, 9, -0.5, 0.12, none), light: true},
		{in: ellipse(132, 150, 7, 12), col: flat(rgbf{255, 255, 255}), light: true},
	}
	return shot{scene: scene{name: "p11_teapot_white_spout_hole_q82", w: 320, h: 280, scale: 3,
		backdrop: seamless(rgbf{250, 250, 250}, rgbf{245, 245, 244}, 150, 280), parts: teapot, hole: hole,
		shadow: shadows(softShadow(164, 229, 62, 3, 0.38, 1.8), softShadow(196, 224, 90, 14, 0.14, 14))},
		cam: camera{defocus: 1.3, vignette: 0.1, luma: 2.2, chroma: 1.4, read: 1.2, quality: 82}}
}

// p11SneakerShot: a white leather low-top sneaker from the side, toe to
// the left, well off the centre to the right of a white sweep: a toe cap,
// white laces, a perforated side panel, a heel tab, a white sole a shade
// greyer with a groove; a soft shadow under the sole. JPEG 80.
func p11SneakerShot() shot {
	upper := union(quad([2]float64{200, 150}, [2]float64{262, 112}, [2]float64{320, 104}, [2]float64{322, 176},
		[2]float64{200, 176}), ellipse(206, 160, 18, 16))
	sole := union(rect(188, 174, 326, 190), ellipse(190, 182, 6, 8), ellipse(326, 182, 4, 8))
	leather := func(x, y float64) rgbf {
		k := 0.99 - 0.05*math.Max(0, (y-150)/30) + 0.004*math.Sin(x*1.9)*math.Sin(y*2.3)
		return rgbf{251 * k, 251 * k, 250 * k}
	}
	var holes []func(x, y float64) bool
	for i := range 4 {
		holes = append(holes, ellipse(282+float64(i)*6, 150, 0.9, 0.9))
	}
	sneaker := []part{
		{in: outline(union(upper, sole), 0.9), col: flat(rgbf{226, 226, 224})},
		{in: upper, col: leather, light: true},
		{in: sole, col: fromAbove(rgbf{242, 242, 240}, 174, 190, 0.06, none), light: true},
		{in: rect(190, 181, 324, 182), col: flat(rgbf{206, 206, 204})},
		{in: union(tube(248, 126, 268, 118, 1.6), tube(256, 134, 278, 124, 1.6), tube(266, 140, 288, 128, 1.6)),
			col: flat(rgbf{240, 240, 238}), light: true},
		{in: ellipse(300, 110, 16, 5), col: flat(rgbf{196, 196, 194})},
		{in: union(holes...), col: flat(rgbf{200, 200, 198})},
		{in: roundRect(316, 106, 326, 150, 3), col: flat(rgbf{244, 244, 242}), light: true},
	}
	return shot{scene: scene{name: "p11_sneaker_white_offcentre_q80", w: 360, h: 240, scale: 3,
		backdrop: sweep(rgbf{250, 250, 249}, rgbf{242, 242, 241}, 240), parts: sneaker,
		shadow: shadows(softShadow(258, 191, 72, 3, 0.4, 2), softShadow(266, 194, 90, 8, 0.12, 10))},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.3, quality: 80}}
}

// p11TowelShot: a white terry towel folded in three on white Carrara
// marble, seen from a little above: a top face of terry loops, a front
// face where the folds show as rounded bands in shade, a woven border a
// shade greyer; a soft shadow to the lower right. JPEG 78.
func p11TowelShot() shot {
	loops := valueNoise(1102, 0.6)
	terry := func(x, y float64) rgbf {
		k := 0.985 + 0.018*loops(x, y) - 0.03*(y-90)/120
		return rgbf{250 * k, 250 * k, 249 * k}
	}
	front := func(x, y float64) rgbf {
		t := math.Mod(y-170, 14) / 14
		k := 0.96 - 0.07*t*t + 0.015*loops(x, y)
		return rgbf{248 * k, 248 * k, 247 * k}
	}
	top := roundRect(70, 90, 250, 172, 6)
	face := roundRect(68, 168, 252, 212, 7)
	towel := []part{
		{in: outline(union(top, face), 1), col: flat(rgbf{224, 224, 222})},
		{in: top, col: terry, light: true},
		{in: face, col: front, light: true},
		{in: union(rect(70, 150, 250, 156), rect(68, 196, 252, 202)), col: flat(rgbf{234, 234, 232}), light: true},
	}
	return shot{scene: scene{name: "p11_towel_white_folded_marble_q78", w: 320, h: 280, scale: 3,
		backdrop: p11Marble(rgbf{246, 245, 243}, 1103), parts: towel,
		shadow: shadows(boxShadow(74, 200, 258, 218, 0.3, 3), boxShadow(84, 100, 266, 224, 0.12, 12))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.4, quality: 78}}
}

// p11EarbudsShot: a small white earbuds case (about 2 % of the frame) in
// the lower left of a warm white sweep: a rounded pill, a hinge line a
// shade greyer, a green light; a contact shadow. JPEG 88.
func p11EarbudsShot() shot {
	pill := roundRect(70, 160, 116, 196, 14)
	earCase := []part{
		{in: outline(pill, 0.8), col: flat(rgbf{228, 227, 224})},
		{in: pill, col: rounded(rgbf{250, 250, 248}, 93, 23, -0.4, 0.12, grain2(1104, 0.003)), light: true},
		{in: rect(70, 170, 116, 171), col: flat(rgbf{206, 206, 204})},
		{in: ellipse(93, 180, 1.2, 1.2), col: flat(rgbf{120, 210, 130})},
	}
	return shot{scene: scene{name: "p11_earbudscase_white_small_q88", w: 320, h: 240, scale: 3,
		backdrop: sweep(rgbf{249, 248, 245}, rgbf{243, 241, 237}, 240), parts: earCase,
		shadow: shadows(softShadow(94, 197, 24, 2, 0.4, 1.4), softShadow(102, 196, 32, 6, 0.14, 6))},
		cam: camera{defocus: 1, vignette: 0.1, luma: 2, chroma: 1.2, read: 1.2, quality: 88}}
}

// p11PlateShot: a white stoneware plate seen from above on pale grey
// linen, cut by the frame's bottom edge: a raised rim lit on its upper
// side and in shade on its lower, a well a shade deeper; a soft shadow
// down and right. JPEG 86.
func p11PlateShot() shot {
	plate := ellipse(170, 190, 118, 118)
	well := ellipse(170, 190, 86, 86)
	rim := func(x, y float64) rgbf {
		a := math.Atan2(y-190, x-170)
		k := 1 - 0.04*math.Sin(a+0.6) + 0.003*math.Sin(x*2.1)
		return rgbf{250 * k, 250 * k, 248 * k}
	}
	dish := []part{
		{in: outline(plate, 0.9), col: flat(rgbf{222, 222, 220})},
		{in: plate, col: rim, light: true},
		{in: without(well, ellipse(170, 190, 84, 84)), col: flat(rgbf{230, 230, 228})},
		{in: ellipse(170, 190, 84, 84), col: fromAbove(rgbf{246, 246, 244}, 106, 274, 0.03, grain2(1105, 0.003)),
			light: true},
	}
	return shot{scene: scene{name: "p11_plate_white_bottom_edge_linen_q86", w: 340, h: 260, scale: 3,
		backdrop: p11Linen(rgbf{232, 231, 228}, 1106), parts: dish,
		shadow: softShadow(180, 200, 120, 120, 0.18, 10)},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2, chroma: 1.4, read: 1.2, quality: 86}}
}

// lightEleventhShots are light products on light backdrops of another
// hue, a drawing with white fills and straw on sand-coloured linen.
func lightEleventhShots() []shot {
	return []shot{p11MintBottleShot(), p11BagShot(), p11DogDrawingShot(), p11HatShot()}
}

// p11MintBottleShot: a pale mint matte water bottle with a white cap and
// a loop on a cream sweep, lit from the right: a round body, a shoulder,
// a cap whose carry loop shows the sweep, a pale print; a soft shadow to
// the left. JPEG 84.
func p11MintBottleShot() shot {
	half := func(y float64) float64 {
		if y < 110 {
			return 22
		}
		t := math.Min(1, (y-110)/20)
		return 22 + 16*t*t*(3-2*t)
	}
	bottle := func(x, y float64) bool { return y >= 96 && y < 300 && math.Abs(x-130) < half(y) }
	mint := func(x, y float64) rgbf {
		e := (x - 130) / half(y)
		k := 1.02 - 0.1*(e-0.5)*(e-0.5)/2.25 + 0.004*math.Sin(y*1.7)
		return rgbf{math.Min(255, 208*k), math.Min(255, 234*k), math.Min(255, 220*k)}
	}
	loopHole := ellipse(130, 70, 7, 6)
	loop := without(ellipse(130, 70, 13, 12), loopHole)
	mintBottle := []part{
		{in: union(bottle, ellipse(130, 300, 38, 3)), col: mint, light: true},
		{in: union(roundRect(106, 78, 154, 98, 4), and(loop, func(x, y float64) bool { return y < 80 })),
			col: rounded(rgbf{248, 247, 244}, 130, 24, 0.5, 0.12, none), light: true},
		{in: rect(106, 96, 154, 98), col: flat(rgbf{200, 212, 204})},
		{in: union(rect(112, 190, 148, 193), rect(118, 200, 142, 202)), col: flat(rgbf{170, 196, 182})},
	}
	return shot{scene: scene{name: "p11_bottle_mint_cream_q84", w: 260, h: 340, scale: 3,
		backdrop: textured(sweep(rgbf{248, 242, 228}, rgbf{240, 232, 214}, 340), 1107, 0.008), parts: mintBottle,
		hole:   and(loopHole, func(x, y float64) bool { return y < 78 }),
		shadow: shadows(softShadow(128, 301, 40, 2.5, 0.4, 1.5), softShadow(100, 298, 64, 8, 0.14, 10))},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.2, quality: 84}}
}

// p11BagShot: a beige canvas tote bag standing on an ivory sweep, lit
// from the left: a body with a fold shade at its sides, a hem a shade
// deeper, two webbing handles whose loops show the sweep; a soft shadow.
// JPEG 80.
func p11BagShot() shot {
	body := quad([2]float64{92, 150}, [2]float64{248, 150}, [2]float64{256, 300}, [2]float64{84, 300})
	h1, h2 := ellipse(128, 150, 22, 56), ellipse(212, 150, 22, 56)
	handles := and(union(without(ellipse(128, 150, 28, 62), h1), without(ellipse(212, 150, 28, 62), h2)),
		func(x, y float64) bool { return y < 150 })
	holes := and(union(h1, h2), func(x, y float64) bool { return y < 150 })
	canvas := func(x, y float64) rgbf {
		e := (x - 170) / 86
		k := 1.02 - 0.08*(e+0.6)*(e+0.6)/2.56 + 0.012*math.Cos(x*2.8)*math.Cos(y*2.8)
		return rgbf{228 * k, 212 * k, 184 * k}
	}
	bag := []part{
		{in: union(body, handles), col: canvas, light: true},
		{in: rect(90, 150, 250, 160), col: fromAbove(rgbf{218, 200, 170}, 150, 160, 0.05, none), light: true},
		{in: union(tube(96, 160, 92, 296, 1.2), tube(244, 160, 248, 296, 1.2)), col: flat(rgbf{206, 188, 158})},
	}
	return shot{scene: scene{name: "p11_bag_beige_ivory_handles_q80", w: 340, h: 330, scale: 3,
		backdrop: seamless(rgbf{250, 247, 238}, rgbf{246, 242, 230}, 250, 330), parts: bag, hole: holes,
		shadow: shadows(softShadow(172, 301, 88, 3, 0.38, 2), softShadow(196, 298, 110, 12, 0.12, 12))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.4, quality: 80}}
}

// p11DogDrawingShot: a cartoon dog drawn in brown-black ink on white
// paper and scanned: a head, a body and legs filled with the paper's white
// inside the outlines, floppy ears filled tan, a black nose and eyes, a
// red collar with a yellow tag, a tail. JPEG 74.
func p11DogDrawingShot() shot {
	pp := paper(rgbf{250, 249, 245}, 320, 280)
	ink := rgbf{36, 28, 24}
	head := ellipse(110, 100, 44, 38)
	body := union(ellipse(190, 170, 70, 42), rect(136, 190, 154, 232), rect(218, 190, 236, 232))
	ears := union(ellipse(72, 108, 12, 28), ellipse(148, 108, 12, 28))
	tail := tube(258, 160, 288, 118, 5)
	white := func(in func(x, y float64) bool) part { return part{in: in, col: pp, light: true} }
	dog := []part{
		{in: grown(union(body, tail), 2.2), col: flat(ink)},
		white(union(body, tail)),
		{in: grown(head, 2.2), col: flat(ink)},
		white(head),
		{in: grown(ears, 2), col: flat(ink)},
		{in: ears, col: flat(rgbf{206, 160, 104})},
		{in: union(ellipse(96, 92, 4, 5), ellipse(124, 92, 4, 5)), col: flat(ink)},
		{in: ellipse(110, 112, 8, 6), col: flat(rgbf{20, 18, 18})},
		{in: tube(100, 124, 120, 124, 1.2), col: flat(ink)},
		{in: tube(92, 140, 128, 140, 3.5), col: flat(rgbf{212, 50, 48})},
		{in: ellipse(110, 148, 4, 4), col: flat(rgbf{240, 200, 60})},
		{in: union(tube(145, 205, 145, 230, 1), tube(227, 205, 227, 230, 1)), col: flat(ink)},
	}
	return shot{scene: scene{name: "p11_dog_drawing_whitefill_q74", w: 320, h: 260, scale: 3,
		backdrop: pp, parts: dog},
		cam: camera{defocus: 0.9, vignette: 0.06, luma: 1.6, chroma: 1, read: 0.8, quality: 74}}
}

// p11HatShot: a natural straw sun hat seen from a little above on sand
// linen, lit from the upper left: a woven crown and a wide brim in
// plaited rows, a black ribbon round the crown; a soft shadow. PNG.
func p11HatShot() shot {
	brim := ellipse(170, 170, 130, 60)
	crown := union(and(ellipse(170, 130, 58, 50), func(x, y float64) bool { return y < 150 }),
		rect(112, 128, 228, 150), ellipse(170, 150, 58, 12))
	straw := func(x, y float64) rgbf {
		r := math.Hypot((x-170)/130, (y-170)/60)
		k := 1 + 0.05*math.Sin(r*90) + 0.03*math.Sin((x+y)*1.3) - 0.06*(x-40)/260
		return rgbf{226 * k, 200 * k, 150 * k}
	}
	hat := []part{
		{in: brim, col: straw, light: true},
		{in: crown, col: func(x, y float64) rgbf {
			k := 1.02 + 0.04*math.Sin(y*1.5) - 0.08*(x-112)/116
			return rgbf{224 * k, 198 * k, 148 * k}
		}, light: true},
		{in: and(rect(112, 134, 228, 146), crown), col: flat(rgbf{30, 28, 28})},
	}
	return shot{scene: scene{name: "p11_hat_straw_sand_linen_png", w: 340, h: 260, scale: 3,
		backdrop: p11Linen(rgbf{234, 220, 194}, 1108), parts: hat,
		shadow: softShadow(184, 182, 132, 62, 0.2, 10)},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2, chroma: 1.4, read: 1.2}}
}
