package production

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// flatSketches draws the flats traced from the first two style images
// (front, back) with the measurement points called out on them, lettered
// as in the measurement table, and a legend of every point.
func (l *layout) flatSketches() {
	y := l.newPage("Flat sketch")
	s := l.s
	legendW := 230.0
	views := min(2, len(l.images))
	names := []string{"Front", "Back"}
	if views == 1 {
		names[0] = "Flat"
	}
	gap := 20.0
	boxW := (s.W - 2*margin - legendW - gap*float64(views)) / float64(views)
	boxH := l.bottom() - y - 24
	placed := make([]bool, len(l.p.measurements))
	for v := range views {
		f := traceFlat(l.ctx, l.images[v])
		x := margin + float64(v)*(boxW+gap)
		scale := min(boxW/float64(f.w), boxH/float64(f.h))
		fw, fh := float64(f.w)*scale, float64(f.h)*scale
		ox, oy := x+(boxW-fw)/2, y+(boxH-fh)/2
		l.drawFlat(f, ox, oy, scale)
		how := "backdrop removed"
		if !f.removed {
			how = "backdrop not plain: traced whole"
		}
		s.Text(x, y+boxH+8, fmt.Sprintf("%s · from style image %d, %s", names[v], v+1, how), 8, false, muted, boxW)
		b := readBody(f)
		var labels [][4]float64
		for i, m := range l.p.measurements {
			back := strings.Contains(strings.ToLower(m.Point), "back")
			if placed[i] || (views == 2 && back != (v == 1)) {
				continue
			}
			seg, ok := b.callout(m.Point)
			if !ok {
				continue
			}
			placed[i] = true
			labels = l.drawCallout(ox, oy, scale, seg, ref(i), labels)
		}
	}
	lx := s.W - margin - legendW
	s.Text(lx, y, "Points of measure", 11, true, ink, legendW)
	ly := y + 20
	for i, m := range l.p.measurements {
		if ly+12 > l.bottom() {
			s.Text(lx, ly, fmt.Sprintf("… and %d more in the table", len(l.p.measurements)-i), 8, false, muted, legendW)
			break
		}
		s.Text(lx, ly, ref(i), 8.5, true, callout, 20)
		label := m.Point
		if !placed[i] {
			label += " (see table; not placed on the sketch)"
		}
		s.Text(lx+22, ly, label, 8.5, false, ink, legendW-22)
		ly += 12.5
	}
}

// drawFlat draws a flat as vector paths: the outlines of its colour areas
// (seams, stripes, panels) in thin grey, then the silhouette's outline in
// ink, each a closed run of Bézier curves drawn as one PDF path.
func (l *layout) drawFlat(f flat, ox, oy, scale float64) {
	at := func(p pt) [2]float64 { return [2]float64{ox + p.x*scale, oy + p.y*scale} }
	path := func(rings [][]bezier, width float64, c color.RGBA) pdfsheet.Path {
		out := pdfsheet.Path{Width: width, Colour: c}
		for _, ring := range rings {
			var r []pdfsheet.Cubic
			for _, b := range ring {
				r = append(r, pdfsheet.Cubic{at(b.a), at(b.b), at(b.c), at(b.d)})
			}
			out.Rings = append(out.Rings, r)
		}
		return out
	}
	l.s.Paths(ox, oy, float64(f.w)*scale, float64(f.h)*scale,
		[]pdfsheet.Path{path(f.details, 0.6, seamInk), path(f.outlines(), 1.3, ink)})
}

// seamInk is the colour of a flat's inner lines.
var seamInk = color.RGBA{0x80, 0x80, 0x80, 0xff}

// drawCallout draws a measurement line with end ticks and its letter,
// the letter beside the line where it meets no label already placed
// (taken answers the labels' boxes so far, with this one added).
func (l *layout) drawCallout(ox, oy, scale float64, g segment, letter string, taken [][4]float64) [][4]float64 {
	s := l.s
	x1, y1, x2, y2 := ox+g.x1*scale, oy+g.y1*scale, ox+g.x2*scale, oy+g.y2*scale
	s.Line(x1, y1, x2, y2, 0.9, callout)
	// Ticks across the line at both ends.
	dx, dy := x2-x1, y2-y1
	n := max(1e-6, hypot(dx, dy))
	px, py := -dy/n*4, dx/n*4
	s.Line(x1-px, y1-py, x1+px, y1+py, 0.9, callout)
	s.Line(x2-px, y2-py, x2+px, y2+py, 0.9, callout)
	// Beside the line (above a level one, right of a steep one), at its
	// middle, then along it, then on its other side.
	ox2, oy2 := 0.0, -9.0
	if abs(dx) < abs(dy) {
		ox2, oy2 = 10, 0
	}
	const half = 7.0
	var mx, my float64
	for _, c := range [][2]float64{{0.5, 1}, {0.3, 1}, {0.7, 1}, {0.15, 1}, {0.85, 1}, {0.5, -1}, {0.3, -1}, {0.7, -1}} {
		mx, my = x1+dx*c[0]+ox2*c[1], y1+dy*c[0]+oy2*c[1]
		free := true
		for _, r := range taken {
			if mx+half > r[0] && mx-half < r[2] && my+half > r[1] && my-half < r[3] {
				free = false
			}
		}
		if free {
			break
		}
	}
	s.Callout(mx, my, letter, 8, callout)
	return append(taken, [4]float64{mx - half, my - half, mx + half, my + half})
}

