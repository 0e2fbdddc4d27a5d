package image

import "math"

// thinNinthShots is the ninth set's last part (cutout_ninth_test.go): thin
// stems, a frame and a chain, a product cut by the frame, a small one off
// the centre and a drawing.
func thinNinthShots() []shot {
	out := []shot{plantShot(), bicycleShot(), necklaceShot()}
	return append(out, placedNinthShots()...)
}

// plantShot: a small-leaved plant in a white ceramic pot on a pale sage
// wall, lit from the left: thin stems fanning out of the soil, pointed
// leaves with a lighter midrib, the wall seen between them; a contact
// shadow under the pot. JPEG 85.
func plantShot() shot {
	leafCol := func(x, y float64) rgbf {
		k := 1.05 - 0.25*(x-40)/180
		return rgbf{64 * k, 122 * k, 60 * k}
	}
	var stems, leaves, ribs []func(x, y float64) bool
	for k := range 11 {
		deg := -160 + 14*float64(k) // the stem's direction, fanning from the left to the right
		if k%2 == 1 {
			deg += 5
		}
		l := 80 + 46*math.Abs(math.Sin(float64(k)*1.3))
		s, c := math.Sincos(deg * math.Pi / 180)
		ex, ey := 130+l*c, 226+l*s
		stems = append(stems, tube(130, 226, ex, ey, 0.9))
		leaves = append(leaves, leafAt(ex, ey, 34, 15, deg+12*math.Sin(float64(k))))
		ribs = append(ribs, leafAt(ex, ey, 30, 1.2, deg+12*math.Sin(float64(k))))
		// a second leaf halfway along the stem, to one side
		side := deg + 50
		if k%2 == 0 {
			side = deg - 50
		}
		leaves = append(leaves, leafAt(130+0.55*l*c, 226+0.55*l*s, 24, 11, side))
	}
	plant := []part{
		{in: union(stems...), col: flat(rgbf{84, 118, 60})},
		{in: union(leaves...), col: leafCol},
		{in: union(ribs...), col: flat(rgbf{128, 170, 104})},
		{in: union(roundRect(92, 230, 168, 310, 4), rect(88, 224, 172, 238)),
			col: rounded(rgbf{248, 247, 244}, 130, 42, -0.5, 0.2, grain2(931, 0.004))},
		{in: rect(88, 237, 172, 238.6), col: flat(rgbf{214, 212, 208})},
		{in: ellipse(130, 226, 38, 3.5), col: flat(rgbf{62, 48, 38})},
	}
	return shot{scene: scene{name: "p9_plant_leaves_pot_q85", w: 260, h: 330, scale: 3,
		backdrop: seamless(rgbf{226, 230, 222}, rgbf{216, 218, 210}, 250, 330), parts: plant,
		shadow: shadows(softShadow(130, 311, 40, 2.5, 0.45, 1.5), softShadow(150, 314, 60, 6, 0.16, 8))},
		cam: camera{defocus: 1.3, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.6, quality: 85}}
}

// bicycleShot: a navy road bicycle from the side on a warm light grey
// seamless sweep: black tyres on silver rims, thin spokes, a diamond frame
// whose two triangles and the wheels show the sweep, a fork, drop bars, a
// black saddle and a crank; contact shadows under the tyres, a strong
// vignette. JPEG 82.
func bicycleShot() shot {
	wheel := func(cx, cy float64) []part {
		var spokes []func(x, y float64) bool
		for k := range 12 {
			s, c := math.Sincos(float64(k)*math.Pi/6 + 0.13)
			spokes = append(spokes, tube(cx+4*c, cy+4*s, cx+43*c, cy+43*s, 0.35))
		}
		return []part{
			{in: ring(cx, cy, 45.5, 50), col: flat(rgbf{34, 34, 36})},
			{in: ring(cx, cy, 42.5, 45.5), col: flat(rgbf{176, 178, 182})},
			{in: union(spokes...), col: flat(rgbf{150, 152, 156})},
			{in: ellipse(cx, cy, 4, 4), col: flat(rgbf{120, 122, 126})},
		}
	}
	navy := func(x, y float64) rgbf {
		k := 1 + 0.3*math.Exp(-math.Pow((y-72)/2, 2))
		return rgbf{36 * k, 56 * k, 108 * k}
	}
	frame := union(tube(150, 150, 136, 70, 2.4), tube(136, 74, 228, 76, 2.2), tube(150, 150, 230, 94, 2.8),
		tube(150, 150, 90, 140, 1.8), tube(138, 80, 90, 140, 1.6), tube(232, 96, 250, 140, 2),
		tube(226, 70, 232, 100, 3))
	bike := append(wheel(90, 140), wheel(250, 140)...)
	bike = append(bike,
		part{in: frame, col: navy},
		part{in: union(tube(136, 70, 134, 62, 1.2), tube(226, 70, 238, 64, 1.5), tube(238, 64, 250, 66, 1.6),
			tube(250, 66, 252, 80, 1.6), tube(252, 80, 246, 84, 1.6)), col: flat(rgbf{40, 40, 42})},
		part{in: union(ellipse(132, 61, 14, 3.4), ellipse(150, 150, 11, 11), tube(150, 150, 160, 168, 1.8),
			rect(154, 167, 168, 170)), col: flat(rgbf{28, 28, 30})},
	)
	bikeHoles := union(ellipse(90, 140, 42.5, 42.5), ellipse(250, 140, 42.5, 42.5),
		quad([2]float64{139, 78}, [2]float64{224, 80}, [2]float64{152, 143}),
		quad([2]float64{135, 86}, [2]float64{97, 139}, [2]float64{146, 146}))
	return shot{scene: scene{name: "p9_bicycle_frame_gaps_q82", w: 340, h: 220, scale: 4,
		backdrop: seamless(rgbf{236, 234, 230}, rgbf{226, 224, 220}, 150, 220), parts: bike, hole: bikeHoles,
		shadow: shadows(softShadow(90, 191, 30, 2, 0.4, 2), softShadow(250, 191, 30, 2, 0.4, 2),
			softShadow(170, 194, 120, 4, 0.12, 8))},
		cam: camera{defocus: 1.2, vignette: 0.22, luma: 2.2, chroma: 1.4, read: 1.4, quality: 82}}
}

