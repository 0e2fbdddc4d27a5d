package image

import "math"

// pileShots are cluttered piles of objects, touching and overlapping,
// inside a plain border, photographed by the fifth set's camera as JPEG:
// the truth is the whole pile. They are in the cut quality's calibration
// (cutquality_calib_test.go). A pile cut to one of its things is flagged
// (TestAPileCutToOneThingIsFlagged); the cut-out of these two keeps the
// pile but loses a grey book on the grey (IoU 0.86) and a white box and a
// towel's white stripes on the white (0.77), edges the image barely
// shows, and is not flagged.
func pileShots() []shot {
	stripes := func(a, b rgbf, period float64) func(x, y float64) rgbf {
		return func(x, y float64) rgbf {
			if math.Mod(x+y+1000, period) < period/2 {
				return a
			}
			return b
		}
	}
	wood := func(c rgbf) func(x, y float64) rgbf {
		w := valueNoise(5, 14)
		return func(x, y float64) rgbf {
			k := 1 + 0.06*math.Sin(x*0.9+6*w(x, y))
			return rgbf{c[0] * k, c[1] * k, c[2] * k}
		}
	}
	// A heap of toys and things filling the frame to a 14 px margin of
	// pale grey: a red ball, a blue box, a yellow tube, a green bottle, a
	// white mug, a black phone, a wooden block, a striped cloth, a pink
	// ball and a grey book, each on the ones before. JPEG 74.
	heap := []part{
		{in: quad([2]float64{16, 60}, [2]float64{150, 16}, [2]float64{196, 120}, [2]float64{40, 190}),
			col: stripes(rgbf{214, 60, 52}, rgbf{236, 226, 204}, 14)},
		{in: rect(170, 20, 302, 110), col: lit(rgbf{60, 96, 170}, 170, 302, 0.05, valueNoise(3, 4))},
		{in: quad([2]float64{150, 120}, [2]float64{300, 96}, [2]float64{302, 220}, [2]float64{170, 224}),
			col: lit(rgbf{126, 128, 134}, 150, 302, 0.04, valueNoise(4, 2))},
		{in: ellipse(84, 96, 52, 50), col: rounded(rgbf{200, 40, 44}, 84, 52, -0.5, 0.35, grain2(6, 0.02))},
		{in: tube(30, 200, 150, 150, 17), col: rounded(rgbf{240, 206, 60}, 90, 60, -0.3, 0.2, none)},
		{in: union(rect(196, 40, 228, 150), ellipse(212, 40, 16, 6), rect(204, 18, 220, 40)),
			col: rounded(rgbf{40, 130, 70}, 212, 16, -0.4, 0.4, none)},
		{in: union(rect(120, 130, 176, 196), ring(182, 162, 12, 20)),
			col: litWhite(rgbf{246, 245, 242}, 120, 200, 0.12, 0.004), light: true},
		{in: quad([2]float64{230, 130}, [2]float64{290, 120}, [2]float64{300, 200}, [2]float64{240, 210}),
			col: flat(rgbf{26, 26, 30})},
		{in: rect(60, 150, 118, 210), col: wood(rgbf{196, 150, 96})},
		{in: ellipse(260, 70, 28, 28), col: rounded(rgbf{236, 150, 180}, 260, 28, -0.5, 0.3, none)},
	}
	heapShot := shot{scene: scene{name: "q_pile_heap_margin_q74", w: 320, h: 240,
		backdrop: sweep(rgbf{230, 230, 228}, rgbf{220, 220, 218}, 240), parts: heap},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 2.4, chroma: 1.6, quality: 74}}

	// A smaller pile on a white sweep, its soft shadow under it: a brown
	// paper bag, an orange, a white box, a blue bottle, a glass jar's dark
	// lid, a green cup and a striped towel, overlapping. JPEG 80.
	pile := []part{
		{in: quad([2]float64{70, 190}, [2]float64{240, 186}, [2]float64{250, 214}, [2]float64{66, 216}),
			col: stripes(rgbf{70, 110, 160}, rgbf{238, 238, 232}, 10)},
		{in: rect(90, 70, 160, 196), col: wood(rgbf{180, 140, 96})},
		{in: union(rect(150, 110, 220, 200), quad([2]float64{150, 110}, [2]float64{166, 96},
			[2]float64{236, 96}, [2]float64{220, 110})), col: litWhite(rgbf{244, 244, 242}, 150, 236, 0.1, 0.004),
			light: true},
		{in: ellipse(120, 180, 26, 24), col: rounded(rgbf{236, 130, 30}, 120, 26, -0.5, 0.3, grain2(7, 0.03))},
		{in: union(rect(200, 60, 230, 196), ellipse(215, 60, 15, 6)),
			col: rounded(rgbf{40, 80, 170}, 215, 15, -0.4, 0.4, none)},
		{in: rect(160, 140, 196, 150), col: flat(rgbf{30, 30, 34})},
		{in: union(rect(60, 120, 100, 190), ring(56, 150, 10, 17)), col: rounded(rgbf{70, 160, 90}, 80, 20, -0.5,
			0.3, none)},
	}
	pileShot := shot{scene: scene{name: "q_pile_small_white_q80", w: 300, h: 260,
		backdrop: sweep(rgbf{250, 250, 249}, rgbf{240, 240, 239}, 260), parts: pile,
		shadow: softShadow(150, 212, 110, 8, 0.3, 8)},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 2, chroma: 1.4, quality: 80}}
	return []shot{heapShot, pileShot}
}
