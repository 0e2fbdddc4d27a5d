package colourwork

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
)

// The CIEDE2000 difference within which the garment colour matches one of the design's
// inks, and a halftone_inks colour names one.
const (
	garmentDE  = mergeDE
	halftoneDE = 15
)

// separation is one design separated for a job: its inks, the garment, the
// print order and the films' options.
type separation struct {
	in       *separateInput
	m        *inkMap
	inks     []imagetasks.Swatch // by label
	names    []string            // by label
	garment  int                 // the label the garment shows through, or -1
	order    []int               // the printed labels in print order
	sheet    filmSheet
	trap     int
	choke    int
	halftone []bool // by label
	scr      screen
	job      string
	// fine counts each ink's pixels on lines under fineLimit px wide.
	fine      []int
	fineLimit int
}

// newSeparation separates img for in.
func newSeparation(ctx context.Context, img image.Image, in *separateInput) (*separation, error) {
	m, err := separateInks(ctx, img, in.MaxColours)
	if err != nil {
		return nil, err
	}
	s := &separation{in: in, m: m, garment: -1, job: in.JobName}
	if s.job == "" {
		s.job = in.Image
	}
	cov := m.coverage()
	for j, c := range m.rgb {
		col := color.NRGBA{uint8(math.Round(c[0])), uint8(math.Round(c[1])), uint8(math.Round(c[2])), 255}
		s.inks = append(s.inks, imagetasks.Swatch{Colour: col, Share: cov[j]})
		s.names = append(s.names, colourName(col))
	}
	if in.Garment != nil {
		g := tasks.ParseColour(*in.Garment)
		best, bd := -1, float64(garmentDE)
		for j, sw := range s.inks {
			if d := imagetasks.DeltaE(sw.Colour, g); d <= bd {
				best, bd = j, d
			}
		}
		s.garment = best
	}
	var printed []imagetasks.Swatch
	var labels []int
	for j, sw := range s.inks {
		if j != s.garment {
			printed, labels = append(printed, sw), append(labels, j)
		}
	}
	for _, k := range inkOrder(printed, in.Order) {
		s.order = append(s.order, labels[k])
	}
	if len(s.order) == 0 {
		return nil, fmt.Errorf("every ink of the design is the garment colour %s: there is nothing to print",
			*in.Garment)
	}
	s.fine, s.fineLimit = m.fineLines(in.DPI)
	s.sheet = newSheet(m.w, m.h, in.DPI, asciiLabel(s.job))
	switch {
	case in.TrapPx != nil:
		s.trap = *in.TrapPx
	case in.TrapMM != nil:
		s.trap = mmToPx(*in.TrapMM, in.DPI)
	}
	s.choke = defaultChokePx
	switch {
	case in.ChokePx != nil:
		s.choke = *in.ChokePx
	case in.ChokeMM != nil:
		s.choke = mmToPx(*in.ChokeMM, in.DPI)
	}
	s.halftone = make([]bool, len(s.inks))
	if in.HalftoneLPI != nil {
		s.scr = newScreen(*in.HalftoneLPI, in.HalftoneAngle, in.DPI)
		for _, j := range s.order {
			s.halftone[j] = len(in.HalftoneInks) == 0
		}
		for _, hex := range in.HalftoneInks {
			j, d := s.nearestPrinted(tasks.ParseColour(hex))
			if d > halftoneDE {
				return nil, fmt.Errorf("halftone_inks: %s is not one of the design's inks (nearest %s, ΔE2000 %.0f)",
					hex, s.inks[j].Hex(), d)
			}
			s.halftone[j] = true
		}
	}
	return s, nil
}

// nearestPrinted is the printed ink nearest c and its CIEDE2000 difference.
func (s *separation) nearestPrinted(c color.Color) (int, float64) {
	best, bd := s.order[0], math.Inf(1)
	for _, j := range s.order {
		if d := imagetasks.DeltaE(s.inks[j].Colour, c); d < bd {
			best, bd = j, d
		}
	}
	return best, bd
}

// colourName is the colour_name label nearest c: a description, not an ink
// system's swatch.
func colourName(c color.Color) string { return colour.NameOf(colour.LabOf(c)).Label }

// firstInk is the output index of the first ink's film.
func (s *separation) firstInk() int {
	if s.in.Underbase {
		return 2
	}
	return 1
}

