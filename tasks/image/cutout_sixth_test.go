package image

import (
	"math"
	"testing"
)

// The sixth set: twelve more shots of the kinds issue 46's hidden set
// measures, photographed by the fifth set's camera (cutout_fifth_render_
// test.go) and scored as it is, drawn after every other set with other
// products, sizes (one under 5 % of the frame, one over half of it),
// positions (off the centre, cut by the left, right and top edges), lights
// (a key light from the left, one from above, a strong rim light),
// backdrops (white seamless, a light grey gradient, warm cream, pale blue,
// a light wooden table) and shadows (hard, soft, none), JPEG at quality 70
// to 92. It is held out: the fifth set is tuned on now, this one is not;
// nobody tunes the cut-out on it.

// hardShadow is a shadow of the given darkness with a sharp edge over in.
func hardShadow(in func(x, y float64) bool, dark float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		if in(x, y) {
			return 1 - dark
		}
		return 1
	}
}

// table is a light wooden table top of colour c: rings and fine streaks
// along x that wander, a little lighter towards the back (the top of the
// frame).
func table(c rgbf, h, seed float64) func(x, y float64) rgbf {
	wander, streak := valueNoise(seed, 60), valueNoise(seed+1, 1.5)
	return func(x, y float64) rgbf {
		g := 0.018*math.Sin(y*0.7+8*wander(x, y)) + 0.016*streak(x*0.06, y+4*wander(x, y))
		k := 1 + g + 0.03*(1-y/h)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// fromAbove is c lit from above across [y0, y1]: darker by fall at y1.
func fromAbove(c rgbf, y0, y1, fall float64, tex func(x, y float64) float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		t := math.Max(0, math.Min(1, (y-y0)/(y1-y0)))
		k := 1 - fall*t + tex(x, y)
		return rgbf{math.Min(255, c[0]*k), math.Min(255, c[1]*k), math.Min(255, c[2]*k)}
	}
}

// sixthShots is the sixth set.
func sixthShots() []shot {
	var out []shot
	// A white high-top sneaker from the side, toe right, off the centre to
	// the left, on a light grey gradient; a key light from the left
	// darkens it towards the toe, and casts a hard shadow to the right.
	// Grey eyelets, a lining in the collar, a sole with a groove. JPEG 86.
	upper := union(rect(60, 72, 122, 172), quad([2]float64{122, 84}, [2]float64{205, 128}, [2]float64{205, 172},
		[2]float64{122, 172}), ellipse(205, 150, 34, 22))
	sole := union(rect(50, 168, 238, 186), ellipse(50, 177, 6, 9), ellipse(238, 177, 8, 9))
	eyelets := func(x, y float64) bool {
		for k := range 5 {
			if math.Hypot(x-(128+14*float64(k)), y-(98+7*float64(k))) < 2.2 {
				return true
			}
		}
		return false
	}
	sneaker := []part{
		{in: grown(upper, 1.2), col: flat(rgbf{218, 218, 220})},
		{in: upper, col: rounded(rgbf{251, 251, 250}, 150, 95, -1, 0.16, grain2(31, 0.006)), light: true},
		{in: ellipse(90, 74, 27, 5), col: flat(rgbf{186, 186, 190})},
		{in: rect(56, 84, 63, 150), col: flat(rgbf{238, 238, 238}), light: true},
		{in: eyelets, col: flat(rgbf{150, 150, 156})},
		{in: sole, col: litWhite(rgbf{245, 245, 243}, 50, 240, 0.1, 0), light: true},
		{in: rect(50, 176, 238, 178), col: flat(rgbf{180, 180, 182})},
	}
	sneakerShadow := quad([2]float64{150, 186}, [2]float64{238, 186}, [2]float64{318, 168}, [2]float64{250, 166})
	out = append(out, shot{scene: scene{name: "p6_sneaker_side_hard_lgrey_q86", w: 340, h: 230,
		backdrop: sweep(rgbf{236, 237, 239}, rgbf{212, 213, 216}, 230), parts: sneaker,
		shadow: shadows(softShadow(144, 187, 96, 2.5, 0.5, 1.5), hardShadow(sneakerShadow, 0.3))},
		cam: camera{defocus: 0.5, vignette: 0.08, luma: 1.8, chroma: 1, quality: 86}})

	// A white ceramic vase on pale blue under a strong rim light from
	// behind: its middle a soft grey, its silhouette a bright white line
	// brighter than the backdrop; a narrow neck and a lip. JPEG 84.
	vase := union(ellipse(120, 190, 62, 72), rect(102, 72, 138, 130), ellipse(120, 72, 24, 6))
	rim := func(x, y float64) rgbf {
		half := 24.0
		if y > 125 {
			half = 62 * math.Sqrt(math.Max(0, 1-math.Pow((y-190)/72, 2)))
			half = math.Max(half, 18)
		}
		e := math.Min(1, math.Abs(x-120)/half)
		v := 232 - 34*e*e + 60*math.Exp(-math.Pow((1-e)/0.07, 2)) - 0.08*(y-70)
		return rgbf{math.Min(255, v), math.Min(255, v), math.Min(255, v+2)}
	}
	out = append(out, shot{scene: scene{name: "p6_vase_rimlit_paleblue_q84", w: 240, h: 300,
		backdrop: sweep(rgbf{228, 237, 247}, rgbf{210, 222, 236}, 300),
		parts:    []part{{in: vase, col: rim, light: true}},
		shadow:   shadows(softShadow(120, 262, 50, 3, 0.4, 2), softShadow(120, 264, 70, 7, 0.15, 10))},
		cam: camera{defocus: 0.9, vignette: 0.2, luma: 2.2, chroma: 1.4, quality: 84}})

	// A white plastic spray bottle cut by the frame's right edge on warm
	// cream: a trigger head with a nozzle pointing left, a trigger below
	// it with the backdrop between it and the neck, a hard shadow falling
	// left. JPEG 74.
	bodyS := union(rect(218, 120, 310, 250), ellipse(264, 120, 46, 10))
	head := union(rect(230, 60, 292, 94), rect(198, 64, 232, 80), ellipse(292, 77, 10, 17))
	trigger := tube(236, 96, 224, 128, 5)
	spray := []part{
		{in: union(bodyS, rect(246, 92, 278, 112)), col: litWhite(rgbf{250, 249, 247}, 218, 300, 0.12, 0.003),
			light: true},
		{in: union(head, trigger), col: litWhite(rgbf{244, 244, 242}, 198, 300, 0.1, 0), light: true},
		{in: rect(198, 68, 201, 76), col: flat(rgbf{170, 170, 172})},
	}
	sprayShadow := quad([2]float64{219, 236}, [2]float64{219, 252}, [2]float64{140, 256}, [2]float64{150, 242})
	out = append(out, shot{scene: scene{name: "p6_spray_bottle_right_edge_q74", w: 300, h: 260,
		backdrop: sweep(rgbf{247, 240, 226}, rgbf{235, 226, 207}, 260), parts: spray,
		shadow: shadows(softShadow(264, 251, 50, 2.5, 0.45, 1.5), hardShadow(sprayShadow, 0.28))},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 2.6, chroma: 2, quality: 74}})

	// A folded white towel filling most of the frame (over half of it) on
	// a light wooden table, lit from above: a terry texture, a fold line,
	// a rounded front edge darker where it turns down; a soft shadow
	// below and to the right. JPEG 90.
	towel := union(rect(22, 36, 258, 196), ellipse(140, 196, 118, 6))
	terry := func(x, y float64) float64 { return 0.02*valueNoise(41, 1.3)(x, y) + 0.01*valueNoise(42, 6)(x, y) }
	towelParts := []part{
		{in: towel, col: fromAbove(rgbf{250, 249, 246}, 36, 200, 0.08, terry), light: true},
		{in: rect(22, 114, 258, 117), col: flat(rgbf{214, 213, 210})},
		{in: and(towel, rect(0, 184, 300, 210)), col: fromAbove(rgbf{236, 235, 232}, 184, 202, 0.1, terry),
			light: true},
	}
	out = append(out, shot{scene: scene{name: "p6_towel_folded_wood_large_q90", w: 280, h: 220,
		backdrop: table(rgbf{224, 201, 166}, 220, 43), parts: towelParts,
		shadow: boxShadow(28, 44, 266, 206, 0.28, 8)},
		cam: camera{defocus: 0.8, vignette: 0.15, luma: 1.6, chroma: 1, quality: 90}})

	// A beige handbag left of the centre on warm cream, lit from the left:
	// a tapered body, a flap with a darker edge, an arched handle whose
	// hole shows the cream; a soft shadow. JPEG 80.
	bag := quad([2]float64{50, 130}, [2]float64{190, 130}, [2]float64{206, 240}, [2]float64{34, 240})
	bagHandle := and(ring(120, 132, 44, 54), func(x, y float64) bool { return y < 132 })
	bagHole := and(ellipse(120, 132, 44, 44), func(x, y float64) bool { return y < 130 })
	flap := quad([2]float64{50, 130}, [2]float64{190, 130}, [2]float64{196, 170}, [2]float64{44, 170})
	handbag := []part{
		{in: bagHandle, col: flat(rgbf{206, 186, 156})},
		{in: bag, col: rounded(rgbf{226, 208, 178}, 120, 86, -1, 0.12, grain2(51, 0.008)), light: true},
		{in: flap, col: rounded(rgbf{230, 213, 184}, 120, 76, -1, 0.1, none), light: true},
		{in: rect(44, 169, 196, 172), col: flat(rgbf{190, 170, 140})},
		{in: ellipse(120, 160, 6, 4), col: flat(rgbf{196, 170, 110})},
	}
	out = append(out, shot{scene: scene{name: "p6_handbag_beige_cream_q80", w: 300, h: 280,
		backdrop: sweep(rgbf{242, 234, 216}, rgbf{228, 218, 197}, 280), parts: handbag, hole: bagHole,
		shadow: shadows(softShadow(120, 242, 88, 3, 0.4, 2), softShadow(136, 246, 100, 9, 0.18, 12))},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2.2, chroma: 1.6, quality: 80}})

	// A pale yellow mug cut by the frame's left edge on white seamless, lit
	// from above: its rim and inside showing, a handle at the right whose
	// hole shows the white; a soft shadow. JPEG 78.
	mugBody := union(rect(-10, 92, 90, 208), ellipse(40, 208, 50, 5))
	mugHandle := and(ring(92, 150, 20, 31), func(x, y float64) bool { return x > 88 })
	mugHole := and(ellipse(92, 150, 20, 20), func(x, y float64) bool { return x > 90 })
	mug := []part{
		{in: union(mugBody, mugHandle, ellipse(40, 92, 50, 7)),
			col: fromAbove(rgbf{248, 238, 184}, 85, 212, 0.1, grain2(61, 0.004)), light: true},
		{in: ellipse(40, 92, 46, 5), col: flat(rgbf{226, 214, 158})},
	}
	out = append(out, shot{scene: scene{name: "p6_mug_yellow_left_edge_q78", w: 260, h: 240,
		backdrop: sweep(rgbf{252, 252, 252}, rgbf{240, 240, 241}, 240), parts: mug, hole: mugHole,
		shadow: shadows(softShadow(50, 212, 60, 3, 0.4, 2), softShadow(70, 215, 75, 8, 0.15, 10))},
		cam: camera{defocus: 0.6, vignette: 0.16, luma: 2, chroma: 1.3, quality: 78}})
	return append(out, moreSixthShots()...)
}

