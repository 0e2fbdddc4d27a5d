package image

import "math"

// lightTenthShots is the tenth set's first part (cutout_tenth_test.go):
// white on white, light on light of another hue, a drawing with white
// fills, and light products on wood and fabric.
func lightTenthShots() []shot {
	out := whiteTenthShots()
	return append(out, hueTenthShots()...)
}

// whiteTenthShots are white products on white backdrops.
func whiteTenthShots() []shot {
	var out []shot
	// A white cotton hoodie laid flat on a white seamless floor, seen from
	// above, lit softly from the upper left: a hood with its opening in
	// shade, sleeves folded down along the body, a kangaroo pocket's seam,
	// two drawstrings, a ribbed hem a shade greyer; where the fabric turns
	// under at its edges a faint rim 12 levels under the floor; a soft
	// shadow to the lower right. JPEG 80.
	hoodBody := union(roundRect(100, 110, 220, 300, 8), tube(104, 124, 66, 276, 15), tube(216, 124, 254, 276, 15),
		ellipse(160, 104, 40, 30))
	cotton := func(x, y float64) rgbf {
		k := 0.99 - 0.035*(x-60)/200 - 0.025*(y-70)/230 + 0.006*math.Sin(x*2.3+y*0.4)
		return rgbf{252 * k, 252 * k, 251 * k}
	}
	hoodie := []part{
		{in: outline(hoodBody, 1.2), col: flat(rgbf{234, 234, 233})},
		{in: hoodBody, col: cotton, light: true},
		{in: ellipse(160, 108, 25, 18), col: fromAbove(rgbf{214, 214, 213}, 90, 126, -0.08, none)},
		{in: union(tube(150, 124, 146, 184, 1.3), tube(170, 124, 174, 184, 1.3)), col: flat(rgbf{238, 238, 237})},
		{in: union(tube(120, 222, 200, 222, 0.5), tube(120, 222, 112, 270, 0.5), tube(200, 222, 208, 270, 0.5)),
			col: flat(rgbf{226, 226, 225})},
		{in: rect(100, 286, 220, 300), col: fromAbove(rgbf{240, 240, 239}, 286, 300, 0.03, none), light: true},
	}
	out = append(out, shot{scene: scene{name: "p10_hoodie_white_flat_q80", w: 320, h: 330, scale: 3,
		backdrop: seamless(rgbf{250, 250, 250}, rgbf{246, 246, 245}, 40, 330), parts: hoodie,
		shadow: boxShadow(112, 122, 264, 308, 0.14, 9)},
		cam: camera{defocus: 1.4, vignette: 0.1, luma: 2.2, chroma: 1.4, read: 1.2, quality: 80}})

	// A white lotion bottle with a white pump on a warm white sweep under
	// a strong lens vignette: a round body lit from the left, a shoulder, a
	// collar a shade greyer, a pump head with its nozzle to the right,
	// pale grey print on the label; a rim line where the body turns away;
	// a contact shadow and a soft one. JPEG 88.
	bottleBody := union(roundRect(95, 132, 165, 310, 12), ellipse(130, 134, 35, 10))
	lotion := []part{
		{in: outline(bottleBody, 0.9), col: flat(rgbf{230, 229, 226})},
		{in: bottleBody, col: rounded(rgbf{250, 249, 246}, 130, 35, -0.4, 0.12, grain2(1001, 0.004)), light: true},
		{in: rect(118, 106, 142, 126), col: rounded(rgbf{238, 237, 234}, 130, 12, -0.4, 0.1, none), light: true},
		{in: rect(126, 96, 134, 107), col: flat(rgbf{226, 225, 222})},
		{in: union(roundRect(108, 84, 152, 97, 3), tube(150, 89, 176, 89, 2.6)),
			col: fromAbove(rgbf{250, 249, 247}, 84, 97, 0.05, none), light: true},
		{in: union(rect(112, 200, 148, 203), rect(116, 210, 144, 212), rect(120, 218, 140, 220)),
			col: flat(rgbf{196, 194, 190})},
	}
	out = append(out, shot{scene: scene{name: "p10_lotion_white_vignette_q88", w: 260, h: 340, scale: 3,
		backdrop: seamless(rgbf{249, 247, 243}, rgbf{242, 240, 235}, 200, 340), parts: lotion,
		shadow: shadows(softShadow(130, 311, 36, 2.5, 0.42, 1.5), softShadow(150, 315, 62, 7, 0.14, 10))},
		cam: camera{defocus: 1.5, vignette: 0.3, luma: 2, chroma: 1.2, read: 1.2, quality: 88}})

	// A white enamel watering can from the side on a white paper floor, lit
	// from the left: a cylinder shading to the right, a rolled top rim, a
	// long spout a shade greyer with a rose to the left, a loop handle low on the right
	// whose hole lies in the soft shadow the can casts to the right; a
	// contact shadow. JPEG 78.
	can := roundRect(110, 140, 220, 262, 8)
	canHandle := without(and(ring(226, 200, 20, 28), func(x, y float64) bool { return x > 218 }), can)
	canHole := without(and(ellipse(226, 200, 20, 20), func(x, y float64) bool { return x > 218 }), can)
	enamel := rounded(rgbf{250, 250, 249}, 165, 55, -0.5, 0.16, grain2(1002, 0.003))
	wcan := []part{
		{in: tube(116, 230, 48, 150, 5.5), col: func(x, y float64) rgbf { // the spout, its underside in shade
			k := 0.96 - 0.06*math.Max(0, (y-(230-(116-x)*80/68))/5.5)
			return rgbf{248 * k, 248 * k, 247 * k}
		}, light: true},
		{in: union(can, canHandle), col: enamel, light: true},
		{in: ellipse(44, 146, 9, 12), col: rounded(rgbf{242, 242, 241}, 44, 9, -0.5, 0.1, none), light: true},
		{in: rect(108, 138, 222, 146), col: fromAbove(rgbf{244, 244, 243}, 138, 146, 0.06, none), light: true},
		{in: rect(108, 146, 222, 147.2), col: flat(rgbf{214, 214, 213})},
	}
	out = append(out, shot{scene: scene{name: "p10_wateringcan_white_hole_shadow_q78", w: 300, h: 290, scale: 3,
		backdrop: textured(sweep(rgbf{250, 250, 249}, rgbf{243, 243, 242}, 290), 1003, 0.008), parts: wcan,
		hole:   canHole,
		shadow: shadows(softShadow(168, 263, 58, 3, 0.4, 1.5), softShadow(236, 236, 62, 40, 0.22, 16))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.4, quality: 78}})
	return append(out, carDrawingShot())
}

