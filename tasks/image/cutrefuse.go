package image

import (
	"context"
	"fmt"
	"image"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// When every look finds no object the cut-out is refused (not charged),
// and the reason says which of two things happened: nothing in the image
// differs from the backdrop (an empty sweep), or something does — a long
// outline, or a body shaded off the backdrop — but no edge closes it off
// (a white product whose lit side is the sweep's own tone), so it could
// not be cut out without guessing.

// noObject is the refusal of an image with no object cut out: seen tells
// whether something differs from the backdrop (its colour at the centre).
type noObject struct {
	seen     bool
	backdrop string
}

// Error is the public reason.
func (e *noObject) Error() string {
	if e.seen {
		return fmt.Sprintf("an object was seen but could not be cut out: its outline or shading shows against the "+
			"backdrop (%s at the centre) but no edge separates it from the backdrop all round (a white or light "+
			"product on a backdrop of its own tone); a backdrop of another tone, or a light that outlines the "+
			"product, lets it be cut out", e.backdrop)
	}
	return fmt.Sprintf("no object was found: nothing in the image differs from its backdrop (%s at the centre)",
		e.backdrop)
}

// refusal is the refusal of img, whose backdrop is bgMid at the centre,
// at tolerance tol.
func refusal(ctx context.Context, img image.Image, tol float64, bgMid colour.Lab) error {
	st, _, _, err := newCutState(ctx, img, tol)
	if err != nil {
		return err
	}
	defer st.release()
	return &noObject{seen: st.seen(), backdrop: bgMid.Hex()}
}

// seen tells whether something in the image differs from the backdrop:
// a long line (shadeLine pixels: an outline, never the grain), or
// minObjectShare of the image off the fitted backdrop, smoothed, by more
// than the noise allows (shadeLevel levels, shadeNoise × the noise).
func (st *cutState) seen() bool {
	st.candidates()
	st.walls()
	W := st.W
	for _, off := range longLines(st.lines, W, st.H) {
		if !off {
			return true
		}
	}
	lum := smoothLum(st.px)
	least := max(shadeLevel, shadeNoise*st.noise)
	k := 0
	for i := range st.n {
		if d := float64(lum[i]) - st.bd.lum(i, W); d < -least || d > least {
			k++
		}
	}
	return float64(k) >= minObjectShare*float64(st.n)
}
