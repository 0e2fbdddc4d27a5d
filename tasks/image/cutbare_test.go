package image

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// Products seen only by their outline in a photograph (cutbare.go,
// cutclear.go): drawn here with other shapes, sizes and backdrops than
// the benchmark sets'.

// clearJar is a clear glass jar on a light grey sweep: a straight body
// nearly see-through in its middle and denser at its sides, a thick rim
// and base; a soft shadow. JPEG 84.
func clearJar() shot {
	half := 38.0
	body := func(x, y float64) bool { return y >= 60 && y < 190 && math.Abs(x-150) < half }
	e := func(x float64) float64 { return math.Min(1, math.Abs(x-150)/half) }
	jar := []part{
		{in: body, col: func(x, y float64) rgbf {
			v := 232 - 64*math.Pow(e(x), 8)
			return rgbf{v - 2, v, v + 1}
		}, alpha: func(x, y float64) float64 { return 0.1 + 0.6*math.Pow(e(x), 6) }},
		{in: and(ellipse(150, 60, 38, 5), func(x, y float64) bool { return !ellipse(150, 60, 35, 3.5)(x, y) }),
			col: flat(rgbf{200, 206, 210}), alpha: func(x, y float64) float64 { return 0.7 }},
		{in: rect(112, 182, 188, 190), col: flat(rgbf{205, 210, 212}), alpha: func(x, y float64) float64 { return 0.6 }},
	}
	return shot{scene: scene{name: "clear_jar", w: 300, h: 240,
		backdrop: sweep(rgbf{238, 238, 240}, rgbf{224, 224, 227}, 240), parts: jar,
		shadow: softShadow(150, 192, 44, 3, 0.15, 3)},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 1.8, chroma: 1, quality: 84}, glass: true}
}

// smallCube is a small white box (1.2 % of the frame) on a white sweep,
// lit from the top left: a bright top, a shaded side, a grey edge line.
func smallCube() shot {
	in := rect(200, 80, 228, 108)
	col := func(x, y float64) rgbf {
		k := 1.0
		if x > 218 {
			k = 0.9
		}
		return rgbf{252 * k, 252 * k, 250 * k}
	}
	return shot{scene: scene{name: "small_cube", w: 320, h: 220,
		backdrop: sweep(rgbf{246, 246, 247}, rgbf{236, 236, 238}, 220),
		parts:    []part{{in: grown(in, 0.8), col: flat(rgbf{222, 222, 224})}, {in: in, col: col, light: true}},
		shadow:   softShadow(214, 109, 16, 2, 0.35, 2)},
		cam: camera{defocus: 0.6, vignette: 0.15, luma: 2.4, chroma: 1.6, quality: 82}}
}

// TestCutoutKeepsAClearJarWholeAndSeeThrough: a clear jar the floods give
// to the backdrop is cut out whole by its outline, see-through inside and
// with no hole in it.
func TestCutoutKeepsAClearJarWholeAndSeeThrough(t *testing.T) {
	tr := clearJar().photograph()
	res, err := cutOutGlass(context.Background(), tr.img, 12, 2, false)
	require.NoError(t, err, "an outline is there to see: never 'no object'")
	g := scoreGlass(tr, res)
	require.GreaterOrEqual(t, g.iou, 0.85, "the silhouette")
	require.LessOrEqual(t, g.mae, 0.25, "the glass's alpha")
	inside, holes, sum := 0, 0, 0.0
	for y := 70; y < 180; y++ {
		for x := 120; x < 180; x++ { // the jar's middle
			a := float64(res.img.Pix[4*(y*tr.img.Bounds().Dx()+x)+3]) / 255
			inside++
			sum += a
			if a < 0.05 {
				holes++
			}
		}
	}
	require.Less(t, sum/float64(inside), 0.5, "see-through in its middle, not opaque")
	require.Zero(t, holes, "never a hole")
}

// TestCutoutFindsASmallWhiteBox: a small white box on a white sweep, in
// the sensor's grain, is cut out, not refused as no object.
func TestCutoutFindsASmallWhiteBox(t *testing.T) {
	tr := smallCube().photograph()
	res, err := cutOut(context.Background(), tr.img, 12, 2)
	require.NoError(t, err, "an outline is there to see: never 'no object'")
	s := score(tr, res.img)
	require.GreaterOrEqual(t, s.iou, 0.8)
	require.GreaterOrEqual(t, s.light, 0.9, "its white top kept")
}

// TestCutoutRefusesAShadowAloneOrGrain: the outline look takes no grain
// for an outline: a sweep with only a soft shadow on it, or heavy grain,
// as a JPEG at quality 70 to 72, is refused as having no object.
func TestCutoutRefusesAShadowAloneOrGrain(t *testing.T) {
	for name, sh := range map[string]shot{
		"shadow": {scene: scene{name: "shadow", w: 300, h: 220, backdrop: sweep(rgbf{250, 250, 250},
			rgbf{228, 229, 232}, 220), shadow: softShadow(150, 150, 40, 6, 0.3, 10)},
			cam: camera{defocus: 0.5, vignette: 0.2, luma: 4, chroma: 2, quality: 70}},
		"grain": {scene: scene{name: "grain", w: 320, h: 240, backdrop: sweep(rgbf{246, 248, 250},
			rgbf{234, 237, 240}, 240)}, cam: camera{defocus: 0.6, vignette: 0.2, luma: 3.5, chroma: 2.5, quality: 72}},
	} {
		res, err := cutOut(context.Background(), sh.photograph().img, 12, 0)
		require.Error(t, err, name)
		require.Nil(t, res.img, name)
	}
}
