package palette

import (
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// oklch is a colour in OKLCH (Ottosson's OKLab in polar form): perceptual
// lightness L [0, 1], chroma C and hue h in degrees; tasks/colour does the
// maths.
type oklch struct{ l, c, h float64 }

func (c oklch) lch() colour.OKLCh { return colour.OKLCh{L: c.l, C: c.c, H: c.h} }

// hexToOKLCH converts a #RRGGBB colour to OKLCH.
func hexToOKLCH(hex string) oklch {
	o := colour.OKLChOf(tasks.ParseColour(hex))
	return oklch{o.L, o.C, o.H}
}

// hex is c as #RRGGBB, gamut-mapped first: chroma is reduced, lightness
// and hue kept, until the colour is inside sRGB.
func (c oklch) hex() string { return c.lch().Hex() }
