package image

import (
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The varied light set: more shots of the kinds issue 46 measures on a
// hidden set — white on white, light on light, drawings with white fills
// inside black outlines, green and clear glass, JPEG at quality 70 to 90,
// products off the centre or touching the frame, handle holes on grey and
// white sweeps — drawn with other shapes, sizes, lights and backdrops than
// the light set. Half of it (tuned) was looked at while the cut-out was
// worked on; the other half (held out) was only measured, to tell whether
// the figures carry over to shots nobody tuned on.

// ball is a beach ball of radius r at (cx, cy) with len(cols) panels, lit
// from (lx, ly); a panel's colour is light when light says so.
func ball(cx, cy, r, lx, ly float64, cols []rgbf, light func(k int) bool) []part {
	shade := func(x, y float64) float64 {
		d := math.Hypot(x-lx, y-ly) / (2 * r)
		e := math.Min(1, math.Hypot(x-cx, y-cy)/r)
		return (1.03 - 0.35*d*d) * (0.78 + 0.22*math.Sqrt(1-e*e))
	}
	var ps []part
	n := len(cols)
	for k := range n {
		ps = append(ps, part{
			in: and(ellipse(cx, cy, r, r), func(x, y float64) bool {
				a := math.Atan2(y-cy, x-cx) + math.Pi + 0.3
				return int(a/(2*math.Pi)*float64(n))%n == k
			}),
			col: func(x, y float64) rgbf {
				s, c := shade(x, y), cols[k]
				return rgbf{c[0] * s, c[1] * s, c[2] * s}
			},
			light: light(k),
		})
	}
	return ps
}

// bottle is a glass bottle's silhouette: a body, shoulders, a neck.
func bottle(cx, top, neckW, bodyW, shoulder, bottom float64) func(x, y float64) bool {
	return union(rect(cx-bodyW/2, shoulder, cx+bodyW/2, bottom), rect(cx-neckW/2, top, cx+neckW/2, shoulder),
		ellipse(cx, shoulder, bodyW/2, bodyW/4))
}

// glassOver is glass of tint t over the backdrop bg: the backdrop seen
// through it, darker where the glass bends the light at its sides, with a
// highlight stripe at hx.
func glassOver(bg func(x, y float64) rgbf, t rgbf, cx, half, hx float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		b := bg(x, y)
		e := math.Min(1, math.Abs(x-cx)/half)
		k := 0.9 - 0.45*math.Pow(e, 3)
		h := math.Exp(-math.Pow((x-hx)/3, 2))
		var c rgbf
		for ch := range 3 {
			c[ch] = b[ch] * t[ch] * k
			c[ch] += h * (250 - c[ch])
		}
		return c
	}
}

// mugWithHole is a mug whose handle is at the right (dir 1) or left (-1)
// and the handle's hole.
func mugWithHole(x0, y0, x1, y1, dir float64) (shape, hole func(x, y float64) bool) {
	hx := x1 + 6
	if dir < 0 {
		hx = x0 - 6
	}
	cy := (y0 + y1) / 2
	side := func(x, y float64) bool { return dir*(x-hx) > -4 }
	shape = union(rect(x0, y0, x1, y1), and(ring(hx, cy, 12, 19), side))
	hole = and(ellipse(hx, cy, 12, 12), func(x, y float64) bool { return dir*(x-hx) > 0 })
	return shape, hole
}

