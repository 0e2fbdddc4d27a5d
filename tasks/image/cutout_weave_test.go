package image

import (
	"math"
	"testing"
)

// The weave set: light, smooth products on fine-textured backdrops of
// nearly their own tone, where only the texture tells them apart — an
// ivory jar on a fine canvas weave, a white cup on pale maple grain, a
// small cream tin off the centre on an off-white hopsack. The textures are
// fine (a thread or a ring six or seven pixels across, a dozen levels
// deep: finer ones, as the eighth set's linen, the lens blurs under the
// camera's noise), through the fifth set's camera with JPEG at 76 to 84.
// It is a tuning set.

// plainWeave is a plain weave of colour c: threads period wide passing over
// and under each other, each thread's width wandering a little and a
// faint mottle over the cloth.
func plainWeave(c rgbf, period, depth, seed float64) func(x, y float64) rgbf {
	wander, mottle := valueNoise(seed, 3), valueNoise(seed+1, 16)
	return func(x, y float64) rgbf {
		u, v := x/period, y/period
		over := math.Mod(math.Floor(u)+math.Floor(v), 2) // 0: the warp on top, 1: the weft
		pu := math.Abs(math.Sin(math.Pi * (u + 0.08*wander(x, y))))
		pv := math.Abs(math.Sin(math.Pi * (v + 0.08*wander(y, x))))
		w := pu
		if over == 1 {
			w = pv
		}
		k := 1 + depth*(w-0.6) + 0.01*mottle(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// maple is pale wood: narrow rings along x bent by a slow noise, fine
// fibres and a slight warmth in the darker rings.
func maple(c rgbf, depth, seed float64) func(x, y float64) rgbf {
	bend, fibre := valueNoise(seed, 30), valueNoise(seed+1, 0.8)
	return func(x, y float64) rgbf {
		r := math.Sin(2 * math.Pi * (y + 10*bend(x, y)) / 3.1)
		k := 1 + depth*(0.7*r+0.4*fibre(x*0.2, y*2))
		return rgbf{c[0] * k, c[1] * k * (1 - 0.01*r), c[2] * k * (1 - 0.03*r)}
	}
}

// weaveShots is the weave set.
func weaveShots() []shot {
	cam := func(q int, read float64) camera {
		return camera{defocus: 1.1, vignette: 0.1, luma: 2.2, chroma: 1.4, read: read, quality: q}
	}
	var out []shot
	// An ivory jar with a lid on a canvas a shade darker, lit from the
	// left. JPEG 84.
	jar := union(roundRect(92, 78, 168, 176, 10), roundRect(98, 62, 162, 80, 4))
	out = append(out, shot{scene: scene{name: "wv_jar_ivory_canvas_q84", w: 260, h: 220, scale: 3,
		backdrop: plainWeave(rgbf{226, 220, 204}, 2.4, 0.06, 951), parts: []part{
			{in: jar, col: rounded(rgbf{238, 232, 216}, 130, 38, -0.5, 0.1, grain2(952, 0.003)), light: true},
			{in: rect(98, 79, 162, 81), col: flat(rgbf{206, 198, 180})},
		}, shadow: softShadow(134, 176, 42, 3, 0.35, 3)}, cam: cam(84, 1.2)})
	// A white cup on pale maple, its handle's hole showing the grain.
	// JPEG 80.
	cup := roundRect(100, 84, 166, 164, 5)
	handle := without(and(ring(170, 120, 12, 20), func(x, y float64) bool { return x > 164 }), cup)
	hole := without(and(ellipse(170, 120, 12, 12), func(x, y float64) bool { return x > 164 }), cup)
	out = append(out, shot{scene: scene{name: "wv_cup_white_maple_q80", w: 260, h: 220, scale: 2,
		backdrop: maple(rgbf{232, 214, 186}, 0.05, 961), parts: []part{
			{in: union(cup, handle), col: rounded(rgbf{246, 244, 238}, 133, 33, -0.6, 0.14, none), light: true},
			{in: ellipse(133, 84, 31, 4), col: flat(rgbf{216, 212, 204})},
		}, hole: hole, shadow: softShadow(136, 165, 40, 3, 0.4, 3)}, cam: cam(80, 1.2)})
	// A small cream tin in the lower right on an off-white hopsack (a
	// coarser canvas). JPEG 76.
	tin := roundRect(168, 132, 222, 178, 6)
	out = append(out, shot{scene: scene{name: "wv_tin_cream_hopsack_offcentre_q76", w: 260, h: 210, scale: 2,
		backdrop: plainWeave(rgbf{236, 230, 216}, 3.2, 0.07, 971), parts: []part{
			{in: tin, col: fromAbove(rgbf{244, 236, 212}, 132, 178, 0.06, grain2(972, 0.003)), light: true},
			{in: rect(168, 140, 222, 142), col: flat(rgbf{214, 204, 180})},
		}, shadow: softShadow(196, 179, 28, 2.5, 0.35, 3)}, cam: cam(76, 1.3)})
	// A pair of white earbuds, each a round head on a stem, on a light
	// terrazzo (the ninth set's) with chips of stone from charcoal to cream.
	// JPEG 80.
	bud := func(cx, cy float64) func(x, y float64) bool {
		return union(ellipse(cx, cy, 11, 10), roundRect(cx-3, cy, cx+3, cy+30, 3))
	}
	buds := union(bud(108, 92), bud(152, 100))
	out = append(out, shot{scene: scene{name: "wv_earbuds_white_terrazzo_q80", w: 260, h: 220, scale: 2,
		backdrop: terrazzo(rgbf{214, 210, 202}, 981), parts: []part{
			{in: buds, col: rounded(rgbf{246, 246, 244}, 130, 40, -0.5, 0.12, none), light: true},
			{in: union(ellipse(104, 90, 4, 3), ellipse(148, 98, 4, 3)), col: flat(rgbf{120, 122, 126})},
		}, shadow: shadows(softShadow(110, 123, 8, 3, 0.35, 3),
			softShadow(154, 131, 8, 3, 0.35, 3))}, cam: cam(80, 1.2)})
	return out
}

// weaveFloors and weaveMean are the weave set's figures from one run
// (branch texture) less a margin: IoU and light parts 0.02 under. The
// figures are the same before and after the texture's outline is settled
// (settleSmoothEdges): colour and edges cut these three, the texture test
// adds nothing to them. The jar's lid, as light as the canvas, is lost on
// its right (0.87), and the cup's handle hole is filled with the grain
// (hole 1.0, held here as it is today); all three are warned (cut quality
// under 0.45). With the weave as fine as the eighth set's linen (a thread
// four pixels across) the lens blurs it under the camera's noise: product
// and backdrop then have the same texture energy (within 5 %). The earbuds
// on terrazzo kept the chips apart from them as specks (0.52); with those
// dropped (dropGrainSpecks) they are 0.74, three clusters of dark chips
// with the matrix between them still kept (warned: cut quality 0.1). The
// mean with them is 0.884 (0.93 for the other three).
var (
	weaveFloors = map[string]fifthFloor{
		"wv_jar_ivory_canvas_q84":            {iou: 0.85, light: 0.90},
		"wv_cup_white_maple_q80":             {iou: 0.92, light: 0.98, hole: 1},
		"wv_tin_cream_hopsack_offcentre_q76": {iou: 0.96, light: 0.98},
		"wv_earbuds_white_terrazzo_q80":      {iou: 0.71, light: 0.97},
	}
	weaveMean = 0.86
)

// weaveSet is the weave set, as its floor test and benchmark read it.
var weaveSet = shotSet{
	name:   "weave",
	shots:  weaveShots,
	floors: weaveFloors,
	mean:   weaveMean,
}

// TestCutoutOnFineWeaves holds the weave set to its floors: a smooth
// light product keeps its body on a fine weave or grain of its own tone.
func TestCutoutOnFineWeaves(t *testing.T) {
	weaveSet.hold(t)
}

// BenchmarkCutoutWeave prints the weave set's figures: go test -run '^$'
// -bench CutoutWeave ./tasks/image (CUTOUT_DIR=/some/dir writes the PNGs).
func BenchmarkCutoutWeave(b *testing.B) {
	weaveSet.bench(b)
}
