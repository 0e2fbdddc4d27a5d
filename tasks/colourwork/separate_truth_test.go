package colourwork

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The ground truth of colour.separate: flat-colour designs drawn from
// shapes with known inks, anti-aliased (4 × 4 samples a pixel, averaged in
// sRGB as most drawing programs do) and saved as JPEG (quality 85, 4:2:0),
// with the ink each pixel was drawn with (the ink of most of its samples).

// shape is a region of a design in pixel coordinates.
type shape func(x, y float64) bool

// layer is one shape of a design in one of its inks.
type layer struct {
	ink int
	in  shape
}

// truthDesign is a design with its inks: ink 0 is the ground.
type truthDesign struct {
	name   string
	w, h   int
	inks   []color.NRGBA
	layers []layer
}

func disc(cx, cy, r float64) shape {
	return func(x, y float64) bool { return math.Hypot(x-cx, y-cy) <= r }
}

func ring(cx, cy, r0, r1 float64) shape {
	return func(x, y float64) bool { d := math.Hypot(x-cx, y-cy); return d >= r0 && d <= r1 }
}

func box(x0, y0, x1, y1 float64) shape {
	return func(x, y float64) bool { return x >= x0 && x < x1 && y >= y0 && y < y1 }
}

// line is a stroke of width w from (x0, y0) to (x1, y1).
func line(x0, y0, x1, y1, w float64) shape {
	return func(x, y float64) bool {
		dx, dy := x1-x0, y1-y0
		t := min(1, max(0, ((x-x0)*dx+(y-y0)*dy)/(dx*dx+dy*dy)))
		return math.Hypot(x-x0-t*dx, y-y0-t*dy) <= w/2
	}
}

// star is a five-pointed star of outer radius r.
func star(cx, cy, r float64) shape {
	return func(x, y float64) bool {
		a := math.Atan2(y-cy, x-cx) + math.Pi/2
		d := math.Hypot(x-cx, y-cy)
		seg := math.Mod(a+10*math.Pi, 2*math.Pi/5) / (2 * math.Pi / 5) // 0–1 across a point
		edge := r * (0.45 + 0.55*math.Abs(1-2*seg))
		return d <= edge
	}
}

// diagonal is stripes of width w every period px at 45°.
func diagonal(period, w float64) shape {
	return func(x, y float64) bool { return math.Mod(x+y+1e4*period, period) < w }
}

// truthDesigns are the ground-truth set: a badge whose grey ink matches
// the blend of its black and white edges, stripes with dots, thin strokes,
// and five inks on a dark ground.
func truthDesigns() []truthDesign {
	white, black, grey := color.NRGBA{0xFA, 0xFA, 0xF7, 255}, color.NRGBA{0x14, 0x14, 0x14, 255},
		color.NRGBA{0x86, 0x86, 0x84, 255}
	red, navy, yellow := color.NRGBA{0xC8, 0x10, 0x2E, 255}, color.NRGBA{0x1B, 0x2A, 0x4A, 255},
		color.NRGBA{0xF2, 0xC9, 0x1E, 255}
	cream, leaf, coral := color.NRGBA{0xF4, 0xEC, 0xD6, 255}, color.NRGBA{0x2F, 0x6B, 0x3A, 255},
		color.NRGBA{0xF2, 0x73, 0x5E, 255}
	return []truthDesign{
		{name: "badge", w: 360, h: 300, inks: []color.NRGBA{white, black, grey, red}, layers: []layer{
			{1, ring(180, 150, 110, 122)},
			{2, box(20, 20, 90, 60)},
			{3, star(180, 150, 95)},
			{1, line(60, 250, 300, 262, 7)},
			{2, disc(320, 40, 22)},
		}},
		{name: "stripes_and_dots", w: 320, h: 320, inks: []color.NRGBA{cream, navy, yellow}, layers: []layer{
			{1, diagonal(40, 14)},
			{2, disc(80, 80, 30)}, {2, disc(240, 90, 26)}, {2, disc(160, 230, 40)},
		}},
		{name: "thin_strokes", w: 300, h: 200, inks: []color.NRGBA{white, navy, red}, layers: []layer{
			{1, line(20, 30, 280, 40, 3)}, {1, line(20, 80, 280, 140, 4)}, {2, line(30, 180, 270, 60, 5)},
			{2, ring(150, 100, 60, 64)},
		}},
		{name: "five_on_dark", w: 400, h: 280, inks: []color.NRGBA{navy, cream, yellow, coral, leaf}, layers: []layer{
			{1, box(30, 30, 370, 250)},
			{2, star(120, 140, 90)},
			{3, disc(280, 110, 50)},
			{4, line(220, 200, 360, 230, 16)},
			{0, ring(280, 110, 30, 36)},
		}},
	}
}