// variedScenes is the varied light set: tuned (false) or held out (true).
func variedScenes(heldOut bool) []scene {
	if heldOut {
		return heldOutScenes()
	}
	out := moreTunedScenes()
	// A white mug on a white sweep, handle left, a rim 14 levels down, JPEG 70.
	mug, mugHole := mugWithHole(110, 80, 180, 170, -1)
	out = append(out, scene{name: "t_mug_white_q70", w: 260, h: 240, jpeg: true, quality: 70,
		backdrop: sweep(rgbf{250, 250, 251}, rgbf{236, 236, 238}, 240), hole: mugHole, noise: 1.2,
		parts: []part{{in: grown(mug, 1.3), col: flat(rgbf{228, 228, 230})},
			{in: mug, col: litWhite(rgbf{246, 246, 245}, 180, 85, 0.12, 0.004), light: true}},
		shadow: softShadow(145, 171, 40, 5, 0.3, 3)})
	// A white tee on white, lit from the right, hem 11 levels down, JPEG 85.
	tee := union(rect(85, 55, 165, 200),
		func(x, y float64) bool { return y >= 55 && y < 95 && math.Abs(x-125) < 75-(y-55)*0.3 })
	out = append(out, scene{name: "t_tee_white_q85", w: 250, h: 240, jpeg: true, quality: 85,
		backdrop: plain(rgbf{248, 248, 247}), noise: 1,
		parts: []part{{in: grown(tee, 1.2), col: flat(rgbf{237, 237, 236})},
			{in: tee, col: litWhite(rgbf{251, 250, 248}, 200, 50, 0.1, 0.008), light: true}},
		shadow: softShadow(128, 201, 60, 7, 0.18, 6)})
	// An eight-panel beach ball on a darker grey, off the centre, JPEG 80.
	cols := []rgbf{{220, 30, 30}, {247, 247, 245}, {30, 90, 220}, {247, 247, 245},
		{250, 210, 20}, {247, 247, 245}, {30, 170, 60}, {247, 247, 245}}
	out = append(out, scene{name: "t_ball8_grey_q80", w: 240, h: 240, jpeg: true, quality: 80,
		backdrop: vignette(rgbf{196, 196, 198}, 240, 240, 0.12), noise: 1.5,
		parts:  ball(85, 105, 55, 60, 80, cols, func(k int) bool { return k%2 == 1 }),
		shadow: softShadow(88, 162, 40, 5, 0.35, 4)})
	// A drawn cat on white: a white body, white eyes, a white shirt, all
	// inside black outlines; JPEG 90.
	head := ellipse(120, 70, 38, 32)
	ears := union(func(x, y float64) bool { return y > 30 && y < 50 && math.Abs(x-95) < (y-30)*0.6 },
		func(x, y float64) bool { return y > 30 && y < 50 && math.Abs(x-145) < (y-30)*0.6 })
	body := ellipse(120, 150, 45, 55)
	eyes := union(ellipse(106, 66, 8, 9), ellipse(134, 66, 8, 9))
	ink, paper := rgbf{15, 15, 18}, rgbf{255, 255, 255}
	out = append(out, scene{name: "t_drawn_cat_q90", w: 240, h: 230, jpeg: true, quality: 90,
		backdrop: plain(paper),
		parts: []part{{in: grown(union(head, ears, body), 2.5), col: flat(ink)},
			{in: union(head, ears, body), col: flat(paper), light: true},
			{in: grown(eyes, 2), col: flat(ink)}, {in: eyes, col: flat(paper), light: true},
			{in: union(ellipse(108, 68, 3, 4), ellipse(136, 68, 3, 4)), col: flat(ink)},
			{in: rect(80, 112, 160, 115), col: flat(ink)}}})
	// A clear glass bottle on a white sweep (opaque inside its outline).
	bg := sweep(rgbf{248, 248, 248}, rgbf{232, 232, 234}, 240)
	out = append(out, scene{name: "t_glass_clear_white", w: 240, h: 240, backdrop: bg, noise: 1,
		parts: []part{{in: bottle(120, 40, 22, 64, 100, 205), col: glassOver(bg, rgbf{0.96, 0.98, 0.97}, 120, 32, 104)},
			{in: rect(108, 32, 132, 42), col: flat(rgbf{180, 180, 185})}},
		shadow: softShadow(120, 206, 36, 4, 0.3, 3)})
	// A green bottle on a grey sweep, JPEG 80.
	bgG := sweep(rgbf{215, 215, 217}, rgbf{190, 190, 193}, 240)
	out = append(out, scene{name: "t_glass_green_grey_q80", w: 240, h: 240, backdrop: bgG, noise: 1.5,
		jpeg: true, quality: 80,
		parts:  []part{{in: bottle(130, 35, 18, 56, 95, 210), col: glassOver(bgG, rgbf{0.5, 0.85, 0.55}, 130, 28, 116)}},
		shadow: softShadow(130, 211, 32, 4, 0.35, 3)})
	// A white jug touching the frame's bottom and right on a white sweep.
	jug := union(ellipse(200, 190, 60, 70), rect(180, 100, 220, 140))
	out = append(out, scene{name: "t_jug_touching_frame", w: 240, h: 240, noise: 1.2,
		backdrop: sweep(rgbf{252, 252, 252}, rgbf{240, 240, 241}, 240),
		parts: []part{{in: grown(jug, 1.2), col: flat(rgbf{225, 225, 227})},
			{in: jug, col: litWhite(rgbf{247, 247, 246}, 140, 260, 0.15, 0.004), light: true}}})
	// A white basket bag with a handle hole on a grey sweep, JPEG 75.
	handle := and(ring(120, 100, 26, 33), func(x, y float64) bool { return y < 105 })
	bagHole := and(ellipse(120, 100, 26, 26), func(x, y float64) bool { return y < 100 })
	bag := union(rect(70, 100, 170, 190), handle)
	out = append(out, scene{name: "t_bag_white_on_grey_q75", w: 240, h: 240, jpeg: true, quality: 75,
		backdrop: sweep(rgbf{200, 200, 202}, rgbf{178, 178, 181}, 240), hole: bagHole, noise: 1.5,
		parts:  []part{{in: bag, col: shaded(rgbf{232, 228, 220}, 70, 170, 0.03), light: true}},
		shadow: softShadow(120, 191, 55, 5, 0.4, 3)})
	return out
}

