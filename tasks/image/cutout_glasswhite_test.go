package image

import (
	"math"
	"testing"
)

// The clear glass on white set: colourless glass on white and near-white
// sweeps, where the backdrop seen through the glass is as light as the
// sweep round it and only its rim lines (a few levels darker, where the
// walls turn away), a highlight and its own-tone parts (a cap, a lid, a
// label) tell it apart. Each glass must come out whole: its silhouette
// and its body's transparency as alpha, never a hole, never just its cap.
// Scored as glass (scoreGlass).

// mugHandle is a clear glass handle's alpha and colour: solid glass, so
// denser than the body's thin walls, darkest at its inner and outer edge.
func mugHandle(cx, cy, rOut, rIn float64) (func(x, y float64) float64, func(x, y float64) rgbf) {
	e := func(x, y float64) float64 {
		r := math.Hypot(x-cx, y-cy)
		mid := (rOut + rIn) / 2
		return math.Min(1, math.Abs(r-mid)/((rOut-rIn)/2))
	}
	alpha := func(x, y float64) float64 { return 0.35 + 0.4*math.Pow(e(x, y), 4) }
	col := func(x, y float64) rgbf {
		v := 236 - 70*math.Pow(e(x, y), 6)
		return rgbf{v - 3, v, v + 1}
	}
	return alpha, col
}

// glassGlint is a white reflection stripe of opacity 0.8 at x = hx inside
// in, between y0 and y1.
func glassGlint(in func(x, y float64) bool, hx, w, y0, y1 float64) part {
	return part{in: and(in, func(x, y float64) bool { return math.Abs(x-hx) < w && y > y0 && y < y1 }),
		col: flat(rgbf{254, 254, 254}), alpha: func(x, y float64) float64 { return 0.8 }}
}

// clearMug is a clear glass mug centred at cx on a sweep from top to
// bottom: a straight body 80 wide, its lip a thin ring seen nearly edge on
// when lip is set (else its top is only where the glass ends), a thick
// base, a solid glass handle of radii hOut and hIn on its right with the
// sweep seen through its loop, a contact shadow of the given darkness.
func clearMug(name string, cx float64, lip bool, hOut, hIn float64, top, bottom rgbf, dark float64,
	q int) shot {
	body := union(func(x, y float64) bool { return y >= 92 && y < 230 && math.Abs(x-cx) < 40 }, ellipse(cx, 92, 40, 5))
	alpha, col := clearWall(cx, func(y float64) float64 { return 40 }, 0.1, 0.7)
	hx := cx + 40
	ring := func(x, y float64) bool {
		r := math.Hypot(x-hx, y-155)
		return r < hOut && r >= hIn && x > hx-2
	}
	hAlpha, hCol := mugHandle(hx, 155, hOut, hIn)
	ps := []part{
		{in: body, col: col, alpha: alpha},
		{in: ring, col: hCol, alpha: hAlpha},
		{in: rect(cx-40, 218, cx+40, 230), col: flat(rgbf{222, 226, 228}),
			alpha: func(x, y float64) float64 { return 0.6 }},
		glassGlint(body, cx-24, 2, 100, 210),
	}
	if lip {
		ps = append(ps, part{in: without(ellipse(cx, 92, 40, 5), ellipse(cx, 92, 37, 3)),
			col: flat(rgbf{186, 190, 192}), alpha: func(x, y float64) float64 { return 0.6 }})
	}
	return shot{scene: scene{name: name, w: 280, h: 280, backdrop: sweep(top, bottom, 280), parts: ps,
		hole:   func(x, y float64) bool { return math.Hypot(x-hx, y-155) < hIn-1 && x > hx+1 },
		shadow: softShadow(cx, 231, 42, 3, dark, 2)},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 1.8, chroma: 1, quality: q}, glass: true}
}