// render draws d: the anti-aliased design and the truth ink of every
// pixel.
func (d truthDesign) render() (*image.NRGBA, []uint8) {
	const ss = 4
	img := image.NewNRGBA(image.Rect(0, 0, d.w, d.h))
	truth := make([]uint8, d.w*d.h)
	for y := range d.h {
		for x := range d.w {
			var sum [3]float64
			votes := make([]int, len(d.inks))
			for sy := range ss {
				for sx := range ss {
					fx, fy := float64(x)+(float64(sx)+0.5)/ss, float64(y)+(float64(sy)+0.5)/ss
					ink := 0
					for _, l := range d.layers {
						if l.in(fx, fy) {
							ink = l.ink
						}
					}
					votes[ink]++
					c := d.inks[ink]
					sum[0], sum[1], sum[2] = sum[0]+float64(c.R), sum[1]+float64(c.G), sum[2]+float64(c.B)
				}
			}
			best := 0
			for i, v := range votes {
				if v > votes[best] {
					best = i
				}
			}
			truth[y*d.w+x] = uint8(best)
			n := float64(ss * ss)
			img.SetNRGBA(x, y, color.NRGBA{
				uint8(math.Round(sum[0] / n)), uint8(math.Round(sum[1] / n)), uint8(math.Round(sum[2] / n)), 255,
			})
		}
	}
	return img, truth
}

// jpegNoised is img through JPEG at quality 85.
func jpegNoised(t testing.TB, img image.Image) image.Image {
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}))
	out, err := jpeg.Decode(&buf)
	require.NoError(t, err)
	return out
}

// sepFigures are the measures of one ink of a separation against the
// truth.
type sepFigures struct {
	ink                string
	strayPercent       float64 // of the film's ink farther than 1 px from the ink's true region
	coverageErr        float64 // percentage points of the design
	truthCov, gotCov   float64
	specks             int // 8-connected patches under minSpeck pixels
	matchedRGB         float64
	missing, duplicate bool
}

// measure compares labels (the inks found, with their colours) with the
// truth of d: each true ink is matched to the found ink nearest its
// colour.
func measure(d truthDesign, truth, got []uint8, rgb [][3]float64) []sepFigures {
	W, H := d.w, d.h
	match := make([]int, len(d.inks))
	used := map[int]bool{}
	var out []sepFigures
	for i, c := range d.inks {
		best, bd := -1, math.Inf(1)
		for j, r := range rgb {
			if e := dist([3]float64{float64(c.R), float64(c.G), float64(c.B)}, r); e < bd {
				best, bd = j, e
			}
		}
		match[i] = best
		f := sepFigures{ink: fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B), matchedRGB: bd, duplicate: used[best]}
		used[best] = true
		tc, gc, stray := 0, 0, 0
		for y := range H {
			for x := range W {
				p := y*W + x
				if truth[p] == uint8(i) {
					tc++
				}
				if got[p] != uint8(best) {
					continue
				}
				gc++
				near := false
				for v := max(0, y-1); v <= min(H-1, y+1) && !near; v++ {
					for u := max(0, x-1); u <= min(W-1, x+1); u++ {
						if truth[v*W+u] == uint8(i) {
							near = true
							break
						}
					}
				}
				if !near {
					stray++
				}
			}
		}
		f.truthCov, f.gotCov = 100*float64(tc)/float64(W*H), 100*float64(gc)/float64(W*H)
		f.coverageErr = math.Abs(f.truthCov - f.gotCov)
		f.strayPercent = 100 * float64(stray) / math.Max(1, float64(gc))
		f.specks = specks(got, W, H, uint8(best))
		out = append(out, f)
	}
	for j := range rgb {
		if !used[j] {
			n := 0
			for _, v := range got {
				if v == uint8(j) {
					n++
				}
			}
			out = append(out, sepFigures{ink: fmt.Sprintf("extra%d", j), missing: true,
				gotCov: 100 * float64(n) / float64(W*H)})
		}
	}
	return out
}