// moreTunedScenes are more tuned shots (first drawn as held out, then
// looked at while the cut-out was worked on, so tuned).
func moreTunedScenes() []scene {
	var out []scene
	// A white sneaker on white, a grey seam round its sole, JPEG 80.
	shoe := union(rect(50, 120, 190, 165), ellipse(95, 122, 45, 28))
	sole := rect(48, 165, 192, 180)
	out = append(out, scene{name: "t_sneaker_white_q80", w: 240, h: 220, jpeg: true, quality: 80, noise: 1,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{238, 238, 239}, 220),
		parts: []part{{in: grown(union(shoe, sole), 1.2), col: flat(rgbf{222, 222, 224})},
			{in: shoe, col: litWhite(rgbf{248, 247, 246}, 50, 190, 0.1, 0.006), light: true},
			{in: rect(48, 164, 192, 166), col: flat(rgbf{205, 205, 208})},
			{in: sole, col: flat(rgbf{246, 246, 246}), light: true}},
		shadow: softShadow(120, 181, 72, 5, 0.35, 3)})
	// A cream mug, handle right, on a white sweep: its hole shows the sweep; JPEG 90.
	mug, mugHole := mugWithHole(70, 90, 140, 175, 1)
	out = append(out, scene{name: "t_mug_cream_hole_q90", w: 240, h: 240, jpeg: true, quality: 90,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{234, 234, 236}, 240), hole: mugHole, noise: 1.2,
		parts: []part{{in: grown(mug, 1.2), col: flat(rgbf{215, 208, 195})},
			{in: mug, col: litWhite(rgbf{245, 238, 224}, 70, 170, 0.12, 0.004), light: true}},
		shadow: softShadow(110, 176, 42, 5, 0.3, 3)})
	// A four-panel beach ball on light grey, lit from the right, touching
	// the frame's right edge.
	cols := []rgbf{{248, 248, 246}, {240, 90, 20}, {248, 248, 246}, {20, 130, 200}}
	out = append(out, scene{name: "t_ball4_edge_lightgrey", w: 240, h: 240, noise: 1.2,
		backdrop: plain(rgbf{224, 224, 225}),
		parts:    ball(190, 120, 58, 215, 90, cols, func(k int) bool { return k%2 == 0 }),
		shadow:   softShadow(185, 179, 45, 5, 0.35, 4)})
	// A drawn flower on white: white petals inside black outlines, a
	// yellow heart, a green stem; JPEG 75.
	ink, paper := rgbf{10, 10, 10}, rgbf{253, 253, 253}
	var petals []func(x, y float64) bool
	for k := range 5 {
		a := float64(k) * 2 * math.Pi / 5
		petals = append(petals, ellipse(120+28*math.Cos(a), 80+28*math.Sin(a), 17, 17))
	}
	pet := union(petals...)
	stem := rect(117, 105, 123, 210)
	out = append(out, scene{name: "t_drawn_flower_q75", w: 240, h: 230, jpeg: true, quality: 75,
		backdrop: plain(paper),
		parts: []part{{in: grown(union(pet, stem), 2.5), col: flat(ink)},
			{in: pet, col: flat(paper), light: true}, {in: grown(ellipse(120, 80, 14, 14), 2.5), col: flat(ink)},
			{in: ellipse(120, 80, 14, 14), col: flat(rgbf{245, 200, 40})},
			{in: stem, col: flat(rgbf{40, 150, 60})}}})
	// A clear glass jar on a grey backdrop with a metal lid, JPEG 90.
	bg := vignette(rgbf{206, 206, 208}, 240, 240, 0.15)
	jar := union(rect(80, 80, 160, 190), ellipse(120, 190, 40, 8))
	out = append(out, scene{name: "t_glass_jar_grey_q90", w: 240, h: 240, backdrop: bg, noise: 1.2,
		jpeg: true, quality: 90,
		parts: []part{{in: jar, col: glassOver(bg, rgbf{0.95, 0.97, 0.97}, 120, 40, 96)},
			{in: rect(78, 64, 162, 80), col: shaded(rgbf{160, 160, 165}, 78, 162, 0.02)}},
		shadow: softShadow(120, 197, 44, 4, 0.3, 3)})
	// A green bottle on white, off the centre, JPEG 70.
	bgW := plain(rgbf{247, 247, 246})
	out = append(out, scene{name: "t_glass_green_white_q70", w: 240, h: 240, backdrop: bgW, noise: 1,
		jpeg: true, quality: 70,
		parts: []part{{in: bottle(70, 45, 16, 50, 100, 200), col: glassOver(bgW, rgbf{0.45, 0.8, 0.5}, 70, 25, 58)},
			{in: rect(61, 38, 79, 46), col: flat(rgbf{190, 40, 40})}},
		shadow: softShadow(72, 201, 30, 4, 0.3, 3)})
	// A white tee touching the frame's left edge on a light grey sweep, JPEG 75.
	tee := union(rect(0, 60, 120, 200), rect(0, 60, 150, 95))
	out = append(out, scene{name: "t_tee_touching_q75", w: 240, h: 240, jpeg: true, quality: 75, noise: 1.2,
		backdrop: sweep(rgbf{236, 236, 238}, rgbf{222, 222, 225}, 240),
		parts: []part{{in: grown(tee, 1.2), col: flat(rgbf{214, 214, 216})},
			{in: tee, col: litWhite(rgbf{252, 252, 251}, 0, 150, 0.1, 0.01), light: true}}})
	// A white dish on a white sweep, a rim 14 levels down that turns into a
	// step onto its contact shadow, JPEG 85 (added in the second round).
	dish := ellipse(125, 130, 75, 40)
	out = append(out, scene{name: "t_dish_white_q85", w: 250, h: 240, jpeg: true, quality: 85, noise: 1.1,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{238, 238, 239}, 240),
		parts: []part{{in: grown(dish, 1.3), col: flat(rgbf{236, 236, 237})},
			{in: dish, col: litWhite(rgbf{250, 250, 249}, 60, 200, 0.12, 0.004), light: true}},
		shadow: softShadow(125, 168, 60, 5, 0.3, 4)})
	// A pale pink sweater on white, a hem 14 levels down, JPEG 75.
	sw := union(rect(80, 70, 170, 200),
		func(x, y float64) bool { return y >= 70 && y < 110 && math.Abs(x-125) < 80-(y-70)*0.5 })
	out = append(out, scene{name: "t_sweater_pink_q75", w: 250, h: 240, jpeg: true, quality: 75, noise: 1,
		backdrop: plain(rgbf{250, 250, 250}),
		parts: []part{{in: grown(sw, 1.2), col: flat(rgbf{236, 226, 228})},
			{in: sw, col: litWhite(rgbf{250, 238, 240}, 45, 205, 0.1, 0.008), light: true}},
		shadow: softShadow(125, 201, 60, 6, 0.2, 5)})
	// A grey kettle with a handle hole on a white sweep, JPEG 85.
	kettle := union(ellipse(110, 150, 50, 45), rect(75, 95, 145, 150))
	khandle := and(ring(110, 90, 22, 28), func(x, y float64) bool { return y < 96 })
	kHole := and(ellipse(110, 90, 22, 22), func(x, y float64) bool { return y < 94 })
	out = append(out, scene{name: "t_kettle_hole_white_q85", w: 240, h: 240, jpeg: true, quality: 85, noise: 1,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{238, 238, 240}, 240), hole: kHole,
		parts:  []part{{in: union(kettle, khandle), col: shaded(rgbf{150, 152, 158}, 60, 160, 0.02)}},
		shadow: softShadow(110, 195, 50, 5, 0.35, 3)})
	return out
}