// necklaceShot: a gold chain necklace lying in an oval on deep teal
// velvet, its links catching the light in turn, a clasp at the top and a
// round pendant with a blue stone at the bottom; the velvet inside the
// oval is enclosed. PNG.
func necklaceShot() shot {
	chain := without(ellipse(130, 118, 70.6, 88.6), ellipse(130, 118, 69.4, 87.4))
	gold := func(x, y float64) rgbf {
		a := math.Atan2((y-118)/88, (x-130)/70)
		k := 0.8 + 0.25*math.Cos(a*140)
		return rgbf{math.Min(255, 236*k), math.Min(255, 190*k), 96 * k}
	}
	pendant := func(x, y float64) rgbf {
		k := 1.05 - 0.3*math.Max(0, (x-118)/24)
		return rgbf{228 * k, 184 * k, 90 * k}
	}
	necklace := []part{
		{in: union(chain, ring(130, 30, 2.2, 3.6)), col: gold},
		{in: union(ring(130, 210, 2, 3.4), ellipse(130, 222, 12, 12)), col: pendant},
		{in: ellipse(130, 222, 6, 6), col: func(x, y float64) rgbf {
			g := math.Exp(-math.Pow(math.Hypot(x-128, y-220)/2.5, 2))
			return rgbf{40 + 160*g, 70 + 150*g, 150 + 90*g}
		}},
	}
	return shot{scene: scene{name: "p9_necklace_chain_velvet_png", w: 260, h: 260, scale: 4,
		backdrop: velvet(rgbf{24, 64, 72}, 932), parts: necklace, hole: ellipse(130, 118, 69.2, 87.2),
		shadow: softShadow(132, 236, 12, 4, 0.3, 3)},
		cam: camera{defocus: 1, vignette: 0.12, luma: 1.6, chroma: 1.2, read: 2.4}}
}

