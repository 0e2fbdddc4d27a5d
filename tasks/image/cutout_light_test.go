package image

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The light set: white, light and glass products, drawings with white
// fills inside black outlines, JPEG at quality 70 to 90 and products off
// the centre — the shots issue 46 found the cut-out failing on. Each has
// a visible edge (a rim, a seam, shading or an outline); the figures are
// the issue's: IoU per image, mean, light-part retention and enclosed
// backdrop (holes).

// outline is the band of width w around shape in: in(x, y) false but a
// point within w of it inside (tested on a ring of 8 directions).
func outline(in func(x, y float64) bool, w float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		if in(x, y) {
			return false
		}
		for k := range 8 {
			a := float64(k) * math.Pi / 4
			if in(x+w*math.Cos(a), y+w*math.Sin(a)) {
				return true
			}
		}
		return false
	}
}

// grown is shape in grown by w.
func grown(in func(x, y float64) bool, w float64) func(x, y float64) bool {
	o := outline(in, w)
	return func(x, y float64) bool { return in(x, y) || o(x, y) }
}

// litWhite is a white lit from the left: bright at x0, darker by fall at x1.
func litWhite(c rgbf, x0, x1, fall, texture float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		t := math.Max(0, math.Min(1, (x-x0)/(x1-x0)))
		k := 1 - fall*t*t + texture*math.Sin(x*1.9)*math.Sin(y*1.4)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// sectors colours a disc's sectors in turn.
func sectors(cx, cy float64, cols []rgbf, light func(k int) bool, shade func(x, y float64) float64) []part {
	var ps []part
	n := len(cols)
	for k := range n {
		ps = append(ps, part{
			in: and(ellipse(cx, cy, 60, 60), func(x, y float64) bool {
				a := math.Atan2(y-cy, x-cx) + math.Pi
				return int(a/(2*math.Pi)*float64(n))%n == k
			}),
			col: func(x, y float64) rgbf {
				s := shade(x, y)
				c := cols[k]
				return rgbf{c[0] * s, c[1] * s, c[2] * s}
			},
			light: light(k),
		})
	}
	return ps
}

// lightScenes is the light set.
func lightScenes() []scene {
	const W, H = 240, 240
	var out []scene
	white := rgbf{250, 250, 250}

	// A white mug on a white sweep: a faint grey rim (243 → 215) round a
	// body shaded from white to light grey, a handle and its hole.
	mugBody := rect(80, 90, 155, 175)
	handle := and(ring(160, 130, 13, 21), func(x, y float64) bool { return x > 150 })
	mugShape := union(mugBody, handle)
	mugHole := and(ellipse(160, 130, 13, 13), func(x, y float64) bool { return x > 156 })
	mug := []part{
		{in: grown(mugShape, 1.5), col: flat(rgbf{215, 215, 217})},
		{in: mugShape, col: litWhite(rgbf{248, 248, 247}, 80, 181, 0.1, 0.004), light: true},
	}
	out = append(out, scene{name: "mug_white_sweep", w: W, h: H,
		backdrop: sweep(rgbf{252, 252, 252}, rgbf{238, 238, 240}, H), parts: mug, hole: mugHole,
		shadow: softShadow(118, 176, 42, 5, 0.3, 3), noise: 1.2})

	// A white tee on white: a textured white body, its shaded side, a hem
	// 12 levels darker along its edge.
	teeShape := union(rect(80, 60, 160, 195), rect(45, 60, 195, 100))
	tee := []part{
		{in: grown(teeShape, 1.2), col: flat(rgbf{236, 236, 235})},
		{in: teeShape, col: litWhite(rgbf{252, 251, 249}, 45, 195, 0.12, 0.01), light: true},
	}
	out = append(out, scene{name: "tee_white_on_white", w: W, h: H, backdrop: plain(white), parts: tee,
		shadow: softShadow(122, 197, 60, 8, 0.15, 6), noise: 1})

	// A beach ball on grey: red, blue and yellow panels between white ones,
	// lit from the top left so the white panels' shaded side passes through
	// the backdrop's grey inside the ball's darker limb.
	ballShade := func(x, y float64) float64 {
		d := math.Hypot(x-95, y-95) / 120
		r := math.Min(1, math.Hypot(x-120, y-120)/60) // the limb darkens: the surface turns away
		return (1.02 - 0.3*d*d) * (0.8 + 0.2*math.Sqrt(1-r*r))
	}
	panels := []rgbf{{230, 40, 40}, {248, 248, 246}, {40, 80, 210}, {248, 248, 246}, {245, 200, 30}, {248, 248, 246}}
	ball := sectors(120, 120, panels, func(k int) bool { return k%2 == 1 }, ballShade)
	out = append(out, scene{name: "beachball_grey", w: W, h: H, backdrop: vignette(rgbf{212, 212, 214}, W, H, 0.15),
		parts: ball, shadow: softShadow(122, 182, 40, 5, 0.35, 4), noise: 1.5})

	// A drawing on white: black outlines round a skin-toned head with white
	// eyes, and a white shirt with a black button line.
	headShape := ellipse(120, 80, 40, 44)
	eyeL, eyeR := ellipse(105, 75, 9, 7), ellipse(135, 75, 9, 7)
	shirt := func(x, y float64) bool { return y >= 128 && y < 210 && math.Abs(x-120) < 30+0.5*(y-128) }
	ink, paper := rgbf{20, 20, 24}, rgbf{255, 255, 255}
	drawing := []part{
		{in: grown(headShape, 3), col: flat(ink)},
		{in: headShape, col: flat(rgbf{240, 200, 170})},
		{in: grown(union(eyeL, eyeR), 2), col: flat(ink)},
		{in: union(eyeL, eyeR), col: flat(paper), light: true},
		{in: union(ellipse(107, 76, 3, 3), ellipse(137, 76, 3, 3)), col: flat(ink)},
		{in: grown(shirt, 3), col: flat(ink)},
		{in: shirt, col: flat(paper), light: true},
		{in: rect(119, 135, 121, 205), col: flat(ink)},
	}
	out = append(out, scene{name: "drawing_white_fills", w: W, h: H, backdrop: plain(paper), parts: drawing})

	// A green glass bottle on a white sweep: the backdrop seen through a
	// green tint, darker at the edges where the glass bends the light, and
	// a bright highlight down the body. The docs promise it opaque inside
	// its outline.
	bottleShape := union(rect(92, 95, 148, 200), rect(110, 45, 130, 95), ellipse(120, 95, 28, 12))
	glass := func(x, y float64) rgbf {
		b := 250 - 12*y/H
		e := math.Abs(x-120) / 28
		k := 0.8 - 0.35*math.Pow(math.Min(1, e), 4)
		c := rgbf{b * 0.55 * k, b * 0.85 * k, b * 0.6 * k}
		h := math.Exp(-math.Pow((x-106)/3.5, 2)) // the highlight
		for ch := range 3 {
			c[ch] += h * (248 - c[ch])
		}
		return c
	}
	out = append(out, scene{name: "glass_bottle_green", w: W, h: H,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{238, 238, 238}, H),
		parts:    []part{{in: bottleShape, col: glass}, {in: rect(108, 38, 132, 46), col: flat(rgbf{200, 170, 60})}},
		shadow:   softShadow(120, 201, 34, 4, 0.3, 3), noise: 1})

	// A bag off the centre on a grey sweep, its handle's hole showing the
	// sweep.
	bagHandle := and(ring(75, 95, 22, 29), func(x, y float64) bool { return y < 100 })
	bagHole := and(ellipse(75, 95, 22, 22), func(x, y float64) bool { return y < 95 })
	bag := []part{{in: union(rect(30, 95, 120, 175), bagHandle), col: shaded(rgbf{60, 40, 30}, 30, 120, 0.04)}}
	out = append(out, scene{name: "bag_off_centre_grey", w: W, h: H,
		backdrop: sweep(rgbf{205, 205, 207}, rgbf{180, 180, 183}, H), parts: bag, hole: bagHole,
		shadow: softShadow(75, 176, 50, 5, 0.4, 3), noise: 1.5})

	// Shots added after the tuning, to check it holds: a white box with a
	// grey edge and a lighter top on a white sweep (JPEG at quality 70), and
	// a cream lampshade with a darker seam on a beige sweep.
	box := union(rect(70, 100, 170, 185), func(x, y float64) bool {
		return y >= 80 && y < 100 && x >= 70+(100-y) && x < 170+(100-y)*0.4 // the top, seen from above
	})
	top := func(x, y float64) bool { return y < 100 }
	boxParts := []part{
		{in: grown(box, 1), col: flat(rgbf{222, 222, 224})},
		{in: box, col: litWhite(rgbf{246, 246, 246}, 70, 170, 0.08, 0.003), light: true},
		{in: and(box, top), col: flat(rgbf{252, 252, 252}), light: true},
	}
	out = append(out, scene{name: "box_white_q70_check", w: W, h: H,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{240, 240, 241}, H), parts: boxParts,
		shadow: softShadow(118, 186, 55, 5, 0.3, 3), noise: 1.2, jpeg: true, quality: 70})
	shadeShape := func(x, y float64) bool { return y >= 50 && y < 130 && math.Abs(x-120) < 30+0.45*(y-50) }
	lamp := []part{
		{in: grown(shadeShape, 1.2), col: flat(rgbf{200, 190, 170})},
		{in: shadeShape, col: litWhite(rgbf{246, 238, 220}, 60, 180, 0.15, 0.01), light: true},
		{in: rect(117, 131, 123, 185), col: flat(rgbf{90, 80, 70})},
		{in: ellipse(120, 186, 28, 5), col: flat(rgbf{90, 80, 70})},
	}
	out = append(out, scene{name: "lamp_cream_on_beige_check", w: W, h: H, backdrop: plain(rgbf{238, 230, 214}),
		parts: lamp, shadow: softShadow(120, 189, 32, 4, 0.35, 3), noise: 1.5})

	// JPEG at quality 70 to 90.
	for _, c := range []struct {
		i, q int
	}{{0, 75}, {1, 90}, {2, 80}, {3, 85}, {4, 80}, {5, 70}} {
		s := out[c.i]
		s.name += "_jpeg"
		s.jpeg, s.quality = true, c.q
		out = append(out, s)
	}
	return out
}

