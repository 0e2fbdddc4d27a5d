package resample

import (
	"image"
	"image/color"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// pattern is a w × h image with gradients, hard edges and, when alpha,
// transparent and half-transparent pixels.
func pattern(w, h int, alpha bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x/7 + y/5) % 2 * 200), 255}
			if alpha && (x+y)%11 < 3 {
				c.A = uint8((x * y) % 256)
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// blocks is a w × h image of flat 9 × 7 blocks in a few colours, one of
// them transparent and one half transparent when alpha: most pixels take
// the flat path.
func blocks(w, h int, alpha bool) *image.NRGBA {
	colours := []color.NRGBA{{250, 240, 220, 255}, {20, 40, 90, 255}, {200, 30, 30, 255}, {10, 200, 90, 255}}
	if alpha {
		colours[2].A, colours[3] = 128, color.NRGBA{}
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, colours[(x/9+2*(y/7))%len(colours)])
		}
	}
	return img
}

// Resize and Fill give imaging's bytes, up and down, with and without
// transparency, from NRGBA and RGBA sources.
func TestSameBytesAsImaging(t *testing.T) {
	filters := map[string]imaging.ResampleFilter{
		"lanczos": imaging.Lanczos,
		"linear":  imaging.Linear,
		"box":     imaging.Box,
	}
	sizes := [][2]int{{300, 200}, {40, 90}, {77, 77}, {120, 0}, {0, 33}, {64, 48}}
	for _, alpha := range []bool{false, true} {
		for _, src := range []image.Image{pattern(64, 48, alpha), pattern(130, 110, alpha), toRGBA(pattern(50, 70, alpha)),
			blocks(120, 100, alpha), toRGBA(blocks(45, 60, alpha))} {
			for name, f := range filters {
				for _, s := range sizes {
					want, got := imaging.Resize(src, s[0], s[1], f), Resize(src, s[0], s[1], f)
					require.Equal(t, want.Rect, got.Rect, "%s %v", name, s)
					require.Equal(t, want.Pix, got.Pix, "resize %s %v alpha %v", name, s, alpha)
					if s[0] > 0 && s[1] > 0 {
						want, got = imaging.Fill(
							src,
							s[0],
							s[1],
							imaging.Center,
							f,
						), Fill(
							src,
							s[0],
							s[1],
							imaging.Center,
							f,
						)
						require.Equal(t, want.Rect, got.Rect, "%s %v", name, s)
						require.Equal(t, want.Pix, got.Pix, "fill %s %v alpha %v", name, s, alpha)
					}
				}
			}
		}
	}
}

func toRGBA(img *image.NRGBA) *image.RGBA {
	out := image.NewRGBA(img.Rect)
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// A megapixel or more is scaled in bands across the processors, to the
// same bytes.
func TestLargeOutputsInBands(t *testing.T) {
	for _, src := range []image.Image{blocks(90, 70, true), pattern(64, 48, false)} {
		want, got := imaging.Resize(src, 1300, 900, imaging.Lanczos), Resize(src, 1300, 900, imaging.Lanczos)
		require.Equal(t, want.Pix, got.Pix)
	}
}