// carDrawingShot: a car drawn in black ink on cream paper and scanned: a
// body and a cabin filled with the paper's white, two white windows with
// a pillar between, a door line, wheels with black tyres and white hubs,
// a yellow headlight. JPEG 76.
func carDrawingShot() shot {
	pp := paper(rgbf{248, 245, 236}, 340, 230)
	ink := rgbf{24, 22, 26}
	body := union(roundRect(60, 110, 280, 160, 12), roundRect(110, 70, 230, 118, 14))
	windows := union(roundRect(122, 80, 166, 110, 5), roundRect(174, 80, 218, 110, 5))
	tyres := union(ellipse(112, 164, 22, 22), ellipse(232, 164, 22, 22))
	hubs := union(ellipse(112, 164, 9, 9), ellipse(232, 164, 9, 9))
	white := func(in func(x, y float64) bool) part { return part{in: in, col: pp, light: true} }
	car := []part{
		{in: grown(body, 2.4), col: flat(ink)},
		white(body),
		{in: grown(windows, 1.8), col: flat(ink)},
		white(windows),
		{in: union(tube(170, 118, 170, 158, 1), tube(186, 130, 198, 130, 1.1)), col: flat(ink)},
		{in: grown(tyres, 1), col: flat(ink)},
		{in: grown(hubs, 1.6), col: flat(ink)},
		white(hubs),
		{in: ellipse(272, 124, 6, 5), col: flat(rgbf{244, 206, 80})},
		{in: ellipse(64, 128, 3, 6), col: flat(rgbf{220, 70, 60})},
	}
	return shot{scene: scene{name: "p10_car_drawing_whitefill_q76", w: 340, h: 230, scale: 3,
		backdrop: pp, parts: car},
		cam: camera{defocus: 0.9, vignette: 0.06, luma: 1.6, chroma: 0.9, read: 0.8, quality: 76}}
}

