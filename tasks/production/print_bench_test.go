package production

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// BenchmarkPrintPDF times the print PDF of an A3 poster at 300 dpi with 3
// mm bleed (3579 × 4984 px) in RGB and CMYK; PRINT_DIR=dir writes the
// README's before-and-after picture there: the edge-marker artwork, the
// print as the old default cut it (cover), and the PDF now (pdftoppm).
func BenchmarkPrintPDF(b *testing.B) {
	art := markerArt(1800, 1200)
	p := sizeOf(&printInput{WidthMM: 297, HeightMM: 420, DPI: 300, BleedMM: 3})
	page := renderOne(art, p, "contain", "center", color.NRGBA{255, 255, 255, 255})
	for _, space := range []string{"rgb", "cmyk"} {
		b.Run(space, func(b *testing.B) {
			in := &printInput{Image: "file:markers", ColourSpace: space}
			for b.Loop() {
				_, _, _, err := printPDF(page, p, in)
				require.NoError(b, err)
			}
		})
	}
	if dir := os.Getenv("PRINT_DIR"); dir != "" {
		small := markerArt(900, 600)
		q := sizeOf(&printInput{WidthMM: 210, HeightMM: 297, DPI: 100, BleedMM: 3})
		white := color.NRGBA{255, 255, 255, 255}
		pdf, _, _, err := printPDF(renderOne(small, q, "contain", "center", white), q,
			&printInput{Image: "file:markers", ColourSpace: "rgb"})
		require.NoError(b, err)
		after := rasterise(b, pdf, 40)
		before := renderOne(small, q, "cover", "center", white)
		h := after.Bounds().Dy()
		parts := []image.Image{imaging.Resize(small, 0, h*600/900*2/3, imaging.Lanczos),
			imaging.Resize(before, 0, h*q.H()/(q.H()+2*px(10, 100)), imaging.Lanczos), after}
		writeRow(b, filepath.Join(dir, "print-poster.png"), parts, h)
	}
}

// writeRow writes the parts side by side on grey, centred in a row h high.
func writeRow(b *testing.B, path string, parts []image.Image, h int) {
	w := 0
	for _, p := range parts {
		w += p.Bounds().Dx() + 16
	}
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Rect, image.NewUniform(color.NRGBA{0xD8, 0xD8, 0xD8, 255}), image.Point{}, draw.Src)
	x := 0
	for _, p := range parts {
		r := p.Bounds()
		y := (h - r.Dy()) / 2
		draw.Draw(out, image.Rect(x, y, x+r.Dx(), y+r.Dy()), p, r.Min, draw.Src)
		x += r.Dx() + 16
	}
	f, err := os.Create(path)
	require.NoError(b, err)
	defer f.Close()
	require.NoError(b, png.Encode(f, out))
}
