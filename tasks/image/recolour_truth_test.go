package image

// The recolouring's ground truth: rendered products and designs whose
// regions, edges, shadows and backdrops are known, and the figures the
// recolouring is held to on them.

import (
	"context"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// truthScene is a rendered image with what is known of every pixel.
type truthScene struct {
	name string
	img  *image.NRGBA
	// cover is each pixel's share of the recoloured area (the product, or
	// the whole design): 0 is backdrop or shadow, 1 inside.
	cover []float64
	opts  RecolourOptions
	area  string // the area Recolour must find
	// kept are colours of the image a mapping leaves as they are.
	kept []color.Color
}

// sceneFn paints a scene: at (u, v) in pixels, the region (-1 backdrop)
// and its colour. Every pixel is the mean of 4 × 4 samples, so edges are
// anti-aliased as a renderer would draw them (blended in sRGB).
type sceneFn func(u, v float64) (region int, c [3]float64)

func render(w, h int, f sceneFn) (*image.NRGBA, []float64) {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	cover := make([]float64, w*h)
	for y := range h {
		for x := range w {
			var sum [3]float64
			in := 0
			for sy := range 4 {
				for sx := range 4 {
					r, c := f(float64(x)+(float64(sx)+0.5)/4, float64(y)+(float64(sy)+0.5)/4)
					for ch := range 3 {
						sum[ch] += c[ch]
					}
					if r >= 0 {
						in++
					}
				}
			}
			cover[y*w+x] = float64(in) / 16
			img.SetNRGBA(x, y, color.NRGBA{clamp8(sum[0] / 16), clamp8(sum[1] / 16), clamp8(sum[2] / 16), 255})
		}
	}
	return img, cover
}

func rgbOf(hex string) [3]float64 {
	c := tasks.ParseColour(hex)
	return [3]float64{float64(c.R), float64(c.G), float64(c.B)}
}

func shade(c [3]float64, s float64) [3]float64 { return [3]float64{c[0] * s, c[1] * s, c[2] * s} }

func colours(hexes ...string) []color.Color {
	var out []color.Color
	for _, h := range hexes {
		out = append(out, tasks.ParseColour(h))
	}
	return out
}

// productScene is a shaded two-colour bag (a red body, a cream band) on a
// graded grey sweep with a soft shadow under it.
func productScene() truthScene {
	const w, h = 240, 200
	body, band := rgbOf("#C0392B"), rgbOf("#F2E6C9")
	img, cover := render(w, h, func(u, v float64) (int, [3]float64) {
		bg := shade(rgbOf("#E6E6E3"), 1-0.12*v/h)
		if d := math.Hypot((u-120)/80, (v-172)/10); d < 1.6 { // the shadow
			bg = shade(bg, 1-0.35*math.Max(0, 1-d/1.6))
		}
		// A rounded rectangle 70..170 × 40..170, corners of radius 14.
		cx, cy := math.Max(84-u, math.Max(0, u-156)), math.Max(54-v, math.Max(0, v-156))
		if u < 70 || u > 170 || v < 40 || v > 170 || math.Hypot(cx, cy) > 14 {
			return -1, bg
		}
		s := 0.82 + 0.3*(u-70)/100 // light from the right
		if v > 95 && v < 115 {
			return 1, shade(band, math.Min(s, 1.02))
		}
		return 0, shade(body, s)
	})
	return truthScene{name: "product", img: img, cover: cover, area: AreaProduct,
		opts: RecolourOptions{Palette: colours("#1B2A4A", "#E9C46A")}}
}

// mugScene is a one-colour shaded teal mug on white with its shadow.
func mugScene() truthScene {
	const w, h = 200, 200
	teal := rgbOf("#1F8A8A")
	img, cover := render(w, h, func(u, v float64) (int, [3]float64) {
		bg := rgbOf("#FAFAF8")
		if d := math.Hypot((u-100)/60, (v-160)/8); d < 1.5 {
			bg = shade(bg, 1-0.3*math.Max(0, 1-d/1.5))
		}
		if u < 55 || u > 145 || v < 50 || v > 160 {
			if math.Hypot(u-150, v-105) < 30 && math.Hypot(u-150, v-105) > 18 { // the handle
				return 0, shade(teal, 0.75)
			}
			return -1, bg
		}
		return 0, shade(teal, 0.7+0.5*math.Sin(math.Pi*(u-55)/90))
	})
	return truthScene{name: "mug", img: img, cover: cover, area: AreaProduct,
		opts: RecolourOptions{Palette: colours("#C8102E")}}
}

// dotsScene is a full-bleed print: navy dots on a cream ground, cut by
// the tile's edges.
func dotsScene() truthScene {
	img, _ := render(256, 256, func(u, v float64) (int, [3]float64) {
		if math.Hypot(math.Mod(u+20, 48)-24, math.Mod(v+20, 48)-24) < 13 {
			return 1, rgbOf("#1B2A4A")
		}
		return 0, rgbOf("#F3EBDD")
	})
	return truthScene{name: "dots", img: img, cover: ones(256 * 256), area: AreaWhole,
		opts: RecolourOptions{Palette: colours("#7D9471", "#FBF6EE")}}
}

// sunScene is an illustration: a yellow sun in a blue sky over a green
// hill, recoloured with an explicit mapping that keeps the sun light.
func sunScene(o RecolourOptions, name string) truthScene {
	img, _ := render(240, 180, func(u, v float64) (int, [3]float64) {
		switch {
		case v > 130-25*math.Sin(u/240*math.Pi):
			return 2, rgbOf("#2E7D32")
		case math.Hypot(u-80, v-60) < 32:
			return 1, rgbOf("#FFD23F")
		}
		return 0, rgbOf("#5DADE2")
	})
	return truthScene{name: name, img: img, cover: ones(240 * 180), area: AreaWhole, opts: o}
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

func recolourScenes() []truthScene {
	scenes := []truthScene{
		productScene(),
		mugScene(),
		dotsScene(),
		sunScene(RecolourOptions{Palette: colours("#F4A261", "#264653", "#E76F51")}, "sun"),
		sunScene(RecolourOptions{Pairs: []Pair{
			{From: tasks.ParseColour("#FFD23F"), To: tasks.ParseColour("#FFFFFF")},
			{From: tasks.ParseColour("#5DADE2"), To: tasks.ParseColour("#E76F51")},
		}}, "sun_mapped"),
	}
	scenes[len(scenes)-1].kept = colours("#2E7D32")
	return append(scenes, grainy(productScene()),
		grainy(sunScene(RecolourOptions{Palette: colours("#F4A261", "#264653", "#E76F51")}, "sun")))
}

// grainy is s with camera-like grain: every channel of every pixel
// moved by up to ±5 (a fixed sequence), backdrop included.
func grainy(s truthScene) truthScene {
	rng := rand.New(rand.NewPCG(7, 7))
	img := image.NewNRGBA(s.img.Rect)
	copy(img.Pix, s.img.Pix)
	for i := range img.Pix {
		if i%4 != 3 {
			img.Pix[i] = clamp8(float64(img.Pix[i]) + float64(rng.IntN(11)-5))
		}
	}
	s.img, s.name = img, s.name+"_grain"
	return s
}

// recolourFigures are what a recolouring is measured by.
type recolourFigures struct {
	// rank is the Spearman rank correlation of L* between input and output
	// over the pixels fully inside the recoloured area.
	rank float64
	// backdropDE is the largest CIEDE2000 change of a pixel outside it.
	backdropDE float64
	// fringe counts output pixels whose colour (a*b*, lightness aside) is
	// none of the palette's, its shades or blends of two of them, nor at
	// the area's edge a blend of one with the input pixel.
	fringe int
}

func measure(s truthScene, out *image.NRGBA) recolourFigures {
	var f recolourFigures
	var lin, lout []float64
	targets := slices.Concat(s.opts.Palette, s.kept)
	for _, p := range s.opts.Pairs {
		targets = append(targets, p.To)
	}
	allowed := blends(targets, targets)
	for _, t := range targets { // shading scales a colour's chroma
		c := colour.LabOf(t)
		for k := 0.4; k <= 1.6; k += 0.05 {
			allowed = append(allowed, [2]float64{c.A * k, c.B * k})
		}
	}
	for i := range s.cover {
		a, b := s.img.Pix[4*i:4*i+3], out.Pix[4*i:4*i+3]
		ci, co := colour.LabOf8(a[0], a[1], a[2]), colour.LabOf8(b[0], b[1], b[2])
		switch {
		case s.cover[i] == 0:
			f.backdropDE = math.Max(f.backdropDE, colour.DeltaE(ci, co))
			continue
		case s.cover[i] == 1:
			lin, lout = append(lin, ci.L), append(lout, co.L)
		}
		near := func(p [2]float64) bool { return math.Hypot(co.A-p[0], co.B-p[1]) <= fringeAB }
		if slices.ContainsFunc(allowed, near) {
			continue
		}
		// A pixel on the area's edge may blend a new colour with the old
		// pixel's (the backdrop it joins).
		own := []color.Color{color.NRGBA{a[0], a[1], a[2], 255}}
		if s.cover[i] < 1 && slices.ContainsFunc(blends(targets, own), near) {
			continue
		}
		f.fringe++
	}
	f.rank = spearman(lin, lout)
	return f
}

// fringeAB is how far (in a*b*, lightness aside) an output pixel may be
// from every colour it may take before it counts as a fringe: a hue or a
// greyness in neither the palette nor the input.
const fringeAB = 6

// blends are the a*b* of every sRGB blend of a colour of ps with one of
// qs, sampled, ends included.
func blends(ps, qs []color.Color) [][2]float64 {
	var out [][2]float64
	for _, p := range ps {
		for _, q := range qs {
			a, b := color.NRGBAModel.Convert(p).(color.NRGBA), color.NRGBAModel.Convert(q).(color.NRGBA)
			for t := 0.0; t <= 1.0001; t += 0.05 {
				mix := func(x, y uint8) uint8 { return clamp8(float64(x) + t*(float64(y)-float64(x))) }
				c := colour.LabOf8(mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B))
				out = append(out, [2]float64{c.A, c.B})
			}
		}
	}
	return out
}

// spearman is the rank correlation of x and y (ties ranked by their mean).
func spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	var mx, my float64
	for i := range rx {
		mx, my = mx+rx[i], my+ry[i]
	}
	mx, my = mx/float64(len(rx)), my/float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy, sxx, syy = sxy+dx*dy, sxx+dx*dx, syy+dy*dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmpFloat(v[a], v[b]) })
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		for k := i; k < j; k++ {
			out[idx[k]] = float64(i+j-1) / 2
		}
		i = j
	}
	return out
}