// gradingTable draws the grade rules: each point's measurement in the base
// size (the middle one) and its step from size to size.
func (l *layout) gradingTable() {
	title := "Grading (mm)"
	y := l.section(title, 20+3*rowH)
	s := l.s
	sizes := l.p.sizes
	base := sizes[(len(sizes)-1)/2]
	refW, baseW := 28.0, 70.0
	pointW, colW, font := sizeColumns(s.W, refW+baseW, len(sizes)-1)
	x0 := margin + refW
	// A step's column is headed "S → M", or, too narrow for both, by the
	// size it steps to (the caption says so).
	stepHead := func(j int) string {
		if colW < 60 {
			return sizes[j]
		}
		return sizes[j-1] + " → " + sizes[j]
	}
	head := func(y float64) float64 {
		s.Text(margin, y, "Ref", 9, true, muted, refW)
		s.Text(x0, y, "Point of measure", 9, true, muted, pointW)
		s.Text(x0+pointW, y, "Base "+base, 9, true, muted, baseW)
		for j := 1; j < len(sizes); j++ {
			s.Text(x0+pointW+baseW+float64(j-1)*colW, y, stepHead(j), 9, true, muted, colW-4)
		}
		s.Line(margin, y+14, s.W-margin, y+14, 0.5, rule)
		return y + 20
	}
	y = head(y)
	for i, m := range l.p.measurements {
		if y+rowH > l.bottom()-16 {
			y = head(l.newPage(title + " (continued)"))
		}
		s.Text(margin, y, ref(i), 10, true, callout, refW)
		s.Text(x0, y, m.Point, 10, false, ink, pointW-8)
		b := "–"
		if v, ok := m.Sizes[base]; ok {
			b = mm(v)
		}
		s.Text(x0+pointW, y, b, 10, false, ink, baseW)
		for j := 1; j < len(sizes); j++ {
			a, okA := m.Sizes[sizes[j-1]]
			c, okC := m.Sizes[sizes[j]]
			step := "–"
			if okA && okC {
				step = signed(c - a)
			}
			s.Text(x0+pointW+baseW+float64(j-1)*colW, y, step, font, false, ink, colW-4)
		}
		y += rowH
	}
	s.Text(margin, y+2, "Steps are the change from the size before to the size named; the base size is the middle of "+
		"the run.",
		7, false, muted, 0)
	l.y = y + 12
}

// constructionNotes lists the construction notes, numbered, then the
// notes in full; a pack with neither has no such page.
func (l *layout) constructionNotes() {
	if len(l.p.construction) == 0 && l.p.notes == "" {
		return
	}
	title := "Construction"
	s := l.s
	inner := s.W - 2*margin
	// The notes stay together on one page when they fit on one.
	need := 0.0
	for _, c := range l.p.construction {
		need += float64(len(s.Wrap(c, 10, false, inner-28)))*15 + 4
	}
	if l.p.notes != "" {
		need += 26 + float64(len(s.Wrap(l.p.notes, 10, false, inner)))*15
	}
	y := l.section(title, min(need, l.bottom()-margin-120))
	line := func(x float64, text string, size float64) {
		if y+size*1.5 > l.bottom() {
			y = l.newPage(title + " (continued)")
		}
		s.Text(x, y, text, size, false, ink, s.W-margin-x)
		y += size * 1.5
	}
	for i, c := range l.p.construction {
		if y+15 > l.bottom() {
			y = l.newPage(title + " (continued)")
		}
		s.Text(margin, y, fmt.Sprintf("%d.", i+1), 10, true, muted, 24)
		for _, w := range s.Wrap(c, 10, false, inner-28) {
			line(margin+28, w, 10)
		}
		y += 4
	}
	if l.p.notes != "" {
		y += 8
		s.Text(margin, y, "Notes", 11, true, ink, 0)
		y += 18
		for _, w := range s.Wrap(l.p.notes, 10, false, inner) {
			line(margin, w, 10)
		}
	}
	l.y = y
}

// signed writes a step with its sign: +30, −12.5, 0.
func signed(v float64) string {
	switch {
	case v > 0:
		return "+" + mm(v)
	case v < 0:
		return "−" + mm(-v)
	}
	return "0"
}

func hypot(a, b float64) float64 { return math.Hypot(a, b) }

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