// measureVaried cuts out one half of the varied set.
func measureVaried(tb testing.TB, heldOut bool, dir string) lightFigures {
	return measureScenes(tb, variedScenes(heldOut), dir)
}

// BenchmarkCutoutVaried prints the varied light set's figures, both
// halves: go test -run '^$' -bench CutoutVaried ./tasks/image
// (CUTOUT_DIR=/some/dir writes the inputs and the cut-outs beside them).
func BenchmarkCutoutVaried(b *testing.B) {
	for _, held := range []bool{false, true} {
		var f lightFigures
		for range b.N {
			f = measureVaried(b, held, os.Getenv("CUTOUT_DIR"))
		}
		for _, s := range variedScenes(held) {
			if sc, ok := f.scores[s.name]; ok {
				b.Logf("%-26s IoU %.4f light %.3f hole %.3f", s.name, sc.iou, sc.light, sc.hole)
			}
		}
		for _, e := range f.failed {
			b.Logf("failed: %s", e)
		}
		half := map[bool]string{false: "tuned", true: "held"}[held]
		b.ReportMetric(f.meanIoU, half+"MeanIoU")
		b.ReportMetric(f.minIoU, half+"MinIoU")
		b.ReportMetric(f.light, half+"Light")
		b.ReportMetric(f.hole, half+"Hole")
	}
}

