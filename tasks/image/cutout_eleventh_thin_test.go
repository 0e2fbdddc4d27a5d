package image

import "math"

// thinEleventhShots is the eleventh set's last part
// (cutout_eleventh_test.go): a chain and an earphone cable, a lamp that
// hangs from the frame's top edge and a small product in a corner.
func thinEleventhShots() []shot {
	return []shot{p11ChainShot(), p11EarphonesShot(), p11LampShot(), p11RingBoxShot()}
}

// p11Chain is a closed chain of links along the curve r(θ) = r0 + droop
// sin θ about (cx, cy): links a step apart along it, flat oval rings and
// links seen edge-on in turn, bucketed in cells so a point tests a few.
func p11Chain(cx, cy, r0, droop, step float64) func(x, y float64) bool {
	type link struct{ x, y, tx, ty float64 }
	at := func(t float64) (float64, float64) {
		r := r0 + droop*math.Sin(t)
		return cx + r*math.Cos(t), cy + r*math.Sin(t)
	}
	var links []link
	px, py := at(0)
	var run float64
	const n = 4000
	for k := 1; k <= n; k++ {
		x, y := at(2 * math.Pi * float64(k) / n)
		run += math.Hypot(x-px, y-py)
		if run >= step {
			d := math.Hypot(x-px, y-py)
			links = append(links, link{x, y, (x - px) / d, (y - py) / d})
			run = 0
		}
		px, py = x, y
	}
	const cell = 8.0
	grid := map[[2]int][]int{}
	for i, l := range links {
		for gx := int(math.Floor((l.x - 4) / cell)); gx <= int(math.Floor((l.x+4)/cell)); gx++ {
			for gy := int(math.Floor((l.y - 4) / cell)); gy <= int(math.Floor((l.y+4)/cell)); gy++ {
				grid[[2]int{gx, gy}] = append(grid[[2]int{gx, gy}], i)
			}
		}
	}
	return func(x, y float64) bool {
		for _, i := range grid[[2]int{int(math.Floor(x / cell)), int(math.Floor(y / cell))}] {
			l := links[i]
			u := (x-l.x)*l.tx + (y-l.y)*l.ty  // along the chain
			v := -(x-l.x)*l.ty + (y-l.y)*l.tx // across it
			if i%2 == 0 {
				o, in := u*u/(2.8*2.8)+v*v/(1.8*1.8), u*u/(1.8*1.8)+v*v/(0.9*0.9)
				if o <= 1 && in > 1 {
					return true
				}
			} else if math.Abs(v) <= 0.55 && math.Abs(u) <= 2.9 {
				return true
			}
		}
		return false
	}
}

// p11ChainShot: a fine gold curb chain necklace lying in a loop on
// oatmeal linen with a small disc pendant at the bottom: links a few
// pixels across whose gaps show the linen, the loop enclosing linen; a
// faint shadow. PNG.
func p11ChainShot() shot {
	chain := p11Chain(170, 120, 84, 24, 4.2)
	gold := func(x, y float64) rgbf {
		k := 1 + 0.2*math.Sin(x*1.7+y*1.1)
		return rgbf{math.Min(255, 214*k), math.Min(255, 170*k), 84 * k}
	}
	necklace := []part{
		{in: union(chain, tube(170, 228, 170, 236, 1.1)), col: gold},
		{in: ellipse(170, 244, 9, 9), col: rounded(rgbf{226, 184, 96}, 170, 9, -0.5, 0.4, none)},
	}
	inner := func(x, y float64) bool {
		t := math.Atan2(y-120, x-170)
		return math.Hypot(x-170, y-120) < 84+24*math.Sin(t)-3.5
	}
	return shot{scene: scene{name: "p11_chain_gold_loop_linen_png", w: 340, h: 270, scale: 3,
		backdrop: p11Linen(rgbf{222, 212, 194}, 1121), parts: necklace, hole: inner,
		shadow: softShadow(172, 250, 10, 10, 0.2, 3)},
		cam: camera{defocus: 0.9, vignette: 0.1, luma: 2, chroma: 1.4, read: 1.2}}
}