// specks counts the 8-connected patches of ink j under minSpeck pixels.
func specks(labels []uint8, W, H int, j uint8) int {
	seen := make([]bool, len(labels))
	n := 0
	for s := range labels {
		if seen[s] || labels[s] != j {
			continue
		}
		stack, size := []int{s}, 0
		seen[s] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			x, y := p%W, p/W
			for _, d := range touching {
				u, v := x+d[0], y+d[1]
				if u >= 0 && v >= 0 && u < W && v < H && !seen[v*W+u] && labels[v*W+u] == j {
					seen[v*W+u] = true
					stack = append(stack, v*W+u)
				}
			}
		}
		if size < minSpeck {
			n++
		}
	}
	return n
}

// truthCase is a ground-truth design rendered and JPEG-noised, with the
// ink of every pixel.
type truthCase struct {
	d     truthDesign
	img   image.Image
	truth []uint8
}

func truthCases(t testing.TB) []truthCase {
	var out []truthCase
	for _, d := range truthDesigns() {
		img, truth := d.render()
		out = append(out, truthCase{d, jpegNoised(t, img), truth})
	}
	return out
}

// separateTruth separates every ground-truth case and measures each ink.
func separateTruth(t testing.TB, cases []truthCase) map[string][]sepFigures {
	out := map[string][]sepFigures{}
	for _, c := range cases {
		m, err := separateInks(context.Background(), c.img, 8)
		require.NoError(t, err)
		out[c.d.name] = measure(c.d, c.truth, m.label, m.rgb)
	}
	return out
}

// TestSeparationsMatchTheTruth: on every ground-truth design each ink is
// found once, its film strays at most 0.5 % beyond 1 px of its true
// region, no film has a speck under 6 px, and each coverage is within 1
// percentage point of the truth.
func TestSeparationsMatchTheTruth(t *testing.T) {
	for name, figs := range separateTruth(t, truthCases(t)) {
		for _, f := range figs {
			require.False(t, f.missing, "%s: an ink the design does not have", name)
			require.False(t, f.duplicate, "%s: %s shares a separation with another ink", name, f.ink)
			require.Less(t, f.matchedRGB, 12.0, "%s: %s found as its own ink", name, f.ink)
			require.LessOrEqual(t, f.strayPercent, 0.5, "%s: %s strays", name, f.ink)
			require.Zero(t, f.specks, "%s: %s has specks", name, f.ink)
			require.LessOrEqual(t, f.coverageErr, 1.0, "%s: %s coverage %.2f, truth %.2f",
				name, f.ink, f.gotCov, f.truthCov)
		}
	}
}

// BenchmarkSeparationTruth prints, for every ground-truth design and ink,
// the stray ink in percent of the film, the specks and the coverage error
// in percentage points; SEPARATE_DIR=dir writes the README's picture there.
func BenchmarkSeparationTruth(b *testing.B) {
	if dir := os.Getenv("SEPARATE_DIR"); dir != "" {
		writePictures(b, dir)
	}
	cases := truthCases(b)
	var figs map[string][]sepFigures
	for b.Loop() {
		figs = separateTruth(b, cases)
	}
	for _, d := range truthDesigns() {
		for _, f := range figs[d.name] {
			fmt.Printf("%-17s %-9s stray %.3f %%  specks %d  coverage %.2f %% (truth %.2f, error %.2f)  ink ΔRGB %.1f\n",
				d.name, f.ink, f.strayPercent, f.specks, f.gotCov, f.truthCov, f.coverageErr, f.matchedRGB)
		}
	}
}
