package image

import (
	"context"
	"errors"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// whiteCylinder is a white cylinder (a speaker, a candle) on a white
// sweep, lit from the right so its right side is the sweep's own tone
// (no edge there at all) and its left side rounds into a grey shade; a
// darker top, a contact shadow's line at its foot, the sensor's noise.
// in tells whether a pixel is the cylinder.
func whiteCylinder() (img *image.NRGBA, in func(x, y int) bool) {
	rng := rand.New(rand.NewPCG(7, 9))
	in = func(x, y int) bool { return x >= 70 && x < 150 && y >= 50 && y < 190 }
	const W, H = 220, 240
	lum := make([]float64, W*H)
	for y := range H {
		for x := range W {
			sweep := 250 - 8*float64(y)/(H-1)
			v := sweep
			switch {
			case y >= 190 && y < 193 && x >= 66 && x < 154:
				v = sweep - 40 // the contact shadow's line
			case in(x, y) && y < 56:
				v = 232 // the top, in the light from above
			case in(x, y):
				e := (149 - float64(x)) / 79 // 0 at the lit right, 1 at the left
				v = sweep + 1 - 46*e*e
			}
			lum[y*W+x] = v
		}
	}
	blurPlane(lum, W, H, 0.8) // the lens
	img = drawn(W, H, func(x, y int) color.NRGBA { return grey(lum[y*W+x] + rng.NormFloat64()*1.2) })
	return img, in
}

// TestAWhiteBodyWhoseLitSideIsTheSweepsToneIsCutOutFromItsShading: the
// cylinder's shaded side and its outline there show it; the cut-out
// keeps it whole, its lit side included, not refused as "no object".
func TestAWhiteBodyWhoseLitSideIsTheSweepsToneIsCutOutFromItsShading(t *testing.T) {
	img, in := whiteCylinder()
	res, err := cutOutMatte(context.Background(), img, 12, 0, false)
	require.NoError(t, err, "an outline and a shading are there to see")
	inter, union := 0, 0
	litKept, lit := 0, 0
	W, H := img.Rect.Dx(), img.Rect.Dy()
	for y := range H {
		for x := range W {
			kept, truth := res.img.NRGBAAt(x, y).A > 127, in(x, y)
			if kept && truth {
				inter++
			}
			if kept || truth {
				union++
			}
			if truth && x >= 120 && y >= 60 && y < 180 { // the lit side, in the sweep's tone
				lit++
				if kept {
					litKept++
				}
			}
		}
	}
	iou := float64(inter) / float64(union)
	require.Greater(t, iou, 0.85, "the cylinder is cut out (IoU %.3f)", iou)
	require.Greater(t, float64(litKept)/float64(lit), 0.9, "its lit side is kept")
	require.Zero(t, res.img.NRGBAAt(10, 10).A, "the sweep goes")
	require.Zero(t, res.img.NRGBAAt(200, 120).A, "the sweep beside its lit side goes")
}

// TestAFlatSweepWithLinesIsNoShadedBody: the fourth look never makes a
// product of a flat sweep, even with a long faint line across it (a seam
// in the paper): nothing inside the line's hull is shaded.
func TestAFlatSweepWithLinesIsNoShadedBody(t *testing.T) {
	img := drawn(200, 160, func(x, y int) color.NRGBA {
		if x >= 40 && x < 160 && (y == 80 || y == 40 && x < 100) {
			return grey(238) // two faint seams, 12 levels deep
		}
		return grey(250 - 6*float64(y)/159)
	})
	body, err := shadedBody(context.Background(), img, 12)
	require.NoError(t, err)
	require.Nil(t, body, "no shaded body inside the seams' hull")
}

// TestARefusalSaysWhetherAnythingWasSeen: an empty sweep is refused as
// "no object was found", nothing differing from it; a shaded shape with
// no edge at all (a soft shade, no outline) is refused as seen but not
// separable. Neither is charged: both fail the step with the reason.
func TestARefusalSaysWhetherAnythingWasSeen(t *testing.T) {
	empty := drawn(160, 120, func(x, y int) color.NRGBA { return grey(248 - 10*float64(y)/119) })
	_, err := cutOutMatte(context.Background(), empty, 12, 2, false)
	var no *noObject
	require.True(t, errors.As(err, &no))
	require.False(t, no.seen)
	require.Contains(t, err.Error(), "no object was found: nothing in the image differs from its backdrop")

	blob := drawn(160, 120, func(x, y int) color.NRGBA {
		r := math.Hypot(float64(x)-80, float64(y)-60)
		return grey(248 - 40*math.Exp(-r*r/(2*18*18)))
	})
	_, err = cutOutMatte(context.Background(), blob, 12, 2, false)
	require.True(t, errors.As(err, &no), "a shade with no edge is not cut out: %v", err)
	require.True(t, no.seen)
	require.Contains(t, err.Error(), "an object was seen but could not be cut out")
	require.NotContains(t, err.Error(), "tolerance", "no internal figures in the reason")
}

// TestACutOutWhoseOutlineWasDrawnIsWarned: the task delivers the white
// cylinder, whose lit side's outline was drawn where no edge shows, with
// the cutout_uncertain warning and does not charge it.
func TestACutOutWhoseOutlineWasDrawnIsWarned(t *testing.T) {
	img, _ := whiteCylinder()
	out, errs := run(t, "image.remove_background", `{"images":["file:c"]}`, files{"file:c": pngBytes(img)})
	require.Empty(t, errs)
	require.Len(t, out, 1)
	require.True(t, out[0].Uncharged, "not charged")
	require.Len(t, out[0].Warnings, 1)
	require.Equal(t, string(apierr.CutoutUncertain), out[0].Warnings[0].Code)
	require.Contains(t, out[0].Warnings[0].Message, "shows no edge against the backdrop")
}
