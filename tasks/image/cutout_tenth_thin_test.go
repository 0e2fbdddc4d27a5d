package image

import "math"

// thinTenthShots is the tenth set's last part (cutout_tenth_test.go): thin
// wires and a hook with enclosed gaps, a basket's handle on fabric, a
// product cut by the frame and a small one in a corner.
func thinTenthShots() []shot {
	return []shot{whiskShot(), hangerShot(), basketShot(), guitarShot(), keyShot()}
}

// whiskShot: a steel balloon whisk lying on a grey herringbone tweed:
// four wire loops of one width whose gaps show the tweed, a steel handle
// with a polished band; a soft shadow. JPEG 84.
func whiskShot() shot {
	var wires []func(x, y float64) bool
	for _, rx := range []float64{48, 36, 20, 5} {
		wires = append(wires, without(ellipse(150, 140, rx+0.7, 96), ellipse(150, 140, math.Max(0.1, rx-0.7), 94.6)))
	}
	steel := func(x, y float64) rgbf {
		v := 170 + 60*math.Sin(y*0.05+x*0.08)
		return rgbf{v, v + 2, v + 5}
	}
	whisk := []part{
		{in: and(union(wires...), func(x, y float64) bool { return y < 232 }), col: steel},
		{in: roundRect(142, 226, 158, 330, 7), col: rounded(rgbf{196, 198, 202}, 150, 8, -0.5, 0.5, none)},
		{in: rect(142, 236, 158, 242), col: flat(rgbf{120, 122, 126})},
	}
	return shot{scene: scene{name: "p10_whisk_wires_tweed_q84", w: 300, h: 350, scale: 3,
		backdrop: p10Herringbone(rgbf{168, 166, 160}, 6, 1031), parts: whisk,
		hole:   without(ellipse(150, 140, 47.3, 95), roundRect(142, 226, 158, 330, 7)),
		shadow: shadows(softShadow(156, 146, 50, 98, 0.14, 6), boxShadow(146, 232, 164, 336, 0.25, 4))},
		cam: camera{defocus: 1.1, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.6, quality: 84}}
}

// hangerShot: a beech coat hanger with a chrome hook on a pale grey-blue
// plaster wall: two shoulders and a thin trouser bar that enclose a
// triangle of wall, a hook of thin wire; a faint soft shadow down and
// right. JPEG 86.
func hangerShot() shot {
	beech := func(x, y float64) rgbf {
		k := 1 + 0.04*math.Sin(x*0.9+y*0.3) - 0.1*math.Max(0, (y-140)/20)
		return rgbf{214 * k, 168 * k, 116 * k}
	}
	hook := union(and(ring(150, 84, 12, 14), func(x, y float64) bool { return y < 88 || x > 150 }),
		tube(150, 96, 150, 116, 1.1), tube(138, 84, 138, 90, 1.1))
	hanger := []part{
		{in: hook, col: func(x, y float64) rgbf {
			v := 150 + 90*math.Exp(-math.Pow((x-148)/2, 2))
			return rgbf{v, v + 2, v + 6}
		}},
		{in: union(tube(58, 150, 150, 112, 6.5), tube(150, 112, 242, 150, 6.5)), col: beech},
		{in: tube(62, 152, 238, 152, 2.2), col: flat(rgbf{188, 144, 98})},
	}
	return shot{scene: scene{name: "p10_hanger_hook_thinbar_q86", w: 300, h: 210, scale: 4,
		backdrop: textured(plain(rgbf{214, 222, 230}), 1032, 0.02), parts: hanger,
		hole:   quad([2]float64{72, 150}, [2]float64{150, 122}, [2]float64{228, 150}),
		shadow: shadows(softShadow(158, 146, 96, 30, 0.1, 10), softShadow(154, 108, 16, 22, 0.08, 5))},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2, chroma: 1.4, read: 1.2, quality: 86}}
}

// basketShot: a rattan basket with an arched handle on a sage boucle
// throw, lit from the left: a woven body in rows, a rim band, a handle
// wrapped in rattan whose arch shows the throw; a soft shadow. JPEG 76.
func basketShot() shot {
	body := quad([2]float64{90, 170}, [2]float64{230, 170}, [2]float64{214, 272}, [2]float64{106, 272})
	handle := without(and(ring(160, 172, 58, 66), func(x, y float64) bool { return y < 172 }), body)
	bHole := without(and(ellipse(160, 172, 58, 58), func(x, y float64) bool { return y < 172 }), body)
	rattan := func(x, y float64) rgbf {
		k := 1.04 - 0.14*(x-90)/140 + 0.06*math.Sin(y*1.5)*math.Sin(x*0.7) - 0.06*math.Max(0, math.Sin(y*0.8))
		return rgbf{200 * k, 160 * k, 104 * k}
	}
	basket := []part{
		{in: union(body, handle), col: rattan},
		{in: rect(88, 168, 232, 178), col: fromAbove(rgbf{176, 134, 84}, 168, 178, 0.1, none)},
	}
	return shot{scene: scene{name: "p10_basket_handle_boucle_q76", w: 320, h: 300, scale: 3,
		backdrop: p10Boucle(rgbf{176, 186, 164}, 1033), parts: basket, hole: bHole,
		shadow: shadows(softShadow(164, 272, 60, 4, 0.4, 3), softShadow(176, 262, 86, 20, 0.14, 12))},
		cam: camera{defocus: 1.3, vignette: 0.14, luma: 2.6, chroma: 1.8, read: 1.6, quality: 76}}
}

