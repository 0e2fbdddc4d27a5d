package image

import (
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The fifth set: twelve shots of the kinds issue 46's hidden set measures
// (white on white, light on light, a drawing with white fills, chrome,
// clear and frosted glass, a product touching the frame, a small one),
// drawn after the other sets with other shapes, sizes, lights and
// backdrops, and photographed (cutout_fifth_render_test.go): defocused
// edges, a lens vignette, luma and chroma noise, backdrops with a warm or
// cool cast, a contact shadow and a soft cast shadow to one side, a
// glossy sweep's reflection, JPEG at quality 72 to 90. It is held out:
// nobody tunes the cut-out on it; it tells how the cut-out generalises.

// without is a minus b.
func without(a, b func(x, y float64) bool) func(x, y float64) bool {
	return func(x, y float64) bool { return a(x, y) && !b(x, y) }
}

// tube is a stroke of half-width r from (x0, y0) to (x1, y1).
func tube(x0, y0, x1, y1, r float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		dx, dy := x1-x0, y1-y0
		t := math.Max(0, math.Min(1, ((x-x0)*dx+(y-y0)*dy)/(dx*dx+dy*dy)))
		return math.Hypot(x-x0-t*dx, y-y0-t*dy) <= r
	}
}

// quad is the convex polygon of the points p, in order either way round.
func quad(p ...[2]float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		pos, neg := false, false
		for k := range p {
			a, b := p[k], p[(k+1)%len(p)]
			c := (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0])
			pos, neg = pos || c > 0, neg || c < 0
		}
		return !(pos && neg)
	}
}

// rounded is c on a round body across [cx − half, cx + half], lit from lx
// (−1 left .. 1 right): darker by fall where it turns away, with a texture.
func rounded(c rgbf, cx, half, lx, fall float64, tex func(x, y float64) float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		e := math.Max(-1, math.Min(1, (x-cx)/half))
		k := 1 - fall*(e-lx)*(e-lx)/((1+math.Abs(lx))*(1+math.Abs(lx))) + tex(x, y)
		return rgbf{math.Min(255, c[0]*k), math.Min(255, c[1]*k), math.Min(255, c[2]*k)}
	}
}

