package image

import (
	"bytes"
	"context"
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

// maxDocsImage is the most a picture of the README may weigh.
const maxDocsImage = 150 << 10

// TestDocsImages draws the README's before/after pictures of
// image.remove_background from the test sets' inputs: each row a shot, its
// cut-out on a checkerboard, and its cut-out with keep_shadow on a new
// colour. DOCS_IMAGES=dir writes them there (make docs-images); otherwise
// they are drawn and checked in a temporary folder.
func TestDocsImages(t *testing.T) {
	dir := os.Getenv("DOCS_IMAGES")
	if dir == "" {
		dir = t.TempDir()
	}
	var rows []scene
	for _, s := range photoScenes() {
		if s.name == "photo_bag_grey" || s.name == "photo_sneaker_white" || s.name == "photo_bottle_beige" {
			rows = append(rows, s)
		}
	}
	const tile = 200
	sheet := image.NewNRGBA(image.Rect(0, 0, 3*tile, len(rows)*tile))
	for r, s := range rows {
		in := s.render().img
		cut, err := cutOutMatte(context.Background(), in, 12, 2, false)
		require.NoError(t, err, s.name)
		kept, err := cutOutMatte(context.Background(), in, 12, 2, true)
		require.NoError(t, err, s.name)
		for c, img := range []image.Image{
			in,
			over(cut.img, checker),
			over(kept.img, func(int, int) color.NRGBA { return color.NRGBA{196, 222, 236, 255} }),
		} {
			small := imaging.Resize(img, tile, tile, imaging.Lanczos)
			draw.Draw(sheet, image.Rect(c*tile, r*tile, (c+1)*tile, (r+1)*tile), small, image.Point{}, draw.Src)
		}
	}
	writeDocsImage(t, filepath.Join(dir, "remove-background.png"), sheet)
}

// checker is a light checkerboard of 12 px squares, the usual sign of
// transparency.
func checker(x, y int) color.NRGBA {
	if (x/12+y/12)%2 == 0 {
		return color.NRGBA{255, 255, 255, 255}
	}
	return color.NRGBA{222, 222, 222, 255}
}

// over is img composited over a background.
func over(img *image.NRGBA, bg func(x, y int) color.NRGBA) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(b)
	for y := range b.Dy() {
		for x := range b.Dx() {
			p, q := img.Pix[y*img.Stride+4*x:], bg(x, y)
			a := float64(p[3]) / 255
			mix := func(v, w uint8) uint8 { return uint8(a*float64(v) + (1-a)*float64(w) + 0.5) }
			out.SetNRGBA(x, y, color.NRGBA{mix(p[0], q.R), mix(p[1], q.G), mix(p[2], q.B), 255})
		}
	}
	return out
}

// writeDocsImage writes img as a PNG, no larger than maxDocsImage.
func writeDocsImage(t *testing.T, path string, img image.Image) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	require.NoError(t, enc.Encode(&buf, img))
	require.LessOrEqual(t, buf.Len(), maxDocsImage, "%s: a README picture", path)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}
