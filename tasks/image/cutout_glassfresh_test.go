package image

import (
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The fresh glass set: four see-through products drawn after the clear
// bottle's outline step (cutglassfill.go) was tuned on the glass set and
// measured before and after it, not tuned on: a clear bottle on a white
// sweep, a clear wine glass with its stem and foot, a blue jar off-centre
// on a warm sweep, and a slim clear bottle as a JPEG at quality 70. Their
// glass darkens to its sides and base, where it bends the light.

// glassRows is a see-through part of shape in, tint f and opacity a in its
// middle, rising to rim at its sides on each row (the glass seen edge-on,
// where it bends the light: its colour there goes to edge), about the
// axis x = cx.
func glassRows(in func(x, y float64) bool, cx float64, f, edge rgbf, a, rim float64) part {
	halves := map[int]float64{}
	half := func(y float64) float64 {
		k := int(math.Round(4 * y))
		h, ok := halves[k]
		if !ok {
			for d := 0.0; d < 200; d += 0.25 {
				if in(cx-d, y) || in(cx+d, y) {
					h = d
				}
			}
			halves[k] = h
		}
		return h
	}
	side := func(x, y float64) float64 { return math.Pow(math.Min(1, math.Abs(x-cx)/math.Max(half(y), 1)), 6) }
	return part{in: in,
		col: func(x, y float64) rgbf {
			e := side(x, y)
			return rgbf{f[0] + (edge[0]-f[0])*e, f[1] + (edge[1]-f[1])*e, f[2] + (edge[2]-f[2])*e}
		},
		alpha: func(x, y float64) float64 { return a + (rim-a)*side(x, y) }}
}

// base is a bottle's thick glass bottom, 5 px tall, over [x0, x1] down
// to y: dense and darker, where the glass bends the light most.
func base(x0, x1, y float64) part {
	return part{in: rect(x0, y-5, x1, y), col: flat(rgbf{170, 176, 182}),
		alpha: func(x, y float64) float64 { return 0.75 }}
}

// highlight is a white reflection of opacity 0.8, 2 px either side of x =
// hx, where in is.
func highlight(in func(x, y float64) bool, hx float64) part {
	return part{in: func(x, y float64) bool { return in(x, y) && math.Abs(x-hx) < 2 },
		col: flat(rgbf{252, 252, 252}), alpha: func(x, y float64) float64 { return 0.8 }}
}

// glassFreshScenes is the fresh glass set.
func glassFreshScenes() []scene {
	clear, edge := rgbf{240, 246, 250}, rgbf{120, 128, 134} // the sides dark where the glass bends the light
	white := sweep(rgbf{252, 252, 252}, rgbf{224, 224, 226}, 240)
	b1 := bottle(118, 36, 22, 72, 96, 212)
	// A wine glass: a bowl cut flat at its lip, a stem, a foot.
	bowl := and(ellipse(120, 92, 38, 46), func(x, y float64) bool { return y >= 58 })
	stem := rect(117.5, 134, 122.5, 190)
	foot := ellipse(120, 191, 30, 4)
	lip := and(bowl, func(x, y float64) bool { return y < 60.5 })
	jar := union(rect(135, 100, 205, 196), ellipse(170, 196, 35, 6))
	b4 := bottle(108, 30, 16, 50, 112, 214)
	return []scene{
		{name: "gf_clear_white_sweep", w: 240, h: 240, backdrop: white, noise: 1,
			parts: []part{glassRows(b1, 118, clear, edge, 0.2, 0.8), base(82, 154, 212), highlight(b1, 104),
				{in: rect(106, 24, 130, 37), col: flat(rgbf{60, 60, 64})}},
			shadow: softShadow(118, 213, 38, 4, 0.2, 3)},
		{name: "gf_wine_glass_clear", w: 240, h: 240, noise: 1,
			backdrop: sweep(rgbf{250, 250, 250}, rgbf{172, 174, 178}, 240),
			parts: []part{glassRows(bowl, 120, clear, edge, 0.15, 0.8), highlight(bowl, 104),
				{in: union(stem, foot), col: flat(rgbf{236, 240, 244}), alpha: func(x, y float64) float64 { return 0.55 }},
				{in: lip, col: flat(rgbf{246, 248, 250}), alpha: func(x, y float64) float64 { return 0.7 }}},
			shadow: softShadow(120, 192, 32, 3, 0.15, 3)},
		{name: "gf_jar_blue_offcentre_q85", w: 240, h: 240, noise: 1, jpeg: true, quality: 85,
			backdrop: sweep(rgbf{246, 242, 236}, rgbf{188, 178, 166}, 240),
			parts: []part{glassRows(jar, 170, rgbf{70, 120, 180}, rgbf{30, 60, 110}, 0.45, 0.85), highlight(jar, 152),
				{in: rect(135, 191, 205, 196), col: flat(rgbf{40, 70, 120}), alpha: func(x, y float64) float64 { return 0.8 }},
				{in: rect(131, 86, 209, 100), col: flat(rgbf{150, 150, 156})}},
			shadow: softShadow(170, 197, 40, 4, 0.25, 3)},
		{name: "gf_clear_slim_q70", w: 240, h: 240, noise: 1.2, jpeg: true, quality: 70,
			backdrop: sweep(rgbf{238, 238, 240}, rgbf{178, 178, 182}, 240),
			parts: []part{glassRows(b4, 108, clear, edge, 0.25, 0.85), base(83, 133, 214), highlight(b4, 98),
				{in: rect(99, 20, 117, 31), col: flat(rgbf{190, 160, 70})}}},
	}
}

// BenchmarkCutoutGlassFresh prints the fresh glass set's figures: go test
// -run '^$' -bench CutoutGlassFresh ./tasks/image (CUTOUT_DIR=/some/dir
// writes each input beside its cut-out over magenta).
func BenchmarkCutoutGlassFresh(b *testing.B) {
	var f map[string]glassScore
	for range b.N {
		f = measureGlassScenes(b, glassFreshScenes(), os.Getenv("CUTOUT_DIR"))
	}
	var iou, mae float64
	for _, s := range glassFreshScenes() {
		g := f[s.name]
		b.Logf("%-26s IoU %.4f alpha MAE %.3f (body %.3f) composite error %.1f see-through %.2f",
			s.name, g.iou, g.mae, g.inMAE, g.comp, g.see)
		iou, mae = iou+g.iou/float64(len(f)), mae+g.mae/float64(len(f))
	}
	b.ReportMetric(iou, "meanIoU")
	b.ReportMetric(mae, "alphaMAE")
}

// glassFreshFloors are the fresh glass set's floors, a little under what
// each measures (go test -bench CutoutGlassFresh): silhouette IoU and the
// largest alpha error inside the silhouette.
var glassFreshFloors = map[string][2]float64{
	"gf_clear_white_sweep":      {0.97, 0.16},
	"gf_wine_glass_clear":       {0.97, 0.22},
	"gf_jar_blue_offcentre_q85": {0.99, 0.08},
	"gf_clear_slim_q70":         {0.935, 0.16},
}

// TestCutoutKeepsFreshGlassWhole holds the fresh glass set to its floors:
// every silhouette whole and the alpha inside it near the truth.
func TestCutoutKeepsFreshGlassWhole(t *testing.T) {
	for name, g := range measureGlassScenes(t, glassFreshScenes(), "") {
		f := glassFreshFloors[name]
		require.GreaterOrEqual(t, g.iou, f[0], "%s: silhouette IoU", name)
		require.LessOrEqual(t, g.mae, f[1], "%s: alpha error inside the silhouette", name)
	}
}
