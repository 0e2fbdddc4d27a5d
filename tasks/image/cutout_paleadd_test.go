package image

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The pale parts set: products with a part as pale as the backdrop beside
// the body, walled in by its own faint outline (a white lid on a tumbler,
// a pale frosted foot on a perfume, a cream cap on linen), which the cut
// must give back to the product, beside products whose thin parts close
// off the backdrop (a hanger's thin bar under its arms, a picture frame,
// a ring, a mug's handle, a clear glass mug's handle and its see-through
// body), which must stay backdrop or glass. Glass is scored as glass.

// paleAddShots is the pale parts set.
func paleAddShots() []shot {
	var out []shot
	// A sage green tumbler on an off-white sweep with a white lid
	// shaded a little from the left, no line at its rim. JPEG 84.
	tHalf := func(y float64) float64 { return 40 - 7*(y-104)/150 }
	tBody := func(x, y float64) bool { return y >= 104 && y < 254 && math.Abs(x-150) < tHalf(y) }
	tumbler := []part{
		{in: union(tBody, ellipse(150, 254, 33, 3)), col: rounded(rgbf{150, 178, 150}, 150, 40, -0.5, 0.25,
			grain2(1201, 0.006))},
		{in: roundRect(104, 80, 196, 105, 5), col: rounded(rgbf{234, 238, 239}, 150, 46, -0.5, 0.12, none),
			light: true},
	}
	out = append(out, shot{scene: scene{name: "pa_tumbler_white_lid_offwhite_q84", w: 300, h: 290,
		backdrop: sweep(rgbf{246, 246, 244}, rgbf{234, 234, 231}, 290), parts: tumbler,
		shadow: shadows(softShadow(150, 256, 40, 3, 0.4, 2), softShadow(176, 260, 62, 8, 0.14, 10))},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 1.8, chroma: 1.1, quality: 84}})

	// The same tumbler with a cream lid on beige linen, the lid in the
	// linen's own hue, a touch lighter, shaded from the left. JPEG 80.
	onLinen := []part{
		tumbler[0],
		{in: roundRect(104, 80, 196, 105, 5), col: rounded(rgbf{240, 231, 212}, 150, 46, -0.6, 0.16, none),
			light: true},
	}
	out = append(out, shot{scene: scene{name: "pa_lid_cup", w: 300, h: 290,
		backdrop: linen(rgbf{234, 224, 205}, 290, 1310), parts: onLinen,
		shadow: shadows(softShadow(150, 256, 40, 3, 0.4, 2), softShadow(176, 260, 62, 8, 0.14, 10))},
		cam: camera{defocus: 1.4, vignette: 0.12, luma: 2.4, chroma: 1.6, read: 1.4, quality: 80}})

	// A rose perfume on a beige sweep standing on a pale frosted foot, a
	// black cap. JPEG 88.
	pf := roundRect(104, 110, 176, 228, 8)
	perfume := []part{
		{in: pf, col: rounded(rgbf{210, 120, 128}, 140, 36, -0.5, 0.3, none)},
		{in: roundRect(92, 226, 188, 250, 3), col: rounded(rgbf{236, 220, 222}, 140, 48, -0.5, 0.1, none),
			light: true},
		{in: roundRect(124, 76, 156, 112, 3), col: rounded(rgbf{30, 30, 32}, 140, 16, -0.4, 0.2, none)},
	}
	out = append(out, shot{scene: scene{name: "pa_perfume_rose_palefoot_beige_q88", w: 280, h: 300,
		backdrop: sweep(rgbf{240, 233, 221}, rgbf{227, 218, 203}, 300), parts: perfume,
		shadow: shadows(softShadow(140, 251, 50, 2.5, 0.4, 1.5), softShadow(170, 255, 70, 7, 0.14, 10))},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 1.6, chroma: 1, quality: 88}})

	// A brown glass bottle with a cream cap on beige linen. JPEG 80.
	bb := union(roundRect(112, 120, 188, 248, 10), rect(134, 92, 166, 124))
	bottle := []part{
		{in: bb, col: rounded(rgbf{120, 72, 40}, 150, 38, -0.5, 0.3, grain2(1202, 0.006))},
		{in: roundRect(128, 56, 172, 94, 4), col: rounded(rgbf{242, 234, 216}, 150, 22, -0.5, 0.14,
			grain2(1203, 0.004)), light: true},
	}
	out = append(out, shot{scene: scene{name: "pa_bottle_cream_cap_linen_q80", w: 300, h: 290,
		backdrop: linen(rgbf{234, 224, 205}, 290, 1204), parts: bottle,
		shadow: shadows(softShadow(150, 250, 40, 3, 0.4, 2), softShadow(176, 254, 62, 8, 0.15, 10))},
		cam: camera{defocus: 1.2, vignette: 0.12, luma: 2.2, chroma: 1.4, read: 1.2, quality: 80}})

	// A pale wooden coat hanger on a light grey sweep: two arms falling
	// from a chrome hook, a thin chrome bar joining their ends; the sweep
	// shows between the bar and the arms. JPEG 82.
	arms := union(tube(150, 96, 50, 150, 6), tube(150, 96, 250, 150, 6), ellipse(150, 96, 12, 9))
	bar := tube(52, 150, 248, 150, 1.6)
	hook := union(tube(150, 88, 150, 70, 1.8), without(ring(160, 62, 8, 11.6), rect(150, 62, 172, 80)))
	hanger := []part{
		{in: arms, col: rounded(rgbf{226, 196, 150}, 150, 100, -0.4, 0.15, grain2(1205, 0.02))},
		{in: union(bar, hook), col: flat(rgbf{150, 152, 158})},
	}
	out = append(out, shot{scene: scene{name: "pa_hanger_wood_bar_lgrey_q82", w: 300, h: 230,
		backdrop: sweep(rgbf{238, 238, 240}, rgbf{224, 224, 227}, 230), parts: hanger,
		hole:   without(quad([2]float64{150, 104}, [2]float64{58, 148}, [2]float64{242, 148}), union(arms, bar)),
		shadow: softShadow(150, 200, 100, 10, 0.06, 10)},
		cam: camera{defocus: 0.6, vignette: 0.08, luma: 1.8, chroma: 1.1, quality: 82}})

	// A white wire coat hanger on a light sweep: a thin wire triangle and
	// hook, the sweep seen inside. JPEG 85.
	wire := union(tube(150, 90, 56, 160, 1.8), tube(150, 90, 244, 160, 1.8), tube(56, 160, 244, 160, 1.8),
		tube(150, 90, 150, 70, 1.8), without(ring(160, 62, 8, 11.6), rect(150, 62, 172, 80)))
	out = append(out, shot{scene: scene{name: "pa_hanger_wire_white_sweep_q85", w: 300, h: 220,
		backdrop: sweep(rgbf{244, 244, 244}, rgbf{230, 230, 231}, 220),
		parts:    []part{{in: wire, col: flat(rgbf{196, 196, 198})}},
		hole:     without(quad([2]float64{150, 92}, [2]float64{60, 158}, [2]float64{240, 158}), wire)},
		cam: camera{defocus: 0.5, vignette: 0.06, luma: 1.6, chroma: 1, quality: 85}})

	// A cream picture frame on a warm white sweep, its opening empty: the
	// sweep shows inside. JPEG 84.
	frame := without(roundRect(80, 60, 220, 230, 2), rect(100, 80, 200, 210))
	out = append(out, shot{scene: scene{name: "pa_frame_cream_empty_warmwhite_q84", w: 300, h: 290,
		backdrop: sweep(rgbf{246, 243, 236}, rgbf{232, 228, 219}, 290), parts: []part{
			{in: frame, col: rounded(rgbf{232, 222, 200}, 150, 70, -0.5, 0.12, grain2(1206, 0.01))},
			{in: rect(99, 79, 201, 81), col: flat(rgbf{200, 190, 170})},
		}, hole: rect(100, 81, 200, 210),
		shadow: softShadow(150, 232, 70, 3, 0.3, 2)},
		cam: camera{defocus: 0.7, vignette: 0.08, luma: 1.8, chroma: 1.1, quality: 84}})

	// A white ceramic ring dish and a white mug with a handle on a pale
	// grey sweep: the sweep shows through the ring and the handle. JPEG 86.
	mugB := roundRect(150, 100, 220, 200, 5)
	mugH := without(and(ring(226, 150, 15, 23), func(x, y float64) bool { return x > 218 }), mugB)
	mugHole := without(and(ellipse(226, 150, 15, 15), func(x, y float64) bool { return x > 218 }), mugB)
	dish := ring(90, 180, 14, 30)
	white := []part{
		{in: union(grown(mugB, 1), grown(mugH, 1), grown(dish, 1)), col: flat(rgbf{204, 204, 206})},
		{in: union(mugB, mugH), col: litWhite(rgbf{250, 250, 250}, 150, 250, 0.1, 0.003), light: true},
		{in: dish, col: litWhite(rgbf{250, 250, 250}, 60, 120, 0.1, 0.003), light: true},
	}
	out = append(out, shot{scene: scene{name: "pa_mug_ring_white_palegrey_q86", w: 300, h: 250,
		backdrop: sweep(rgbf{236, 237, 239}, rgbf{222, 223, 226}, 250), parts: white,
		hole:   union(mugHole, ellipse(90, 180, 14, 14)),
		shadow: shadows(softShadow(185, 201, 38, 3, 0.4, 2), softShadow(90, 211, 32, 3, 0.35, 2))},
		cam: camera{defocus: 0.6, vignette: 0.08, luma: 1.8, chroma: 1, quality: 86}})

	// A clear glass mug with a clear handle on a white sweep: the sweep
	// seen through its body and through the handle's hole. JPEG 86.
	gHalf := func(y float64) float64 { return 38 }
	gBody := rect(102, 90, 178, 240)
	gHandle := without(and(ring(184, 160, 18, 28), func(x, y float64) bool { return x > 176 }), gBody)
	gAlpha, gCol := clearWall(140, gHalf, 0.1, 0.7)
	glassMug := []part{
		{in: gBody, col: gCol, alpha: gAlpha},
		{in: gHandle, col: flat(rgbf{200, 204, 206}), alpha: func(x, y float64) float64 { return 0.6 }},
		{in: rect(102, 236, 178, 240), col: flat(rgbf{190, 194, 196}), alpha: func(x, y float64) float64 {
			return 0.8
		}},
	}
	out = append(out, shot{scene: scene{name: "pa_glassmug_clear_handle_white_q86", w: 300, h: 290,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{237, 237, 239}, 290), parts: glassMug,
		hole:   without(and(ellipse(184, 160, 18, 18), func(x, y float64) bool { return x > 176 }), gBody),
		shadow: shadows(softShadow(140, 241, 42, 3, 0.22, 2))},
		cam: camera{defocus: 0.9, vignette: 0.08, luma: 1.8, chroma: 1, read: 1, quality: 86}, glass: true})
	return out
}