// placedNinthShots are a product cut by the frame, a small one off the
// centre, and a drawing with white fills.
func placedNinthShots() []shot {
	var out []shot
	// A mustard canvas backpack cut by the frame's right and bottom edges
	// on pale concrete: a front pocket with a zip and a puller, a leather
	// patch, a grab handle whose loop shows the concrete; a soft shadow to
	// the left. JPEG 78.
	pack := roundRect(120, 90, 360, 340, 30)
	canvas9 := valueNoise(941, 0.5)
	mustard := func(x, y float64) rgbf {
		k := 1.04 - 0.1*math.Max(0, (x-120)/180) + 0.025*canvas9(x, y) + 0.01*math.Sin(x*4)
		return rgbf{214 * k, 164 * k, 52 * k}
	}
	loop := without(and(ring(200, 90, 14, 20), func(x, y float64) bool { return y < 92 }), pack)
	loopHole := without(and(ellipse(200, 90, 14, 14), func(x, y float64) bool { return y < 92 }), pack)
	backpack := []part{
		{in: union(pack, loop), col: mustard},
		{in: roundRect(150, 180, 300, 320, 16), col: func(x, y float64) rgbf {
			c := mustard(x, y)
			return rgbf{c[0] * 0.92, c[1] * 0.92, c[2] * 0.92}
		}},
		{in: tube(156, 192, 294, 192, 1.3), col: flat(rgbf{52, 44, 30})},
		{in: union(roundRect(176, 194, 184, 210, 2), roundRect(196, 128, 228, 150, 3)), col: flat(rgbf{118, 74, 42})},
	}
	out = append(out, shot{scene: scene{name: "p9_backpack_cut_by_frame_q78", w: 300, h: 280, scale: 3,
		backdrop: concrete(rgbf{226, 226, 224}, rgbf{210, 210, 208}, 280, 942, 0.04), parts: backpack, hole: loopHole,
		shadow: boxShadow(108, 98, 350, 340, 0.25, 10)},
		cam: camera{defocus: 1.4, vignette: 0.14, luma: 2.6, chroma: 1.8, read: 1.6, quality: 78}})

	// A small white earbuds case (under 2% of the frame) at the lower left
	// of a pale blue-grey sweep: a glossy pill with a highlight along its
	// top, a lid seam, a status light; a contact shadow and a soft one.
	// JPEG 92.
	gloss := func(x, y float64) rgbf {
		k := 1 - 0.1*math.Max(0, (y-176)/22) + 0.02*math.Exp(-math.Pow((y-172)/2, 2))
		return rgbf{math.Min(255, 250*k), math.Min(255, 250*k), math.Min(255, 250*k)}
	}
	earbuds := []part{
		{in: roundRect(56, 168, 96, 198, 13), col: gloss, light: true},
		{in: rect(57, 178, 95, 178.8), col: flat(rgbf{196, 198, 200})},
		{in: ellipse(76, 189, 1, 1), col: flat(rgbf{120, 200, 130})},
	}
	out = append(out, shot{scene: scene{name: "p9_earbuds_small_offcentre_q92", w: 320, h: 240, scale: 4,
		backdrop: sweep(rgbf{228, 234, 242}, rgbf{214, 220, 230}, 240), parts: earbuds,
		shadow: shadows(softShadow(76, 199, 19, 2, 0.4, 1.5), softShadow(84, 201, 28, 4, 0.15, 5))},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2, chroma: 1.2, read: 1.2, quality: 92}})
	return append(out, catShot())
}

// catShot: a sitting cat drawn in black ink on off-white paper and
// scanned: a head, a body and a curled tail filled with the paper's white,
// pink inner ears and nose, white eyes with black pupils, a grey patch on
// the back, whiskers reaching past the outline. JPEG 72.
func catShot() shot {
	pp := paper(rgbf{250, 248, 242}, 300, 320)
	ink := rgbf{20, 20, 24}
	body := ellipse(150, 222, 60, 70)
	head := ellipse(150, 122, 52, 46)
	ears := union(quad([2]float64{106, 104}, [2]float64{110, 56}, [2]float64{140, 82}),
		quad([2]float64{194, 104}, [2]float64{190, 56}, [2]float64{160, 82}))
	tail := union(tube(200, 266, 240, 230, 7), tube(240, 230, 242, 182, 7))
	feet := union(ellipse(126, 288, 16, 9), ellipse(174, 288, 16, 9))
	eyes := union(ellipse(130, 118, 10, 12), ellipse(170, 118, 10, 12))
	whiskers := union(tube(126, 140, 76, 130, 0.5), tube(126, 144, 74, 150, 0.5),
		tube(174, 140, 224, 130, 0.5), tube(174, 144, 226, 150, 0.5))
	white := func(in func(x, y float64) bool) part { return part{in: in, col: pp, light: true} }
	cat := []part{
		{in: grown(union(tail, body, feet), 2.2), col: flat(ink)},
		white(tail),
		white(body),
		{in: ellipse(180, 206, 20, 30), col: flat(rgbf{150, 148, 146})},
		{in: grown(feet, 2.2), col: flat(ink)},
		white(feet),
		{in: grown(union(head, ears), 2.2), col: flat(ink)},
		white(union(head, ears)),
		{in: union(quad([2]float64{114, 98}, [2]float64{116, 66}, [2]float64{134, 84}),
			quad([2]float64{186, 98}, [2]float64{184, 66}, [2]float64{166, 84})), col: flat(rgbf{240, 170, 176})},
		{in: grown(eyes, 1.6), col: flat(ink)},
		white(eyes),
		{in: union(ellipse(131, 120, 4, 7), ellipse(171, 120, 4, 7)), col: flat(ink)},
		{in: quad([2]float64{144, 134}, [2]float64{156, 134}, [2]float64{150, 141}), col: flat(rgbf{232, 140, 150})},
		{in: union(whiskers, tube(150, 141, 150, 148, 0.7), tube(150, 148, 142, 152, 0.7),
			tube(150, 148, 158, 152, 0.7)), col: flat(ink)},
	}
	return shot{scene: scene{name: "p9_cat_drawing_whitefill_q72", w: 300, h: 320, scale: 3,
		backdrop: pp, parts: cat},
		cam: camera{defocus: 0.9, vignette: 0.05, luma: 1.6, chroma: 0.8, read: 0.8, quality: 72}}
}
