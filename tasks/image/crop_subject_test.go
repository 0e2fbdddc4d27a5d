package image

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// paintIf fills the pixels of img where in holds with col's colour.
func paintIf(img *image.NRGBA, in func(x, y float64) bool, col func(x, y int) color.NRGBA) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if in(float64(x)+0.5, float64(y)+0.5) {
				img.SetNRGBA(x, y, col(x, y))
			}
		}
	}
}

func ovalAt(cx, cy, rx, ry float64) func(x, y float64) bool {
	return func(x, y float64) bool { return math.Hypot((x-cx)/rx, (y-cy)/ry) <= 1 }
}

func flatFill(c color.NRGBA) func(x, y int) color.NRGBA {
	return func(int, int) color.NRGBA { return c }
}

// TestCropKeepsASmallSubjectNotTheGlare: a small red bird low on the right
// of a textured meadow, a burnt-out sun patch larger than it at the top
// left; every crop narrower than the photo holds the whole bird.
func TestCropKeepsASmallSubjectNotTheGlare(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1600, 1000))
	paintIf(img, func(float64, float64) bool { return true }, func(x, y int) color.NRGBA {
		n := 10 * math.Sin(float64(x)/9+float64(y)/7)
		return color.NRGBA{uint8(70 + n), uint8(120 + n), uint8(60 + n), 255}
	})
	paintIf(img, ovalAt(192, 150, 70, 50), flatFill(color.NRGBA{255, 255, 250, 255}))
	paintIf(img, ovalAt(1280, 700, 26, 18), flatFill(color.NRGBA{210, 30, 30, 255}))
	paintIf(img, ovalAt(1302, 686, 11, 11), flatFill(color.NRGBA{200, 25, 25, 255}))
	paintIf(img, ovalAt(1305, 684, 3, 3), flatFill(color.NRGBA{0, 0, 0, 255}))
	bird := image.Rect(1254, 673, 1316, 718)
	for _, ratio := range []string{"9:16", "4:5", "1:1"} {
		aw, ah := aspect(ratio)
		cw, ch := cropSize(1600, 1000, aw, ah)
		rect, err := cropRect(img, cw, ch, "attention")
		require.NoError(t, err)
		require.True(t, bird.In(rect), "%s: the bird %v in the crop %v", ratio, bird, rect)
	}
}

// TestCropOfAFrameFillingFaceCutsNoEye: a cat's face wider than a 4:5 or
// 9:16 crop of its 3:2 photo, a bright window at the right edge; the crop
// passes through fur, not an eye: each eye is wholly in or wholly out, and
// at 4:5, where both fit, both are in.
func TestCropOfAFrameFillingFaceCutsNoEye(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1200, 800))
	paintIf(img, func(float64, float64) bool { return true }, func(x, y int) color.NRGBA {
		return color.NRGBA{uint8(90 + 40*x/1200), 85, 80, 255}
	})
	paintIf(img, ovalAt(540, 440, 480, 400), func(x, y int) color.NRGBA {
		n := 15 * math.Sin(float64(x)/3+float64(y)/9)
		return color.NRGBA{uint8(200 + n), uint8(150 + n), uint8(90 + n), 255}
	})
	var eyes []image.Rectangle
	for _, ex := range []float64{384, 696} {
		paintIf(img, ovalAt(ex, 376, 45, 32), flatFill(color.NRGBA{170, 200, 60, 255}))
		paintIf(img, ovalAt(ex, 376, 10, 28), flatFill(color.NRGBA{10, 10, 10, 255}))
		eyes = append(eyes, image.Rect(int(ex)-45, 344, int(ex)+45, 408))
	}
	paintIf(img, ovalAt(540, 520, 20, 14), flatFill(color.NRGBA{220, 120, 130, 255}))
	paintIf(img, func(x, y float64) bool { return x > 1056 && y < 480 }, flatFill(color.NRGBA{250, 250, 245, 255}))
	for _, ratio := range []string{"9:16", "4:5"} {
		aw, ah := aspect(ratio)
		cw, ch := cropSize(1200, 800, aw, ah)
		rect, err := cropRect(img, cw, ch, "attention")
		require.NoError(t, err)
		for _, e := range eyes {
			require.True(t, e.In(rect) || e.Intersect(rect).Empty(), "%s: the eye %v cut by the crop %v", ratio, e, rect)
			if ratio == "4:5" {
				require.True(t, e.In(rect), "4:5: both eyes fit; the eye %v in the crop %v", e, rect)
			}
		}
	}
}

// TestCropKeepsASmallSubjectNotTheWindow: a small red apple on a table at
// the right, a burnt-out window with white glazing bars five times its
// size at the left (the bars are not blown, the panes are); every crop
// narrower than the photo holds the whole apple, not the window.
func TestCropKeepsASmallSubjectNotTheWindow(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1600, 900))
	paintIf(img, func(float64, float64) bool { return true }, func(x, y int) color.NRGBA {
		n := uint8((x*7 + y*13) % 5)
		if y >= 620 {
			return color.NRGBA{150 + n, 145 + n, 140 + n, 255} // the table
		}
		return color.NRGBA{120 + n, 115 + n, 110 + n, 255} // the wall
	})
	paintIf(img, func(x, y float64) bool { return x >= 60 && x < 560 && y >= 80 && y < 560 },
		flatFill(color.NRGBA{252, 252, 250, 255}))
	bars := func(x, y float64) bool {
		return (x >= 300 && x < 320 && y >= 80 && y < 560) || (y >= 310 && y < 330 && x >= 60 && x < 560)
	}
	paintIf(img, bars, flatFill(color.NRGBA{230, 230, 228, 255}))
	paintIf(img, ovalAt(1240, 640, 70, 64), func(x, y int) color.NRGBA {
		k := 1.1 - 0.4*math.Hypot((float64(x)-1215)/70, (float64(y)-615)/64)
		return color.NRGBA{uint8(math.Min(255, 200*k)), uint8(30 * k), uint8(35 * k), 255}
	})
	apple := image.Rect(1170, 576, 1310, 704)
	for _, ratio := range []string{"9:16", "4:5", "1:1"} {
		aw, ah := aspect(ratio)
		cw, ch := cropSize(1600, 900, aw, ah)
		rect, err := cropRect(img, cw, ch, "attention")
		require.NoError(t, err)
		require.True(t, apple.In(rect), "%s: the apple %v in the crop %v", ratio, apple, rect)
	}
}
