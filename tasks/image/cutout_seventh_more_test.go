package image

import "math"

// moreSeventhShots is the seventh set's second half (cutout_seventh_
// test.go): a carafe, brushed steel on a glossy floor, a small product, one
// cut by two edges, a hard sun shadow, a dark product, white on white.
func moreSeventhShots() []shot {
	var out []shot
	// A clear glass carafe half full of water on a light blue-grey
	// gradient: a round body, a long neck flaring to a lip, the water's
	// surface a brighter line, the glass denser at its sides. JPEG 78.
	carafeHalf := func(y float64) float64 {
		body := 70 * math.Sqrt(math.Max(0, 1-math.Pow((y-222)/62, 2)))
		switch {
		case y < 70:
			return 25 // the lip
		case y < 180: // the neck flares into the body
			return math.Max(body, 17+10*math.Pow(math.Max(0, (y-132)/40), 2))
		}
		return body
	}
	carafe := func(x, y float64) bool {
		return y >= 62 && y < 276 && math.Abs(x-120) < carafeHalf(y)
	}
	carafeAlpha := func(x, y float64) float64 {
		e := math.Min(1, math.Abs(x-120)/math.Max(carafeHalf(y), 1))
		a := 0.08 + 0.6*math.Pow(e, 5)
		if y > 212 {
			a += 0.08 // the water
		}
		return math.Min(0.85, a)
	}
	carafeCol := func(x, y float64) rgbf {
		v := 236 - 70*math.Pow(math.Min(1, math.Abs(x-120)/math.Max(carafeHalf(y), 1)), 7)
		if y > 212 {
			return rgbf{v - 16, v - 6, v}
		}
		return rgbf{v - 4, v - 1, v}
	}
	water := func(x, y float64) bool { return carafe(x, y) && math.Abs(y-212) < 1.5 }
	carafeParts := []part{
		{in: union(carafe, ellipse(120, 275, 34, 3)), col: carafeCol, alpha: carafeAlpha},
		{in: water, col: flat(rgbf{234, 240, 244}), alpha: func(x, y float64) float64 { return 0.45 }},
		{in: without(ellipse(120, 62, 26, 3.5), ellipse(120, 62, 23, 2)), col: flat(rgbf{200, 208, 214}),
			alpha: func(x, y float64) float64 { return 0.75 }},
		{in: and(carafe, func(x, y float64) bool { return math.Abs(x-(150-0.12*(y-170))) < 1.6 && y > 176 && y < 250 }),
			col: flat(rgbf{252, 253, 253}), alpha: func(x, y float64) float64 { return 0.55 }},
	}
	out = append(out, shot{scene: scene{name: "p7_carafe_water_bluegrey_q78", w: 240, h: 310,
		backdrop: sweep(rgbf{224, 230, 236}, rgbf{198, 206, 215}, 310), parts: carafeParts,
		shadow: softShadow(124, 278, 52, 4, 0.14, 4)},
		cam: camera{defocus: 0.6, vignette: 0.14, luma: 2, chroma: 1.2, quality: 78}, glass: true})

	// A brushed stainless steel bottle on a glossy white floor that
	// mirrors it: a black cap, rounded shoulders, a body reflecting the
	// studio in soft vertical bands with a fine brushed grain along its
	// length. JPEG 85.
	steelBody := union(rect(110, 96, 170, 282), ellipse(140, 96, 30, 14), ellipse(140, 282, 30, 3))
	brush := valueNoise(101, 1)
	brushed := func(x, y float64) rgbf {
		e := math.Max(-1, math.Min(1, (x-140)/30))
		v := 205 - 70*math.Exp(-math.Pow((e+0.55)/0.16, 2)) + 32*math.Exp(-math.Pow((e-0.15)/0.14, 2)) -
			40*math.Pow(math.Abs(e), 5) + 7*brush(x*3, y*0.04)
		return rgbf{v, v + 1, v + 3}
	}
	bottle := []part{
		{in: steelBody, col: brushed, light: true},
		{in: rect(110, 100, 170, 103), col: flat(rgbf{150, 152, 156})},
		{in: union(roundRect(116, 48, 164, 92, 5), ring(140, 44, 8, 12)), col: func(x, y float64) rgbf {
			v := 34 + 26*math.Exp(-math.Pow((x-126)/4, 2))
			return rgbf{v, v, v + 2}
		}},
	}
	floor := sweep(rgbf{247, 247, 248}, rgbf{234, 234, 236}, 340)
	out = append(out, shot{scene: scene{name: "p7_steel_bottle_glossy_q85", w: 280, h: 340,
		backdrop: glossy(floor, bottle, 284, 0.4, 22), parts: bottle,
		shadow: softShadow(140, 285, 34, 2.5, 0.4, 1.5)},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 2, chroma: 1.2, quality: 85}})

	// A white golf ball, small (1.5 % of the frame), low at the left of a
	// light grey sweep, lit from the upper right: dimples, a darker limb;
	// a contact shadow and a short one cast left. JPEG 88.
	ball := ellipse(74, 192, 20, 20)
	ballCol := func(x, y float64) rgbf {
		u, v := (x-74)/20, (y-192)/20
		z := math.Sqrt(math.Max(0, 1-u*u-v*v))
		k := 0.72 + 0.28*math.Max(0, 0.5*u-0.45*v+0.74*z)
		row := math.Round((y - 192) / 3.6)
		dx := math.Mod(x-74+1.8*math.Mod(math.Abs(row), 2)+180, 3.6) - 1.8
		if d := math.Hypot(dx, y-192-row*3.6); d < 1.3 {
			k -= 0.05 * (1 - d/1.3) * z
		}
		return rgbf{252 * k, 252 * k, 250 * k}
	}
	out = append(out, shot{scene: scene{name: "p7_golfball_small_lowleft_q88", w: 340, h: 250,
		backdrop: sweep(rgbf{228, 228, 226}, rgbf{213, 213, 211}, 250),
		parts:    []part{{in: ball, col: ballCol, light: true}},
		shadow:   shadows(softShadow(74, 212, 13, 2, 0.5, 1.5), softShadow(60, 213, 22, 4, 0.2, 4))},
		cam: camera{defocus: 0.5, vignette: 0.12, luma: 1.8, chroma: 1, quality: 88}})

	// An off-white linen cushion cut by the frame's left and bottom edges
	// on pale sage, lit from the upper right: puffed, a piped seam, a
	// linen weave; a soft shadow at its right. JPEG 74.
	cushion := blob(70, 236, 134, 124, 3.2)
	weave, slub := valueNoise(111, 0.8), valueNoise(112, 5)
	linen := func(x, y float64) rgbf {
		r := math.Pow(math.Abs(x-70)/134, 3.2) + math.Pow(math.Abs(y-236)/124, 3.2)
		k := 0.84 + 0.14*math.Sqrt(math.Max(0, 1-r)) + 0.03*(x-70)/134 - 0.03*(y-236)/124 +
			0.012*weave(x, y) + 0.008*slub(x*0.3, y*2)
		return rgbf{246 * k, 243 * k, 236 * k}
	}
	pillow := []part{
		{in: grown(cushion, 1.6), col: flat(rgbf{218, 214, 206})},
		{in: cushion, col: linen, light: true},
	}
	out = append(out, shot{scene: scene{name: "p7_cushion_corner_cut_sage_q74", w: 320, h: 260,
		backdrop: sweep(rgbf{216, 224, 208}, rgbf{200, 210, 193}, 260), parts: pillow,
		shadow: func(x, y float64) float64 { // the cushion's own outline, offset right and down, soft
			r := math.Pow(math.Abs(x-80)/134, 3.2) + math.Pow(math.Abs(y-242)/124, 3.2)
			t := math.Max(0, math.Min(1, (1.15-r)/0.3))
			return 1 - 0.22*t*t*(3-2*t)
		}},
		cam: camera{defocus: 0.7, vignette: 0.14, luma: 2.6, chroma: 1.8, quality: 74}})

	// A white ceramic pitcher in hard sunlight from the left on off-white
	// plaster: its lit side bright, its right in shade past a soft
	// terminator, a spout, a handle whose hole shows the plaster, and a
	// long hard shadow thrown to the right. JPEG 72.
	pitcherHalf := func(y float64) float64 { return 38 + 14*math.Sin(math.Pi*(y-80)/200) }
	pitcherBody := func(x, y float64) bool { return y >= 80 && y < 256 && math.Abs(x-150) < pitcherHalf(y) }
	spout := quad([2]float64{112, 84}, [2]float64{94, 66}, [2]float64{104, 64}, [2]float64{130, 82})
	pHandle := without(and(ring(204, 150, 21, 29), func(x, y float64) bool { return x > 190 }), pitcherBody)
	pHole := without(and(ellipse(204, 150, 21, 21), func(x, y float64) bool { return x > 190 }), pitcherBody)
	sun := func(x, y float64) rgbf {
		e := (x - 150) / pitcherHalf(math.Max(80, y))
		k := 0.8 + 0.2/(1+math.Exp((e-0.25)*9)) - 0.04*math.Max(0, (y-200)/56)
		return rgbf{253 * k, 252 * k, 249 * k}
	}
	pitcher := []part{
		{in: union(pitcherBody, spout, ellipse(150, 80, 38, 5), pHandle), col: sun, light: true},
		{in: ellipse(150, 80, 35, 3.5), col: flat(rgbf{206, 204, 200})},
	}
	sunShadow := quad([2]float64{108, 252}, [2]float64{194, 258}, [2]float64{340, 238}, [2]float64{340, 214})
	plaster := textured(sweep(rgbf{243, 240, 234}, rgbf{229, 225, 217}, 290), 121, 0.012)
	out = append(out, shot{scene: scene{name: "p7_pitcher_hardsun_plaster_q72", w: 340, h: 290,
		backdrop: plaster, parts: pitcher, hole: pHole,
		shadow: shadows(softShadow(150, 257, 42, 2, 0.45, 1.2), hardShadow(sunShadow, 0.34))},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 2.6, chroma: 2, quality: 72}})
	return append(out, lastSeventhShots()...)
}

