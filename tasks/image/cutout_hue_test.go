package image

import (
	"math"
	"testing"
)

// The hue set: light products on light backdrops of nearly their
// lightness (ΔL* under 8 where they meet) but another hue — pastel on
// pastel, pastel on off-white — photographed by the fifth set's camera
// (defocus, vignette, luma and blotchy chroma noise, JPEG 70 to 90 with
// Go's 4:2:0 chroma subsampling) with soft shadows. The product has no
// step and no rim against the backdrop: only its hue tells it.

// hueShots is the hue set.
func hueShots() []shot {
	var out []shot
	// A mint ceramic vase on a blush sweep, lit from the left: a round
	// body, a neck and a lip; a soft shadow. JPEG 80.
	vase := union(ellipse(140, 200, 62, 70), rect(118, 90, 162, 150), ellipse(140, 92, 28, 6))
	out = append(out, shot{scene: scene{name: "hue_vase_mint_blush_q80", w: 280, h: 300,
		backdrop: sweep(rgbf{240, 224, 222}, rgbf{228, 212, 210}, 300),
		parts:    []part{{in: vase, col: rounded(rgbf{214, 232, 220}, 140, 62, -0.5, 0.1, grain2(201, 0.004)), light: true}},
		shadow:   shadows(softShadow(140, 270, 50, 3, 0.35, 2), softShadow(170, 274, 70, 8, 0.14, 10))},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2, chroma: 1.3, quality: 80}})

	// A lavender mug on cream, its handle's hole showing the cream; a
	// soft shadow to the right. JPEG 75.
	body := roundRect(80, 100, 190, 240, 8)
	handle := without(ring(200, 165, 24, 36), body)
	hole := without(ellipse(200, 165, 24, 24), body)
	out = append(out, shot{scene: scene{name: "hue_mug_lavender_cream_q75", w: 300, h: 290,
		backdrop: sweep(rgbf{244, 238, 222}, rgbf{232, 226, 210}, 290),
		parts: []part{
			{in: union(body, handle), col: rounded(rgbf{222, 214, 236}, 135, 70, -0.4, 0.1, none), light: true},
			{in: ellipse(135, 100, 55, 6), col: flat(rgbf{204, 196, 218})},
		},
		hole:   hole,
		shadow: shadows(softShadow(140, 242, 62, 3, 0.35, 2), boxShadow(190, 200, 250, 244, 0.12, 12))},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 2.2, chroma: 1.5, quality: 75}})

	// A pale peach gift box on pale sky blue, lit from the upper left: a
	// lid whose edge is a faint line, the box's right side in shade; a
	// soft shadow. JPEG 85.
	box := rect(70, 110, 220, 250)
	lid := rect(64, 96, 226, 128)
	out = append(out, shot{scene: scene{name: "hue_box_peach_sky_q85", w: 300, h: 300,
		backdrop: sweep(rgbf{222, 232, 242}, rgbf{208, 220, 232}, 300),
		parts: []part{
			{in: box, col: rounded(rgbf{246, 222, 204}, 145, 75, -0.6, 0.08, grain2(203, 0.003)), light: true},
			{in: lid, col: rounded(rgbf{248, 226, 208}, 145, 81, -0.6, 0.08, none), light: true},
		},
		shadow: shadows(softShadow(150, 252, 80, 3, 0.3, 2), boxShadow(210, 140, 236, 254, 0.12, 10))},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 1.8, chroma: 1.2, quality: 85}})

	// A pale pink planter on warm grey, a subtle pair (ΔC* about 7),
	// lit from the right; a soft shadow. JPEG 70.
	pot := union(quad([2]float64{90, 120}, [2]float64{190, 120}, [2]float64{176, 250}, [2]float64{104, 250}),
		roundRect(82, 100, 198, 124, 3))
	out = append(out, shot{scene: scene{name: "hue_pot_pink_warmgrey_q70", w: 280, h: 290,
		backdrop: sweep(rgbf{234, 230, 224}, rgbf{220, 216, 210}, 290),
		parts:    []part{{in: pot, col: rounded(rgbf{240, 222, 222}, 140, 55, 0.5, 0.1, grain2(204, 0.004)), light: true}},
		shadow:   shadows(softShadow(140, 252, 40, 3, 0.4, 2), softShadow(110, 256, 60, 8, 0.15, 10))},
		cam: camera{defocus: 0.7, vignette: 0.14, luma: 2.4, chroma: 1.6, quality: 70}})

	// A pale sage folded towel cut by the frame's bottom edge on a pink
	// sweep, lit from the left; a soft shadow. JPEG 72.
	towel := roundRect(100, 120, 260, 280, 14)
	fold := func(x, y float64) float64 { return -0.03 * math.Exp(-math.Pow((y-170)/3, 2)) }
	out = append(out, shot{scene: scene{name: "hue_towel_sage_pink_cut_q72", w: 300, h: 260,
		backdrop: sweep(rgbf{244, 226, 226}, rgbf{232, 212, 212}, 260),
		parts:    []part{{in: towel, col: rounded(rgbf{214, 226, 206}, 180, 80, -0.6, 0.08, fold), light: true}},
		shadow:   boxShadow(90, 124, 100, 260, 0.15, 10)},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2.4, chroma: 1.7, quality: 72}})

	// A pale blue ball on ivory, lit from the upper left, small and low
	// left; a contact shadow. JPEG 78.
	ball := ellipse(90, 180, 46, 46)
	out = append(out, shot{scene: scene{name: "hue_ball_blue_ivory_q78", w: 320, h: 260,
		backdrop: sweep(rgbf{246, 240, 226}, rgbf{234, 228, 212}, 260),
		parts:    []part{{in: ball, col: rounded(rgbf{212, 226, 242}, 90, 46, -0.5, 0.14, none), light: true}},
		shadow:   shadows(softShadow(92, 226, 34, 3, 0.4, 2), softShadow(110, 228, 50, 6, 0.15, 8))},
		cam: camera{defocus: 0.5, vignette: 0.12, luma: 2, chroma: 1.3, quality: 78}})

	// A pale lemon bottle on lilac: a body, a shoulder, a white cap, a
	// pale label. JPEG 90.
	bottle := union(roundRect(104, 110, 176, 270, 10), quad([2]float64{110, 112}, [2]float64{170, 112},
		[2]float64{156, 86}, [2]float64{124, 86}))
	out = append(out, shot{scene: scene{name: "hue_bottle_lemon_lilac_q90", w: 280, h: 300,
		backdrop: sweep(rgbf{234, 226, 242}, rgbf{222, 214, 232}, 300),
		parts: []part{
			{in: bottle, col: rounded(rgbf{240, 234, 196}, 140, 36, -0.4, 0.1, none), light: true},
			{in: rect(108, 170, 172, 230), col: rounded(rgbf{246, 242, 226}, 140, 36, -0.4, 0.1, none), light: true},
			{in: rect(124, 64, 156, 88), col: flat(rgbf{250, 250, 250}), light: true},
		},
		shadow: shadows(softShadow(140, 272, 40, 3, 0.4, 2), softShadow(160, 276, 56, 7, 0.15, 8))},
		cam: camera{defocus: 0.5, vignette: 0.1, luma: 1.6, chroma: 1, quality: 90}})

	// A pale aqua cushion on sand, lit from the right, with a piped seam
	// of its own colour a little darker. JPEG 82.
	cushion := blob(150, 140, 100, 80, 3)
	out = append(out, shot{scene: scene{name: "hue_cushion_aqua_sand_q82", w: 300, h: 280,
		backdrop: sweep(rgbf{238, 228, 210}, rgbf{226, 214, 196}, 280),
		parts: []part{
			{in: grown(cushion, 1.5), col: flat(rgbf{190, 214, 212})},
			{in: cushion, col: rounded(rgbf{206, 230, 228}, 150, 100, 0.5, 0.1, grain2(208, 0.005)), light: true},
		},
		shadow: func(x, y float64) float64 {
			r := math.Pow(math.Abs(x-140)/100, 3) + math.Pow(math.Abs(y-148)/80, 3)
			t := math.Max(0, math.Min(1, (1.15-r)/0.3))
			return 1 - 0.18*t*t*(3-2*t)
		}},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 2, chroma: 1.4, quality: 82}})
	return out
}

