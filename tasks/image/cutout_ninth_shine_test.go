package image

import "math"

// shineNinthShots is the ninth set's second part (cutout_ninth_test.go):
// clear and tinted glass, chrome and steel, and a dark product on a dark
// backdrop.
func shineNinthShots() []shot {
	out := glassNinthShots()
	return append(out, metalNinthShots()...)
}

// glassNinthShots are glass products. Their truth alpha is the glass's
// opacity (the docs' one-layer matting model); the figure is the
// silhouette's IoU.
func glassNinthShots() []shot {
	var out []shot
	// A clear glass tumbler on a light grey sweep graded 40 levels top to
	// bottom, so the docs promise its see-through body back as alpha (the
	// thin walls' 0.12 raised to their floor of 0.15): walls dense where
	// they turn away, a thick base, a rim ring seen from a little above,
	// a highlight; a faint contact shadow. JPEG 88.
	tumHalf := func(y float64) float64 { return 44 - 5*math.Max(0, math.Min(1, (y-90)/150)) }
	tumBody := func(x, y float64) bool { return y >= 90 && y < 240 && math.Abs(x-120) < tumHalf(y) }
	wall := func(x, y float64) float64 {
		e := math.Min(1, math.Abs(x-120)/tumHalf(math.Max(90, y)))
		return 0.12 + 0.62*math.Pow(e, 8)
	}
	wallCol := func(x, y float64) rgbf {
		e := math.Min(1, math.Abs(x-120)/tumHalf(math.Max(90, y)))
		v := 236 - 110*math.Pow(e, 8)
		return rgbf{v - 4, v, v + 2}
	}
	tumbler := []part{
		{in: union(tumBody, ellipse(120, 240, 39, 4), ellipse(120, 90, 44, 8)), col: wallCol, alpha: wall},
		{in: and(tumBody, func(x, y float64) bool { return y > 218 }), col: flat(rgbf{206, 214, 216}),
			alpha: func(x, y float64) float64 { return 0.55 }},
		{in: without(ellipse(120, 90, 44, 8), ellipse(120, 90, 41.5, 6.4)), col: flat(rgbf{150, 158, 160}),
			alpha: func(x, y float64) float64 { return 0.7 }},
		{in: tube(98, 104, 100, 214, 1.6), col: flat(rgbf{254, 254, 254}),
			alpha: func(x, y float64) float64 { return 0.8 }},
	}
	out = append(out, shot{scene: scene{name: "p9_tumbler_clear_sweep_q88", w: 240, h: 280, scale: 4,
		backdrop: sweep(rgbf{238, 238, 240}, rgbf{196, 197, 201}, 280), parts: tumbler,
		shadow: softShadow(122, 242, 40, 2.5, 0.3, 2)},
		cam: camera{defocus: 1.3, vignette: 0.1, luma: 2, chroma: 1.2, read: 1, quality: 88}, glass: true})

	// A green glass wine bottle with a cream paper label and a gold foil
	// capsule on a warm sweep graded 60 levels: the glass 0.55 opaque in
	// the middle, 0.9 at its sides, the sweep seen through it; a highlight
	// stripe; a soft shadow. Expected alpha: its opacity, the label and
	// capsule 1. JPEG 84.
	wineHalf := func(y float64) float64 {
		switch {
		case y < 110:
			return 13
		case y < 150:
			t := (y - 110) / 40
			return 13 + 23*t*t*(3-2*t)
		}
		return 36
	}
	wine := func(x, y float64) bool { return y >= 46 && y < 310 && math.Abs(x-130) < wineHalf(y) }
	wineAlpha := func(x, y float64) float64 {
		return 0.55 + 0.35*math.Pow(math.Min(1, math.Abs(x-130)/wineHalf(y)), 6)
	}
	wineCol := func(x, y float64) rgbf {
		k := 1 - 0.5*math.Pow(math.Min(1, math.Abs(x-130)/wineHalf(y)), 4)
		return rgbf{34 * k, 104 * k, 52 * k}
	}
	var lines []func(x, y float64) bool
	for k := range 3 {
		lines = append(lines, rect(110, 230+8*float64(k), 150, 232+8*float64(k)))
	}
	bottle9 := []part{
		{in: union(wine, ellipse(130, 310, 35, 3)), col: wineCol, alpha: wineAlpha},
		{in: and(wine, func(x, y float64) bool { return math.Abs(x-114) < 2 && y > 156 && y < 300 }),
			col: flat(rgbf{246, 250, 246}), alpha: func(x, y float64) float64 { return 0.8 }},
		{in: roundRect(100, 186, 160, 270, 2), col: rounded(rgbf{240, 230, 206}, 130, 36, -0.4, 0.18,
			grain2(921, 0.006))},
		{in: rect(112, 200, 148, 214), col: flat(rgbf{120, 32, 36})},
		{in: union(lines...), col: flat(rgbf{60, 56, 52})},
		{in: roundRect(115.5, 40, 144.5, 94, 2), col: rounded(rgbf{196, 160, 84}, 130, 15, -0.4, 0.45,
			grain2(922, 0.02))},
	}
	out = append(out, shot{scene: scene{name: "p9_bottle_green_label_q84", w: 260, h: 340, scale: 3,
		backdrop: sweep(rgbf{244, 240, 232}, rgbf{190, 182, 170}, 340), parts: bottle9,
		shadow: shadows(softShadow(130, 311, 36, 2.5, 0.4, 1.5), softShadow(150, 314, 60, 6, 0.16, 8))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.4, quality: 84}, glass: true})

	// A rose-tinted perfume flask with a gloss black cap on a flat
	// off-white card, lit from the left: thick glass walls denser than its
	// middle, a neck, a highlight. The docs say a tinted body on a flat
	// backdrop comes out opaque with the backdrop baked in: the expected
	// alpha is 1 inside the silhouette, and its IoU is the figure. PNG.
	flask := roundRect(70, 110, 170, 232, 14)
	flaskAlpha := func(x, y float64) float64 {
		if roundRect(78, 118, 162, 224, 9)(x, y) {
			return 0.45
		}
		return 0.85
	}
	capCol := func(x, y float64) rgbf {
		v := 20 + 90*math.Exp(-math.Pow((x-108)/3, 2)) + 10*math.Max(0, (y-50)/48)
		return rgbf{v, v, v + 2}
	}
	perfume := []part{
		{in: union(flask, rect(108, 96, 132, 111)), col: rounded(rgbf{226, 140, 164}, 120, 50, -0.5, 0.3, none),
			alpha: flaskAlpha},
		{in: tube(80, 126, 80, 216, 1.8), col: flat(rgbf{255, 255, 255}),
			alpha: func(x, y float64) float64 { return 0.8 }},
		{in: roundRect(98, 50, 142, 98, 4), col: capCol},
	}
	out = append(out, shot{scene: scene{name: "p9_perfume_rose_flat_png", w: 240, h: 260, scale: 4,
		backdrop: textured(plain(rgbf{244, 242, 238}), 923, 0.006), parts: perfume,
		shadow: shadows(softShadow(120, 233, 50, 2.5, 0.35, 1.5), softShadow(140, 236, 66, 6, 0.12, 8))},
		cam: camera{defocus: 1.1, vignette: 0.08, luma: 1.8, chroma: 1, read: 1}, glass: true})
	return out
}

