package records

import (
	"fmt"
	"image"
	"math"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// brandSheet draws the kit as a PNG sheet.
func brandSheet(k *kit, looks []KitLook, imgs []image.Image, notes string) image.Image {
	const width, pad = 1800, 48
	noteLines := wrap(notes, 24, width-2*pad)
	h := 166 + 420 + len(k.boards)*110 + 60
	if len(looks) > 0 {
		h += ((len(looks)+5)/6)*360 + 60
	}
	h += len(noteLines)*34 + 80
	out := canvas(width, h, paper)
	text(out, pad, 96, k.name, 56, true, ink, width-2*pad)
	text(
		out,
		pad,
		138,
		"Brand kit · "+plural(
			len(k.colours),
			"colour",
		)+" · "+plural(
			len(k.boards),
			"moodboard",
		)+" · "+plural(
			len(looks),
			"look",
		),
		24,
		false,
		muted,
		0,
	)
	y := 176
	cw := (width - 2*pad - (len(k.colours)-1)*16) / len(k.colours)
	for i, c := range k.colours {
		x := pad + i*(cw+16)
		swatchRect(out, image.Rect(x, y, x+cw, y+280), c.Hex)
		text(out, x, y+316, c.Hex, 22, true, ink, cw)
		text(out, x, y+344, colour.Label(c.Name), 20, false, muted, cw)
		rgb := tasks.ParseColour(c.Hex)
		text(out, x, y+370, fmt.Sprintf("RGB %d %d %d", rgb.R, rgb.G, rgb.B), 16, false, muted, cw)
		text(out, x, y+392, colour.CMYKLabel(tasks.ParseColour(c.Hex)), 16, false, muted, cw)
	}
	y += 440
	for _, mb := range k.boards {
		text(out, pad, y+24, mb.Name, 22, true, ink, width-2*pad)
		x := pad
		if mb.Analysis != nil {
			for j, c := range mb.Analysis.Palette {
				w := int(math.Round(c.Weight * float64(width-2*pad)))
				if j == len(mb.Analysis.Palette)-1 {
					w = width - pad - x
				}
				fill(out, image.Rect(x, y+40, x+w, y+90), tasks.ParseColour(c.Hex))
				x += w
			}
			outline(out, image.Rect(pad, y+40, width-pad, y+90), rule)
		}
		y += 110
	}
	if len(looks) > 0 {
		y += 20
		text(out, pad, y+24, "Looks", 28, true, ink, 0)
		y += 40
		lw := (width - 2*pad - 5*24) / 6
		for i, l := range looks {
			x := pad + (i%6)*(lw+24)
			ly := y + (i/6)*360
			cover(out, image.Rect(x, ly, x+lw, ly+lw), imgs[i])
			for j, m := range l.Match {
				mx := x + j*(lw/3)
				swatchRect(out, image.Rect(mx, ly+lw+8, mx+lw/3-4, ly+lw+44), m.Hex)
				mark := "≈ " + m.KitHex
				if !m.OnBrand {
					mark = "off " + m.KitHex
				}
				text(out, mx, ly+lw+66, mark, 14, false, muted, lw/3-4)
			}
		}
		y += ((len(looks)+5)/6)*360 + 20
	}
	if len(noteLines) > 0 {
		text(out, pad, y+30, "Notes", 28, true, ink, 0)
		for i, line := range noteLines {
			text(out, pad, y+72+i*34, line, 24, false, ink, 0)
		}
	}
	return out
}

// brandPDF lays the kit out on one A4 page.
func brandPDF(k *kit, looks []KitLook, imgs []image.Image, notes string) ([]byte, error) {
	s := pdfsheet.A4(k.name+" brand kit", false)
	const m = 40.0
	inner := s.W - 2*m
	s.Text(m, m, k.name, 26, true, ink, inner)
	s.Text(
		m,
		m+34,
		"Brand kit · "+plural(
			len(k.colours),
			"colour",
		)+" · "+plural(
			len(k.boards),
			"moodboard",
		)+" · "+plural(
			len(looks),
			"look",
		),
		11,
		false,
		muted,
		inner,
	)
	y := m + 64
	per := min(len(k.colours), 6)
	rows := (len(k.colours) + per - 1) / per
	// The colours fill the page's top (tall swatches for one row) when the
	// page has room; a kit with looks or many boards keeps them short.
	roomy := len(looks) == 0 && len(k.boards) <= 2
	swH := 80.0
	if roomy {
		swH = 170
		if rows > 1 {
			swH = 110
		}
	}
	pitch := swH + 62
	stripH, boardH := 18.0, 44.0
	if roomy {
		stripH, boardH = 30, 80
	}
	cw := (inner - float64(per-1)*8) / float64(per)
	for i, c := range k.colours {
		x := m + float64(i%per)*(cw+8)
		cy := y + float64(i/per)*pitch
		s.Swatch(x, cy, cw, swH, tasks.ParseColour(c.Hex))
		s.Text(x, cy+swH+6, c.Hex, 10, true, ink, cw)
		s.Text(x, cy+swH+20, colour.Label(c.Name), 9, false, muted, cw)
		rgb := tasks.ParseColour(c.Hex)
		s.Text(x, cy+swH+33, fmt.Sprintf("RGB %d %d %d", rgb.R, rgb.G, rgb.B), 8, false, muted, cw)
		s.Text(x, cy+swH+45, colour.CMYKLabel(tasks.ParseColour(c.Hex)), 8, false, muted, cw)
	}
	y += float64(rows)*pitch + 8
	for _, mb := range k.boards {
		s.Text(m, y, mb.Name, 11, true, ink, inner)
		x := m
		if mb.Analysis != nil {
			pal := mb.Analysis.Palette
			for j, c := range pal {
				w := c.Weight * inner
				if j == len(pal)-1 {
					w = m + inner - x
				}
				s.Rect(x, y+18, w, stripH, tasks.ParseColour(c.Hex))
				x += w
			}
			s.Outline(m, y+18, inner, stripH, pdfsheet.SwatchRule)
			// Each colour of the board named with its share.
			chipW := inner / float64(max(len(pal), 1))
			for j, c := range pal {
				if !roomy {
					break
				}
				cx := m + float64(j)*chipW
				s.Swatch(cx, y+56, 10, 10, tasks.ParseColour(c.Hex))
				s.Text(cx+14, y+57, fmt.Sprintf("%s %.0f%%", colour.Label(c.Name), c.Weight*100), 7.5, false, ink,
					chipW-16)
			}
		}
		y += boardH
	}
	if len(looks) > 0 {
		s.Text(m, y, "Looks", 13, true, ink, 0)
		y += 20
		// The looks take the room left above the notes: smaller tiles
		// for a fuller kit, so the sheet stays one page.
		lw := (inner - 5*8) / 6
		reserve := 0.0
		if notes != "" {
			reserve = 80
		}
		lookRows := float64((len(looks) + 5) / 6)
		lw = max(24, min(lw, (s.H-m-y-reserve)/lookRows-30))
		for i, l := range looks {
			x := m + float64(i%6)*(lw+8)
			ly := y + float64(i/6)*(lw+30)
			s.Image(imgs[i], x, ly, lw, lw)
			on := 0
			for _, mt := range l.Match {
				if mt.OnBrand {
					on++
				}
			}
			label := fmt.Sprintf("%d of %d colours on brand", on, len(l.Match))
			if lw < 80 {
				label = fmt.Sprintf("%d/%d on brand", on, len(l.Match))
			}
			s.Text(x, ly+lw+4, label, 5.5, false, muted, lw+7)
		}
		y += float64((len(looks)+5)/6) * (lw + 30)
	}
	if notes != "" {
		s.Text(m, y+6, "Notes", 13, true, ink, 0)
		for i, line := range s.Wrap(notes, 10, false, inner) {
			if y+28+float64(i)*14 > s.H-m {
				break
			}
			s.Text(m, y+28+float64(i)*14, line, 10, false, ink, inner)
		}
	}
	return s.Bytes()
}
