package image

import "math"

// shineTenthShots is the tenth set's second part (cutout_tenth_test.go):
// clear and tinted glass, chrome, dark products on dark wood and slate,
// and a hard cast shadow.
func shineTenthShots() []shot {
	out := glassTenthShots()
	return append(out, darkTenthShots()...)
}

// glassTenthShots are glass products on graded sweeps, where the docs
// promise the body's opacity back as alpha. Their truth alpha is the
// glass's opacity; the figure is the silhouette's IoU.
func glassTenthShots() []shot {
	var out []shot
	// A clear glass beer mug with a thick handle on a blue-grey sweep
	// graded 46 levels: thin walls 0.12 opaque in the middle, dense where
	// they turn away, a thick base, a rim, a handle of solid glass whose
	// hole shows the sweep, a highlight; a faint contact shadow. JPEG 84.
	mug := rect(80, 90, 180, 270)
	mugAlpha := func(x, y float64) float64 {
		return 0.12 + 0.6*math.Pow(math.Min(1, math.Abs(x-130)/50), 8)
	}
	mugCol := func(x, y float64) rgbf {
		v := 232 - 100*math.Pow(math.Min(1, math.Abs(x-130)/50), 8)
		return rgbf{v - 3, v, v + 3}
	}
	handleHole := roundRect(188, 146, 212, 214, 10)
	handle := without(and(roundRect(176, 130, 226, 230, 20), func(x, y float64) bool { return x > 179 }), handleHole)
	glassMug := []part{
		{in: union(mug, ellipse(130, 270, 50, 4)), col: mugCol, alpha: mugAlpha},
		{in: and(mug, func(x, y float64) bool { return y > 250 }), col: flat(rgbf{200, 210, 216}),
			alpha: func(x, y float64) float64 { return 0.55 }},
		{in: handle, col: flat(rgbf{176, 188, 196}), alpha: func(x, y float64) float64 { return 0.6 }},
		{in: rect(80, 90, 180, 94), col: flat(rgbf{160, 170, 176}), alpha: func(x, y float64) float64 { return 0.7 }},
		{in: tube(94, 104, 94, 244, 1.8), col: flat(rgbf{254, 254, 254}),
			alpha: func(x, y float64) float64 { return 0.8 }},
	}
	out = append(out, shot{scene: scene{name: "p10_beermug_clear_handle_q84", w: 270, h: 310, scale: 3,
		backdrop: sweep(rgbf{234, 238, 244}, rgbf{188, 194, 206}, 310), parts: glassMug, hole: handleHole,
		shadow: softShadow(134, 272, 52, 2.5, 0.3, 2)},
		cam: camera{defocus: 1.3, vignette: 0.1, luma: 2, chroma: 1.2, read: 1, quality: 84}, glass: true})

	// A cobalt-blue glass dropper bottle with a black rubber bulb and a
	// white label on a warm grey sweep graded 50 levels: the glass 0.6
	// opaque in the middle and 0.92 at its sides, the sweep seen through
	// it; a highlight; a soft shadow to the right. Expected alpha: its
	// opacity, the label, collar and bulb 1. JPEG 82.
	dropHalf := func(y float64) float64 {
		if y < 130 {
			return 14
		}
		t := math.Min(1, (y-130)/24)
		return 14 + 30*t*t*(3-2*t)
	}
	drop := func(x, y float64) bool { return y >= 116 && y < 300 && math.Abs(x-120) < dropHalf(y) }
	dropAlpha := func(x, y float64) float64 {
		return 0.6 + 0.32*math.Pow(math.Min(1, math.Abs(x-120)/dropHalf(y)), 5)
	}
	cobalt := func(x, y float64) rgbf {
		k := 1 - 0.5*math.Pow(math.Min(1, math.Abs(x-120)/dropHalf(y)), 3)
		return rgbf{28 * k, 56 * k, 150 * k}
	}
	bulb := func(x, y float64) rgbf {
		v := 22 + 70*math.Exp(-math.Pow((x-112)/2.5, 2))*math.Max(0, 1-math.Abs(y-72)/24)
		return rgbf{v, v, v + 1}
	}
	dropper := []part{
		{in: union(drop, ellipse(120, 300, 43, 3)), col: cobalt, alpha: dropAlpha},
		{in: and(drop, func(x, y float64) bool { return math.Abs(x-106) < 1.8 && y > 160 && y < 290 }),
			col: flat(rgbf{240, 246, 255}), alpha: func(x, y float64) float64 { return 0.8 }},
		{in: roundRect(90, 190, 150, 262, 2), col: rounded(rgbf{246, 244, 238}, 120, 44, -0.4, 0.16, none)},
		{in: union(rect(104, 214, 136, 218), rect(108, 226, 132, 228)), col: flat(rgbf{40, 40, 44})},
		{in: roundRect(102, 96, 138, 118, 2), col: flat(rgbf{30, 30, 32})},
		{in: union(ellipse(120, 70, 15, 26), rect(110, 80, 130, 98)), col: bulb},
	}
	out = append(out, shot{scene: scene{name: "p10_dropper_cobalt_glass_q82", w: 240, h: 330, scale: 3,
		backdrop: sweep(rgbf{238, 234, 228}, rgbf{190, 184, 176}, 330), parts: dropper,
		shadow: shadows(softShadow(122, 301, 42, 2.5, 0.4, 1.5), softShadow(150, 305, 60, 6, 0.15, 9))},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.4, quality: 82}, glass: true})
	return out
}

