package image

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/muesli/smartcrop"
	"github.com/stretchr/testify/require"
)

// bilinear is a smartcrop resizer; images under its prescaling side never
// reach it.
type bilinear struct{}

func (bilinear) Resize(img image.Image, w, h uint) image.Image {
	return imaging.Resize(img, int(w), int(h), imaging.Linear)
}

// attention finds smartcrop's crop, on photos, flat art with skin-toned
// and saturated shapes, transparent images and images off the origin.
func TestAttentionIsSmartcrops(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := func(w, h int, alpha bool) *image.NRGBA {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		bg := color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
		for i := range img.Pix {
			img.Pix[i] = []uint8{bg.R, bg.G, bg.B, bg.A}[i%4]
		}
		for range 6 {
			c := []color.NRGBA{{224, 160, 128, 255}, {230, 30, 40, 255}, {20, 20, 20, 255}, {250, 250, 250, 255}}[rng.IntN(4)]
			if alpha {
				c.A = uint8(rng.IntN(256))
			}
			cx, cy, r := rng.IntN(w), rng.IntN(h), 5+rng.IntN(max(6, w/4))
			for y := max(0, cy-r); y < min(h, cy+r); y++ {
				for x := max(0, cx-r); x < min(w, cx+r); x++ {
					if (x-cx)*(x-cx)+(y-cy)*(y-cy) < r*r {
						img.SetNRGBA(x, y, c)
					}
				}
			}
		}
		return img
	}
	noise := func(w, h int) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.IntN(256))
			if i%4 == 3 {
				img.Pix[i] = 255
			}
		}
		return img
	}
	var imgs []image.Image
	for _, s := range [][2]int{{256, 144}, {144, 256}, {256, 256}, {200, 150}, {97, 61}, {30, 20}} {
		imgs = append(imgs, shapes(s[0], s[1], false), shapes(s[0], s[1], true), noise(s[0], s[1]))
	}
	imgs = append(
		imgs,
		shapes(240, 200, false).SubImage(image.Rect(13, 9, 230, 190)),
		noise(200, 200).SubImage(image.Rect(40, 30, 190, 160)),
	)
	for i, img := range imgs {
		b := img.Bounds()
		for _, r := range [][2]int{{1, 1}, {4, 5}, {16, 9}, {9, 16}, {3, 4}} {
			cw, ch := cropSize(b.Dx(), b.Dy(), r[0], r[1])
			want, err := smartcrop.NewAnalyzer(bilinear{}).FindBestCrop(img, cw, ch)
			require.NoError(t, err)
			require.Equal(t, want, attention(img, cw, ch), "image %d (%v), ratio %v", i, b, r)
		}
	}
}
