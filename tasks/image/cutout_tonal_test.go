package image

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/taskplatform/taskplatform/tasks"
)

// The tonal set: products in the backdrop's own tone, light on light and
// dark on dark, photographed with the fifth set's camera
// (cutout_fifth_render_test.go). Each has an edge a person sees — a faint
// rim, shading the sweep has not, a texture the backdrop has not — but
// its body is within a few ΔE of the backdrop, and in the dark ones a
// 20-level step is under ΔE 12. Tuned on (branch tonal).

// tonalShots is the tonal set.
func tonalShots() []shot {
	var out []shot
	// A pale pink cosmetics jar on a pink sweep: a body rounded by the
	// light, a lid a little deeper in tone, a faint rim. JPEG 82.
	jar := rect(100, 110, 200, 210)
	lid := rect(96, 80, 204, 110)
	out = append(out, shot{scene: scene{name: "t_jar_pink_on_pink_q82", w: 300, h: 260,
		backdrop: sweep(rgbf{246, 224, 228}, rgbf{236, 212, 217}, 260), parts: []part{
			{in: grown(union(jar, lid), 1.2), col: flat(rgbf{226, 200, 206})},
			{in: jar, col: rounded(rgbf{248, 226, 231}, 150, 50, -0.5, 0.08, none), light: true},
			{in: lid, col: rounded(rgbf{240, 212, 219}, 150, 54, -0.5, 0.1, none), light: true},
		}, shadow: shadows(softShadow(152, 211, 56, 3, 0.35, 2), softShadow(175, 214, 70, 8, 0.15, 10))},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2, chroma: 1.4, quality: 82}})

	// A pale blue folded towel on a pale blue sweep, seen from the front:
	// soft fold bands, a woven texture, a hem a little darker. JPEG 78.
	towel := rect(70, 90, 230, 180)
	folds := func(x, y float64) rgbf {
		k := 1 - 0.06*math.Pow(math.Sin((y-90)/90*math.Pi*1.5), 2) + 0.012*valueNoise(3, 1.3)(x, y)
		return rgbf{207 * k, 222 * k, 238 * k}
	}
	out = append(out, shot{scene: scene{name: "t_towel_blue_on_blue_q78", w: 300, h: 240,
		backdrop: sweep(rgbf{220, 232, 244}, rgbf{208, 221, 235}, 240), parts: []part{
			{in: towel, col: folds, light: true},
			{in: rect(70, 170, 230, 180), col: flat(rgbf{192, 206, 222})},
		}, shadow: shadows(softShadow(150, 181, 82, 3, 0.35, 2), softShadow(165, 184, 90, 9, 0.15, 12))},
		cam: camera{defocus: 0.7, vignette: 0.1, luma: 2.2, chroma: 1.5, quality: 78}})

	// A beige felt bag on a cream plaster wall: the bag's fine felt, a
	// strap whose hole shows the wall, a seam a little darker. JPEG 80.
	bag := rect(90, 120, 210, 230)
	strap := without(ellipse(150, 120, 40, 48), union(ellipse(150, 120, 31, 39), rect(0, 120, 300, 300)))
	strapHole := without(ellipse(150, 120, 31, 39), rect(0, 120, 300, 300))
	felt := rounded(rgbf{222, 204, 176}, 150, 60, -0.3, 0.08, grain2(7, 0.03))
	out = append(out, shot{scene: scene{name: "t_bag_beige_plaster_q80", w: 300, h: 260,
		backdrop: textured(sweep(rgbf{238, 228, 210}, rgbf{228, 218, 199}, 260), 5, 0.03), parts: []part{
			{in: union(bag, strap), col: felt, light: true},
			{in: rect(90, 150, 210, 152), col: flat(rgbf{196, 178, 150})},
		}, hole: strapHole, shadow: shadows(softShadow(150, 231, 62, 3, 0.35, 2))},
		cam: camera{defocus: 0.8, vignette: 0.14, luma: 2, chroma: 1.3, quality: 80}})

	// A white ceramic bowl on a white sweep: its outside shades from 248
	// at the lit left to about 210 at the right and at its foot; seen a
	// little from above, its inside shows beyond the rim, in shade. JPEG 85.
	bowl := union(and(ellipse(150, 120, 80, 70), rect(0, 120, 300, 300)), ellipse(150, 120, 80, 12))
	bowlCol := func(x, y float64) rgbf {
		t := math.Max(0, math.Min(1, (x-70)/160))
		d := math.Max(0, (y-120)/70)
		k := 0.98 - 0.1*t*t - 0.08*d*d
		return rgbf{253 * k, 252 * k, 250 * k}
	}
	out = append(out, shot{scene: scene{name: "t_bowl_white_on_white_q85", w: 300, h: 240,
		backdrop: sweep(rgbf{252, 252, 251}, rgbf{244, 244, 243}, 240), parts: []part{
			{in: bowl, col: bowlCol, light: true},
			{in: ellipse(150, 120, 76, 10), col: rounded(rgbf{238, 237, 235}, 150, 76, 0.5, 0.06, none), light: true},
		}, shadow: shadows(softShadow(150, 191, 50, 3, 0.3, 2))},
		cam: camera{defocus: 0.7, vignette: 0.1, luma: 2.2, chroma: 1.2, quality: 85}})

	// A black leather wallet on a charcoal felt: about 20 levels below the
	// felt, a fine grain, a stitched edge a little lighter. JPEG 84.
	wallet := rect(80, 80, 220, 180)
	out = append(out, shot{scene: scene{name: "t_wallet_black_charcoal_q84", w: 300, h: 260,
		backdrop: textured(plain(rgbf{50, 50, 53}), 8, 0.06), parts: []part{
			{in: grown(wallet, 1.5), col: flat(rgbf{40, 40, 42})},
			{in: wallet, col: rounded(rgbf{30, 29, 30}, 150, 70, -0.4, 0.2, grain2(11, 0.04))},
			{in: rect(86, 86, 214, 87.5), col: flat(rgbf{44, 43, 44})},
		}},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 2.4, chroma: 1.2, quality: 84}})

	// A black speaker on a charcoal felt, no rim: about 20 levels below
	// the felt, whose texture is as strong as its own grille. JPEG 80.
	out = append(out, shot{scene: scene{name: "t_speaker_black_felt_q80", w: 300, h: 250,
		backdrop: textured(plain(rgbf{46, 46, 48}), 9, 0.1), parts: []part{
			{in: union(rect(105, 70, 195, 200), ellipse(150, 70, 45, 5)),
				col: rounded(rgbf{27, 27, 28}, 150, 45, -0.4, 0.15, grain2(12, 0.06))},
		}, shadow: shadows(softShadow(150, 201, 50, 3, 0.3, 2))},
		cam: camera{defocus: 0.8, vignette: 0.14, luma: 2.4, chroma: 1.3, quality: 80}})

	// A dark navy cap on a dark grey sweep: a crown rounded by the light, a
	// brim a shade darker. JPEG 80.
	crown := and(ellipse(150, 150, 70, 62), rect(0, 0, 300, 150))
	brim := ellipse(185, 152, 62, 10)
	out = append(out, shot{scene: scene{name: "t_cap_navy_darkgrey_q80", w: 300, h: 230,
		backdrop: sweep(rgbf{62, 63, 66}, rgbf{52, 53, 56}, 230), parts: []part{
			{in: crown, col: rounded(rgbf{36, 42, 66}, 150, 70, -0.5, 0.3, grain2(4, 0.02))},
			{in: brim, col: flat(rgbf{28, 32, 52})},
		}, shadow: shadows(softShadow(160, 164, 74, 6, 0.3, 6))},
		cam: camera{defocus: 0.7, vignette: 0.14, luma: 2.4, chroma: 1.4, quality: 80}})

	// A light grey speaker on a light grey sweep: a rounded box with a
	// fabric front a little darker than the sweep, a grille texture.
	// JPEG 82.
	speaker := union(rect(100, 70, 200, 200), ellipse(150, 70, 50, 6))
	fabric := func(x, y float64) rgbf {
		k := 1 - 0.05*math.Max(0, (x-100)/100) + 0.015*math.Sin(x*2.1)*math.Sin(y*2.1)
		return rgbf{204 * k, 205 * k, 207 * k}
	}
	out = append(out, shot{scene: scene{name: "t_speaker_grey_on_grey_q82", w: 300, h: 250,
		backdrop: sweep(rgbf{222, 222, 224}, rgbf{208, 208, 210}, 250), parts: []part{
			{in: speaker, col: fabric, light: true},
			{in: ellipse(150, 66, 46, 4), col: flat(rgbf{220, 220, 222}), light: true},
		}, shadow: shadows(softShadow(150, 201, 56, 3, 0.35, 2), softShadow(170, 204, 70, 8, 0.15, 10))},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2.2, chroma: 1.3, quality: 82}})
	return out
}

