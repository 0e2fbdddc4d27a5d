package image

import "math"

// glassEleventhShots are the eleventh set's glass (cutout_eleventh_test.go)
// on graded sweeps, where the docs promise the body's opacity back as
// alpha: the truth alpha is the glass's opacity, the figure the
// silhouette's IoU.
func glassEleventhShots() []shot {
	return []shot{p11JarShot(), p11AmberShot(), p11GlassCupShot()}
}

// p11JarShot: an empty clear glass storage jar with a brushed steel screw
// lid on a cool grey sweep graded 44 levels: walls 0.1 opaque in the
// middle and dense where they turn away, a thick base, a neck ring, a
// highlight down the left; a faint contact shadow. JPEG 86.
func p11JarShot() shot {
	jar := roundRect(82, 110, 198, 290, 14)
	edge := func(x float64) float64 { return math.Pow(math.Min(1, math.Abs(x-140)/58), 10) }
	jarAlpha := func(x, y float64) float64 { return 0.1 + 0.62*edge(x) }
	jarCol := func(x, y float64) rgbf {
		v := 236 - 110*edge(x)
		return rgbf{v - 4, v, v + 2}
	}
	lid := roundRect(88, 78, 192, 108, 4)
	steel := func(x, y float64) rgbf {
		v := 176 + 50*math.Sin((x-88)/104*math.Pi) + 8*math.Sin(y*2.1) + 4*math.Sin(x*3.7)
		return rgbf{v, v + 1, v + 3}
	}
	glassJar := []part{
		{in: jar, col: jarCol, alpha: jarAlpha},
		{in: and(jar, func(x, y float64) bool { return y > 274 }), col: flat(rgbf{196, 206, 210}),
			alpha: func(x, y float64) float64 { return 0.5 }},
		{in: rect(86, 106, 194, 116), col: flat(rgbf{170, 180, 186}), alpha: func(x, y float64) float64 { return 0.7 }},
		{in: tube(96, 126, 96, 266, 2), col: flat(rgbf{254, 254, 254}),
			alpha: func(x, y float64) float64 { return 0.8 }},
		{in: lid, col: steel},
		{in: union(rect(88, 86, 192, 87), rect(88, 96, 192, 97)), col: flat(rgbf{120, 122, 126})},
	}
	return shot{scene: scene{name: "p11_jar_clear_steel_lid_q86", w: 280, h: 330, scale: 3,
		backdrop: sweep(rgbf{236, 240, 244}, rgbf{192, 196, 202}, 330), parts: glassJar,
		shadow: softShadow(142, 291, 58, 2.5, 0.32, 2)},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2, chroma: 1.2, read: 1, quality: 86}, glass: true}
}

// p11AmberShot: an amber glass apothecary bottle with a black screw cap
// and a kraft label on a warm white sweep graded 40 levels: the glass 0.7
// opaque in the middle and 0.95 at its sides, the sweep seen through it
// tinted; a highlight; a soft shadow tinted amber. Expected alpha: its
// opacity, the label and cap 1. PNG.
func p11AmberShot() shot {
	half := func(y float64) float64 {
		if y < 120 {
			return 15
		}
		t := math.Min(1, (y-120)/26)
		return 15 + 33*t*t*(3-2*t)
	}
	body := func(x, y float64) bool { return y >= 104 && y < 300 && math.Abs(x-130) < half(y) }
	amberAlpha := func(x, y float64) float64 {
		return 0.7 + 0.25*math.Pow(math.Min(1, math.Abs(x-130)/half(y)), 4)
	}
	amber := func(x, y float64) rgbf {
		k := 1 - 0.55*math.Pow(math.Min(1, math.Abs(x-130)/half(y)), 3)
		return rgbf{150 * k, 78 * k, 20 * k}
	}
	bottle := []part{
		{in: union(body, ellipse(130, 300, 48, 3)), col: amber, alpha: amberAlpha},
		{in: and(body, func(x, y float64) bool { return math.Abs(x-112) < 2 && y > 150 && y < 290 }),
			col: flat(rgbf{250, 236, 210}), alpha: func(x, y float64) float64 { return 0.85 }},
		{in: roundRect(92, 196, 168, 262, 2), col: rounded(rgbf{206, 178, 136}, 130, 48, -0.4, 0.2, grain2(1111, 0.02))},
		{in: union(rect(104, 216, 156, 220), rect(110, 230, 150, 232), rect(114, 240, 146, 241)),
			col: flat(rgbf{46, 36, 28})},
		{in: roundRect(112, 74, 148, 106, 3), col: func(x, y float64) rgbf {
			v := 24 + 40*math.Exp(-math.Pow((x-120)/3, 2)) + 4*math.Sin(y*2)
			return rgbf{v, v, v + 1}
		}},
	}
	return shot{scene: scene{name: "p11_bottle_amber_glass_png", w: 260, h: 330, scale: 3,
		backdrop: sweep(rgbf{244, 240, 234}, rgbf{206, 200, 192}, 330), parts: bottle,
		shadow: shadows(softShadow(132, 301, 46, 2.5, 0.42, 1.5), softShadow(160, 304, 70, 7, 0.14, 9))},
		cam: camera{defocus: 1.1, vignette: 0.12, luma: 2, chroma: 1.2, read: 1.2}, glass: true}
}