// meta is the data of output i.
func (s *separation) meta(ref string, i int) map[string]any {
	var colours []any
	for n, j := range s.order {
		colours = append(colours, map[string]any{"hex": s.inks[j].Hex(), "name": s.names[j],
			"coverage": percent(s.inks[j].Share), "separation": s.firstInk() + n})
	}
	W, H := s.sheet.bounds()
	mm := func(px int) float64 { return math.Round(float64(px)/float64(s.in.DPI)*254) / 10 }
	meta := map[string]any{
		"index": i, "kind": "composite", "image": ref, "job_name": s.job,
		"width": s.m.w, "height": s.m.h, "dpi": s.in.DPI, "width_mm": mm(s.m.w), "height_mm": mm(s.m.h),
		"film_width": W, "film_height": H, "margin_px": s.sheet.margin, "trap_px": s.trap,
		"order": s.in.Order, "colours": colours,
	}
	switch {
	case i == 0:
	case s.in.Underbase && i == 1:
		meta["kind"], meta["hex"], meta["ink_name"] = "underbase", "#FFFFFF", "Underbase white"
		meta["coverage"], meta["halftone"] = percent(s.printedShare()), false
	case i-s.firstInk() < len(s.order):
		j := s.order[i-s.firstInk()]
		meta["kind"], meta["hex"], meta["ink_name"] = "separation", s.inks[j].Hex(), s.names[j]
		meta["coverage"], meta["halftone"] = percent(s.inks[j].Share), s.halftone[j]
	}
	return meta
}

// printedShare is the share of the design some ink prints on.
func (s *separation) printedShare() float64 {
	t := 0.0
	for _, j := range s.order {
		t += s.inks[j].Share
	}
	return t
}

// composite lays every ink back in its colour, the garment in the colour
// sent; transparent where the design is.
func (s *separation) composite() *image.NRGBA {
	var lut [256]color.NRGBA // noInk stays transparent
	for j, sw := range s.inks {
		lut[j] = sw.Colour
	}
	if s.garment >= 0 {
		lut[s.garment] = color.NRGBAModel.Convert(tasks.ParseColour(*s.in.Garment)).(color.NRGBA)
	}
	out := image.NewNRGBA(image.Rect(0, 0, s.m.w, s.m.h))
	for p, v := range s.m.label {
		c := lut[v]
		px := out.Pix[4*p : 4*p+4 : 4*p+4]
		px[0], px[1], px[2], px[3] = c.R, c.G, c.B, c.A
	}
	return out
}

func (s *separation) printed(p int) bool {
	v := s.m.label[p]
	return v != noInk && int(v) != s.garment
}

// inkFilm is the film of the n-th ink in print order: where it prints,
// spread by the trap under darker inks, screened when it is halftoned.
func (s *separation) inkFilm(n int) *image.Gray {
	j := uint8(s.order[n])
	W := s.m.w
	on := func(p int) bool { return s.m.label[p] == j }
	if s.halftone[j] {
		on = func(p int) bool {
			return s.scr.prints(p%W+s.sheet.margin, p/W+s.sheet.margin, s.m.density(p, j))
		}
	}
	if s.trap > 0 {
		d := distanceFrom(func(p int) bool { return s.m.label[p] == j }, W, s.m.h)
		light := imagetasks.Lightness(s.inks[j].Colour)
		base := on
		on = func(p int) bool {
			if base(p) {
				return true
			}
			v := s.m.label[p]
			return int(d[p]) <= 3*s.trap && s.printed(p) && imagetasks.Lightness(s.inks[v].Colour) < light
		}
	}
	lines := []string{
		s.sheet.job,
		fmt.Sprintf("Ink %d of %d: %s %s", n+1, len(s.order), s.names[j], s.inks[j].Hex()),
		fmt.Sprintf("print %d of %d", s.firstInk()+n, s.firstInk()-1+len(s.order)),
	}
	lines = append(lines, s.sizeLabel()...)
	if s.trap > 0 {
		lines = append(lines, fmt.Sprintf("trap %d px", s.trap))
	}
	if s.halftone[j] {
		lines = append(lines, asciiLabel(fmt.Sprintf("halftone %g lpi %g deg", *s.in.HalftoneLPI, s.in.HalftoneAngle)))
	}
	return s.sheet.film(on, !s.halftone[j], lines)
}

// underbaseFilm is the white underbase: every printed pixel, choked.
func (s *separation) underbaseFilm() *image.Gray {
	W := s.m.w
	d := distanceFrom(func(p int) bool { return !s.printed(p) }, W, s.m.h)
	on := func(p int) bool { return s.printed(p) && int(d[p]) > 3*s.choke }
	lines := []string{
		s.sheet.job,
		"Underbase: white #FFFFFF",
		fmt.Sprintf("print 1 of %d", 1+len(s.order)),
	}
	lines = append(lines, s.sizeLabel()...)
	lines = append(lines, fmt.Sprintf("choke %d px", s.choke))
	return s.sheet.film(on, true, lines)
}

// sizeLabel states the design's physical size and dpi on a film.
func (s *separation) sizeLabel() []string {
	mm := func(px int) string {
		return asciiLabel(fmt.Sprintf("%g", math.Round(float64(px)/float64(s.in.DPI)*254)/10))
	}
	return []string{fmt.Sprintf("%s x %s mm at %d dpi", mm(s.m.w), mm(s.m.h), s.in.DPI)}
}