// BenchmarkCutoutTonal prints the tonal set's figures: go test -run '^$'
// -bench CutoutTonal ./tasks/image (CUTOUT_DIR=/some/dir writes each
// input, its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutTonal(b *testing.B) {
	tonalSet.bench(b)
}

// tonalFloors and tonalMean are the tonal set's figures after the plateau
// test (branch tonal) less a margin. BEFORE, for the record: the bowl,
// the grey speaker and the black one were answered "no object was
// found"; mean 0.467 (after: 0.807). The towel, its top edge about 8
// levels under the sweep with gaps JPEG opened in it, is still answered
// "no object". The grey speaker and the bowl keep their contact shadow
// with them (0.46 and 0.82 of it). The towel is cut out since the fourth
// look keeps a shaded body inside its outline's hull (branch white,
// cutshading.go): 0.898; mean 0.807 → 0.919.
var (
	tonalFloors = map[string]fifthFloor{
		"t_jar_pink_on_pink_q82":      {iou: 0.91, light: 0.98, hole: 1, shadow: 0.43},
		"t_towel_blue_on_blue_q78":    {iou: 0.87, light: 0.92, hole: 1, shadow: 0.03},
		"t_bag_beige_plaster_q80":     {iou: 0.90, light: 0.96, hole: 0.02, shadow: 0.02},
		"t_bowl_white_on_white_q85":   {iou: 0.82, light: 0.89, hole: 1, shadow: 0.85},
		"t_wallet_black_charcoal_q84": {iou: 0.92, hole: 1, shadow: 1},
		"t_speaker_black_felt_q80":    {iou: 0.95, hole: 1, shadow: 0.30},
		"t_cap_navy_darkgrey_q80":     {iou: 0.93, hole: 1, shadow: 0.02},
		"t_speaker_grey_on_grey_q82":  {iou: 0.87, light: 0.94, hole: 1, shadow: 0.49},
	}
	tonalMean = 0.89
)