// lightFigures are the light set's figures.
type lightFigures struct {
	meanIoU, minIoU, light, hole float64
	scores                       map[string]cutScore
	failed                       []string
}

// measureLight cuts out the light set with the task's defaults.
func measureLight(tb testing.TB, dir string) lightFigures {
	return measureScenes(tb, lightScenes(), dir)
}

// measureScenes cuts out scenes with the task's defaults and measures
// them; dir, when not empty, receives each input and cut-out.
func measureScenes(tb testing.TB, scenes []scene, dir string) lightFigures {
	f := lightFigures{minIoU: 1, scores: map[string]cutScore{}}
	var nli, nho int
	for _, s := range scenes {
		t := s.render()
		res, err := cutOut(context.Background(), t.img, 12, 2)
		if dir != "" {
			writePNG(tb, filepath.Join(dir, s.name+"_in.png"), t.img)
		}
		if err != nil {
			f.failed = append(f.failed, s.name+": "+err.Error())
			f.minIoU = 0
			continue
		}
		sc := score(t, res.img)
		f.scores[s.name] = sc
		if dir != "" {
			writePNG(tb, filepath.Join(dir, s.name+"_side.png"), sideBySide(t.img, res.img))
		}
		f.meanIoU += sc.iou / float64(len(scenes))
		f.minIoU = min(f.minIoU, sc.iou)
		if sc.hasLight {
			f.light += sc.light
			nli++
		}
		if sc.hasHole {
			f.hole += sc.hole
			nho++
		}
	}
	f.light /= float64(max(nli, 1))
	f.hole /= float64(max(nho, 1))
	return f
}

