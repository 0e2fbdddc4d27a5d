package pdfsheet

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	xdraw "golang.org/x/image/draw"
)

// Cover's RGBA path gives xdraw's bytes: scaled up and down, into a box
// off the destination's origin, from a source off its own.
func TestCoverIsApproxBiLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	src := image.NewRGBA(image.Rect(0, 0, 97, 61))
	for i := range src.Pix {
		src.Pix[i] = uint8(rng.IntN(256))
		if i%4 == 3 {
			src.Pix[i] = 255
		}
	}
	srcs := []*image.RGBA{src, src.SubImage(image.Rect(5, 7, 90, 50)).(*image.RGBA)}
	boxes := []image.Rectangle{
		image.Rect(0, 0, 300, 200),
		image.Rect(13, 9, 60, 40),
		image.Rect(3, 4, 250, 31),
		image.Rect(0, 0, 7, 300),
		image.Rect(1, 1, 2, 2),
	}
	for _, s := range srcs {
		for _, r := range boxes {
			want := image.NewRGBA(image.Rect(0, 0, 320, 320))
			got := image.NewRGBA(image.Rect(0, 0, 320, 320))
			xdraw.Draw(want, want.Rect, image.NewUniform(color.RGBA{9, 8, 7, 255}), image.Point{}, xdraw.Src)
			copy(got.Pix, want.Pix)
			b := coverRect(s.Bounds(), r)
			xdraw.ApproxBiLinear.Scale(want, r, s, b, xdraw.Over, nil)
			Cover(got, r, s)
			require.Equal(t, want.Pix, got.Pix, "%v into %v", s.Bounds(), r)
		}
	}
}
