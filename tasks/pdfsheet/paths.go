package pdfsheet

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strings"
)

// Cubic is one cubic Bézier segment in page points (y down): from P[0]
// through the controls P[1] and P[2] to P[3].
type Cubic [4][2]float64

// Path is closed outlines, each a run of cubic segments end to end, all
// stroked Width points wide in Colour.
type Path struct {
	Rings  [][]Cubic
	Width  float64
	Colour color.RGBA
}

// Paths draws paths in the box (x, y, w, h) of the page, each ring as ONE
// closed PDF path (moveto, curveto…, closepath, one stroke), so its joins
// are drawn as joins and the page holds a proper vector outline. gopdf
// strokes a curve at a time, so the paths are written as a one-page PDF
// of their own and placed as a form XObject (gopdf's page import); the
// box is recorded as a drawing (Drawing).
func (s *Sheet) Paths(x, y, w, h float64, paths []Path) {
	var c strings.Builder
	c.WriteString("1 J 1 j\n") // round caps and joins
	p := func(q [2]float64) string { return fmt.Sprintf("%.3f %.3f", q[0]-x, h-(q[1]-y)) }
	for _, path := range paths {
		fmt.Fprintf(&c, "%.3f w %.4f %.4f %.4f RG\n", path.Width,
			float64(path.Colour.R)/255, float64(path.Colour.G)/255, float64(path.Colour.B)/255)
		for _, ring := range path.Rings {
			if len(ring) == 0 {
				continue
			}
			c.WriteString(p(ring[0][0]) + " m\n")
			for _, b := range ring {
				c.WriteString(p(b[1]) + " " + p(b[2]) + " " + p(b[3]) + " c\n")
			}
			c.WriteString("h S\n")
		}
	}
	doc := formPDF(w, h, c.String())
	rs := io.ReadSeeker(bytes.NewReader(doc))
	// gofpdi keys an imported stream by its address: keep each one alive
	// so no later stream is taken for it.
	s.forms = append(s.forms, &rs)
	tpl := s.pdf.ImportPageStream(&rs, 1, "/MediaBox")
	s.pdf.UseImportedTemplate(tpl, x, y, w, h)
	s.Drawing(x, y, w, h)
}

// formPDF is a one-page PDF of w × h points whose page draws content.
func formPDF(w, h float64, content string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.3f %.3f] /Resources << >> /Contents 4 0 R >>", w, h),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content)+1, content),
	}
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n")
	xref := WriteObjects(&out, objs)
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return out.Bytes()
}
