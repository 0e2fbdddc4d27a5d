package image

import (
	"math"
	"testing"
)

// The ninth set: twenty-one product shots a catalogue photographer would
// send, photographed at 780 to 1360 pixels by the fifth set's camera
// (cutout_fifth_render_test.go: defocus, vignette, luma and chroma noise,
// read noise that shows in the shadows, JPEG with 4:2:0 chroma at quality
// 72 to 92, or PNG) and scored as the eighth set is (IoU of alpha ≥ 0.5;
// glass by its silhouette; a refused shot scores 0). White on white (a
// plate, a court sneaker, a pillar candle, a folded shirt), light on light
// of another hue (a mint jug, a peach box, a white earbuds case on pale
// blue), textured backdrops (terrazzo, oak planks, kraft paper, concrete,
// velvet), glass (a clear tumbler and a green bottle with a label on
// graded sweeps, a rose perfume on a flat one), chrome (a kettle, a
// watch), a dark product on a dark backdrop, thin parts (a plant, a
// bicycle, a chain), handle holes, soft and hard contact shadows, a
// product cut by the frame, a small one off the centre and a drawing with
// white fills inside black outlines. It is HELD OUT: written by someone who
// read no cut-out code and changed none; nobody tunes the cut-out on it.
//
// Glass truth follows the served docs (cutout.go, the see-through
// limitation): a glass body's alpha is its opacity in the one-layer matting
// model, and the figure is its silhouette's IoU, which must be whole
// (never a hole). On a graded sweep the docs promise that opacity back
// (clear walls at least 0.15); on a flat backdrop they say a tinted body
// comes out opaque, the backdrop seen through it baked in — for the rose
// perfume the expected alpha is 1 inside the silhouette, and only the
// silhouette is held.

// woodGrain is a table of oak planks plank units wide running along x:
// rings that wander, fibres along the planks, knots in the tone, each
// plank its own shade and a dark seam between planks.
func woodGrain(c rgbf, plank, seed float64) func(x, y float64) rgbf {
	wander, fibre, knot := valueNoise(seed, 40), valueNoise(seed+1, 0.8), valueNoise(seed+2, 25)
	return func(x, y float64) rgbf {
		row := math.Floor(y / plank)
		yy := y + 7*wander(x+row*131, y)
		k := 1 + 0.05*math.Sin(yy*0.9+row*2.1) + 0.03*math.Sin(yy*2.3+1.7*row) + 0.025*fibre(x*0.15, y*3) +
			0.04*knot(x, y+row*57) + 0.04*math.Sin(row*2.7)
		if m := y - row*plank; m < 0.7 || m > plank-0.5 {
			k -= 0.18
		}
		return rgbf{c[0] * k, c[1] * k * 0.99, c[2] * k * 0.97}
	}
}

