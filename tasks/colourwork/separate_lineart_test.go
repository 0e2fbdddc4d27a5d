package colourwork

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// hairline is a 1-px stroke on the pixel grid: the pixels whose centre
// lies within half a pixel of the segment, as line art drawn for a press
// at its output dpi is.
func hairline(x0, y0, x1, y1 float64) shape {
	return func(x, y float64) bool {
		cx, cy := math.Floor(x)+0.5, math.Floor(y)+0.5
		dx, dy := x1-x0, y1-y0
		t := min(1, max(0, ((cx-x0)*dx+(cy-y0)*dy)/(dx*dx+dy*dy)))
		px, py := x0+t*dx, y0+t*dy
		return math.Abs(cx-px) <= 0.5 && math.Abs(cy-py) <= 0.5
	}
}

// The line drawing's layers: its rings, then its hairlines, then its
// lettering.
const lineArtRings, lineArtHairlines = 3, 14

// lineArt is the line drawing a print shop sends: red rings, 1-px black
// hairlines (straight and diagonal) and 18-px black lettering strokes on
// white paper, w px wide.
func lineArt(w int) truthDesign {
	s := float64(w) / 1200
	paper, black, red := color.NRGBA{0xFF, 0xFF, 0xFF, 255}, color.NRGBA{0x10, 0x10, 0x10, 255},
		color.NRGBA{0xD2, 0x1F, 0x2B, 255}
	layers := []layer{
		{2, ring(300*s, 400*s, 180*s, 200*s)}, {2, ring(700*s, 400*s, 120*s, 136*s)},
		{2, ring(1000*s, 500*s, 60*s, 70*s)},
	}
	for i := range 8 {
		y := (80 + 90*float64(i)) * s
		layers = append(layers, layer{1, hairline(40*s, y, 1160*s, y)})
	}
	for i := range 6 {
		x := (100 + 180*float64(i)) * s
		layers = append(layers, layer{1, hairline(x, 40*s, x+300*s, 760*s)})
	}
	for i := range 6 { // letters: 18-px strokes
		x := (150 + 150*float64(i)) * s
		layers = append(layers, layer{1, box(x, 800*s, x+18, 800*s+90)}, layer{1, box(x, 800*s, x+70, 800*s+18)})
	}
	return truthDesign{name: fmt.Sprintf("line_art_%d", w), w: w, h: int(900 * s),
		inks: []color.NRGBA{paper, black, red}, layers: layers}
}

// lineArtFigures are what a print technician checks on a separated line
// drawing: each true ink's declared colour (CIEDE2000 from the truth), the
// share of its true pixels its film prints, and of the hairlines' pixels.
type lineArtFigures struct {
	inkDE, kept []float64
	hairlines   float64
	inks        int
}

// separateLineArt separates d (JPEG-noised when jpg) into at most k inks.
func separateLineArt(t testing.TB, d truthDesign, jpg bool, k int) (lineArtFigures, error) {
	img, truth := d.render()
	var in image.Image = img
	if jpg {
		in = jpegNoised(t, img)
	}
	m, err := separateInks(context.Background(), in, k)
	if err != nil {
		return lineArtFigures{}, err
	}
	hair := image.NewAlpha(image.Rect(0, 0, d.w, d.h)) // the hairlines alone
	only := truthDesign{w: d.w, h: d.h, inks: d.inks}
	only.layers = d.layers[lineArtRings : lineArtRings+lineArtHairlines]
	_, hairTruth := only.render()
	f := lineArtFigures{inks: len(m.rgb)}
	match := make([]uint8, len(d.inks))
	for i, c := range d.inks {
		best, bd := 0, math.Inf(1)
		for j, r := range m.rgb {
			if e := colour.DeltaE(colour.LabOf(c), labOf(r)); e < bd {
				best, bd = j, e
			}
		}
		match[i] = uint8(best)
		f.inkDE = append(f.inkDE, bd)
		n, kept := 0, 0
		for p, v := range truth {
			if v == uint8(i) {
				n++
				if m.label[p] == uint8(best) {
					kept++
				}
			}
		}
		f.kept = append(f.kept, float64(kept)/float64(max(n, 1)))
	}
	n, kept := 0, 0
	for p, v := range hairTruth {
		if v != 0 && truth[p] == v {
			n++
			hair.Pix[p] = 255
			if m.label[p] == match[v] {
				kept++
			}
		}
	}
	f.hairlines = float64(kept) / float64(max(n, 1))
	return f, nil
}