// tonalSet is the tonal set, as its floor test and benchmark read it.
var tonalSet = shotSet{
	name:   "tonal",
	shots:  tonalShots,
	floors: tonalFloors,
	mean:   tonalMean,
}

// TestCutoutOnTheTonalSet: products in the backdrop's own tone are found
// and kept — a white bowl shading to 210 on a white sweep, a grey speaker
// on a grey sweep, a black wallet 20 levels under charcoal felt — held to
// floors a little under what the cut-out scores.
func TestCutoutOnTheTonalSet(t *testing.T) {
	tonalSet.hold(t)
}

// TestCutoutRefusesAnEmptyTonalBackdrop: the tonal set's backdrops with
// nothing on them — textured plaster and charcoal felt, a dark grey and
// a pink sweep — are refused as "no object", not cut.
func TestCutoutRefusesAnEmptyTonalBackdrop(t *testing.T) {
	for _, sh := range tonalShots() {
		sh.parts, sh.shadow, sh.hole = nil, nil, nil
		tr := sh.photograph()
		res, err := cutOut(context.Background(), tr.img, 12, 0)
		require.Error(t, err, sh.name)
		var low *tasks.LowConfidence
		require.False(t, errors.As(err, &low), "%s: refused as no object, not as a busy backdrop", sh.name)
		require.Nil(t, res.img, sh.name)
	}
}
