package production

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// layout draws a techpack on A4 landscape pages.
type layout struct {
	p      pack
	r      resolved
	images []image.Image
	s      *pdfsheet.Sheet
	pages  int
	ctx    context.Context
	// y is where the current page's content has reached.
	y float64
}

// The page margin and the height of a table row, in points.
const (
	margin = 36.0
	rowH   = 20.0
)

// pdf writes the techpack and answers its bytes and page count.
func (l *layout) pdf() ([]byte, int, error) {
	l.s = pdfsheet.A4(l.p.name+" techpack", true)
	l.pages = 1
	l.cover()
	l.flatSketches()
	l.fabricCard()
	l.colourways()
	l.measurementTable()
	l.gradingTable()
	l.bomTable()
	l.constructionNotes()
	for p := 1; p <= l.pages; p++ {
		l.s.OnPage(p, func() { l.runningHead(p) })
	}
	b, err := l.s.Bytes()
	return b, l.pages, err
}

// runningHead writes, at the head and foot of page p, what a factory
// files a page by: the style code and name, the version and date, and the
// page number.
func (l *layout) runningHead(p int) {
	s := l.s
	id := l.p.name
	if l.p.styleCode != "" {
		id = l.p.styleCode + " · " + l.p.name
	}
	right := "Version " + l.p.version + " · " + l.p.date
	rw := s.TextWidth(right, 8, false)
	s.Text(margin, 16, id, 8, true, ink, s.W-2*margin-rw-24)
	s.TextRight(s.W-margin, 16, right, 8, false, muted)
	s.Line(margin, s.H-26, s.W-margin, s.H-26, 0.4, rule)
	s.Text(margin, s.H-20, "Techpack · "+l.p.name, 7, false, muted, 400)
	s.TextRight(s.W-margin, s.H-20, fmt.Sprintf("Page %d of %d", p, l.pages), 7, false, muted)
}

// newPage starts a page with the page's title.
func (l *layout) newPage(title string) float64 {
	l.s.Page()
	l.pages++
	l.s.Text(margin, margin, title, 20, true, ink, 0)
	l.s.Line(margin, margin+30, l.s.W-margin, margin+30, 0.5, rule)
	l.y = margin + 44
	return l.y
}

// section starts a section under the last one on the page when need
// points fit there, else on a new page: short tables share a page.
func (l *layout) section(title string, need float64) float64 {
	if l.y == 0 || l.y+40+need > l.bottom() {
		return l.newPage(title)
	}
	y := l.y + 18
	l.s.Text(margin, y, title, 16, true, ink, 0)
	l.s.Line(margin, y+24, l.s.W-margin, y+24, 0.5, rule)
	l.y = y + 36
	return l.y
}

// bottom is the lowest point a page's content reaches, above the foot.
func (l *layout) bottom() float64 { return l.s.H - margin }

// cover draws the name, the records it uses, the style images and notes.
func (l *layout) cover() {
	s, inner := l.s, l.s.W-2*margin
	s.Text(margin, margin, "Techpack", 11, false, muted, 0)
	s.Text(margin, margin+16, l.p.name, 28, true, ink, inner)
	sub := []string{l.r.fabric.Name, plural(len(l.p.colourways), "colourway"), plural(len(l.p.sizes), "size")}
	if l.r.rangePlan != nil {
		sub = append([]string{"Range plan " + l.r.rangePlan.Name + " (" + l.r.rangePlan.Season + ")"}, sub...)
	}
	s.Text(margin, margin+54, strings.Join(sub, " · "), 11, false, muted, inner)
	top, bottom := margin+84, l.bottom()
	if l.p.notes != "" {
		bottom -= 90
	}
	n := len(l.images)
	gap := 12.0
	w := (inner - float64(n-1)*gap) / float64(n)
	h := bottom - top
	for i, img := range l.images {
		// Each image keeps its proportions inside its cell.
		b := img.Bounds()
		iw, ih := w, w*float64(b.Dy())/float64(b.Dx())
		if ih > h {
			iw, ih = h*float64(b.Dx())/float64(b.Dy()), h
		}
		x := margin + float64(i)*(w+gap) + (w-iw)/2
		s.Image(img, x, top, iw, ih)
		s.Outline(x, top, iw, ih, rule)
	}
	if l.p.notes != "" {
		s.Text(margin, bottom+12, "Notes", 11, true, ink, 0)
		for i, line := range s.Wrap(l.p.notes, 9, false, inner) {
			if i == 4 {
				break
			}
			s.Text(margin, bottom+30+float64(i)*13, line, 9, false, ink, inner)
		}
	}
}

