package production

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/png"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

// physDPI reads the pHYs chunk of a PNG back as dots per inch.
func physDPI(t *testing.T, data []byte) (x, y float64) {
	t.Helper()
	require.True(t, bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")))
	for p := 8; p+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[p:]))
		typ := string(data[p+4 : p+8])
		if typ == "pHYs" {
			body := data[p+8 : p+8+n]
			require.Equal(t, byte(1), body[8], "unit: metre")
			return float64(
					binary.BigEndian.Uint32(body[0:4]),
				) * 0.0254, float64(
					binary.BigEndian.Uint32(body[4:8]),
				) * 0.0254
		}
		p += 12 + n
	}
	t.Fatal("no pHYs chunk")
	return 0, 0
}

// TestPrintFilesHaveTheirPhysicalSize decodes each example's PNG and
// proof: exact pixels, the DPI in pHYs, one PDF page of trim plus bleed.
func TestPrintFilesHaveTheirPhysicalSize(t *testing.T) {
	d := lookup(t, "print.prepare")
	tests := []struct {
		example      int
		w, h, dpi    int
		pageW, pageH float64
		tiled        bool
	}{
		// 60 × 60 mm at 150 dpi: 354 × 354 px, plus 2 × 18 px for 3 mm.
		// The PDF's page adds a 10 mm slug for the crop marks beyond the bleed.
		{0, 354 + 36, 354 + 36, 150, (60 + 6 + 20) * 72 / 25.4, (60 + 6 + 20) * 72 / 25.4, false},
		// 200 × 300 mm at 150 dpi: 1181 × 1772 px, plus 2 × 30 px for 5 mm.
		{1, 1181 + 60, 1772 + 60, 150, (200 + 10 + 20) * 72 / 25.4, (300 + 10 + 20) * 72 / 25.4, true},
	}
	for _, tc := range tests {
		t.Run(d.Examples[tc.example].Name, func(t *testing.T) {
			out, err := d.ExampleOutputs(context.Background(), tc.example)
			require.NoError(t, err)
			require.Len(t, out, 2)
			require.Equal(t, "image/png", out[0].MediaType)
			img, err := png.Decode(bytes.NewReader(out[0].Data))
			require.NoError(t, err)
			require.Equal(t, tc.w, img.Bounds().Dx())
			require.Equal(t, tc.h, img.Bounds().Dy())
			x, y := physDPI(t, out[0].Data)
			// pHYs holds whole pixels per metre: the DPI reads back within 0.02.
			require.InDelta(t, float64(tc.dpi), x, 0.02)
			require.InDelta(t, float64(tc.dpi), y, 0.02)
			if tc.tiled {
				motif, err := png.Decode(bytes.NewReader(motifFile.Data()))
				require.NoError(t, err)
				bleed := out[0].Meta["bleed_px"].(int)
				for _, p := range []image.Point{{0, 0}, {40, 70}, {128, 200}, {255, 255}} {
					want := rgbaAt(motif, p.X, p.Y)
					require.Equal(t, want, rgbaAt(img, bleed+p.X, bleed+p.Y), "the tile starts at the trim corner")
					require.Equal(t, want, rgbaAt(img, bleed+p.X+256, bleed+p.Y+512), "and repeats every 256 px")
				}
			}
			pages, w, h := pdfInfo(t, out[1].Data)
			require.Equal(t, 1, pages)
			require.InDelta(t, tc.pageW, w, 0.05)
			require.InDelta(t, tc.pageH, h, 0.05)
			require.InDelta(t, tc.pageW, out[1].Meta["page_width_pt"].(float64), 0.01)
		})
	}
}

func rgbaAt(img image.Image, x, y int) any {
	r, g, b, a := img.At(x, y).RGBA()
	return [4]uint32{r, g, b, a}
}

// TestPixelBudgetEdge accepts a print of exactly the budget's worth of
// pixels or fewer and refuses one more row.
func TestPixelBudgetEdge(t *testing.T) {
	fits := sizeOf(&printInput{WidthMM: 1000, HeightMM: 1000, DPI: 175})
	require.LessOrEqual(t, fits.pixels(), maxPrintPixels)
	over := sizeOf(&printInput{WidthMM: 1000, HeightMM: 1000, DPI: 176})
	require.Greater(t, over.pixels(), maxPrintPixels)
	fabric := sizeOf(&printInput{WidthMM: 1600, HeightMM: 860, DPI: 150})
	require.LessOrEqual(t, fabric.pixels(), maxPrintPixels, "160 cm fabric at 150 dpi, 86 cm long")
	require.Greater(t, sizeOf(&printInput{WidthMM: 1600, HeightMM: 861, DPI: 150}).pixels(), maxPrintPixels)
	require.Equal(t, 1181, px(200, 150))
	require.Equal(t, 35, px(3, 300))
	require.Equal(t, uint32(11811), pngenc.PixelsPerMetre(300))
	require.InDelta(t, 300, float64(pngenc.PixelsPerMetre(300))*0.0254, 0.01)
	require.Equal(t, 3.0, math.Round(float64(pngenc.PixelsPerMetre(72))*0.0254/24))
}