// sixthFloors and sixthMean are the sixth set's figures when it was drawn
// (the cut-out of branch truth5, before any work on the set) less a
// margin: IoU and light parts 0.02 to 0.03 under, enclosed backdrop and
// glass alpha error 0.02 to 0.03 over; the rim-lit vase's since its
// broken outline keeps its body (0.728 → 0.932, branch whiteshade, not
// tuned on it). They guard against regressions; an
// IoU floor of 0 is a shot the cut-out answered "no object was found".
// The two hard shadows' shots were raised once the hard-shadow step
// (cuthard.go, tuned on the shine set) removed their shadows: the sneaker
// 0.928 → 0.970 (shadow kept 0.49 → 0), the spray bottle 0.631 → 0.683
// (0.85 → 0.01). The clear wine glass, filled between its walls since the
// turned-body step (cutturned.go), is at 0.846 (alpha error 0.225): its
// floor follows (its stem and foot, too faint to see, are still lost).
var (
	sixthFloors = map[string]fifthFloor{
		"p6_sneaker_side_hard_lgrey_q86": {iou: 0.90, light: 0.96, hole: 1, shadow: 0.03},
		"p6_vase_rimlit_paleblue_q84":    {iou: 0.91, light: 0.95, hole: 1},
		"p6_spray_bottle_right_edge_q74": {iou: 0.66, light: 0.65, hole: 1, shadow: 0.03},
		"p6_towel_folded_wood_large_q90": {iou: 0.97, light: 0.97, hole: 1},
		"p6_handbag_beige_cream_q80":     {iou: 0.92, light: 0.94, hole: 0.03},
		"p6_mug_yellow_left_edge_q78":    {iou: 0.95, light: 0.97, hole: 0.04},
		"p6_cartoon_speech_bubble_q70":   {iou: 0.97, light: 0.97, hole: 1},
		"p6_wineglass_stem_lgrey_q88":    {iou: 0.82, hole: 1, glassMAE: 0.255},
		"p6_bottle_green_white_q76":      {iou: 0.93, hole: 1, glassMAE: 0.36},
		"p6_shaker_chrome_paleblue_q82":  {iou: 0.65, light: 0.71, hole: 1},
		"p6_ring_small_white_q92":        {iou: 0.95, light: 0.97, hole: 0.05},
		"p6_scissors_top_edge_wood_q72":  {iou: 0.87, light: 0.97, hole: 0.14},
	}
	sixthMean = 0.82
)

// sixthSet is the sixth set, as its floor test and benchmark read it.
var sixthSet = shotSet{
	name:   "sixth",
	shots:  sixthShots,
	floors: sixthFloors,
	mean:   sixthMean,
}

// TestCutoutOnTheSixthSet holds the held-out sixth set to its floors.
func TestCutoutOnTheSixthSet(t *testing.T) {
	sixthSet.hold(t)
}

// BenchmarkCutoutSixth prints the sixth set's figures: go test -run '^$'
// -bench CutoutSixth ./tasks/image (CUTOUT_DIR=/some/dir writes each input,
// its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutSixth(b *testing.B) {
	sixthSet.bench(b)
}
