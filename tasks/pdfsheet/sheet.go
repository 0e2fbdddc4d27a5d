// Package pdfsheet writes the PDF sheets tasks deliver (brand kits, range
// plans, techpacks, print proofs): pages in points whose text is set in the
// Go fonts, embedded as TrueType subsets with their Unicode maps, so the
// text can be searched, selected and copied.
package pdfsheet

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"

	"github.com/signintech/gopdf"
	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// PointsPerMM converts millimetres to PDF points (1 pt = 1/72 inch).
const PointsPerMM = 72 / 25.4

// MaxRaster bounds the longer side, in pixels, of an image placed on a
// page: a proof of a large print is drawn at a lower resolution, and an
// image read for a page need not be read larger.
const MaxRaster = 2400

// Sheet is a PDF document under construction. W and H are the page size in
// points. Drawing errors are kept and answered by Bytes.
type Sheet struct {
	pdf  *gopdf.GoPdf
	W, H float64
	err  error
	// page is the current page, from 1; boxes what was drawn (Boxes).
	page  int
	boxes []Box
	// forms are the streams of the pages placed by Paths.
	forms []*io.ReadSeeker
}

// A4 starts a PDF of one A4 page, landscape or portrait.
func A4(title string, landscape bool) *Sheet {
	w, h := gopdf.PageSizeA4.W, gopdf.PageSizeA4.H
	if landscape {
		w, h = h, w
	}
	return New(title, w, h)
}

// New starts a PDF of one page of w × h points.
func New(title string, w, h float64) *Sheet {
	s := &Sheet{pdf: &gopdf.GoPdf{}, W: w, H: h}
	s.pdf.Start(gopdf.Config{PageSize: gopdf.Rect{W: w, H: h}, Unit: gopdf.UnitPT})
	s.pdf.SetInfo(gopdf.PdfInfo{Title: title, Creator: "taskplatform", Producer: "taskplatform (gopdf)"})
	s.check(s.pdf.AddTTFFontData("regular", goregular.TTF))
	s.check(s.pdf.AddTTFFontData("bold", gobold.TTF))
	s.pdf.AddPage()
	s.page = 1
	return s
}

func (s *Sheet) check(err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
}

// Page starts a new page of the sheet's size.
func (s *Sheet) Page() {
	s.pdf.AddPage()
	s.page++
}

// Pages is the number of pages so far.
func (s *Sheet) Pages() int { return s.page }

// Text writes str with its top-left corner at (x, y), cut with … to width
// points (0: no limit).
func (s *Sheet) Text(x, y float64, str string, size float64, bold bool, c color.RGBA, width float64) {
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
	if w, err := s.pdf.MeasureTextWidth(str); err == nil {
		s.record(BoxText, x, y, w, size, str)
	}
}

// Rect fills a rectangle with c.
func (s *Sheet) Rect(x, y, w, h float64, c color.RGBA) {
	s.pdf.SetFillColor(c.R, c.G, c.B)
	s.pdf.SetStrokeColor(c.R, c.G, c.B)
	s.pdf.RectFromUpperLeftWithStyle(x, y, w, h, "FD")
	s.record(BoxFill, x, y, w, h, "")
}

// Outline strokes a rectangle with c.
func (s *Sheet) Outline(x, y, w, h float64, c color.RGBA) {
	s.pdf.SetLineWidth(0.5)
	s.pdf.SetStrokeColor(c.R, c.G, c.B)
	s.pdf.RectFromUpperLeftWithStyle(x, y, w, h, "D")
}

// Line strokes a line from (x1, y1) to (x2, y2), width points wide.
func (s *Sheet) Line(x1, y1, x2, y2, width float64, c color.RGBA) {
	s.pdf.SetLineWidth(width)
	s.pdf.SetStrokeColor(c.R, c.G, c.B)
	s.pdf.Line(x1, y1, x2, y2)
}

// Image places img in the box, scaled to cover it (the overflow cut
// equally from both sides), at two pixels per point up to MaxRaster
// pixels on the longer side.
func (s *Sheet) Image(img image.Image, x, y, w, h float64) {
	scale := min(2, MaxRaster/max(w, h, 1))
	px := image.NewRGBA(image.Rect(0, 0, max(1, int(w*scale)), max(1, int(h*scale))))
	Cover(px, px.Bounds(), img)
	s.check(s.pdf.ImageFrom(px, x, y, &gopdf.Rect{W: w, H: h}))
	s.record(BoxImage, x, y, w, h, "")
}

// Cover scales and crops img to fill r of dst, centred.
func Cover(dst draw.Image, r image.Rectangle, img image.Image) {
	b := coverRect(img.Bounds(), r)
	d, dok := dst.(*image.RGBA)
	src, sok := img.(*image.RGBA)
	if dok && sok && !r.Empty() && !b.Empty() && r.In(d.Bounds()) && src.Opaque() { // what xdraw does, faster
		scaleBilinear(d, r, src, b)
		return
	}
	xdraw.ApproxBiLinear.Scale(dst, r, img, b, xdraw.Over, nil)
}

// coverRect is the part of an image with bounds b that covers r: the
// middle of b at r's aspect ratio.
func coverRect(b, r image.Rectangle) image.Rectangle {
	sw, sh := b.Dx(), b.Dy()
	if sw*r.Dy() > sh*r.Dx() {
		cw := sh * r.Dx() / max(r.Dy(), 1)
		return image.Rect(b.Min.X+(sw-cw)/2, b.Min.Y, b.Min.X+(sw-cw)/2+cw, b.Max.Y)
	}
	ch := sw * r.Dy() / max(r.Dx(), 1)
	return image.Rect(b.Min.X, b.Min.Y+(sh-ch)/2, b.Max.X, b.Min.Y+(sh-ch)/2+ch)
}

// Bytes ends the document.
func (s *Sheet) Bytes() ([]byte, error) {
	if s.err != nil {
		return nil, fmt.Errorf("write pdf: %w", s.err)
	}
	b, err := s.pdf.GetBytesPdfReturnErr()
	if err != nil {
		return nil, fmt.Errorf("write pdf: %w", err)
	}
	return b, nil
}

// Wrap breaks str into lines of at most width points in the regular or
// bold font at size, on spaces.
func (s *Sheet) Wrap(str string, size float64, bold bool, width float64) []string {
	family := "regular"
	if bold {
		family = "bold"
	}
	s.check(s.pdf.SetFont(family, "", size))
	lines, err := s.pdf.SplitTextWithWordWrap(str, width)
	if err != nil {
		return []string{str}
	}
	return lines
}