// paleAddSet is the pale parts set, as its floor test reads it.
var paleAddSet = shotSet{
	name:   "paleadd",
	shots:  paleAddShots,
	floors: paleAddFloors,
	mean:   paleAddMean,
}

// TestCutoutGivesBackPaleParts holds the pale parts set to its floors: a
// pale part walled in by its own outline beside the body is kept, the
// backdrop a thin bar or a frame closes off stays backdrop, and clear
// glass is not filled as opaque product.
func TestCutoutGivesBackPaleParts(t *testing.T) {
	paleAddSet.hold(t)
}

// paleAddFloors and paleAddMean are the set's figures from one run less a
// margin (IoU and light parts 0.02 under, enclosed backdrop, glass alpha
// error and shadow kept 0.03 over). That run: the white lid on off-white
// 0.989 and the pale foot 0.971 and the cream cap on linen 0.973 kept as
// before the repair; the cream lid on linen (pa_lid_cup) 0.848 -> 0.893,
// part of its lid given back (its light parts 0.54); the negatives as
// before it, their holes left backdrop: the wooden hanger with its thin
// bar 0.935 (hole 0.001), the wire hanger 0.361 (its wire lost; its
// inside, the sweep, is a pale pocket and stays backdrop), the empty
// frame 0.878, the white mug and ring dish 0.934 (hole 0.008), the clear
// glass mug 0.051 (only its handle found, alpha error 0.21); mean 0.776.
var (
	paleAddFloors = map[string]fifthFloor{
		"pa_tumbler_white_lid_offwhite_q84":  {iou: 0.969, light: 0.979, hole: 1, shadow: 0.03},
		"pa_lid_cup":                         {iou: 0.872, light: 0.515, hole: 1, shadow: 0.03},
		"pa_perfume_rose_palefoot_beige_q88": {iou: 0.95, light: 0.846, hole: 1, shadow: 0.03},
		"pa_bottle_cream_cap_linen_q80":      {iou: 0.952, light: 0.915, hole: 1, shadow: 0.03},
		"pa_hanger_wood_bar_lgrey_q82":       {iou: 0.914, hole: 0.03, shadow: 0.03},
		"pa_hanger_wire_white_sweep_q85":     {iou: 0.34, hole: 0.03, shadow: 0.03},
		"pa_frame_cream_empty_warmwhite_q84": {iou: 0.857, hole: 0.03, shadow: 0.04},
		"pa_mug_ring_white_palegrey_q86":     {iou: 0.913, light: 0.968, hole: 0.038, shadow: 0.077},
		"pa_glassmug_clear_handle_white_q86": {iou: 0.03, hole: 0.03, glassMAE: 0.24, shadow: 0.03},
	}
	paleAddMean = 0.755
)