// kraftPaper is brown wrapping paper: broad clouds, fibres along y and dark
// flecks.
func kraftPaper(c rgbf, seed float64) func(x, y float64) rgbf {
	cloud, fibre, fleck := valueNoise(seed, 18), valueNoise(seed+1, 0.7), valueNoise(seed+2, 0.9)
	return func(x, y float64) rgbf {
		k := 1 + 0.03*cloud(x, y) + 0.025*fibre(x, y*0.35) - 0.6*math.Max(0, fleck(x, y)-0.8)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// terrazzo is a cast floor of colour base with chips of stone: irregular,
// 1 to 5 units across, grey, terracotta, sage, charcoal and cream, on about
// half the cells of a 9-unit grid.
func terrazzo(base rgbf, seed float64) func(x, y float64) rgbf {
	chips := []rgbf{{150, 148, 144}, {196, 120, 92}, {160, 176, 150}, {70, 70, 72}, {222, 208, 188}}
	h := func(i, j, k float64) float64 {
		v := math.Sin(i*127.1+j*311.7+k*74.7+seed*17.3) * 43758.5453
		return v - math.Floor(v)
	}
	mottle := valueNoise(seed, 12)
	const cell = 9.0
	return func(x, y float64) rgbf {
		k := 1 + 0.012*mottle(x, y)
		ci, cj := math.Floor(x/cell), math.Floor(y/cell)
		for di := -1.0; di <= 1; di++ {
			for dj := -1.0; dj <= 1; dj++ {
				i, j := ci+di, cj+dj
				if h(i, j, 1) > 0.5 {
					continue
				}
				px, py := (i+h(i, j, 2))*cell, (j+h(i, j, 3))*cell
				r := 0.6 + 2.4*h(i, j, 4)*h(i, j, 4)
				d := math.Hypot(x-px, y-py)
				if d > r*1.3 {
					continue
				}
				if d <= r*(1+0.25*math.Sin(3*math.Atan2(y-py, x-px)+6*h(i, j, 5))) {
					ch := chips[int(h(i, j, 6)*float64(len(chips)))%len(chips)]
					return rgbf{ch[0] * k, ch[1] * k, ch[2] * k}
				}
			}
		}
		return rgbf{base[0] * k, base[1] * k, base[2] * k}
	}
}

// velvet is a deep velvet of colour c: broad sheen where the pile turns and
// a fine pile.
func velvet(c rgbf, seed float64) func(x, y float64) rgbf {
	broad, pile := valueNoise(seed, 30), valueNoise(seed+1, 0.6)
	return func(x, y float64) rgbf {
		k := 1 + 0.16*broad(x, y) + 0.04*pile(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// turned is the rectangle of half-sizes hw × hh about (cx, cy) turned by
// deg degrees.
func turned(cx, cy, hw, hh, deg float64) func(x, y float64) bool {
	s, c := math.Sincos(deg * math.Pi / 180)
	return func(x, y float64) bool {
		u, v := (x-cx)*c+(y-cy)*s, -(x-cx)*s+(y-cy)*c
		return math.Abs(u) <= hw && math.Abs(v) <= hh
	}
}

// leafAt is a pointed leaf of length l and width w whose base is at (x0,
// y0), pointing at deg degrees (0: right, 90: down).
func leafAt(x0, y0, l, w, deg float64) func(x, y float64) bool {
	s, c := math.Sincos(deg * math.Pi / 180)
	return func(x, y float64) bool {
		if math.Abs(x-x0) > l || math.Abs(y-y0) > l {
			return false
		}
		u, v := (x-x0)*c+(y-y0)*s, -(x-x0)*s+(y-y0)*c
		if u < 0 || u > l {
			return false
		}
		t := u / l
		return math.Abs(v) <= w/2*math.Pow(math.Sin(math.Pi*t), 0.8)*(1.2-0.4*t)
	}
}

// ninthShots is the ninth set.
func ninthShots() []shot {
	out := lightNinthShots()
	out = append(out, shineNinthShots()...)
	return append(out, thinNinthShots()...)
}

// ninthKinds is the kind of each shot, for the benchmark's figures.
var ninthKinds = map[string]string{
	"p9_plate_white_seamless_q86":      "white on white",
	"p9_sneaker_white_hardshadow_q74":  "white on white, hard shadow",
	"p9_candle_white_vignette_q90":     "white on white, vignette",
	"p9_shirt_white_folded_q82":        "white on white",
	"p9_jug_mint_cream_handle_q84":     "light on light, handle hole",
	"p9_box_peach_offwhite_q88":        "light on light",
	"p9_cup_white_terrazzo_q80":        "white on terrazzo, handle",
	"p9_cardholder_oak_planks_q78":     "on wood grain",
	"p9_pouch_cream_kraft_q76":         "on kraft paper, cord",
	"p9_tumbler_clear_sweep_q88":       "clear glass",
	"p9_bottle_green_label_q84":        "tinted glass, label",
	"p9_perfume_rose_flat_png":         "tinted glass, flat",
	"p9_kettle_chrome_handle_q86":      "chrome, handle hole",
	"p9_watch_steel_concrete_q82":      "steel on concrete",
	"p9_headphones_black_charcoal_q80": "dark on dark",
	"p9_plant_leaves_pot_q85":          "thin stems, leaves",
	"p9_bicycle_frame_gaps_q82":        "thin frame, gaps",
	"p9_necklace_chain_velvet_png":     "thin chain, velvet",
	"p9_backpack_cut_by_frame_q78":     "cut by the frame, hole",
	"p9_earbuds_small_offcentre_q92":   "small, off the centre",
	"p9_cat_drawing_whitefill_q72":     "drawing, white fills",
}

// ninthSet is the ninth set, as its floor test and benchmark read it.
var ninthSet = shotSet{
	name:    "ninth",
	shots:   ninthShots,
	kinds:   ninthKinds,
	floors:  ninthFloors,
	mean:    ninthMean,
	refused: ninthRefused,
	drawn:   ninthDrawn,
}

// TestCutoutOnTheNinthSet holds the held-out ninth set to its floors, and
// the shots it refused today to a refusal with a reason.
func TestCutoutOnTheNinthSet(t *testing.T) {
	ninthSet.hold(t)
}

// BenchmarkCutoutNinth prints the ninth set's figures: go test -run '^$'
// -bench CutoutNinth ./tasks/image (CUTOUT_DIR=/some/dir writes each input,
// its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutNinth(b *testing.B) {
	ninthSet.bench(b)
}

// ninthFloors and ninthMean are the ninth set's figures from one run of the
// cut-out as main had it when the set was written (e580f2c), less a
// margin: IoU and light parts 0.02 under, enclosed backdrop, glass alpha
// error and shadow kept 0.03 over. They record today's behaviour, to catch
// regressions — not the targets. That run (BenchmarkCutoutNinth,
// one pass): mean IoU 0.441, lowest 0, light parts 0.630, enclosed
// backdrop 0.281, glass alpha error 0.223. An IoU floor of 0 is a shot the
// cut-out refused today (ninthRefused); that it refuses with a reason is
// asserted for now, and a future cut-out that cuts it instead must move it
// out of ninthRefused. After the white, hue, texture and band stages
// (one run): mean 0.468; the cup on terrazzo 0.46 → 0.91 with 0.12 of its
// handle hole kept, the watch on concrete 0.89 → 0.99: their floors follow.
// After the sixth look (cutwhitehull.go, one run): mean 0.583; the white
// plate 0.79, candle 0.84 and shirt 0.78 cut and delivered as uncertain
// (the shirt keeps its soft shadow's band, so its shadow is not held).
// After the drawn-fills fix (inkBounded, cutedges.go: a fill's islands and
// the fills drawn against its outline are no part of the outline): the
// drawn cat 0.28 → 0.996, its white fills kept; its floor follows.
// The clear tumbler, filled between its walls since the turned-body step
// (cutturned.go), is at 0.833 (alpha error 0.13; its thick base, as pale
// as the sweep, is lost): its floor follows.
var (
	ninthFloors = map[string]fifthFloor{
		"p9_plate_white_seamless_q86":      {iou: 0.77, light: 0.81, hole: 1, shadow: 0.162},
		"p9_sneaker_white_hardshadow_q74":  {iou: 0.020, light: 0.019, hole: 1, shadow: 0.03},
		"p9_candle_white_vignette_q90":     {iou: 0.82, light: 0.968, hole: 1, shadow: 0.114},
		"p9_shirt_white_folded_q82":        {iou: 0.76, light: 0.891, hole: 1, shadow: 1},
		"p9_jug_mint_cream_handle_q84":     {iou: 0.972, light: 0.980, hole: 0.03, shadow: 0.03},
		"p9_box_peach_offwhite_q88":        {iou: 0.975, light: 0.980, hole: 1, shadow: 0.04},
		"p9_cup_white_terrazzo_q80":        {iou: 0.890, light: 0.974, hole: 0.15, shadow: 0.05},
		"p9_cardholder_oak_planks_q78":     {iou: 0, hole: 1, glassMAE: 1, shadow: 1},
		"p9_pouch_cream_kraft_q76":         {iou: 0.973, light: 0.980, hole: 1, shadow: 0.03},
		"p9_tumbler_clear_sweep_q88":       {iou: 0.81, hole: 1, glassMAE: 0.161, shadow: 0.03},
		"p9_bottle_green_label_q84":        {iou: 0.967, hole: 1, glassMAE: 0.09, shadow: 0.03},
		"p9_perfume_rose_flat_png":         {iou: 0.972, hole: 1, glassMAE: 0.40, shadow: 0.03},
		"p9_kettle_chrome_handle_q86":      {iou: 0.194, hole: 0.03, shadow: 0.03},
		"p9_watch_steel_concrete_q82":      {iou: 0.970, hole: 1, shadow: 0.03},
		"p9_headphones_black_charcoal_q80": {iou: 0.046, hole: 1, shadow: 0.03},
		"p9_plant_leaves_pot_q85":          {iou: 0.935, hole: 1, shadow: 0.03},
		"p9_bicycle_frame_gaps_q82":        {iou: 0.538, hole: 0.44, shadow: 0.03},
		"p9_necklace_chain_velvet_png":     {iou: 0.033, hole: 1.00, shadow: 0.03},
		"p9_backpack_cut_by_frame_q78":     {iou: 0, hole: 1, glassMAE: 1, shadow: 1},
		"p9_earbuds_small_offcentre_q92":   {iou: 0.727, light: 0.721, hole: 1, shadow: 0.03},
		"p9_cat_drawing_whitefill_q72":     {iou: 0.985, light: 0.99, hole: 1, shadow: 1},
	}
	ninthMean = 0.562
	// ninthRefused are the shots the cut-out refused with a reason in that
	// run: the white plate, candle and shirt ("no edge separates it from the
	// backdrop all round"), the card holder on oak and the backpack cut by
	// the frame ("the background cannot be separated"). Today's behaviour,
	// recorded, not a goal.
	// The white plate, candle and shirt are cut since the sixth look
	// (cutwhitehull.go), delivered as uncertain: their floors follow.
	ninthDrawn   = []string{"p9_plate_white_seamless_q86", "p9_candle_white_vignette_q90", "p9_shirt_white_folded_q82"}
	ninthRefused = map[string]bool{"p9_cardholder_oak_planks_q78": true, "p9_backpack_cut_by_frame_q78": true}
)
