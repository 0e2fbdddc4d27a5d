package pdfsheet

import (
	"image/color"
	"math"
)

// SwatchRule is the outline drawn round a light swatch.
var SwatchRule = color.RGBA{0xB8, 0xB2, 0xA8, 0xff}

// Swatch fills a rectangle with c and, when c is light enough to vanish on
// white paper (relative luminance above 0.75), outlines it in SwatchRule.
func (s *Sheet) Swatch(x, y, w, h float64, c color.RGBA) {
	s.Rect(x, y, w, h, c)
	if Light(c) {
		s.Outline(x, y, w, h, SwatchRule)
	}
}

// Light says whether c would vanish on white paper: its relative luminance
// is above 0.75.
func Light(c color.RGBA) bool {
	lin := func(v uint8) float64 {
		f := float64(v) / 255
		if f <= 0.04045 {
			return f / 12.92
		}
		return math.Pow((f+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R)+0.7152*lin(c.G)+0.0722*lin(c.B) > 0.75
}