// hueFloors and hueMean are the hue set's figures with the hue regions
// (cuthue.go) less a margin of 0.01 to 0.02 (enclosed backdrop and shadow
// kept 0.02 to 0.03 over). Before them the pot was lost (IoU 0.05) and so
// was the towel (0.02); the others have a hue step the floods already
// stop at. The towel, cut by the frame, pulled the backdrop model towards
// its own colour there and was unmixed as glass (0.53); with the frame's
// crossed stretch left out of the fit and left opaque (cutframe.go) it is
// 0.998.
var (
	hueFloors = map[string]fifthFloor{
		"hue_vase_mint_blush_q80":     {iou: 0.97, light: 0.98, hole: 1, shadow: 0.03},
		"hue_mug_lavender_cream_q75":  {iou: 0.95, light: 0.98, hole: 0.03, shadow: 0.15},
		"hue_box_peach_sky_q85":       {iou: 0.98, light: 0.98, hole: 1, shadow: 0.03},
		"hue_pot_pink_warmgrey_q70":   {iou: 0.95, light: 0.97, hole: 1, shadow: 0.03},
		"hue_towel_sage_pink_cut_q72": {iou: 0.98, light: 0.98, hole: 1, shadow: 0.03},
		"hue_ball_blue_ivory_q78":     {iou: 0.96, light: 0.98, hole: 1, shadow: 0.05},
		"hue_bottle_lemon_lilac_q90":  {iou: 0.98, light: 0.98, hole: 1, shadow: 0.03},
		"hue_cushion_aqua_sand_q82":   {iou: 0.97, light: 0.98, hole: 1, shadow: 0.03},
	}
	hueMean = 0.97
)

// hueSet is the hue set, as its floor test and benchmark read it.
var hueSet = shotSet{
	name:   "hue",
	shots:  hueShots,
	floors: hueFloors,
	mean:   hueMean,
}

// TestCutoutOnTheHueSet holds the hue set to its floors: a light product
// of the backdrop's lightness but another hue is kept whole.
func TestCutoutOnTheHueSet(t *testing.T) {
	hueSet.hold(t)
}

// BenchmarkCutoutHue prints the hue set's figures: go test -run '^$'
// -bench CutoutHue ./tasks/image (CUTOUT_DIR=/some/dir writes each input,
// its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutHue(b *testing.B) {
	hueSet.bench(b)
}
