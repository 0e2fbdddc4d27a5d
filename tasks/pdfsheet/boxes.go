package pdfsheet

import "image/color"

// Box is one thing drawn on a sheet, as its bounding box in points from
// the page's top-left corner: tests read a sheet's boxes to check that no
// text runs into other text or over a swatch or an image.
type Box struct {
	// Page is the page, from 1.
	Page int
	// Kind is text, fill (a filled rectangle or swatch) or image.
	Kind string
	// X, Y, W and H bound the box.
	X, Y, W, H float64
	// Text is the text drawn, for a text box.
	Text string
}

// The kinds of a Box.
const (
	BoxText  = "text"
	BoxFill  = "fill"
	BoxImage = "image"
)

// Boxes lists what the sheet has drawn, in order.
func (s *Sheet) Boxes() []Box { return s.boxes }

// record keeps a box of the current page.
func (s *Sheet) record(kind string, x, y, w, h float64, text string) {
	s.boxes = append(s.boxes, Box{Page: s.page, Kind: kind, X: x, Y: y, W: w, H: h, Text: text})
}

// Overlaps says whether a and b are on one page and cross by more than
// tol points each way.
func (a Box) Overlaps(b Box, tol float64) bool {
	if a.Page != b.Page {
		return false
	}
	dx := min(a.X+a.W, b.X+b.W) - max(a.X, b.X)
	dy := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	return dx > tol && dy > tol
}

// TextWidth is the width in points of str in the regular or bold font at
// size.
func (s *Sheet) TextWidth(str string, size float64, bold bool) float64 {
	family := "regular"
	if bold {
		family = "bold"
	}
	s.check(s.pdf.SetFont(family, "", size))
	w, err := s.pdf.MeasureTextWidth(str)
	if err != nil {
		return 0
	}
	return w
}

// TextRight writes str with its top-right corner at (right, y).
func (s *Sheet) TextRight(right, y float64, str string, size float64, bold bool, c color.RGBA) {
	s.Text(right-s.TextWidth(str, size, bold), y, str, size, bold, c, 0)
}

// OnPage runs draw on page p (from 1) of the pages so far, as for a footer
// that needs the page count, then goes back to the last page.
func (s *Sheet) OnPage(p int, draw func()) {
	last := s.page
	if p < 1 || p > last {
		return
	}
	s.check(s.pdf.SetPage(p))
	s.page = p
	draw()
	s.check(s.pdf.SetPage(last))
	s.page = last
}

// BoxCallout is a label set on a picture on purpose (a measurement
// point's letter on a flat sketch): it may sit on an image, never on text.
const BoxCallout = "callout"

// Callout writes a short label centred on (x, y) on a white tab outlined
// in c, over whatever is drawn there.
func (s *Sheet) Callout(x, y float64, str string, size float64, c color.RGBA) {
	w := s.TextWidth(str, size, true) + size*0.6
	h := size * 1.3
	s.pdf.SetFillColor(0xff, 0xff, 0xff)
	s.pdf.SetStrokeColor(c.R, c.G, c.B)
	s.pdf.SetLineWidth(0.6)
	s.pdf.RectFromUpperLeftWithStyle(x-w/2, y-h/2, w, h, "FD")
	s.check(s.pdf.SetFont("bold", "", size))
	s.pdf.SetTextColor(c.R, c.G, c.B)
	s.pdf.SetXY(x-w/2+size*0.3, y-h/2+size*0.15)
	s.check(s.pdf.Cell(nil, str))
	s.record(BoxCallout, x-w/2, y-h/2, w, h, str)
}

// Drawing records a box of vector drawing (a flat sketch's paths) among
// the sheet's boxes, as a picture: callouts may sit on it, text may not.
func (s *Sheet) Drawing(x, y, w, h float64) { s.record(BoxImage, x, y, w, h, "") }