// hueTenthShots are light products on light backdrops of another hue, and
// on pine and boucle.
func hueTenthShots() []shot {
	var out []shot
	// A lilac ribbed ceramic vase on butter-yellow paper, lit from the
	// right: a round belly narrowing to a neck and a flared lip, vertical
	// ribs that catch the light in turn, the inside of the lip in shade; a
	// soft shadow to the left. JPEG 82.
	vaseHalf := func(y float64) float64 {
		t := (y - 70) / 200
		return 20 + 46*math.Sin(math.Pi*math.Min(1, math.Max(0, t))*0.9) - 10*math.Max(0, 0.15-t)/0.15
	}
	vase := func(x, y float64) bool { return y >= 70 && y < 270 && math.Abs(x-130) < vaseHalf(y) }
	ribbed := func(x, y float64) rgbf {
		e := (x - 130) / math.Max(1, vaseHalf(y))
		k := 1 - 0.14*(e-0.4)*(e-0.4)/1.96 + 0.03*math.Cos(e*14)
		return rgbf{math.Min(255, 218*k), math.Min(255, 204*k), math.Min(255, 234*k)}
	}
	lilac := []part{
		{in: union(vase, ellipse(130, 70, 26, 5)), col: ribbed, light: true},
		{in: ellipse(130, 70, 21, 3.2), col: flat(rgbf{160, 146, 180})},
	}
	out = append(out, shot{scene: scene{name: "p10_vase_lilac_butter_q82", w: 260, h: 310, scale: 3,
		backdrop: textured(sweep(rgbf{250, 240, 204}, rgbf{244, 232, 192}, 310), 1011, 0.01), parts: lilac,
		shadow: shadows(softShadow(128, 271, 44, 3, 0.38, 1.5), softShadow(100, 268, 70, 9, 0.14, 12))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.2, quality: 82}})

	// A pale sky-blue cotton cap from the side on blush-pink card, lit from
	// above: a crown of six panels with seams, a button on top, eyelets, a
	// brim reaching right with its underside in shade; a soft shadow below.
	// JPEG 86.
	crown := and(ellipse(150, 160, 82, 78), func(x, y float64) bool { return y < 160 })
	brim := and(ellipse(236, 158, 64, 14), func(x, y float64) bool { return x > 200 })
	sky := func(x, y float64) rgbf {
		k := 1.02 - 0.08*math.Max(0, (y-90)/70) - 0.04*(x-70)/160
		return rgbf{math.Min(255, 204*k), math.Min(255, 224*k), math.Min(255, 242*k)}
	}
	var seams []func(x, y float64) bool
	for _, sx := range []float64{108, 150, 192} {
		seams = append(seams, and(crown, func(x, y float64) bool {
			return math.Abs(x-sx-(150-sx)*(160-y)/78) < 0.5
		}))
	}
	capParts := []part{
		{in: union(crown, rect(68, 152, 232, 166)), col: sky, light: true},
		{in: brim, col: func(x, y float64) rgbf {
			if y > 158 {
				return rgbf{170, 188, 206}
			}
			return sky(x, y)
		}, light: true},
		{in: union(seams...), col: flat(rgbf{176, 196, 214})},
		{in: ellipse(150, 83, 7, 3.4), col: flat(rgbf{196, 216, 236}), light: true},
		{in: union(ellipse(120, 110, 2, 2), ellipse(180, 110, 2, 2)), col: flat(rgbf{150, 166, 184})},
	}
	out = append(out, shot{scene: scene{name: "p10_cap_sky_blush_q86", w: 330, h: 240, scale: 3,
		backdrop: sweep(rgbf{248, 226, 222}, rgbf{240, 214, 210}, 240), parts: capParts,
		shadow: shadows(softShadow(160, 168, 90, 5, 0.3, 3), softShadow(170, 174, 120, 12, 0.12, 14))},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2, chroma: 1.4, read: 1.2, quality: 86}})

	// A cream soap bar on a pale pine board, lit from the upper left: a
	// domed top with a stamped oval a shade deeper, a bevel in shade at its
	// lower edge; a soft shadow to the lower right. JPEG 80.
	bar := roundRect(100, 110, 224, 192, 20)
	soap := []part{
		{in: bar, col: fromAbove(rgbf{242, 234, 214}, 110, 192, 0.08, grain2(1012, 0.005)), light: true},
		{in: without(roundRect(104, 114, 220, 186, 17), roundRect(102, 112, 222, 184, 18)),
			col: flat(rgbf{220, 210, 188})},
		{in: without(ellipse(162, 150, 36, 20), ellipse(162, 150, 33, 17)), col: flat(rgbf{222, 212, 190})},
	}
	out = append(out, shot{scene: scene{name: "p10_soap_cream_pine_q80", w: 320, h: 260, scale: 3,
		backdrop: p10Pine(rgbf{232, 206, 164}, 1013), parts: soap,
		shadow: shadows(boxShadow(112, 124, 226, 196, 0.28, 4), boxShadow(118, 130, 234, 202, 0.1, 12))},
		cam: camera{defocus: 1.2, vignette: 0.14, luma: 2.4, chroma: 1.6, read: 1.4, quality: 80}})

	// An oat knitted sweater folded on a pale grey-blue card seen from
	// above: rows of stitches, a ribbed hem and cuffs, a crew neck in
	// shade; a soft shadow. PNG.
	sweaterBody := union(roundRect(80, 96, 240, 236, 6), ellipse(160, 98, 36, 10))
	oat := func(x, y float64) rgbf {
		u := math.Mod(x, 4)/4 - 0.5
		v := math.Mod(y+4.8*math.Abs(u), 4) / 4
		k := 0.98 - 0.05*(x-80)/160 + 0.025*math.Cos(2*math.Pi*v)
		return rgbf{232 * k, 220 * k, 196 * k}
	}
	rib := func(x, y float64) rgbf {
		k := 0.95 + 0.03*math.Cos(x*1.6)
		return rgbf{224 * k, 212 * k, 188 * k}
	}
	sweater := []part{
		{in: sweaterBody, col: oat, light: true},
		{in: union(rect(80, 218, 240, 236), rect(92, 160, 124, 176), rect(196, 160, 228, 176)), col: rib,
			light: true},
		{in: ellipse(160, 100, 28, 7), col: flat(rgbf{180, 168, 146})},
	}
	out = append(out, shot{scene: scene{name: "p10_sweater_oat_greyblue_png", w: 320, h: 300, scale: 3,
		backdrop: textured(sweep(rgbf{232, 236, 242}, rgbf{222, 226, 234}, 300), 1014, 0.006), parts: sweater,
		shadow: boxShadow(86, 104, 248, 244, 0.16, 8)},
		cam: camera{defocus: 1.1, vignette: 0.1, luma: 1.8, chroma: 1.2, read: 1}})
	return out
}