// fabricCard draws the fabric's swatch and facts.
func (l *layout) fabricCard() {
	y := l.newPage("Fabric")
	s, f := l.s, l.r.fabric
	side := 220.0
	s.Image(f.Swatch(440), margin, y, side, side)
	s.Outline(margin, y, side, side, rule)
	x := margin + side + 30
	s.Text(x, y, f.Name, 18, true, ink, s.W-x-margin)
	rows := [][2]string{
		{"Code", f.Code},
		{"Weight", fmt.Sprintf("%d g/m² · %.1f oz/yd² · %s", f.Facts.WeightGSM, f.WeightOz, f.WeightClass)},
		{"Composition", composition(f.Facts.Composition)},
		{"Construction", label(f.Facts.Construction)},
	}
	rows = append(rows, [2]string{"Colour", recordread.ColourLine(f.FabricFields)})
	rows = append(rows, recordread.TradeRows(f.Trade, func(code string, v float64) string {
		return fmt.Sprintf("%s %.2f", code, v)
	})...)
	for i, r := range rows {
		ry := y + 36 + float64(i)*24
		s.Text(x, ry, r[0], 10, true, muted, 0)
		s.Text(x+120, ry, r[1], 11, false, ink, s.W-x-margin-120)
	}
	l.y = y + max(side, 36+float64(len(rows))*24)
}

// colourways draws each colourway as swatches with hex, sRGB and CMYK.
func (l *layout) colourways() {
	y := l.section("Colourways", 142)
	s := l.s
	const sw, gap, blockH = 110.0, 10.0, 142.0
	for _, w := range l.p.colourways {
		if y+blockH > l.bottom()-14 {
			y = l.newPage("Colourways (continued)")
		}
		s.Text(margin, y, w.Name, 12, true, ink, 0)
		for j, hex := range w.Colours {
			x := margin + float64(j)*(sw+gap)
			c := tasks.ParseColour(hex)
			s.Swatch(x, y+18, sw, 60, c)
			s.Text(x, y+82, hex, 10, true, ink, sw)
			s.Text(x, y+96, fmt.Sprintf("sRGB %d %d %d", c.R, c.G, c.B), 8, false, muted, sw)
			s.Text(x, y+108, colour.CMYKLabel(tasks.ParseColour(hex)), 8, false, muted, sw)
		}
		y += blockH
	}
	s.Text(margin, y-8, cmykNote(colour.CurrentPress()), 7, false, muted, 0)
	l.y = y + 4
}

// sizeColumns lays out a table of n size columns beside the point of
// measure on a page W wide, with fixed points of other columns: the point
// column 220 pt wide and a size up to 80, the point column narrowed (to
// 130 at least) so a size keeps minSizeCol, and the values set at 8.5 pt
// instead of 10 in columns under 40 pt: a run of 16 sizes fits a
// landscape page.
func sizeColumns(W, fixed float64, n int) (pointW, colW, font float64) {
	const minSizeCol = 34.0
	avail := W - 2*margin - fixed
	n = max(n, 1)
	pointW = 220
	if (avail-pointW)/float64(n) < minSizeCol {
		pointW = max(130, avail-minSizeCol*float64(n))
	}
	colW = min(80, (avail-pointW)/float64(n))
	font = 10
	if colW < 40 {
		font = 8.5
	}
	return pointW, colW, font
}

