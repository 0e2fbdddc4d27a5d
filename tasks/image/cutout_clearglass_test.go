package image

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The clear glass set: colourless glass on light backdrops, the kind the
// first look cuts short (the walls are the backdrop seen through them;
// only a cap, a lid or a liquid of its own tone is kept by the floods) and
// that the later looks (cutoutline.go, cutwhite.go, cutturned.go) must
// give back whole. Each glass is nearly see-through
// in its middle and dense where its walls turn away, with darker lines
// along its outline where it bends the light and a highlight. Scored as
// glass (scoreGlass: the silhouette's IoU and the alpha error).

// clearWall is a clear glass wall's alpha and colour across a body of
// half-width half(y) about cx: thin a in its middle, rim at its sides.
func clearWall(cx float64, half func(y float64) float64, a, rim float64) (func(x, y float64) float64,
	func(x, y float64) rgbf) {
	e := func(x, y float64) float64 { return math.Min(1, math.Abs(x-cx)/math.Max(half(y), 1)) }
	alpha := func(x, y float64) float64 { return a + (rim-a)*math.Pow(e(x, y), 6) }
	col := func(x, y float64) rgbf {
		v := 240 - 76*math.Pow(e(x, y), 8)
		return rgbf{v - 3, v, v + 1}
	}
	return alpha, col
}

// clearGlassShots is the clear glass set.
func clearGlassShots() []shot {
	var out []shot
	// A clear glass bottle on a white sweep graded 14 levels, a black
	// screw cap on a short neck, round shoulders, a highlight. PNG.
	bHalf := func(y float64) float64 {
		switch {
		case y < 90:
			return 12
		case y < 120:
			t := (y - 90) / 30
			return 12 + 26*t*t*(3-2*t)
		}
		return 38
	}
	bIn := func(x, y float64) bool { return y >= 60 && y < 262 && math.Abs(x-130) < bHalf(y) }
	bAlpha, bCol := clearWall(130, bHalf, 0.1, 0.7)
	bottleParts := []part{
		{in: bIn, col: bCol, alpha: bAlpha},
		{in: and(bIn, func(x, y float64) bool { return math.Abs(x-110) < 1.8 && y > 132 && y < 240 }),
			col: flat(rgbf{254, 254, 254}), alpha: func(x, y float64) float64 { return 0.8 }},
		{in: roundRect(116, 36, 144, 62, 2), col: flat(rgbf{28, 28, 30})},
	}
	out = append(out, shot{scene: scene{name: "cg_bottle_clear_white", w: 260, h: 300,
		backdrop: sweep(rgbf{252, 252, 252}, rgbf{238, 238, 239}, 300), parts: bottleParts,
		shadow: softShadow(132, 263, 40, 3, 0.2, 3)},
		cam: camera{defocus: 0.8, vignette: 0.08, luma: 1.8, chroma: 1, quality: 0}, glass: true})

	// A clear glass storage jar on a flat light grey, a brushed steel lid,
	// a pale rice filling its lower third. JPEG 80.
	jHalf := func(float64) float64 { return 56 }
	jIn := roundRect(94, 96, 206, 250, 10)
	jAlpha, jCol := clearWall(150, jHalf, 0.1, 0.72)
	rice := and(jIn, func(x, y float64) bool { return y > 196 && math.Abs(x-150) < 50 })
	jarParts := []part{
		{in: jIn, col: jCol, alpha: jAlpha},
		{in: rice, col: flat(rgbf{236, 230, 214}), alpha: func(x, y float64) float64 { return 0.85 }},
		{in: and(jIn, func(x, y float64) bool { return math.Abs(x-180) < 2 && y > 110 && y < 190 }),
			col: flat(rgbf{253, 253, 253}), alpha: func(x, y float64) float64 { return 0.75 }},
		{in: roundRect(90, 74, 210, 98, 4), col: rounded(rgbf{176, 178, 182}, 150, 60, -0.3, 0.3, none)},
	}
	out = append(out, shot{scene: scene{name: "cg_jar_clear_lightgrey_q80", w: 300, h: 290,
		backdrop: sweep(rgbf{226, 226, 228}, rgbf{221, 221, 223}, 290), parts: jarParts,
		shadow: softShadow(150, 252, 58, 3, 0.25, 3)},
		cam: camera{defocus: 1.0, vignette: 0.1, luma: 2, chroma: 1.2, read: 1, quality: 80}, glass: true})

	// A small clear glass vase off the centre, low on the right of a warm
	// pale sweep graded 24 levels: a flared lip, a narrow waist, no cap,
	// nothing opaque. JPEG 86.
	vHalf := func(y float64) float64 { return 22 + 8*math.Cos((y-160)/60*math.Pi) }
	vIn := func(x, y float64) bool { return y >= 100 && y < 220 && math.Abs(x-228) < vHalf(y) }
	vAlpha, vCol := clearWall(228, vHalf, 0.12, 0.68)
	vaseParts := []part{
		{in: vIn, col: vCol, alpha: vAlpha},
		{in: without(ellipse(228, 100, 30, 4), ellipse(228, 100, 27, 2.6)), col: flat(rgbf{170, 172, 172}),
			alpha: func(x, y float64) float64 { return 0.7 }},
		{in: and(vIn, func(x, y float64) bool { return math.Abs(x-214) < 1.6 && y > 120 && y < 200 }),
			col: flat(rgbf{254, 254, 254}), alpha: func(x, y float64) float64 { return 0.8 }},
	}
	out = append(out, shot{scene: scene{name: "cg_vase_clear_offcentre_q86", w: 300, h: 260,
		backdrop: sweep(rgbf{246, 242, 236}, rgbf{224, 219, 212}, 260), parts: vaseParts,
		shadow: softShadow(230, 221, 26, 2.5, 0.25, 2)},
		cam: camera{defocus: 0.9, vignette: 0.12, luma: 2, chroma: 1.2, quality: 86}, glass: true})
	return out
}