// BenchmarkCutoutLight prints the light set's figures: go test -run '^$'
// -bench CutoutLight ./tasks/image (CUTOUT_DIR=/some/dir writes the
// inputs and the cut-outs beside them).
func BenchmarkCutoutLight(b *testing.B) {
	var f lightFigures
	for range b.N {
		f = measureLight(b, os.Getenv("CUTOUT_DIR"))
	}
	for _, s := range lightScenes() {
		sc, ok := f.scores[s.name]
		if !ok {
			continue
		}
		b.Logf("%-26s IoU %.4f light %.3f hole %.3f", s.name, sc.iou, sc.light, sc.hole)
	}
	for _, e := range f.failed {
		b.Logf("failed: %s", e)
	}
	b.ReportMetric(f.meanIoU, "meanIoU")
	b.ReportMetric(f.minIoU, "minIoU")
	b.ReportMetric(f.light, "lightKept")
	b.ReportMetric(f.hole, "holeAlpha")
}

// TestCutoutKeepsLightProducts holds the cut-out to the light set's
// figures, issue 46's: IoU ≥ 0.93 on every image, a mean ≥ 0.97, light
// parts kept at 0.95 or more on average (on every image but the beach
// ball as a JPEG, 0.92, whose white panels' shaded side passes through
// the backdrop's grey) and enclosed backdrop at 0.05 or less. The
// benchmark prints each.
func TestCutoutKeepsLightProducts(t *testing.T) {
	f := measureLight(t, "")
	require.Empty(t, f.failed)
	for name, s := range f.scores {
		require.GreaterOrEqual(t, s.iou, 0.93, "%s: IoU of alpha ≥ 0.5", name)
		if s.hasHole {
			require.LessOrEqual(t, s.hole, 0.05, "%s: enclosed backdrop's alpha", name)
		}
		if s.hasLight {
			require.GreaterOrEqual(t, s.light, 0.9, "%s: light parts kept", name) // the beach ball as a JPEG: 0.92
		}
	}
	require.GreaterOrEqual(t, f.meanIoU, 0.98, "mean IoU")
	require.GreaterOrEqual(t, f.light, 0.98, "light parts' mean alpha")
	require.LessOrEqual(t, f.hole, 0.05, "enclosed backdrop's mean alpha")
}