// metalNinthShots are chrome and steel products and a black one on
// charcoal.
func metalNinthShots() []shot {
	var out []shot
	// A chrome kettle on a light grey seamless sweep: a domed body that
	// mirrors the studio in dark and bright bands and the floor at its foot,
	// a lid and a black knob, a black handle arching over the lid on two
	// posts (the sweep seen through the arch), a spout; a contact shadow.
	// JPEG 86.
	kHalf := func(y float64) float64 { return 40 + 40*math.Sqrt(math.Max(0, math.Min(1, (y-120)/140))) }
	kBody := func(x, y float64) bool { return y >= 120 && y < 260 && math.Abs(x-160) < kHalf(y) }
	chrome := func(x, y float64) rgbf {
		e := math.Max(-1, math.Min(1, (x-160)/kHalf(math.Max(120, math.Min(259, y)))))
		v := 206 - 160*math.Exp(-math.Pow((e+0.5)/0.14, 2)) + 46*math.Exp(-math.Pow((e-0.1)/0.08, 2)) -
			120*math.Exp(-math.Pow((e-0.68)/0.12, 2)) - 50*math.Pow(math.Abs(e), 5)
		if y > 236 {
			v = 0.5*v + 0.5*226
		}
		v = math.Max(10, math.Min(255, v))
		return rgbf{v, v + 1, v + 3}
	}
	spout := quad([2]float64{112, 206}, [2]float64{62, 150}, [2]float64{72, 144}, [2]float64{120, 182})
	handle := union(and(ring(160, 130, 58, 66), func(x, y float64) bool { return y < 124 }),
		tube(102, 124, 116, 142, 4), tube(218, 124, 204, 142, 4))
	kettleHole := and(ellipse(160, 130, 57, 57), func(x, y float64) bool { return y < 124 || x > 112 && x < 208 })
	kettle := []part{
		{in: union(kBody, spout, ellipse(160, 120, 40, 8)), col: chrome},
		{in: rect(80, 255, 240, 260), col: flat(rgbf{44, 44, 46})},
		{in: handle, col: func(x, y float64) rgbf {
			v := 26 + 40*math.Exp(-math.Pow((math.Hypot(x-160, y-130)-64)/1.5, 2))
			return rgbf{v, v, v + 1}
		}},
		{in: roundRect(150, 100, 170, 114, 4), col: flat(rgbf{30, 30, 32})},
	}
	out = append(out, shot{scene: scene{name: "p9_kettle_chrome_handle_q86", w: 320, h: 330, scale: 3,
		backdrop: seamless(rgbf{232, 233, 235}, rgbf{222, 223, 226}, 170, 330), parts: kettle, hole: kettleHole,
		shadow: shadows(softShadow(160, 261, 80, 3, 0.45, 2), softShadow(172, 265, 100, 8, 0.14, 10))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.4, quality: 86}})

	// A steel watch lying on mid-grey concrete, seen from above: a polished
	// case whose light sweeps round it, a black sunray dial with white
	// indices and hands, a crown, a bracelet of brushed centre links and
	// polished outer links with dark seams; a soft shadow to the right.
	// JPEG 82.
	caseCol := func(x, y float64) rgbf {
		a := math.Atan2(y-150, x-120)
		v := 150 + 90*math.Cos(a+2.3) + 20*math.Cos(3*a)
		return rgbf{v, v + 1, v + 4}
	}
	dialCol := func(x, y float64) rgbf {
		a := math.Atan2(y-150, x-120)
		v := 24 + 16*math.Pow(math.Cos(a+2.3), 2)
		return rgbf{v, v + 1, v + 4}
	}
	var marks []func(x, y float64) bool
	for k := range 12 {
		s, c := math.Sincos(float64(k) * math.Pi / 6)
		marks = append(marks, tube(120+28*s, 150-28*c, 120+33*s, 150-33*c, 1.1))
	}
	links := func(x, y float64) rgbf {
		seam := math.Mod(math.Abs(y-150), 10)
		v := 190.0
		if math.Abs(x-120) < 8 {
			v = 160 + 8*math.Sin(y*5)
		} else {
			v += 50 * math.Exp(-math.Pow((x-107)/3, 2))
		}
		if seam < 0.9 {
			v = 70
		}
		return rgbf{v, v + 1, v + 3}
	}
	watch := []part{
		{in: union(roundRect(100, 20, 140, 110, 3), roundRect(100, 190, 140, 286, 3)), col: links},
		{in: union(roundRect(96, 100, 144, 200, 8), roundRect(160, 143, 170, 157, 2)), col: caseCol},
		{in: ellipse(120, 150, 44, 44), col: caseCol},
		{in: ellipse(120, 150, 36, 36), col: dialCol},
		{in: union(marks...), col: flat(rgbf{236, 236, 232})},
		{in: union(tube(120, 150, 120, 127, 1.6), tube(120, 150, 147, 134, 1.1)), col: flat(rgbf{230, 230, 226})},
	}
	out = append(out, shot{scene: scene{name: "p9_watch_steel_concrete_q82", w: 240, h: 300, scale: 4,
		backdrop: concrete(rgbf{150, 150, 148}, rgbf{136, 136, 134}, 300, 924, 0.05), parts: watch,
		shadow: shadows(softShadow(126, 156, 48, 48, 0.3, 6), boxShadow(106, 24, 146, 290, 0.22, 5))},
		cam: camera{defocus: 1.2, vignette: 0.14, luma: 2.4, chroma: 1.6, read: 2, quality: 82}})

	// Black matte over-ear headphones on a charcoal backdrop under a soft
	// key from above: a headband whose top edge catches a rim of light,
	// ear cups with a sheen at their left, cushions a shade blacker, the
	// charcoal showing between band and cups; soft shadows under the cups.
	// JPEG 80.
	bandCol := func(x, y float64) rgbf {
		v := 32 + 40*math.Exp(-math.Pow((math.Hypot(x-160, y-170)-109)/2, 2))
		return rgbf{v, v, v + 1}
	}
	cupCol := func(cx float64) func(x, y float64) rgbf {
		return func(x, y float64) rgbf {
			v := 30 + 26*math.Exp(-math.Pow((x-cx+18)/5, 2))*math.Max(0, 1-math.Abs(y-196)/50)
			return rgbf{v, v, v + 1}
		}
	}
	phones := []part{
		{in: and(ring(160, 170, 97, 111), func(x, y float64) bool { return y < 170 }), col: bandCol},
		{in: roundRect(42, 150, 92, 250, 20), col: cupCol(67)},
		{in: roundRect(228, 150, 278, 250, 20), col: cupCol(253)},
		{in: union(roundRect(88, 160, 102, 240, 7), roundRect(218, 160, 232, 240, 7)), col: flat(rgbf{22, 22, 23})},
	}
	out = append(out, shot{scene: scene{name: "p9_headphones_black_charcoal_q80", w: 320, h: 300, scale: 3,
		backdrop: textured(sweep(rgbf{48, 48, 50}, rgbf{38, 38, 40}, 300), 925, 0.04), parts: phones,
		shadow: shadows(softShadow(68, 252, 30, 4, 0.4, 4), softShadow(252, 252, 30, 4, 0.4, 4))},
		cam: camera{defocus: 1.2, vignette: 0.16, luma: 2, chroma: 1.6, read: 3.5, quality: 80}})
	return out
}