// cast is a backdrop of two colour casts, top to bottom and left to right.
func cast(top, bottom rgbf, h, lr float64, w float64) func(x, y float64) rgbf {
	s := sweep(top, bottom, h)
	return func(x, y float64) rgbf {
		c, k := s(x, y), 1-lr*x/w
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

func none(x, y float64) float64 { return 0 }

// boxShadow is a shadow of the given darkness over a rectangle, its edge
// soft over blur pixels.
func boxShadow(x0, y0, x1, y1, dark, blur float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		d := math.Hypot(math.Max(0, math.Max(x0-x, x-x1)), math.Max(0, math.Max(y0-y, y-y1)))
		t := math.Max(0, 1-d/blur)
		return 1 - dark*t*t*(3-2*t)
	}
}

// fifthShots is the fifth set.
func fifthShots() []shot {
	var out []shot
	// A white sneaker on a warm white sweep, toe left: the upper 20 levels
	// over its stitched edge, a sole with a grey groove, a lining in the
	// collar; a contact shadow and a cast shadow to the right. JPEG 82.
	upper := union(ellipse(100, 146, 42, 24), rect(100, 112, 228, 162), and(ellipse(224, 130, 26, 38),
		func(x, y float64) bool { return y < 162 }), tube(120, 126, 190, 106, 14))
	sole := union(rect(62, 160, 250, 178), ellipse(62, 169, 8, 9), ellipse(250, 169, 6, 9))
	sneaker := []part{
		{in: grown(upper, 1.3), col: flat(rgbf{224, 222, 218})},
		{in: upper, col: rounded(rgbf{250, 249, 246}, 160, 100, -0.6, 0.1, grain2(3, 0.008)), light: true},
		{in: ellipse(200, 104, 24, 6), col: flat(rgbf{196, 194, 190})},
		{in: sole, col: flat(rgbf{238, 236, 231}), light: true},
		{in: rect(62, 168, 250, 170), col: flat(rgbf{190, 188, 184})},
	}
	out = append(out, shot{scene: scene{name: "p5_sneaker_white_warm_q82", w: 320, h: 220,
		backdrop: sweep(rgbf{253, 250, 244}, rgbf{236, 232, 224}, 220), parts: sneaker,
		shadow: shadows(softShadow(156, 179, 98, 3, 0.5, 2), softShadow(190, 182, 100, 9, 0.22, 12))},
		cam: camera{defocus: 0.7, vignette: 0.12, luma: 2.2, chroma: 1.2, quality: 82}})

	// A white ceramic teapot on off-white: a round body darkening to its
	// limb, a lid and knob, a spout left, a handle right whose hole shows
	// the backdrop. JPEG 78.
	body := ellipse(145, 160, 65, 52)
	handle := without(and(ring(222, 158, 20, 29), func(x, y float64) bool { return x > 200 }), body)
	potHole := without(ellipse(222, 158, 20, 20), body)
	lid := union(ellipse(145, 110, 32, 9), ellipse(145, 99, 8, 6))
	limb := func(x, y float64) rgbf {
		r := math.Min(1, math.Hypot((x-145)/65, (y-160)/52))
		k := 0.86 + 0.14*math.Sqrt(1-r*r) - 0.04*(x-120)/90
		return rgbf{250 * k, 249 * k, 246 * k}
	}
	teapot := []part{
		{in: union(handle, tube(90, 168, 58, 122, 8)), col: litWhite(rgbf{246, 245, 242}, 50, 250, 0.14, 0.003),
			light: true},
		{in: body, col: limb, light: true},
		{in: lid, col: rounded(rgbf{248, 247, 244}, 145, 32, -0.4, 0.14, none), light: true},
		{in: ellipse(120, 140, 7, 5), col: flat(rgbf{255, 255, 255}), light: true},
	}
	out = append(out, shot{scene: scene{name: "p5_teapot_hole_offwhite_q78", w: 300, h: 260,
		backdrop: sweep(rgbf{246, 244, 238}, rgbf{233, 230, 223}, 260), parts: teapot, hole: potHole,
		shadow: shadows(softShadow(145, 212, 52, 3, 0.45, 2), softShadow(110, 214, 82, 8, 0.2, 14))},
		cam: camera{defocus: 0.8, vignette: 0.15, luma: 2, chroma: 1.5, quality: 78}})

	// A folded white shirt on a cool light grey, seen from above: folds in
	// soft bands, a collar, a placket with grey buttons; its shadow falls
	// to the right and below. JPEG 75.
	shirt := union(rect(84, 55, 216, 195), ellipse(150, 56, 40, 8))
	collar := union(quad([2]float64{150, 72}, [2]float64{118, 52}, [2]float64{146, 50}),
		quad([2]float64{150, 72}, [2]float64{154, 50}, [2]float64{182, 52}))
	folds := func(x, y float64) rgbf {
		k := 1 - 0.05*math.Pow(math.Sin((y-55)/140*math.Pi*2.5), 2) - 0.04*(x-84)/132 + 0.01*valueNoise(4, 1.2)(x, y)
		return rgbf{247 * k, 247 * k, 245 * k}
	}
	shirtParts := []part{
		{in: grown(shirt, 1), col: flat(rgbf{228, 228, 229})},
		{in: shirt, col: folds, light: true},
		{in: grown(collar, 1), col: flat(rgbf{214, 214, 216})},
		{in: collar, col: flat(rgbf{251, 251, 250}), light: true},
		{in: rect(147, 72, 153, 195), col: flat(rgbf{236, 236, 235})},
		{in: union(ellipse(150, 95, 3, 3), ellipse(150, 130, 3, 3), ellipse(150, 165, 3, 3)),
			col: flat(rgbf{200, 200, 205})},
	}
	out = append(out, shot{scene: scene{name: "p5_shirt_folded_coolgrey_q75", w: 300, h: 240,
		backdrop: sweep(rgbf{223, 226, 231}, rgbf{211, 214, 220}, 240), parts: shirtParts,
		shadow: shadows(softShadow(150, 196, 70, 3, 0.35, 3), boxShadow(92, 63, 226, 201, 0.2, 7))},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 2.5, chroma: 1.8, quality: 75}})

	// A cream pillar candle on beige, lit from the right, its top pool a
	// little yellower, a black wick; a shallow depth of field. JPEG 88.
	candle := union(rect(80, 90, 140, 250), ellipse(110, 250, 30, 7))
	candleParts := []part{
		{in: union(candle, ellipse(110, 90, 30, 7)), col: rounded(rgbf{244, 236, 216}, 110, 30, 0.4, 0.14,
			grain2(5, 0.006)), light: true},
		{in: ellipse(110, 90, 27, 5.5), col: flat(rgbf{248, 238, 205}), light: true},
		{in: rect(108.5, 78, 111.5, 89), col: flat(rgbf{35, 30, 28})},
	}
	out = append(out, shot{scene: scene{name: "p5_candle_cream_beige_q88", w: 220, h: 300,
		backdrop: sweep(rgbf{237, 227, 209}, rgbf{222, 211, 192}, 300), parts: candleParts,
		shadow: shadows(softShadow(110, 256, 34, 3, 0.45, 2), softShadow(82, 258, 50, 8, 0.2, 10))},
		cam: camera{defocus: 1.0, vignette: 0.18, luma: 2, chroma: 1.2, quality: 88}})

	// A light pink gift box on pale pink, seen from above the front: a
	// front, a lighter top, a shaded side and a darker ribbon. JPEG 80.
	front := rect(90, 100, 190, 190)
	top := quad([2]float64{90, 100}, [2]float64{115, 80}, [2]float64{215, 80}, [2]float64{190, 100})
	side := quad([2]float64{190, 100}, [2]float64{215, 80}, [2]float64{215, 170}, [2]float64{190, 190})
	ribbon := union(and(front, rect(135, 0, 146, 300)), and(top, func(x, y float64) bool {
		return math.Abs(x-(140.5+(100-y)*1.25)) < 6
	}))
	box := []part{
		{in: front, col: rounded(rgbf{242, 214, 220}, 140, 50, -0.8, 0.05, none), light: true},
		{in: top, col: flat(rgbf{249, 229, 233}), light: true},
		{in: side, col: flat(rgbf{224, 192, 199})},
		{in: ribbon, col: flat(rgbf{222, 150, 172})},
	}
	out = append(out, shot{scene: scene{name: "p5_giftbox_pink_on_pink_q80", w: 300, h: 240,
		backdrop: sweep(rgbf{251, 237, 238}, rgbf{242, 226, 228}, 240), parts: box,
		shadow: shadows(softShadow(152, 190, 64, 3, 0.4, 2), softShadow(178, 186, 60, 10, 0.2, 12))},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 2, chroma: 1.5, quality: 80}})

	// A pale wooden cutting board on a cool white, its handle's hole
	// showing the backdrop, a darker edge where its thickness shows, a
	// grain along its length. JPEG 85.
	board := union(rect(68, 70, 222, 190), ellipse(68, 130, 8, 60), ellipse(222, 130, 8, 60),
		rect(222, 110, 280, 150), ellipse(280, 130, 10, 20))
	boardHole := ellipse(264, 130, 8, 8)
	wood := func(x, y float64) rgbf {
		g := math.Sin(y*0.8+4*valueNoise(6, 12)(x, y)) * 0.03
		k := 1 + g - 0.05*(x-60)/230
		return rgbf{238 * k, 221 * k, 190 * k}
	}
	boardParts := []part{
		{in: without(rect(62, 186, 228, 196), board), col: flat(rgbf{196, 172, 138})},
		{in: without(board, boardHole), col: wood, light: true},
	}
	out = append(out, shot{scene: scene{name: "p5_board_hole_coolwhite_q85", w: 320, h: 240,
		backdrop: sweep(rgbf{248, 249, 252}, rgbf{236, 238, 243}, 240), parts: boardParts, hole: boardHole,
		shadow: shadows(softShadow(150, 197, 85, 3, 0.45, 2), softShadow(170, 150, 110, 55, 0.15, 10))},
		cam: camera{defocus: 0.7, vignette: 0.14, luma: 2.2, chroma: 1.4, quality: 85}})
	return append(out, moreFifthShots()...)
}