// TestLineArtKeepsInksAndHairlines: a line drawing of red rings, 1-px
// black hairlines and 18-px black lettering on white, crisp (PNG) or
// through JPEG: with room for its three inks each is found once, declared
// within ΔE00 3 of its true colour, its film printing at least 99 % of its
// pixels and 99 % of the hairlines; with max_colours 2 no inks are merged
// — the job names the three distinct inks instead.
func TestLineArtKeepsInksAndHairlines(t *testing.T) {
	d := lineArt(900)
	for _, jpg := range []bool{false, true} {
		for _, k := range []int{3, 5} {
			f, err := separateLineArt(t, d, jpg, k)
			require.NoError(t, err)
			require.Equal(t, 3, f.inks, "jpeg %v, max %d", jpg, k)
			for i := range d.inks {
				require.LessOrEqual(t, f.inkDE[i], 3.0, "jpeg %v, max %d: ink %d declared", jpg, k, i)
				require.GreaterOrEqual(t, f.kept[i], 0.99, "jpeg %v, max %d: ink %d kept", jpg, k, i)
			}
			require.GreaterOrEqual(t, f.hairlines, 0.99, "jpeg %v, max %d: hairlines kept", jpg, k)
		}
		_, err := separateLineArt(t, d, jpg, 2)
		var many *tooManyInks
		require.ErrorAs(t, err, &many, "jpeg %v", jpg)
		require.Len(t, many.inks, 3)
		require.Contains(t, err.Error(), "send max_colours 3")
	}
}

// BenchmarkLineArtSeparation prints, for the line drawing crisp and
// through JPEG, each ink's declared ΔE00 and share kept and the hairlines
// kept.
func BenchmarkLineArtSeparation(b *testing.B) {
	d := lineArt(900)
	var figs [2]lineArtFigures
	for b.Loop() {
		for i, jpg := range []bool{false, true} {
			var err error
			figs[i], err = separateLineArt(b, d, jpg, 3)
			require.NoError(b, err)
		}
	}
	for n, f := range figs {
		for i, c := range d.inks {
			fmt.Printf("line art jpeg=%-5v ink %s declared ΔE00 %.2f kept %.2f %%\n", n == 1, colour.Hex(c), f.inkDE[i],
				100*f.kept[i])
		}
		fmt.Printf("line art jpeg=%-5v hairlines kept %.2f %%\n", n == 1, 100*f.hairlines)
	}
}

// TestFineLinesWarn: at 300 dpi the line drawing's black film, with its
// 1-px (0.08 mm) hairlines, warns fine_lines and its red rings' film does
// not; at 100 dpi a pixel is 0.25 mm and nothing warns; no ground-truth
// design (strokes of 3 px and more) warns at 300 dpi.
func TestFineLinesWarn(t *testing.T) {
	img, _ := lineArt(900).render()
	warned := func(img image.Image, dpi int) map[string]bool {
		s, err := newSeparation(context.Background(), img, &separateInput{MaxColours: 8, DPI: dpi, Image: "file:d"})
		require.NoError(t, err)
		out := map[string]bool{}
		for _, j := range s.order {
			for _, w := range s.fineLineWarning(j) {
				require.Equal(t, string(apierr.FineLines), w.Code)
				out[s.inks[j].Hex()] = true
			}
		}
		return out
	}
	require.Equal(t, map[string]bool{"#101010": true}, warned(img, 300))
	require.Empty(t, warned(img, 100))
	for _, c := range truthCases(t) {
		require.Empty(t, warned(c.img, 300), c.d.name)
	}
}
