package production

import (
	"image"
	"image/draw"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// over gives draw.Draw's bytes for opaque, transparent and partly
// transparent sources, clipped rectangles and offsets included.
func TestOverIsDrawOver(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	random := func(w, h int) *image.NRGBA {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.IntN(256))
		}
		for i := 3; i < len(img.Pix); i += 4 {
			img.Pix[i] = []uint8{0, 255, 255, 255, uint8(rng.IntN(256))}[rng.IntN(5)]
		}
		return img
	}
	for range 50 {
		src, dst := random(1+rng.IntN(40), 1+rng.IntN(40)), random(1+rng.IntN(40), 1+rng.IntN(40))
		want := image.NewNRGBA(dst.Rect)
		copy(want.Pix, dst.Pix)
		r := image.Rect(rng.IntN(50)-10, rng.IntN(50)-10, rng.IntN(50)-10, rng.IntN(50)-10).Canon()
		sp := image.Pt(rng.IntN(20)-5, rng.IntN(20)-5)
		draw.Draw(want, r, src, sp, draw.Over)
		over(dst, r, src, sp)
		require.Equal(t, want.Pix, dst.Pix, "r %v, sp %v", r, sp)
	}
}