// fifthSet is the fifth set, as its floor test and benchmark read it.
var fifthSet = shotSet{
	name:   "fifth",
	shots:  fifthShots,
	floors: fifthFloors,
	mean:   fifthMean,
}

// TestCutoutOnTheFifthSet holds the held-out fifth set to floors a little
// under what the cut-out scores (fifthFloors), the shadow it keeps as
// product among them; it guards against regressions, not the issue's
// targets.
func TestCutoutOnTheFifthSet(t *testing.T) {
	fifthSet.hold(t)
}

// holdToFloors holds a set's figures to its floors, shot by shot, and its
// mean IoU to mean.
func holdToFloors(t *testing.T, f fifthFigures, floors map[string]fifthFloor, mean float64) {
	// Every shot's figures first, so a run with -v (and any failure) shows them all.
	for _, name := range slices.Sorted(maps.Keys(f.scores)) {
		s := f.scores[name]
		warned := ""
		if v, ok := shotCuts.Load(name); ok && !v.(qualityRow).refused {
			r := v.(qualityRow)
			warned = fmt.Sprintf("cut_quality %.3f", r.q.score)
			if flagged(r, minCutQuality) {
				warned += " warned, uncharged"
			}
		}
		t.Logf("%-36s IoU %.4f light %.3f hole %.3f glass alpha error %.3f %s%s", name, s.mainIoU, s.light, s.hole,
			s.g.mae, warned, s.err)
	}
	t.Logf("mean IoU %.4f, lowest %.4f", f.meanIoU, f.minIoU)
	for name, fl := range floors {
		s, ok := f.scores[name]
		require.True(t, ok, name)
		if fl.iou > 0 {
			require.Empty(t, s.err, name)
		}
		require.GreaterOrEqual(t, s.mainIoU, fl.iou, "%s: IoU", name)
		if s.hasLight {
			require.GreaterOrEqual(t, s.light, fl.light, "%s: light parts kept", name)
		}
		if s.hasHole {
			require.LessOrEqual(t, s.hole, fl.hole, "%s: enclosed backdrop's alpha", name)
		}
		if s.glass {
			require.LessOrEqual(t, s.g.mae, fl.glassMAE, "%s: glass alpha error", name)
		}
		if s.hasShadow && fl.shadow > 0 { // a set that holds no shadow figure leaves it 0
			require.LessOrEqual(t, s.shadow, fl.shadow, "%s: shadow kept as product", name)
		}
	}
	require.Len(t, f.scores, len(floors))
	require.GreaterOrEqual(t, f.meanIoU, mean, "mean IoU")
}