// lastSeventhShots closes the seventh set: a dark product, a white
// speaker and a white lamp with a thin stem.
func lastSeventhShots() []shot {
	var out []shot
	// A black leather bifold wallet on a charcoal felt, seen from above a
	// little to the front: a grain, a light catching its top edge, pale
	// stitching, its thickness showing below; a soft shadow. JPEG 82.
	wallet := roundRect(80, 92, 240, 192, 10)
	leather := valueNoise(131, 1.3)
	stitch := without(roundRect(86, 98, 234, 186, 7), roundRect(87.5, 99.5, 232.5, 184.5, 6))
	walletParts := []part{
		{in: roundRect(82, 100, 238, 199, 8), col: flat(rgbf{18, 18, 20})},
		{in: wallet, col: func(x, y float64) rgbf {
			v := 34 + 4*leather(x, y) + 30*math.Exp(-(y-92)/2.5) - 6*(x-80)/160
			return rgbf{v, v - 1, v - 1}
		}},
		{in: and(stitch, func(x, y float64) bool { return math.Mod(x+y, 6) < 3.5 }), col: flat(rgbf{96, 90, 84})},
	}
	out = append(out, shot{scene: scene{name: "p7_wallet_black_charcoal_q82", w: 320, h: 280,
		backdrop: textured(sweep(rgbf{64, 64, 68}, rgbf{46, 46, 50}, 280), 133, 0.03), parts: walletParts,
		shadow: boxShadow(90, 108, 250, 206, 0.4, 9)},
		cam: camera{defocus: 0.6, vignette: 0.16, luma: 2.4, chroma: 1.6, quality: 82}})

	// A white fabric-covered smart speaker on a white sweep, lit from the
	// right: a woven cover, a pale grey top with four light dots; a
	// contact shadow and a soft one cast left. JPEG 70.
	speaker := union(rect(110, 82, 190, 252), ellipse(150, 252, 40, 6))
	woven := valueNoise(141, 0.9)
	fabric := func(x, y float64) float64 { return 0.014*math.Sin(x*2.3)*math.Sin(y*2.3) + 0.01*woven(x, y) }
	dots := union(ellipse(138, 82, 2, 1), ellipse(146, 82, 2, 1), ellipse(154, 82, 2, 1), ellipse(162, 82, 2, 1))
	speakerParts := []part{
		{in: speaker, col: rounded(rgbf{249, 249, 248}, 150, 40, 0.5, 0.16, fabric), light: true},
		{in: ellipse(150, 82, 40, 8), col: flat(rgbf{236, 236, 238}), light: true},
		{in: dots, col: flat(rgbf{255, 255, 255})},
	}
	out = append(out, shot{scene: scene{name: "p7_speaker_white_fabric_q70", w: 300, h: 300,
		backdrop: sweep(rgbf{252, 252, 252}, rgbf{241, 241, 242}, 300), parts: speakerParts,
		shadow: shadows(softShadow(150, 257, 42, 2.5, 0.45, 1.5), softShadow(112, 260, 70, 7, 0.18, 10))},
		cam: camera{defocus: 0.7, vignette: 0.1, luma: 2.2, chroma: 1.4, quality: 70}})

	// A white table lamp on a pale warm grey, lit from the left: a conical
	// shade showing its inside at the bottom, a thin stem, a round base; a
	// contact shadow. JPEG 92.
	shade := quad([2]float64{112, 58}, [2]float64{188, 58}, [2]float64{220, 124}, [2]float64{80, 124})
	base := union(rect(106, 256, 194, 266), ellipse(150, 256, 44, 6), ellipse(150, 266, 44, 4))
	lamp := []part{
		{in: union(shade, ellipse(150, 58, 38, 4)), col: litWhite(rgbf{250, 249, 246}, 80, 220, 0.12, 0),
			light: true},
		{in: ellipse(150, 124, 70, 7), col: flat(rgbf{224, 220, 210})},
		{in: rect(148, 124, 152, 256), col: litWhite(rgbf{240, 240, 240}, 148, 152, 0.1, 0), light: true},
		{in: base, col: litWhite(rgbf{248, 247, 245}, 106, 194, 0.14, 0), light: true},
	}
	out = append(out, shot{scene: scene{name: "p7_lamp_white_thinstem_q92", w: 300, h: 300,
		backdrop: sweep(rgbf{237, 235, 231}, rgbf{222, 219, 214}, 300), parts: lamp,
		shadow: shadows(softShadow(150, 269, 46, 2.5, 0.45, 1.5), softShadow(176, 272, 70, 6, 0.15, 8))},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 1.6, chroma: 1, quality: 92}})
	return out
}