// TestRecolourKeepsThePicture holds the recolouring to its figures on
// the ground truth: L* ranks kept inside (≥ 0.9), backdrop and shadow
// untouched (ΔE2000 ≤ 1), no fringe pixel, and the area found.
func TestRecolourKeepsThePicture(t *testing.T) {
	for _, s := range recolourScenes() {
		t.Run(s.name, func(t *testing.T) {
			res, err := Recolour(context.Background(), s.img, s.opts)
			require.NoError(t, err)
			dumpPNG(t, "recolour_"+s.name+"_in.png", s.img)
			dumpPNG(t, "recolour_"+s.name+"_out.png", res.Image)
			f := measure(s, res.Image)
			t.Logf("%-10s area %-7s L* rank %.3f  backdrop ΔE00 max %.2f  fringe px %d",
				s.name, res.Area, f.rank, f.backdropDE, f.fringe)
			require.Equal(t, s.area, res.Area)
			require.GreaterOrEqual(t, f.rank, 0.9)
			require.LessOrEqual(t, f.backdropDE, 1.0)
			require.Zero(t, f.fringe)
		})
	}
}

// TestFringeMeasureSeesAThirdColour: the old recolouring (every pixel
// moved by its nearest colour's shift in CIELAB, edges included) leaves
// fringes the measure counts.
func TestFringeMeasureSeesAThirdColour(t *testing.T) {
	s := recolourScenes()[3] // the sun
	pal := s.opts.Palette
	from := []colour.Lab{colour.LabOf8(0x5D, 0xAD, 0xE2), colour.LabOf8(0xFF, 0xD2, 0x3F), colour.LabOf8(0x2E, 0x7D, 0x32)}
	to := []colour.Lab{colour.LabOf(pal[2]), colour.LabOf(pal[0]), colour.LabOf(pal[1])}
	out := image.NewNRGBA(s.img.Rect)
	for i := 0; i < len(out.Pix); i += 4 {
		c := colour.LabOf8(s.img.Pix[i], s.img.Pix[i+1], s.img.Pix[i+2])
		j := colour.Nearest(from, c)
		n := to[j].Add(c, 1).Add(from[j], -1).NRGBA()
		out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = n.R, n.G, n.B, 255
	}
	require.Greater(t, measure(s, out).fringe, 100)
}

// BenchmarkRecolourTruth prints the figures of every ground-truth scene.
func BenchmarkRecolourTruth(b *testing.B) {
	for _, s := range recolourScenes() {
		b.Run(s.name, func(b *testing.B) {
			var res *Recoloured
			for b.Loop() {
				var err error
				res, err = Recolour(context.Background(), s.img, s.opts)
				require.NoError(b, err)
			}
			f := measure(s, res.Image)
			b.ReportMetric(f.rank, "L*rank")
			b.ReportMetric(f.backdropDE, "backdropΔE")
			b.ReportMetric(float64(f.fringe), "fringe_px")
		})
	}
}

// dumpPNG writes img under $TP_DUMP, when set, for a person to look at.
func dumpPNG(t *testing.T, name string, img image.Image) {
	if dir := os.Getenv("TP_DUMP"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), pngBytes(img), 0o644))
	}
}