// BenchmarkCutoutFifth prints the fifth set's figures (on the standard
// output: a benchmark's log keeps only 10 lines): go test -run '^$'
// -bench CutoutFifth ./tasks/image (CUTOUT_DIR=/some/dir writes each input,
// its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutFifth(b *testing.B) {
	fifthSet.bench(b)
}

// printShots prints each shot's figures and the set's (on the standard
// output: a benchmark's log keeps only 10 lines).
func printShots(shots []shot, f fifthFigures) {
	for _, s := range shots {
		sc := f.scores[s.name]
		if sc.err != "" {
			fmt.Fprintf(os.Stdout, "%-30s share %.3f failed: %s\n", s.name, sc.objShare, sc.err)
			continue
		}
		line := ""
		if sc.hasShadow {
			line += fmt.Sprintf(" shadow %.3f", sc.shadow)
		}
		if sc.hasLight {
			line += fmt.Sprintf(" light %.3f", sc.light)
		}
		if sc.hasHole {
			line += fmt.Sprintf(" hole %.3f", sc.hole)
		}
		if sc.glass {
			line += fmt.Sprintf(" glass alpha MAE %.3f see-through %.2f", sc.g.mae, sc.g.see)
		}
		fmt.Fprintf(os.Stdout, "%-30s share %.3f IoU %.4f%s\n", s.name, sc.objShare, sc.mainIoU, line)
	}
	fmt.Fprintf(os.Stdout, "mean IoU %.4f lowest %.4f light %.3f hole %.3f glass MAE %.3f\n",
		f.meanIoU, f.minIoU, f.light, f.hole, f.glassMAE)
}