// clearGlassSet is the clear glass set, as its floor test reads it.
var clearGlassSet = shotSet{
	name:   "clearglass",
	shots:  clearGlassShots,
	floors: clearGlassFloors,
	mean:   clearGlassMean,
}

// TestCutoutKeepsClearGlassWhole holds the clear glass set to its floors:
// each glass's silhouette and its body's see-through alpha. The jar, whose
// steel lid the cut loses (a neutral grey on a light grey, peeled as a
// shadow), must come out warned and not charged, not as a confident cut.
func TestCutoutKeepsClearGlassWhole(t *testing.T) {
	clearGlassSet.hold(t)
	v, ok := shotCuts.Load("cg_jar_clear_lightgrey_q80")
	require.True(t, ok)
	require.True(t, flagged(v.(qualityRow), minCutQuality), "the jar without its lid is warned")
}

// clearGlassFloors and clearGlassMean are the set's figures from one run
// less a margin: IoU
// 0.02 under, glass alpha error and shadow kept 0.03 over. That run: the
// bottle on white 0.929 (its outline found by the fifth look from its cap,
// but opaque: alpha error 0.76, its contact shadow kept), the jar 0.830
// (its body whole, its lid lost; cut quality 0.27, warned), the vase off
// the centre 0.888 (see-through, alpha error 0.09, its contact shadow
// kept); mean 0.882. They record today's behaviour, to catch regressions.
var (
	clearGlassFloors = map[string]fifthFloor{
		"cg_bottle_clear_white":       {iou: 0.909, glassMAE: 0.79, shadow: 0.907},
		"cg_jar_clear_lightgrey_q80":  {iou: 0.809, glassMAE: 0.272, shadow: 0.03},
		"cg_vase_clear_offcentre_q86": {iou: 0.867, glassMAE: 0.119, shadow: 0.688},
	}
	clearGlassMean = 0.862
)
