package production

import (
	"fmt"
	"image"

	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// proof writes the PDF proof of a print: one page of the trim size plus
// bleed, the art on it edge to edge, and crop marks at the trim. With
// bleed the marks run from the page edge toward each trim corner along the
// trim lines, stopping short of it; without bleed they are 4 mm ticks
// inside each corner. Each mark is black on a white stroke, so it shows on
// any art. It answers the page size in points.
func proof(art image.Image, p printSize, ref string) ([]byte, float64, float64, error) {
	k := pdfsheet.PointsPerMM
	w, h, b := (p.wMM+2*p.b)*k, (p.hMM+2*p.b)*k, p.b*k
	s := pdfsheet.New(
		fmt.Sprintf("Print proof %g × %g mm, %g mm bleed, %d dpi (%s)", p.wMM, p.hMM, p.b, p.dpi, ref),
		w,
		h,
	)
	s.Image(art, 0, 0, w, h)
	mark := func(x1, y1, x2, y2 float64) {
		s.Line(x1, y1, x2, y2, 1.2, white)
		s.Line(x1, y1, x2, y2, 0.4, ink)
	}
	left, top, right, bottom := b, b, w-b, h-b
	if b > 0 {
		gap := min(1*k, b/3) // marks stop short of the trim
		for _, x := range []float64{left, right} {
			mark(x, 0, x, top-gap)
			mark(x, h, x, bottom+gap)
		}
		for _, y := range []float64{top, bottom} {
			mark(0, y, left-gap, y)
			mark(w, y, right+gap, y)
		}
	} else {
		t := 4 * k
		for _, c := range [][4]float64{{left, top, 1, 1}, {right, top, -1, 1}, {left, bottom, 1, -1}, {right, bottom, -1, -1}} {
			mark(c[0], c[1], c[0]+c[2]*t, c[1])
			mark(c[0], c[1], c[0], c[1]+c[3]*t)
		}
	}
	data, err := s.Bytes()
	return data, w, h, err
}