// guitarShot: an acoustic guitar cut by the frame's right, bottom and top
// edges on a pale teal painted wall: a spruce top shading to its edges, a
// dark sound hole with a rosette, a bridge, six thin strings, a dark
// binding, a neck leaving the frame at the top; a soft shadow to the
// left. JPEG 82.
func guitarShot() shot {
	gbody := union(ellipse(234, 214, 84, 72), ellipse(222, 118, 62, 52), rect(170, 110, 290, 220))
	spruce := func(x, y float64) rgbf {
		d := math.Hypot((x-230)/90, (y-170)/110)
		k := 1.04 - 0.2*d*d + 0.015*math.Sin(x*3.1)
		return rgbf{226 * k, 184 * k, 124 * k}
	}
	var strs []func(x, y float64) bool
	for k := range 6 {
		o := float64(k)*3 - 7.5
		strs = append(strs, tube(222+o, 196, 120+o, -20, 0.35))
	}
	guitar := []part{
		{in: grown(gbody, 1.6), col: flat(rgbf{60, 36, 24})},
		{in: gbody, col: spruce},
		{in: tube(196, 80, 100, -30, 10), col: flat(rgbf{104, 62, 38})},
		{in: ring(212, 150, 20, 25), col: flat(rgbf{120, 80, 50})},
		{in: ellipse(212, 150, 20, 20), col: flat(rgbf{20, 14, 12})},
		{in: roundRect(204, 196, 254, 206, 3), col: flat(rgbf{58, 34, 22})},
		{in: union(strs...), col: flat(rgbf{224, 224, 220})},
	}
	return shot{scene: scene{name: "p10_guitar_cut_by_frame_q82", w: 300, h: 280, scale: 3,
		backdrop: textured(sweep(rgbf{200, 224, 222}, rgbf{188, 212, 210}, 280), 1034, 0.02), parts: guitar,
		shadow: shadows(softShadow(214, 180, 96, 110, 0.18, 14))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.2, chroma: 1.5, read: 1.4, quality: 82}}
}

// keyShot: a small brass key (under 1% of the frame) near the upper right
// corner of a light warm-grey sweep: a round bow whose hole shows the
// sweep, a shank with a groove, a bit with teeth; a small soft shadow.
// JPEG 90.
func keyShot() shot {
	brass := func(x, y float64) rgbf {
		k := 1.08 - 0.25*math.Max(0, (y-48)/16) + 0.1*math.Exp(-math.Pow((y-50)/1.5, 2))
		return rgbf{math.Min(255, 204*k), math.Min(255, 168*k), 84 * k}
	}
	bow := ellipse(260, 56, 11, 11)
	keyHole := ellipse(260, 56, 4, 4)
	key := []part{
		{in: union(without(bow, keyHole), rect(270, 52, 308, 60),
			rect(294, 60, 298, 66), rect(300, 60, 304, 64), rect(288, 60, 291, 65)), col: brass},
		{in: rect(274, 55.4, 306, 56.4), col: flat(rgbf{120, 96, 44})},
	}
	return shot{scene: scene{name: "p10_key_small_corner_q90", w: 340, h: 240, scale: 3,
		backdrop: sweep(rgbf{234, 232, 228}, rgbf{222, 220, 216}, 240), parts: key, hole: keyHole,
		shadow: shadows(softShadow(284, 61, 30, 6, 0.25, 3))},
		cam: camera{defocus: 1, vignette: 0.1, luma: 2, chroma: 1.2, read: 1.2, quality: 90}}
}

// noEdgeTenthShot: a white greeting card lying flat on a white table of
// exactly its colour, lit evenly, with no shadow, no rim and no print on
// the side in view: nothing in the photograph tells the card from the
// table. The issue asks that such a product be refused with a reason.
// JPEG 88.
func noEdgeTenthShot() shot {
	return shot{scene: scene{name: "p10_card_white_noedge_q88", w: 300, h: 260, scale: 3,
		backdrop: plain(rgbf{246, 246, 245}), parts: []part{
			{in: rect(80, 70, 220, 190), col: flat(rgbf{246, 246, 245}), light: true},
		}},
		cam: camera{defocus: 1.2, vignette: 0.1, luma: 2, chroma: 1.2, read: 1.2, quality: 88}}
}