// p11GlassCupShot: a clear glass tea cup with a solid glass loop handle on
// a sand sweep graded 40 levels: a bowl wider at the rim, walls 0.14
// opaque in the middle, a thick foot, a rim line, a handle whose hole
// shows the sweep, a highlight; a faint shadow. JPEG 80.
func p11GlassCupShot() shot {
	half := func(y float64) float64 { return 66 - 18*math.Pow((y-120)/110, 2) }
	cup := func(x, y float64) bool { return y >= 120 && y < 230 && math.Abs(x-150) < half(y) }
	edge := func(x, y float64) float64 { return math.Pow(math.Min(1, math.Abs(x-150)/half(y)), 8) }
	hole := ellipse(228, 168, 12, 20)
	handle := without(without(ellipse(228, 168, 22, 32), hole), cup)
	glassCup := []part{
		{in: cup, col: func(x, y float64) rgbf {
			v := 232 - 96*edge(x, y)
			return rgbf{v, v - 2, v - 5}
		}, alpha: func(x, y float64) float64 { return 0.14 + 0.58*edge(x, y) }},
		{in: union(and(cup, func(x, y float64) bool { return y > 216 }), ellipse(150, 230, 48, 5)),
			col: flat(rgbf{204, 202, 194}), alpha: func(x, y float64) float64 { return 0.55 }},
		{in: and(handle, func(x, y float64) bool { return x > 200 }), col: flat(rgbf{180, 178, 170}),
			alpha: func(x, y float64) float64 { return 0.62 }},
		{in: and(cup, func(x, y float64) bool { return y < 124 }), col: flat(rgbf{160, 160, 154}),
			alpha: func(x, y float64) float64 { return 0.7 }},
		{in: tube(100, 136, 108, 206, 1.7), col: flat(rgbf{254, 254, 254}),
			alpha: func(x, y float64) float64 { return 0.8 }},
	}
	return shot{scene: scene{name: "p11_cup_clear_glass_handle_q80", w: 300, h: 280, scale: 3,
		backdrop: sweep(rgbf{240, 234, 222}, rgbf{200, 192, 178}, 280), parts: glassCup,
		hole:   and(hole, func(x, y float64) bool { return x > 214 }),
		shadow: softShadow(152, 236, 52, 2.5, 0.3, 2)},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2.2, chroma: 1.4, read: 1.2, quality: 80}, glass: true}
}

// texturedEleventhShots are products on felt, terrazzo and marble, and
// under a hard sun.
func texturedEleventhShots() []shot {
	return []shot{p11KettlebellShot(), p11SpeakerShot(), p11VaseShot(), p11TinShot()}
}

// p11KettlebellShot: a black cast-iron kettlebell on charcoal felt, dark
// on dark, lit from the upper left: a ball with a soft sheen, a flat
// base, a thick handle whose window shows the felt, a debossed weight;
// a soft shadow to the lower right. JPEG 78.
func p11KettlebellShot() shot {
	ball := ellipse(160, 190, 76, 72)
	window := roundRect(124, 82, 196, 132, 22)
	handle := without(union(roundRect(106, 64, 214, 150, 34), rect(122, 130, 198, 150)), window)
	iron := func(x, y float64) rgbf {
		d := math.Hypot(x-130, y-158)
		v := 30 + 34*math.Exp(-d*d/700) + 3*math.Sin(x*1.1)*math.Sin(y*1.3)
		return rgbf{v, v, v * 1.02}
	}
	bell := []part{
		{in: union(ball, handle), col: iron},
		{in: rect(112, 254, 208, 262), col: flat(rgbf{24, 24, 25})},
		{in: union(rect(150, 200, 153, 220), rect(160, 200, 170, 203), rect(167, 203, 170, 220)),
			col: flat(rgbf{22, 22, 23})},
	}
	return shot{scene: scene{name: "p11_kettlebell_black_felt_q78", w: 320, h: 300, scale: 3,
		backdrop: p11Felt(rgbf{58, 58, 60}, 1112), parts: bell, hole: window,
		shadow: shadows(softShadow(166, 262, 60, 4, 0.45, 3), softShadow(178, 200, 84, 74, 0.25, 12))},
		cam: camera{defocus: 1.2, vignette: 0.14, luma: 2.2, chroma: 1.6, read: 3, quality: 78}}
}