// variedShort are the varied set's images under the 0.93, held
// at floors a little under what they score (go test -bench CutoutVaried):
// the docs' limitations name them (none now). Every other image is held to 0.93.
var variedShort = map[string]float64{}

// TestCutoutKeepsVariedLightProducts holds both halves of the varied set
// to their figures: the 0.93 per image but for variedShort, and
// the means, light parts and holes measured.
func TestCutoutKeepsVariedLightProducts(t *testing.T) {
	for _, c := range []struct {
		held              bool
		mean, light, hole float64
	}{{false, 0.97, 0.99, 0.05}, {true, 0.97, 0.98, 0.05}} {
		f := measureVaried(t, c.held, "")
		require.Empty(t, f.failed)
		for name, s := range f.scores {
			floor, short := variedShort[name]
			if !short {
				floor = 0.93
			}
			require.GreaterOrEqual(t, s.iou, floor, "%s: IoU of alpha ≥ 0.5", name)
			if s.hasHole {
				require.LessOrEqual(t, s.hole, 0.05, "%s: enclosed backdrop's alpha", name)
			}
		}
		require.GreaterOrEqual(t, f.meanIoU, c.mean, "mean IoU")
		require.GreaterOrEqual(t, f.light, c.light, "light parts' mean alpha")
		require.LessOrEqual(t, f.hole, c.hole, "enclosed backdrop's mean alpha")
	}
}
