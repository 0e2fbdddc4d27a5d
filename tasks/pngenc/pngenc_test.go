package pngenc

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"
)

// Reused buffers give png.Encoder's bytes, image after image, at every
// level and for every image type in turn.
func TestEncodeIsPNGEncoder(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for i := range rgba.Pix {
		rgba.Pix[i] = uint8(i * 7 % 251)
	}
	pal := image.NewPaletted(
		image.Rect(0, 0, 64, 64),
		color.Palette{color.White, color.Black, color.RGBA{200, 10, 10, 255}},
	)
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i / 5 % 3)
	}
	for range 2 {
		for _, img := range []image.Image{rgba, pal, image.NewNRGBA(image.Rect(0, 0, 17, 3))} {
			for _, level := range []png.CompressionLevel{png.BestSpeed, png.DefaultCompression, png.BestCompression} {
				var want bytes.Buffer
				require.NoError(t, (&png.Encoder{CompressionLevel: level}).Encode(&want, img))
				got, err := Encode(img, level)
				require.NoError(t, err)
				require.Equal(t, want.Bytes(), got)
			}
		}
	}
}