// measurementTable draws the graded measurements: one row per point of
// measure, one column per size.
func (l *layout) measurementTable() {
	title := "Measurements (mm)"
	y := l.section(title, 20+3*rowH)
	s := l.s
	tolW, refW := 70.0, 28.0
	pointW, colW, font := sizeColumns(s.W, refW+tolW, len(l.p.sizes))
	x0 := margin + refW
	head := func(y float64) float64 {
		s.Text(margin, y, "Ref", 9, true, muted, refW)
		s.Text(x0, y, "Point of measure", 9, true, muted, pointW)
		s.Text(x0+pointW, y, "Tol. ± mm", 9, true, muted, tolW)
		for j, size := range l.p.sizes {
			s.Text(x0+pointW+tolW+float64(j)*colW, y, size, 9, true, muted, colW)
		}
		s.Line(margin, y+14, s.W-margin, y+14, 0.5, rule)
		return y + 20
	}
	y = head(y)
	for i, m := range l.p.measurements {
		if y+rowH > l.bottom() {
			y = head(l.newPage(title + " (continued)"))
		}
		s.Text(margin, y, ref(i), 10, true, callout, refW)
		s.Text(x0, y, m.Point, 10, false, ink, pointW-8)
		s.Text(x0+pointW, y, mm(m.ToleranceMM), 10, false, ink, tolW)
		for j, size := range l.p.sizes {
			v, ok := m.Sizes[size]
			text := "–"
			if ok {
				text = mm(v)
			}
			s.Text(x0+pointW+tolW+float64(j)*colW, y, text, font, false, ink, colW)
		}
		y += rowH
	}
	l.y = y
}

// bomTable draws the bill of materials.
func (l *layout) bomTable() {
	title := "Bill of materials"
	y := l.section(title, 20+3*rowH)
	s := l.s
	cols := []struct {
		name string
		x, w float64
	}{{"Item", 0, 170}, {"Material", 170, 250}, {"Supplier", 420, 190}, {"Quantity", 610, 80}, {"Unit", 690, 80}}
	head := func(y float64) float64 {
		for _, c := range cols {
			s.Text(margin+c.x, y, c.name, 9, true, muted, c.w)
		}
		s.Line(margin, y+14, s.W-margin, y+14, 0.5, rule)
		return y + 20
	}
	y = head(y)
	for _, b := range l.p.bom {
		if y+rowH > l.bottom() {
			y = head(l.newPage(title + " (continued)"))
		}
		for i, v := range []string{b.Item, b.Material, cmpOr(b.Supplier, "–"), mm(b.Quantity), b.Unit} {
			s.Text(margin+cols[i].x, y, v, 10, false, ink, cols[i].w-8)
		}
		y += rowH
	}
	l.y = y
}

// callout is the colour of measurement callouts.
var callout = color.RGBA{0xC0, 0x39, 0x2B, 0xff}

// ref is the letter of measurement row i: A to Z, then AA, AB…
func ref(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return string(rune('A'+i/26-1)) + string(rune('A'+i%26))
}

// composition writes a fabric's composition: 98% cotton, 2% elastane.
func composition(fibres []recordread.Fibre) string {
	var parts []string
	for _, f := range fibres {
		parts = append(parts, mm(f.Percent)+"% "+label(f.Fibre))
	}
	return strings.Join(parts, ", ")
}

// label writes a vocabulary value as words: organic_cotton → organic cotton.
func label(v string) string { return strings.ReplaceAll(v, "_", " ") }

// plural writes n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// cmykNote says under the swatches how their CMYK values were made.
func cmykNote(p colour.Press) string {
	if p.Profiled() {
		return "CMYK through the ICC profile " + p.ProfileName() + " (relative colorimetric); a press with another " +
			"profile needs its own values."
	}
	return "CMYK values marked (formula) are a plain conversion without an ICC profile; ask the printer or dye house " +
		"for profiled values."
}
