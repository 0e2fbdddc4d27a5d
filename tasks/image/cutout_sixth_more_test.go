package image

import "math"

// moreSixthShots is the sixth set's second half (cutout_sixth_test.go): a
// drawing, glass, chrome, a small product, products with holes.
func moreSixthShots() []shot {
	var out []shot
	// A cartoon on white paper: a round face whose white fill is the
	// paper's inside a black outline, dot eyes and a smile, and a speech
	// bubble with a tail, white inside its outline but for three lines of
	// "text"; the bubble's tail points at the face. JPEG 70.
	pp := paper(rgbf{254, 254, 252}, 300, 260)
	ink := rgbf{18, 18, 22}
	face := ellipse(90, 200, 48, 46)
	bubble := union(ellipse(200, 82, 80, 46), quad([2]float64{150, 110}, [2]float64{174, 118},
		[2]float64{122, 150}))
	text := union(rect(160, 64, 246, 68), rect(150, 80, 252, 84), rect(162, 96, 226, 100))
	smile := and(ring(90, 206, 20, 22.5), func(x, y float64) bool { return y > 212 })
	cartoon := []part{
		{in: grown(union(face, bubble), 2.4), col: flat(ink)},
		{in: face, col: pp, light: true},
		{in: bubble, col: pp, light: true},
		{in: union(text, smile, ellipse(74, 188, 4, 6), ellipse(106, 188, 4, 6)), col: flat(ink)},
	}
	out = append(out, shot{scene: scene{name: "p6_cartoon_speech_bubble_q70", w: 300, h: 260, backdrop: pp,
		parts: cartoon}, cam: camera{defocus: 0.4, vignette: 0.06, luma: 1.6, chroma: 1.2, quality: 70}})

	// A clear wine glass on a light grey gradient: a bowl nearly
	// see-through in its middle and denser at its sides, a rim, a thin
	// stem and a round foot seen nearly edge-on, a highlight. JPEG 88.
	bowlHalf := func(y float64) float64 { return 48 * math.Sqrt(math.Max(0, 1-math.Pow((y-115)/60, 2))) }
	bowl := func(x, y float64) bool { return y >= 62 && math.Abs(x-120) < bowlHalf(y) }
	bowlAlpha := func(x, y float64) float64 {
		return 0.1 + 0.62*math.Pow(math.Min(1, math.Abs(x-120)/math.Max(bowlHalf(y), 1)), 6)
	}
	bowlCol := func(x, y float64) rgbf {
		v := 238 - 80*math.Pow(math.Min(1, math.Abs(x-120)/math.Max(bowlHalf(y), 1)), 8)
		return rgbf{v - 2, v, v}
	}
	stem := union(rect(117, 170, 123, 266), ellipse(120, 172, 9, 5))
	foot := ellipse(120, 268, 40, 5)
	wine := []part{
		{in: bowl, col: bowlCol, alpha: bowlAlpha},
		{in: without(ellipse(120, 62, bowlHalf(62)+0.5, 3.5), ellipse(120, 62, bowlHalf(62)-2, 2)),
			col: flat(rgbf{206, 212, 214}), alpha: func(x, y float64) float64 { return 0.7 }},
		{in: union(stem, foot), col: flat(rgbf{214, 220, 220}), alpha: func(x, y float64) float64 { return 0.55 }},
		{in: and(bowl, func(x, y float64) bool { return math.Abs(x-98) < 2 && y > 80 && y < 140 }),
			col: flat(rgbf{253, 253, 253}), alpha: func(x, y float64) float64 { return 0.8 }},
	}
	out = append(out, shot{scene: scene{name: "p6_wineglass_stem_lgrey_q88", w: 240, h: 320,
		backdrop: sweep(rgbf{236, 236, 237}, rgbf{206, 207, 209}, 320), parts: wine,
		shadow: softShadow(124, 270, 44, 4, 0.15, 4)},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 1.8, chroma: 1, quality: 88}, glass: true})

	// A green glass wine bottle on white seamless, no shadow: a long neck
	// under a dark foil capsule, round shoulders, a body denser at its
	// sides, a highlight. JPEG 76.
	wineBottle := union(rect(80, 140, 140, 290), and(ellipse(110, 140, 30, 34), rect(0, 0, 300, 140)),
		rect(101, 60, 119, 120), ellipse(110, 290, 30, 3))
	green := append(glassBody(wineBottle, rgbf{30, 96, 52}, 0.6, 0.92, 110, 30, 92),
		part{in: rect(99, 40, 121, 74), col: flat(rgbf{38, 62, 44})})
	out = append(out, shot{scene: scene{name: "p6_bottle_green_white_q76", w: 220, h: 320,
		backdrop: sweep(rgbf{253, 253, 253}, rgbf{243, 243, 244}, 320), parts: green},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2.4, chroma: 1.6, quality: 76}, glass: true})

	// A chrome cocktail shaker on pale blue: a cap, sloping shoulders and a
	// body reflecting the studio in vertical bands — two dark ones, a
	// white one, and the pale blue backdrop at its sides. JPEG 82.
	shaker := union(ellipse(120, 62, 14, 9), rect(106, 62, 134, 82), quad([2]float64{106, 82},
		[2]float64{134, 82}, [2]float64{150, 130}, [2]float64{90, 130}), rect(90, 130, 150, 270),
		ellipse(120, 270, 30, 4))
	chromeCol := func(x, y float64) rgbf {
		half := 30.0
		if y < 130 {
			half = math.Max(14, 14+(y-82)/48*16)
		}
		e := math.Max(-1, math.Min(1, (x-120)/half))
		v := 228 - 125*math.Exp(-math.Pow((e+0.45)/0.12, 2)) - 90*math.Exp(-math.Pow((e-0.55)/0.1, 2)) +
			25*math.Exp(-math.Pow((e-0.1)/0.06, 2))
		b := math.Pow(math.Abs(e), 4) // the backdrop at the sides
		return rgbf{v*(1-b) + 220*b, v*(1-b) + 230*b + 2, v*(1-b) + 242*b + 6}
	}
	out = append(out, shot{scene: scene{name: "p6_shaker_chrome_paleblue_q82", w: 240, h: 310,
		backdrop: sweep(rgbf{226, 235, 246}, rgbf{212, 223, 237}, 310),
		parts: []part{{in: shaker, col: chromeCol, light: true},
			{in: rect(90, 128, 150, 132), col: flat(rgbf{120, 124, 130})}},
		shadow: shadows(softShadow(120, 273, 34, 2.5, 0.45, 1.5), softShadow(130, 276, 50, 6, 0.15, 8))},
		cam: camera{defocus: 0.6, vignette: 0.18, luma: 2, chroma: 1.2, quality: 82}})

	// A small cream ceramic ring (2 % of the frame) at the upper right of
	// a white seamless, no shadow: lit from the upper left, its hole
	// showing the white. JPEG 92.
	donut := without(ellipse(230, 80, 26, 26), ellipse(230, 80, 10, 10))
	torus := func(x, y float64) rgbf {
		r := math.Hypot(x-230, y-80)
		nx, ny := (x-230)/math.Max(r, 1), (y-80)/math.Max(r, 1)
		s := (r - 18) / 8 // −1 inner edge .. 1 outer edge
		k := 0.95 - 0.06*(nx+ny)*s - 0.05*s*s
		return rgbf{246 * k, 241 * k, 230 * k}
	}
	out = append(out, shot{scene: scene{name: "p6_ring_small_white_q92", w: 320, h: 240,
		backdrop: sweep(rgbf{252, 252, 251}, rgbf{244, 244, 243}, 240),
		parts:    []part{{in: donut, col: torus, light: true}}, hole: ellipse(230, 80, 10, 10)},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 1.5, chroma: 0.8, quality: 92}})

	// A pair of scissors on a light wooden table, open, their steel blades
	// cut by the frame's top, their pale grey plastic handles two rings
	// whose holes show the wood; a soft shadow. JPEG 72.
	holes := union(ellipse(100, 236, 17, 10), ellipse(160, 236, 17, 10))
	handles := without(union(ellipse(100, 236, 28, 20), ellipse(160, 236, 28, 20)), holes)
	bladeA := quad([2]float64{150, 214}, [2]float64{166, 214}, [2]float64{104, -4}, [2]float64{96, -4})
	bladeB := quad([2]float64{94, 214}, [2]float64{110, 214}, [2]float64{164, -4}, [2]float64{156, -4})
	steel := func(x, y float64) rgbf {
		v := 196 + 34*math.Sin(x*0.5) - 0.1*y
		return rgbf{v, v + 2, v + 5}
	}
	scissors := []part{
		{in: union(bladeA, bladeB), col: steel},
		{in: ellipse(130, 109, 5, 5), col: flat(rgbf{120, 120, 126})},
		{in: handles, col: litWhite(rgbf{238, 238, 236}, 72, 188, 0.12, 0.004), light: true},
	}
	out = append(out, shot{scene: scene{name: "p6_scissors_top_edge_wood_q72", w: 260, h: 300,
		backdrop: table(rgbf{228, 208, 176}, 300, 71), parts: scissors, hole: holes,
		shadow: softShadow(134, 252, 64, 8, 0.3, 5)},
		cam: camera{defocus: 0.7, vignette: 0.14, luma: 2.8, chroma: 2.2, quality: 72}})
	return out
}