// darkTenthShots are a chrome moka pot, dark products on dark wood and
// slate, and a bottle under a hard sun.
func darkTenthShots() []shot {
	var out []shot
	// A polished aluminium moka pot on a mid-grey sweep: eight facets on the
	// lower and upper chambers, each mirroring the studio at its own
	// brightness, a waist, a lid with a black knob, a spout, a black handle
	// whose loop shows the sweep; a contact shadow. JPEG 84.
	lower := quad([2]float64{114, 196}, [2]float64{186, 196}, [2]float64{198, 290}, [2]float64{102, 290})
	upper := quad([2]float64{114, 104}, [2]float64{186, 104}, [2]float64{194, 184}, [2]float64{106, 184})
	facet := func(x, y float64) rgbf {
		f := math.Floor((x - 100) / 12.5)
		v := 150 + 80*math.Sin(f*1.9+0.6) - 30*math.Max(0, (y-250)/40)
		v = math.Max(30, math.Min(250, v+6*math.Sin(y*0.3)))
		return rgbf{v, v + 1, v + 3}
	}
	mokaHole := roundRect(202, 124, 226, 168, 8)
	mokaHandle := without(and(roundRect(190, 110, 240, 182, 14), func(x, y float64) bool { return x > 192 }),
		mokaHole)
	moka := []part{
		{in: union(lower, upper, rect(118, 182, 182, 198), ellipse(150, 104, 38, 6),
			quad([2]float64{114, 104}, [2]float64{90, 98}, [2]float64{96, 112}, [2]float64{110, 122})), col: facet},
		{in: rect(116, 186, 184, 190), col: flat(rgbf{70, 72, 76})},
		{in: ellipse(150, 94, 8, 6), col: flat(rgbf{24, 24, 26})},
		{in: mokaHandle, col: func(x, y float64) rgbf {
			v := 26 + 30*math.Exp(-math.Pow((x-236)/2, 2))
			return rgbf{v, v, v + 1}
		}},
	}
	out = append(out, shot{scene: scene{name: "p10_moka_chrome_handle_q84", w: 300, h: 330, scale: 3,
		backdrop: seamless(rgbf{200, 201, 204}, rgbf{188, 189, 192}, 180, 330), parts: moka, hole: mokaHole,
		shadow: shadows(softShadow(150, 291, 50, 3, 0.45, 2), softShadow(164, 295, 74, 8, 0.14, 10))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.6, quality: 84}})

	// A black cast-iron skillet seen from above on dark walnut planks: a
	// rim that catches a thin light, a seasoned pan a shade lighter in the
	// middle, a long handle with a hanging hole that shows the walnut, a
	// helper lip opposite; a soft shadow to the lower right. JPEG 78.
	pan := ellipse(150, 150, 90, 90)
	skHole := ellipse(306, 150, 5, 6)
	iron := func(x, y float64) rgbf {
		d := math.Hypot(x-150, y-150)
		v := 30 + 30*math.Exp(-math.Pow((d-86)/1.6, 2)) + 8*math.Exp(-d/40) + 2*math.Sin(x*1.3)*math.Sin(y*1.1)
		return rgbf{v, v * 0.98, v * 0.97}
	}
	skillet := []part{
		{in: union(pan, without(tube(236, 150, 316, 150, 11), skHole), tube(60, 150, 48, 150, 8)), col: iron},
		{in: ring(150, 150, 78, 80), col: flat(rgbf{22, 21, 21})},
	}
	out = append(out, shot{scene: scene{name: "p10_skillet_black_walnut_q78", w: 350, h: 300, scale: 3,
		backdrop: p10Walnut(rgbf{84, 56, 38}, 34, 1021), parts: skillet, hole: skHole,
		shadow: shadows(softShadow(158, 158, 92, 92, 0.4, 8), boxShadow(236, 146, 322, 162, 0.35, 6))},
		cam: camera{defocus: 1.2, vignette: 0.14, luma: 2.2, chroma: 1.6, read: 2.8, quality: 78}})

	// A black leather Chelsea boot from the side on dark slate, toe right:
	// a shaft with a sheen along its back, an elastic gore a shade browner,
	// a pull loop at the back whose hole shows the slate, a welt and a
	// dark rubber sole; a soft shadow under the sole. JPEG 80.
	shaft := roundRect(110, 70, 182, 236, 8)
	foot := union(and(ellipse(188, 236, 82, 40), func(x, y float64) bool { return y < 236 }), shaft)
	bootHole := and(ellipse(124, 70, 8, 9), func(x, y float64) bool { return y < 70 })
	loop := and(ring(124, 70, 8, 13), func(x, y float64) bool { return y < 71 })
	leather := func(x, y float64) rgbf {
		v := 28 + 26*math.Exp(-math.Pow((x-118)/4, 2))*math.Max(0, 1-math.Abs(y-150)/90) +
			18*math.Exp(-math.Pow((y-206)/6, 2))*math.Max(0, (x-180)/80)
		return rgbf{v, v * 0.97, v * 0.95}
	}
	boot := []part{
		{in: union(foot, loop), col: leather},
		{in: quad([2]float64{150, 90}, [2]float64{176, 90}, [2]float64{172, 200}, [2]float64{154, 200}),
			col: flat(rgbf{42, 36, 32})},
		{in: rect(100, 236, 272, 250), col: fromAbove(rgbf{46, 44, 42}, 236, 250, 0.3, none)},
		{in: rect(100, 236, 272, 237.2), col: flat(rgbf{70, 66, 60})},
	}
	out = append(out, shot{scene: scene{name: "p10_boot_black_slate_q80", w: 310, h: 290, scale: 3,
		backdrop: p10Slate(rgbf{58, 62, 66}, 1022), parts: boot, hole: bootHole,
		shadow: shadows(softShadow(186, 251, 90, 4, 0.45, 3), softShadow(190, 256, 110, 10, 0.15, 10))},
		cam: camera{defocus: 1.2, vignette: 0.16, luma: 2, chroma: 1.6, read: 3.2, quality: 80}})

	// An olive powder-coated vacuum flask with a black cup-lid on an
	// off-white wall and floor under a hard sun from the upper left: a long
	// hard-edged shadow falls to the right along the floor, a bright rim
	// down the flask's left side. JPEG 74.
	flask := roundRect(120, 90, 170, 300, 10)
	olive := func(x, y float64) rgbf {
		e := (x - 145) / 25
		k := 1.1 - 0.35*(e+0.8)*(e+0.8)/3.24 + 0.02*math.Sin(x*2.1)*math.Sin(y*1.7)
		return rgbf{100 * k, 112 * k, 74 * k}
	}
	thermos := []part{
		{in: flask, col: olive},
		{in: roundRect(122, 56, 168, 92, 4), col: rounded(rgbf{36, 36, 38}, 145, 23, -0.6, 0.4, none)},
		{in: rect(120, 90, 170, 94), col: flat(rgbf{60, 62, 50})},
	}
	flaskShade := quad([2]float64{120, 298}, [2]float64{170, 286}, [2]float64{312, 262}, [2]float64{300, 282})
	out = append(out, shot{scene: scene{name: "p10_flask_olive_hardsun_q74", w: 320, h: 330, scale: 3,
		backdrop: seamless(rgbf{240, 238, 232}, rgbf{232, 229, 222}, 230, 330), parts: thermos,
		shadow: shadows(hardShadow(flaskShade, 0.34), softShadow(145, 301, 26, 2, 0.4, 1.2))},
		cam: camera{defocus: 1.1, vignette: 0.1, luma: 2.6, chroma: 1.8, read: 1.6, quality: 74}})
	return out
}