// p11SpeakerShot: an orange fabric pill speaker lying on a warm white
// floor under a hard sun from the upper right: a woven grille, rubber end
// caps, a long hard-edged shadow to the lower left. JPEG 72.
func p11SpeakerShot() shot {
	pill := roundRect(100, 150, 260, 210, 30)
	weave := func(x, y float64) rgbf {
		e := (y - 180) / 30
		k := 1.06 - 0.25*(e+0.5)*(e+0.5)/2.25 + 0.04*math.Cos(x*3)*math.Cos(y*3)
		return rgbf{math.Min(255, 236*k), 118 * k, 52 * k}
	}
	speaker := []part{
		{in: pill, col: weave},
		{in: and(pill, func(x, y float64) bool { return x < 112 || x > 248 }),
			col: fromAbove(rgbf{70, 40, 28}, 150, 210, 0.3, none)},
		{in: roundRect(166, 156, 194, 162, 3), col: flat(rgbf{250, 240, 230})},
	}
	cast := quad([2]float64{100, 196}, [2]float64{250, 206}, [2]float64{160, 262}, [2]float64{20, 250})
	return shot{scene: scene{name: "p11_speaker_orange_hardsun_q72", w: 320, h: 300, scale: 3,
		backdrop: seamless(rgbf{242, 238, 230}, rgbf{236, 231, 222}, 120, 300), parts: speaker,
		shadow: shadows(hardShadow(cast, 0.36), softShadow(180, 211, 78, 2, 0.4, 1.2))},
		cam: camera{defocus: 1.1, vignette: 0.1, luma: 2.6, chroma: 1.8, read: 1.6, quality: 72}}
}

// p11VaseShot: a terracotta bud vase, off the centre to the left, on a
// terrazzo slab: a round belly and a narrow neck, a matte clay with
// specks, a darker lip; a soft shadow to the right. JPEG 76.
func p11VaseShot() shot {
	half := func(y float64) float64 {
		t := (y - 90) / 180
		return 12 + 40*math.Pow(math.Sin(math.Pi*math.Min(1, math.Max(0, t))*0.8), 2)
	}
	vase := func(x, y float64) bool { return y >= 90 && y < 270 && math.Abs(x-110) < half(y) }
	speck := valueNoise(1113, 0.5)
	clay := func(x, y float64) rgbf {
		e := (x - 110) / math.Max(1, half(y))
		k := 1.04 - 0.22*(e+0.5)*(e+0.5)/2.25 - 0.06*math.Max(0, speck(x, y)-0.6)
		return rgbf{196 * k, 112 * k, 76 * k}
	}
	terracotta := []part{
		{in: union(vase, ellipse(110, 90, 14, 3)), col: clay},
		{in: ellipse(110, 90, 9, 2), col: flat(rgbf{90, 46, 32})},
	}
	return shot{scene: scene{name: "p11_vase_terracotta_terrazzo_q76", w: 300, h: 300, scale: 3,
		backdrop: p11Terrazzo(rgbf{226, 222, 214}, 9, 1114), parts: terracotta,
		shadow: shadows(softShadow(112, 271, 38, 3, 0.4, 2), softShadow(148, 262, 60, 12, 0.16, 12))},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.4, quality: 76}}
}

// p11TinShot: a round bottle-green enamel tea tin with a gold lid on
// white marble, seen from the side: a cylinder lit from the left, a gold
// band, a cream label; a contact shadow. JPEG 84.
func p11TinShot() shot {
	tin := rect(110, 120, 210, 270)
	tinParts := []part{
		{in: union(tin, ellipse(160, 270, 50, 4)), col: rounded(rgbf{36, 92, 64}, 160, 50, -0.4, 0.4, none)},
		{in: union(rect(106, 96, 214, 126), ellipse(160, 96, 54, 5)), col: func(x, y float64) rgbf {
			e := (x - 160) / 54
			k := 1.1 - 0.45*(e+0.4)*(e+0.4)/1.96
			return rgbf{math.Min(255, 212*k), 172 * k, 88 * k}
		}},
		{in: roundRect(124, 160, 196, 226, 3), col: flat(rgbf{238, 228, 204})},
		{in: union(rect(134, 180, 186, 184), rect(140, 196, 180, 198)), col: flat(rgbf{36, 92, 64})},
	}
	return shot{scene: scene{name: "p11_tin_green_marble_q84", w: 320, h: 300, scale: 3,
		backdrop: p11Marble(rgbf{240, 239, 236}, 1115), parts: tinParts,
		shadow: shadows(softShadow(160, 273, 56, 3, 0.4, 2), softShadow(180, 268, 76, 12, 0.14, 12))},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2.2, chroma: 1.4, read: 1.3, quality: 84}}
}