// glassWhiteShots is the clear glass on white set.
func glassWhiteShots() []shot {
	var out []shot
	// A clear glass mug with a handle on the right, on a white sweep: a
	// straight body, its lip a thin ring seen nearly edge on, a thick
	// base, a solid glass handle with the sweep seen through its loop.
	// JPEG 84.
	mHalf := func(y float64) float64 { return 44 }
	mBody := union(func(x, y float64) bool { return y >= 92 && y < 236 && math.Abs(x-130) < 44 }, ellipse(130, 92, 44, 5))
	mAlpha, mCol := clearWall(130, mHalf, 0.1, 0.7)
	hOut, hIn := 34.0, 22.0
	ring := func(x, y float64) bool {
		r := math.Hypot(x-174, y-160)
		return r < hOut && r >= hIn && x > 172
	}
	hAlpha, hCol := mugHandle(174, 160, hOut, hIn)
	mug := []part{
		{in: mBody, col: mCol, alpha: mAlpha},
		{in: ring, col: hCol, alpha: hAlpha},
		{in: without(ellipse(130, 92, 44, 5), ellipse(130, 92, 41, 3)), col: flat(rgbf{186, 190, 192}),
			alpha: func(x, y float64) float64 { return 0.6 }},
		{in: rect(88, 222, 172, 236), col: flat(rgbf{222, 226, 228}), alpha: func(x, y float64) float64 { return 0.6 }},
		glassGlint(mBody, 104, 2, 100, 216),
	}
	out = append(out, shot{scene: scene{name: "gw_mug_clear_handle_white_q84", w: 280, h: 290,
		backdrop: sweep(rgbf{252, 252, 252}, rgbf{238, 238, 240}, 290), parts: mug,
		hole:   func(x, y float64) bool { return math.Hypot(x-174, y-160) < hIn-1 && x > 175 },
		shadow: softShadow(132, 237, 46, 3, 0.18, 2)},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 1.8, chroma: 1, quality: 84}, glass: true})

	// A clear round perfume flask with a black cap on a white sweep: a
	// round body, a short neck, a glossy black cap. JPEG 80.
	fR := func(y float64) float64 {
		d := (y - 178) / 62
		if math.Abs(d) >= 1 {
			return 0
		}
		return 58 * math.Sqrt(1-d*d)
	}
	fHalf := func(y float64) float64 {
		if y < 122 {
			return 12
		}
		return math.Max(fR(y), 12)
	}
	fIn := func(x, y float64) bool { return y >= 106 && y < 240 && math.Abs(x-140) < fHalf(y) }
	fAlpha, fCol := clearWall(140, fHalf, 0.1, 0.72)
	flask := []part{
		{in: fIn, col: fCol, alpha: fAlpha},
		glassGlint(fIn, 112, 2, 140, 220),
		{in: roundRect(124, 66, 156, 108, 5), col: rounded(rgbf{24, 24, 28}, 140, 16, -0.4, 0.25, none)},
	}
	out = append(out, shot{scene: scene{name: "gw_perfume_round_blackcap_white_q80", w: 280, h: 280,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{236, 236, 237}, 280), parts: flask,
		shadow: softShadow(140, 241, 40, 3, 0.16, 2)},
		cam: camera{defocus: 0.9, vignette: 0.08, luma: 2, chroma: 1.2, quality: 80}, glass: true})

	// A clear wine glass on a near-white sweep: a round bowl, a thin stem,
	// a flat foot, a highlight on the bowl. JPEG 86.
	wHalf := func(y float64) float64 {
		switch {
		case y < 150:
			d := (y - 100) / 60
			return 46 * math.Sqrt(math.Max(0, 1-d*d))
		case y < 236:
			return 4
		}
		return 36
	}
	bowl := and(ellipse(140, 100, 46, 60), func(x, y float64) bool { return y >= 58 && y < 150 })
	wIn := union(bowl, rect(136, 148, 144, 236), rect(104, 236, 176, 242))
	wAlpha, wCol := clearWall(140, func(y float64) float64 { return math.Max(wHalf(y), 4) }, 0.1, 0.7)
	wine := []part{
		{in: wIn, col: wCol, alpha: wAlpha},
		glassGlint(bowl, 118, 2, 74, 134),
	}
	out = append(out, shot{scene: scene{name: "gw_wineglass_clear_nearwhite_q86", w: 280, h: 280,
		backdrop: sweep(rgbf{247, 247, 245}, rgbf{232, 232, 229}, 280), parts: wine,
		shadow: softShadow(140, 243, 38, 2.5, 0.14, 2)},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 1.8, chroma: 1, quality: 86}, glass: true})

	// A clear storage jar with a brushed metal screw lid on a white sweep:
	// a wide straight body, round lower corners. JPEG 82.
	jHalf := func(y float64) float64 { return 52 }
	jIn := and(roundRect(88, 96, 192, 244, 14), func(x, y float64) bool { return true })
	jAlpha, jCol := clearWall(140, jHalf, 0.1, 0.7)
	jar := []part{
		{in: jIn, col: jCol, alpha: jAlpha},
		glassGlint(jIn, 110, 2, 110, 228),
		{in: roundRect(86, 72, 194, 98, 3), col: rounded(rgbf{178, 180, 184}, 140, 54, -0.5, 0.3, grain2(1201, 0.02))},
	}
	out = append(out, shot{scene: scene{name: "gw_jar_clear_metallid_white_q82", w: 280, h: 290,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{237, 237, 239}, 290), parts: jar,
		shadow: softShadow(140, 245, 50, 3, 0.18, 2)},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 2, chroma: 1.2, quality: 82}, glass: true})

	// A clear bottle with a pale cream label on a white sweep, a cork
	// stopper. JPEG 88.
	bHalf := func(y float64) float64 {
		switch {
		case y < 90:
			return 11
		case y < 124:
			t := (y - 90) / 34
			return 11 + 25*t*t*(3-2*t)
		}
		return 36
	}
	bIn := func(x, y float64) bool { return y >= 66 && y < 250 && math.Abs(x-140) < bHalf(y) }
	bAlpha, bCol := clearWall(140, bHalf, 0.1, 0.7)
	labelled := []part{
		{in: bIn, col: bCol, alpha: bAlpha},
		glassGlint(bIn, 122, 1.8, 130, 240),
		{in: rect(106, 160, 174, 214), col: rounded(rgbf{244, 238, 222}, 140, 34, -0.3, 0.12, none)},
		{in: rect(118, 182, 162, 188), col: flat(rgbf{150, 130, 110})},
		{in: roundRect(131, 46, 149, 70, 2), col: rounded(rgbf{178, 140, 96}, 140, 9, -0.3, 0.2, grain2(1211, 0.02))},
	}
	out = append(out, shot{scene: scene{name: "gw_bottle_clear_palelabel_white_q88", w: 280, h: 290,
		backdrop: sweep(rgbf{252, 252, 251}, rgbf{239, 238, 236}, 290), parts: labelled,
		shadow: softShadow(142, 251, 38, 3, 0.18, 2)},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 1.8, chroma: 1, quality: 88}, glass: true})

	// A clear tumbler, slightly tapered, on a white sweep, JPEG 72: its
	// rim lines broken into blocks.
	tHalf := func(y float64) float64 { return 34 + (y-96)*0.06 }
	tIn := func(x, y float64) bool { return y >= 96 && y < 236 && math.Abs(x-140) < tHalf(y) }
	tAlpha, tCol := clearWall(140, tHalf, 0.1, 0.7)
	tumbler := []part{
		{in: tIn, col: tCol, alpha: tAlpha},
		glassGlint(tIn, 120, 2, 106, 220),
		{in: and(tIn, func(x, y float64) bool { return y > 222 }), col: flat(rgbf{220, 224, 226}),
			alpha: func(x, y float64) float64 { return 0.55 }},
	}
	out = append(out, shot{scene: scene{name: "gw_tumbler_clear_white_q72", w: 280, h: 280,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{238, 238, 239}, 280), parts: tumbler,
		shadow: softShadow(140, 237, 40, 3, 0.16, 2)},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 2, chroma: 1.2, quality: 72}, glass: true})

	// A clear carafe with a soft, wide contact shadow on a near-white
	// sweep: a narrow neck flaring to a round body. JPEG 85.
	cHalf := func(y float64) float64 {
		switch {
		case y < 110:
			return 14
		case y < 150:
			t := (y - 110) / 40
			return 14 + 30*t*t*(3-2*t)
		}
		return 44
	}
	cIn := func(x, y float64) bool { return y >= 70 && y < 240 && math.Abs(x-140) < cHalf(y) }
	cAlpha, cCol := clearWall(140, cHalf, 0.1, 0.7)
	carafe := []part{
		{in: cIn, col: cCol, alpha: cAlpha},
		glassGlint(cIn, 118, 2, 150, 228),
	}
	out = append(out, shot{scene: scene{name: "gw_carafe_clear_softshadow_nearwhite_q85", w: 280, h: 290,
		backdrop: sweep(rgbf{248, 247, 246}, rgbf{234, 233, 231}, 290), parts: carafe,
		shadow: shadows(softShadow(140, 241, 46, 3, 0.25, 2), softShadow(152, 246, 70, 9, 0.12, 8))},
		cam: camera{defocus: 0.9, vignette: 0.1, luma: 2, chroma: 1.2, quality: 85}, glass: true})

	// Two more clear mugs on a white sweep: one with a thick handle at JPEG
	// 72, one whose lip is too thin to show (its top only where the glass
	// ends, the sweep seen through its opening).
	white, grey := rgbf{252, 252, 252}, rgbf{238, 238, 240}
	out = append(out, clearMug("gw_mug_clear_bighandle_white_q72", 120, true, 44, 30, white, grey, 0.3, 72),
		clearMug("gw_mug_clear_nolip_white_q84", 130, false, 32, 22, white, grey, 0.18, 84))
	return out
}

