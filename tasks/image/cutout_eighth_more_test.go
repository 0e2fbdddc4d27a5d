package image

import "math"

// moreEighthShots is the eighth set's second part (cutout_eighth_test.go):
// clear and tinted glass, translucent plastic, a dark product on a dark
// backdrop, thin legs and temples.
func moreEighthShots() []shot {
	var out []shot
	// A clear glass perfume flask on a cool pale grey sweep: a round body
	// of thick glass, nearly see-through in its middle and dense at its
	// rim, a pale straw perfume in its lower part, a short neck, a silver
	// collar and a matte gold cap, a curved highlight. JPEG 88.
	flask := ellipse(150, 176, 64, 64)
	flaskAlpha := func(x, y float64) float64 {
		e := math.Min(1, math.Hypot(x-150, y-176)/64)
		a := 0.1 + 0.55*math.Pow(e, 6)
		if y > 150 && e < 0.86 {
			a += 0.14 // the perfume
		}
		return math.Min(0.8, a)
	}
	flaskCol := func(x, y float64) rgbf {
		e := math.Min(1, math.Hypot(x-150, y-176)/64)
		v := 238 - 72*math.Pow(e, 8)
		if y > 150 && e < 0.86 {
			return rgbf{v, v - 8, v - 46}
		}
		return rgbf{v - 3, v, v + 1}
	}
	highlight := and(ring(150, 176, 50, 54), func(x, y float64) bool { return x < 132 && y < 196 })
	perfume := []part{
		{in: union(flask, rect(138, 100, 162, 118)), col: flaskCol, alpha: flaskAlpha},
		{in: highlight, col: flat(rgbf{254, 254, 254}), alpha: func(x, y float64) float64 { return 0.8 }},
		{in: rect(132, 88, 168, 102), col: rounded(rgbf{214, 216, 220}, 150, 18, -0.3, 0.5, none)},
		{in: roundRect(128, 42, 172, 90, 4), col: rounded(rgbf{202, 170, 110}, 150, 22, -0.4, 0.3,
			grain2(811, 0.01))},
	}
	out = append(out, shot{scene: scene{name: "p8_perfume_clear_palegrey_q88", w: 300, h: 280, scale: 3,
		backdrop: sweep(rgbf{237, 239, 242}, rgbf{221, 224, 229}, 280), parts: perfume,
		shadow: shadows(softShadow(150, 241, 40, 3, 0.25, 2), softShadow(172, 245, 60, 7, 0.1, 10))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2, chroma: 1.2, read: 1, quality: 88}, glass: true})

	// An amber glass jar with a black ridged lid and a cream paper label on
	// light linen: the amber thin and light in the middle, deep at the
	// sides; the linen seen through it. JPEG 82.
	jar := roundRect(90, 110, 210, 250, 14)
	jarAlpha := func(x, y float64) float64 { return 0.5 + 0.38*math.Pow(math.Min(1, math.Abs(x-150)/60), 5) }
	jarCol := func(x, y float64) rgbf {
		k := 1 - 0.45*math.Pow(math.Min(1, math.Abs(x-150)/60), 4)
		return rgbf{178 * k, 100 * k, 34 * k}
	}
	ridges := func(x, y float64) rgbf {
		v := 26 + 18*math.Exp(-math.Pow((x-116)/6, 2)) + 6*math.Sin(x*1.6)
		return rgbf{v, v, v + 2}
	}
	amber := []part{
		{in: jar, col: jarCol, alpha: jarAlpha},
		{in: and(jar, func(x, y float64) bool { return math.Abs(x-104) < 2.5 && y > 124 && y < 236 }),
			col: flat(rgbf{250, 236, 210}), alpha: func(x, y float64) float64 { return 0.8 }},
		{in: rect(104, 150, 196, 212), col: rounded(rgbf{240, 232, 214}, 150, 60, -0.3, 0.12, none)},
		{in: rect(124, 172, 176, 176), col: flat(rgbf{90, 60, 40})},
		{in: roundRect(86, 78, 214, 112, 3), col: ridges},
	}
	out = append(out, shot{scene: scene{name: "p8_jar_amber_linen_q82", w: 300, h: 290, scale: 3,
		backdrop: linen(rgbf{240, 234, 223}, 290, 812), parts: amber,
		shadow: shadows(softShadow(150, 251, 62, 3, 0.4, 2), softShadow(176, 255, 80, 8, 0.16, 10))},
		cam: camera{defocus: 1.4, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.4, quality: 82}, glass: true})

	// A translucent teal plastic tumbler with a milky lid and a pink straw
	// on white paper, lit from the left: the paper shows through its body,
	// a little more at its middle. PNG.
	cupHalf := func(y float64) float64 { return 44 - 8*(y-90)/172 }
	cup := func(x, y float64) bool { return y >= 90 && y < 262 && math.Abs(x-150) < cupHalf(y) }
	cupAlpha := func(x, y float64) float64 {
		return 0.5 + 0.25*math.Pow(math.Min(1, math.Abs(x-150)/cupHalf(y)), 4)
	}
	tumbler := []part{
		{in: tube(168, 84, 184, 22, 3), col: flat(rgbf{238, 120, 150}), alpha: func(x, y float64) float64 {
			return 0.75
		}},
		{in: union(cup, ellipse(150, 262, 36, 3)), col: rounded(rgbf{104, 192, 196}, 150, 44, -0.5, 0.25, none),
			alpha: cupAlpha},
		{in: roundRect(100, 70, 200, 94, 5), col: rounded(rgbf{236, 240, 240}, 150, 50, -0.5, 0.12, none),
			alpha: func(x, y float64) float64 { return 0.85 }},
	}
	out = append(out, shot{scene: scene{name: "p8_tumbler_translucent_paper_png", w: 300, h: 290, scale: 3,
		backdrop: textured(sweep(rgbf{250, 250, 248}, rgbf{240, 240, 237}, 290), 813, 0.01), parts: tumbler,
		shadow: shadows(softShadow(152, 264, 42, 3, 0.35, 2), softShadow(184, 268, 66, 8, 0.14, 10))},
		cam: camera{defocus: 1.2, vignette: 0.08, luma: 1.6, chroma: 1, read: 0.8}, glass: true})

	// A black camera on dark concrete, a soft key from above: a leather
	// body whose top edges catch the light, a prism hump, a shutter button,
	// a lens barrel with a blue-violet coated front; a soft shadow. JPEG 80.
	leather := valueNoise(814, 0.5)
	camBody := union(roundRect(60, 110, 240, 200, 10),
		quad([2]float64{122, 111}, [2]float64{134, 84}, [2]float64{166, 84}, [2]float64{178, 111}))
	camCol := func(x, y float64) rgbf {
		v := 28 + 4*leather(x, y) + 44*math.Exp(-(y-84)/3) + 30*math.Exp(-math.Max(0, y-110)/2.5)*
			math.Min(1, math.Max(0, 1-math.Abs(x-150)/90))
		return rgbf{v, v, v + 1}
	}
	lensCol := func(x, y float64) rgbf {
		d := math.Hypot(x-150, y-158)
		v := 22 + 18*math.Exp(-math.Pow((d-36)/2, 2)) + 10*math.Exp(-math.Pow((d-30)/1.5, 2))
		return rgbf{v, v, v + 2}
	}
	camera8 := []part{
		{in: camBody, col: camCol},
		{in: roundRect(198, 100, 222, 112, 2), col: flat(rgbf{54, 54, 56})},
		{in: ellipse(150, 158, 42, 42), col: lensCol},
		{in: ellipse(150, 158, 26, 26), col: func(x, y float64) rgbf {
			g := math.Exp(-math.Pow(math.Hypot(x-142, y-150)/9, 2))
			return rgbf{24 + 40*g, 22 + 30*g, 40 + 70*g}
		}},
	}
	out = append(out, shot{scene: scene{name: "p8_camera_black_concrete_q80", w: 300, h: 260, scale: 3,
		backdrop: concrete(rgbf{54, 54, 57}, rgbf{42, 42, 45}, 260, 815, 0.06), parts: camera8,
		shadow: shadows(softShadow(150, 202, 94, 4, 0.45, 3), boxShadow(64, 196, 236, 206, 0.3, 8))},
		cam: camera{defocus: 1.3, vignette: 0.16, luma: 2.4, chroma: 1.6, read: 3, quality: 80}})
	return append(out, lastEighthShots()...)
}
