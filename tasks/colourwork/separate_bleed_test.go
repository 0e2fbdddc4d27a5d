package colourwork

import (
	"context"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// TestThinLinesOverAnInkAreNotAnInk: navy 1-px lines crossing orange
// shapes and orange 1-px lines on cream, through JPEG (whose 2 × 2 colour
// averaging makes the navy lines on orange a dark brown): with room for
// four inks the design still has its three, each declared within ΔE00 3
// of its true colour and printing at least 98 % of its true pixels.
func TestThinLinesOverAnInkAreNotAnInk(t *testing.T) {
	paper, navy, orange := color.NRGBA{0xF6, 0xF0, 0xE0, 255}, color.NRGBA{0x1E, 0x2D, 0x55, 255},
		color.NRGBA{0xE6, 0x6A, 0x1C, 255}
	layers := []layer{{2, ring(250, 250, 150, 170)}, {2, disc(600, 250, 90)}}
	for i := range 10 {
		y := 40 + 45*float64(i)
		layers = append(layers, layer{1, hairline(20, y, 880, y+30)})
	}
	for i := range 5 {
		x := 80 + 160*float64(i)
		layers = append(layers, layer{2, hairline(x, 20, x+60, 560)},
			layer{1, box(x, 500, x+20, 580)}, layer{1, box(x, 500, x+80, 520)})
	}
	d := truthDesign{name: "navy_orange", w: 900, h: 600, inks: []color.NRGBA{paper, navy, orange}, layers: layers}
	img, truth := d.render()
	m, err := separateInks(context.Background(), jpegNoised(t, img), 4)
	require.NoError(t, err)
	require.Len(t, m.rgb, 3, "cream, navy and orange, no fringe ink")
	for i, c := range d.inks {
		best, bd := 0, math.Inf(1)
		for j, r := range m.rgb {
			if e := colour.DeltaE(colour.LabOf(c), labOf(r)); e < bd {
				best, bd = j, e
			}
		}
		require.LessOrEqual(t, bd, 3.0, "ink %s declared", colour.Hex(c))
		n, kept := 0, 0
		for p, v := range truth {
			if v == uint8(i) {
				n++
				if m.label[p] == uint8(best) {
					kept++
				}
			}
		}
		require.GreaterOrEqual(t, float64(kept)/float64(n), 0.98, "ink %s kept", colour.Hex(c))
	}
}
