package pattern

import (
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// over gives draw.Draw's Over bytes for motifs of transparent ground,
// opaque shapes and soft edges, wherever they overlap the tile.
func TestOverIsDrawOver(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	src := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := 0; i < len(src.Pix); i += 4 {
		switch a := uint8(rng.IntN(3)); a {
		case 1:
			src.Pix[i], src.Pix[i+1], src.Pix[i+2], src.Pix[i+3] = uint8(
				rng.IntN(256),
			), uint8(
				rng.IntN(256),
			), uint8(
				rng.IntN(256),
			), 255
		case 2:
			al := uint8(rng.IntN(256))
			src.Pix[i], src.Pix[i+1], src.Pix[i+2], src.Pix[i+3] = uint8(
				rng.IntN(int(al)+1),
			), uint8(
				rng.IntN(int(al)+1),
			), uint8(
				rng.IntN(int(al)+1),
			), al
		}
	}
	for _, bg := range []color.RGBA{{240, 230, 200, 255}, {10, 20, 30, 128}} {
		for _, at := range []image.Point{{0, 0}, {-15, 7}, {50, 40}, {60, 60}, {-45, 0}} {
			want := image.NewRGBA(image.Rect(0, 0, 70, 70))
			draw.Draw(want, want.Rect, image.NewUniform(bg), image.Point{}, draw.Src)
			got := image.NewRGBA(want.Rect)
			copy(got.Pix, want.Pix)
			r := image.Rect(at.X, at.Y, at.X+40, at.Y+30)
			draw.Draw(want, r, src, image.Point{}, draw.Over)
			over(got, r, src)
			require.Equal(t, want.Pix, got.Pix, "at %v on %v", at, bg)
		}
	}
}
