package records

import (
	"fmt"
	"image"
	"image/color"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// sheet is a PDF document of A4 pages in points, its text set in the Go
// fonts embedded as TrueType subsets with their Unicode maps, so the text
// can be searched, selected and copied.
type sheet struct {
	pdf  *gopdf.GoPdf
	w, h float64
	err  error
}

// newSheet starts a PDF of one A4 page, landscape or portrait.
func newSheet(title string, landscape bool) *sheet {
	s := &sheet{pdf: &gopdf.GoPdf{}, w: gopdf.PageSizeA4.W, h: gopdf.PageSizeA4.H}
	if landscape {
		s.w, s.h = s.h, s.w
	}
	s.pdf.Start(gopdf.Config{PageSize: gopdf.Rect{W: s.w, H: s.h}, Unit: gopdf.UnitPT})
	s.pdf.SetInfo(gopdf.PdfInfo{Title: title, Creator: "taskplatform", Producer: "taskplatform (gopdf)"})
	s.check(s.pdf.AddTTFFontData("regular", goregular.TTF))
	s.check(s.pdf.AddTTFFontData("bold", gobold.TTF))
	s.pdf.AddPage()
	return s
}

func (s *sheet) check(err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
}

// page starts a new page.
func (s *sheet) page() { s.pdf.AddPage() }

// text writes str with its top-left corner at (x, y), cut with … to width
// points (0: no limit).
func (s *sheet) text(x, y float64, str string, size float64, bold bool, c color.RGBA, width float64) {
	family := "regular"
	if bold {
		family = "bold"
	}
	s.check(s.pdf.SetFont(family, "", size))
	s.pdf.SetTextColor(c.R, c.G, c.B)
	if width > 0 {
		if w, err := s.pdf.MeasureTextWidth(str); err == nil && w > width {
			r := []rune(str)
			for len(r) > 0 {
				if w, _ := s.pdf.MeasureTextWidth(string(r) + "…"); w <= width {
					break
				}
				r = r[:len(r)-1]
			}
			str = string(r) + "…"
		}
	}
	s.pdf.SetXY(x, y)
	s.check(s.pdf.Cell(nil, str))
}

// rect fills a rectangle with c.
func (s *sheet) rect(x, y, w, h float64, c color.RGBA) {
	s.pdf.SetFillColor(c.R, c.G, c.B)
	s.pdf.SetStrokeColor(c.R, c.G, c.B)
	s.pdf.RectFromUpperLeftWithStyle(x, y, w, h, "FD")
}

// outline strokes a rectangle with c.
func (s *sheet) outline(x, y, w, h float64, c color.RGBA) {
	s.pdf.SetLineWidth(0.5)
	s.pdf.SetStrokeColor(c.R, c.G, c.B)
	s.pdf.RectFromUpperLeftWithStyle(x, y, w, h, "D")
}

// image places img in the box, scaled to cover it.
func (s *sheet) image(img image.Image, x, y, w, h float64) {
	px := image.NewRGBA(image.Rect(0, 0, int(w*2), int(h*2)))
	cover(px, px.Bounds(), img)
	s.check(s.pdf.ImageFrom(px, x, y, &gopdf.Rect{W: w, H: h}))
}

// bytes ends the document.
func (s *sheet) bytes() ([]byte, error) {
	if s.err != nil {
		return nil, fmt.Errorf("write pdf: %w", s.err)
	}
	b, err := s.pdf.GetBytesPdfReturnErr()
	if err != nil {
		return nil, fmt.Errorf("write pdf: %w", err)
	}
	return b, nil
}
