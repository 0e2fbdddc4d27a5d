package image

import (
	"context"
	"errors"
	"image"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

// checkSide is the long side of the copy CutCheck cuts out: the border's
// plainness and the object's presence read the same on it as on the photo,
// at a few milliseconds.
const checkSide = 256

// checkMargin is how far under the confidence threshold a copy must fall
// for CutCheck to answer: a photo near the threshold is left to the
// full-size cut-out (its output then not produced, and not charged, when
// it fails).
const checkMargin = 0.05

// CutCheck is the cut-out's cheap "can this be cut out" check, for a
// submit: the cut-out of a copy at most checkSide px long. It answers the
// public reason when img clearly cannot be cut out (its border's
// confidence under the threshold by checkMargin, or no object against the
// backdrop), "" otherwise; an image whose border is mostly transparent is
// its own cut-out.
func CutCheck(ctx context.Context, img image.Image) (string, error) {
	b := img.Bounds()
	small := img
	if long := max(b.Dx(), b.Dy()); long > checkSide {
		f := float64(checkSide) / float64(long)
		w, h := max(1, int(float64(b.Dx())*f+0.5)), max(1, int(float64(b.Dy())*f+0.5))
		if long > 4*checkSide { // picked down to twice the size first: a box filter over a large photo costs most
			small = imaging.Resize(img, 2*w, 2*h, imaging.NearestNeighbor)
		}
		small = resample.Resize(small, w, h, imaging.Box)
	}
	if TransparentBorder(small) {
		return "", nil // already a cut-out
	}
	_, err := cutOutMatte(ctx, small, 12, 0, false)
	if err == nil {
		return "", nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	var low *tasks.LowConfidence
	if errors.As(err, &low) && low.Confidence > minBorderShare-checkMargin {
		return "", nil
	}
	return err.Error(), nil
}

// TransparentBorder says whether at least half of img's border pixels are
// transparent (alpha under 128).
func TransparentBorder(img image.Image) bool {
	b := img.Bounds()
	clear, n := 0, 0
	at := func(x, y int) {
		n++
		if _, _, _, a := img.At(x, y).RGBA(); a < 0x8000 {
			clear++
		}
	}
	for x := b.Min.X; x < b.Max.X; x++ {
		at(x, b.Min.Y)
		at(x, b.Max.Y-1)
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		at(b.Min.X, y)
		at(b.Max.X-1, y)
	}
	return 2*clear >= n
}