// glassWhiteSet is the clear glass on white set, as its floor test reads
// it.
var glassWhiteSet = shotSet{
	name:   "glasswhite",
	shots:  glassWhiteShots,
	floors: glassWhiteFloors,
	mean:   glassWhiteMean,
}

// TestCutoutKeepsClearGlassOnWhite holds the clear glass on white set to
// its floors: each glass whole, not just its cap or lid.
func TestCutoutKeepsClearGlassOnWhite(t *testing.T) {
	glassWhiteSet.hold(t)
}

// glassWhiteFloors and glassWhiteMean are the set's figures from one run
// less a margin (IoU 0.02 under, glass alpha error, enclosed backdrop and
// shadow kept 0.03 over). That run: the mug 0.916 (its handle's hole taken
// for glass, 0.15 of it kept), the round perfume 0.924, the wine glass
// 0.835 (its stem and foot lost, the bowl's lit side opaque; warned), the
// jar 0.959, the labelled bottle 0.959, the tumbler at JPEG 72 0.924 (its
// lit half opaque: alpha error 0.255), the carafe 0.923, the mug with a
// thick handle at JPEG 72 0.868 (kept whole by the second look, lookAgain,
// but opaque, its handle's hole too: alpha error 0.731, not warned), the
// mug with no lip 0.624 (its open top lets the backdrop into its body, cut
// below its handle's top; cut_quality 0.579, not warned); mean 0.881. The
// glasses keep most of their faint contact shadow.
var (
	glassWhiteFloors = map[string]fifthFloor{
		"gw_mug_clear_handle_white_q84":            {iou: 0.896, hole: 0.18, glassMAE: 0.136, shadow: 0.07},
		"gw_perfume_round_blackcap_white_q80":      {iou: 0.904, hole: 1, glassMAE: 0.103, shadow: 0.78},
		"gw_wineglass_clear_nearwhite_q86":         {iou: 0.815, hole: 1, glassMAE: 0.226, shadow: 0.03},
		"gw_jar_clear_metallid_white_q82":          {iou: 0.939, hole: 1, glassMAE: 0.111, shadow: 0.03},
		"gw_bottle_clear_palelabel_white_q88":      {iou: 0.939, hole: 1, glassMAE: 0.111, shadow: 0.67},
		"gw_tumbler_clear_white_q72":               {iou: 0.904, hole: 1, glassMAE: 0.285, shadow: 0.89},
		"gw_carafe_clear_softshadow_nearwhite_q85": {iou: 0.903, hole: 1, glassMAE: 0.215, shadow: 0.08},
		"gw_mug_clear_bighandle_white_q72":         {iou: 0.848, hole: 1, glassMAE: 0.761, shadow: 0.39},
		"gw_mug_clear_nolip_white_q84":             {iou: 0.604, hole: 0.19, glassMAE: 0.187, shadow: 0.03},
	}
	glassWhiteMean = 0.86
)

// BenchmarkCutoutGlassWhite prints the clear glass on white set's figures per shot: go test -run '^$'
// -bench CutoutGlassWhite ./tasks/image.
func BenchmarkCutoutGlassWhite(b *testing.B) {
	glassWhiteSet.bench(b)
}