// TestAPalePartGivenBackIsNoLongerFlagged: a cut whose pale parts the
// repair gave back (withPaleParts) leaves no pale part for cut_quality to
// read (paleParts within paleFree) and is not warned. Before the repair
// the cream mug on linen left 0.88 of its area and the rose perfume 0.067
// (both warned). A pile's white box walled in among other boxes, with no
// backdrop reached from the frame beside it, is not given back (a white
// jug's handle hole, walled in the same way, was filled): it stays warned.
func TestAPalePartGivenBackIsNoLongerFlagged(t *testing.T) {
	want := map[string]bool{"p8_mug_cream_linen_q80": true, "p7_perfume_rose_beige_q90": true, "pa_lid_cup": true}
	var shots []shot
	for _, s := range append(append(eighthShots(), seventhShots()...), paleAddShots()...) {
		if want[s.name] {
			shots = append(shots, s)
			delete(want, s.name)
		}
	}
	require.Empty(t, want, "every shot found")
	for _, s := range shots {
		tr := s.photograph()
		res, err := cutOutGlass(context.Background(), tr.img, 12, 2, false)
		require.NoError(t, err, s.name)
		q := readCutQuality(tr.img, res.img)
		require.LessOrEqual(t, q.pale, paleFree, "%s: no pale part left beside the cut", s.name)
		require.GreaterOrEqual(t, q.score, minCutQuality, "%s: not warned", s.name)
	}
}

// BenchmarkCutoutPaleAdd prints the pale parts set's figures per shot: go test -run '^$'
// -bench CutoutPaleAdd ./tasks/image.
func BenchmarkCutoutPaleAdd(b *testing.B) {
	paleAddSet.bench(b)
}