// p11EarphonesShot: white wired earphones lying on a pale grey sweep: two
// glossy buds with stems, two thin cables meeting at a splitter, one
// cable wandering down to a jack plug with a silver tip; a faint shadow
// along the buds. JPEG 84.
func p11EarphonesShot() shot {
	wander := func(y float64) float64 { return 160 + 34*math.Sin((y-180)/26) }
	slope := func(y float64) float64 { return 34 / 26 * math.Cos((y-180)/26) }
	cable := func(x, y float64) bool {
		return y >= 180 && y < 292 && math.Abs(x-wander(y)) < 0.75*math.Sqrt(1+slope(y)*slope(y))
	}
	buds := union(ellipse(118, 72, 15, 13), ellipse(204, 66, 15, 13))
	stems := union(tube(122, 80, 124, 112, 3.6), tube(200, 74, 198, 106, 3.6))
	wires := union(tube(124, 112, 160, 172, 0.75), tube(198, 106, 160, 172, 0.75), cable)
	white := func(x, y float64) rgbf {
		k := 0.98 + 0.03*math.Sin(x*0.3+y*0.2)
		return rgbf{math.Min(255, 250*k), math.Min(255, 250*k), math.Min(255, 249*k)}
	}
	earphones := []part{
		{in: union(outline(union(buds, stems), 0.8)), col: flat(rgbf{206, 206, 206})},
		{in: union(buds, stems), col: white, light: true},
		{in: wires, col: flat(rgbf{244, 244, 243})},
		{in: roundRect(155, 166, 165, 182, 3), col: flat(rgbf{240, 240, 238}), light: true},
		{in: roundRect(wander(292)-4, 290, wander(292)+4, 312, 2), col: flat(rgbf{242, 242, 240}), light: true},
		{in: rect(wander(292)-1.4, 312, wander(292)+1.4, 326), col: func(x, y float64) rgbf {
			v := 170 + 60*math.Exp(-math.Pow(x-wander(292)+0.6, 2))
			return rgbf{v, v, v + 3}
		}},
		{in: union(ellipse(112, 68, 5, 4), ellipse(198, 62, 5, 4)), col: flat(rgbf{176, 178, 182})},
	}
	return shot{scene: scene{name: "p11_earphones_cable_palegrey_q84", w: 320, h: 340, scale: 3,
		backdrop: sweep(rgbf{228, 229, 231}, rgbf{220, 221, 223}, 340), parts: earphones,
		shadow: shadows(softShadow(124, 80, 18, 16, 0.18, 4), softShadow(210, 74, 18, 16, 0.18, 4))},
		cam: camera{defocus: 1.1, vignette: 0.1, luma: 2, chroma: 1.2, read: 1.2, quality: 84}}
}

// p11LampShot: a sage metal pendant lamp hanging from the frame's top
// edge on its black cord in front of a pale plaster wall: a dome shade lit
// from the left, a brass cap, the warm bulb seen under the rim; no shadow
// on the far wall. JPEG 82.
func p11LampShot() shot {
	dome := and(ellipse(160, 190, 86, 78), func(x, y float64) bool { return y < 190 })
	sage := func(x, y float64) rgbf {
		e := (x - 160) / 86
		k := 1.08 - 0.3*(e+0.5)*(e+0.5)/2.25
		return rgbf{150 * k, 170 * k, 146 * k}
	}
	lamp := []part{
		{in: tube(160, -4, 160, 106, 1.4), col: flat(rgbf{22, 22, 24})},
		{in: roundRect(150, 100, 170, 118, 3), col: rounded(rgbf{196, 160, 90}, 160, 10, -0.5, 0.4, none)},
		{in: dome, col: sage},
		{in: rect(74, 186, 246, 190), col: flat(rgbf{110, 126, 106})},
		{in: and(ellipse(160, 190, 26, 14), func(x, y float64) bool { return y >= 190 }),
			col: flat(rgbf{255, 244, 210}), light: true},
	}
	return shot{scene: scene{name: "p11_lamp_pendant_top_edge_q82", w: 320, h: 260, scale: 3,
		backdrop: textured(plain(rgbf{226, 224, 218}), 1122, 0.02), parts: lamp},
		cam: camera{defocus: 1.2, vignette: 0.14, luma: 2.2, chroma: 1.4, read: 1.4, quality: 82}}
}

// p11RingBoxShot: a small burgundy velvet ring box (about 1.5 % of the
// frame) near the lower right corner of oatmeal linen, lid shut: a lid
// and a base a shade darker with a seam between, a soft shadow. JPEG 90.
func p11RingBoxShot() shot {
	lid := roundRect(262, 200, 300, 218, 5)
	base := roundRect(262, 216, 300, 234, 3)
	velvet := valueNoise(1123, 0.5)
	box := []part{
		{in: lid, col: func(x, y float64) rgbf {
			k := 1.08 - 0.2*(y-200)/18 + 0.05*velvet(x, y)
			return rgbf{128 * k, 30 * k, 44 * k}
		}},
		{in: base, col: fromAbove(rgbf{104, 24, 36}, 216, 234, 0.2, grain2(1124, 0.04))},
		{in: rect(262, 216, 300, 217), col: flat(rgbf{60, 14, 20})},
	}
	return shot{scene: scene{name: "p11_ringbox_small_corner_q90", w: 340, h: 260, scale: 3,
		backdrop: p11Linen(rgbf{224, 214, 196}, 1125), parts: box,
		shadow: shadows(softShadow(284, 235, 22, 2, 0.4, 1.4), softShadow(290, 232, 28, 6, 0.15, 5))},
		cam: camera{defocus: 1, vignette: 0.1, luma: 2, chroma: 1.4, read: 1.2, quality: 90}}
}

// p11NoEdgeShot: a white paper napkin lying flat on a white lacquered
// table of exactly its colour, lit evenly, with no shadow, no fold and no
// print: nothing in the photograph tells the napkin from the table. The
// issue asks that such a product be refused with a reason. JPEG 86.
func p11NoEdgeShot() shot {
	return shot{scene: scene{name: "p11_napkin_white_noedge_q86", w: 320, h: 240, scale: 3,
		backdrop: plain(rgbf{244, 244, 242}), parts: []part{
			{in: rect(100, 60, 220, 180), col: flat(rgbf{244, 244, 242}), light: true},
		}},
		cam: camera{defocus: 1.1, vignette: 0.08, luma: 2, chroma: 1.2, read: 1.2, quality: 86}}
}
