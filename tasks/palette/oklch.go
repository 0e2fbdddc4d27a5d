package palette

import (
	"fmt"
	"math"

	"github.com/taskplatform/taskplatform/tasks"
)

// oklch is a colour in OKLCH (Ottosson's OKLab in polar form): perceptual
// lightness L [0, 1], chroma C and hue h in degrees.
type oklch struct{ l, c, h float64 }

func toLinear(v uint8) float64 {
	f := float64(v) / 255
	if f <= 0.04045 {
		return f / 12.92
	}
	return math.Pow((f+0.055)/1.055, 2.4)
}

func fromLinear(f float64) float64 {
	if f <= 0.0031308 {
		return 12.92 * f
	}
	return 1.055*math.Pow(f, 1/2.4) - 0.055
}

// hexToOKLCH converts a #RRGGBB colour to OKLCH.
func hexToOKLCH(hex string) oklch {
	c := tasks.ParseColour(hex)
	r, g, b := toLinear(c.R), toLinear(c.G), toLinear(c.B)
	l := math.Cbrt(0.4122214708*r + 0.5363325363*g + 0.0514459929*b)
	m := math.Cbrt(0.2119034982*r + 0.6806995451*g + 0.1073969566*b)
	s := math.Cbrt(0.0883024619*r + 0.2817188376*g + 0.6299787005*b)
	L := 0.2104542553*l + 0.7936177850*m - 0.0040720468*s
	A := 1.9779984951*l - 2.4285922050*m + 0.4505937099*s
	B := 0.0259040371*l + 0.7827717662*m - 0.8086757660*s
	return oklch{L, math.Hypot(A, B), math.Mod(math.Atan2(B, A)*180/math.Pi+360, 360)}
}

// linearRGB is c in linear sRGB, possibly out of [0, 1].
func (c oklch) linearRGB() (r, g, b float64) {
	A, B := c.c*math.Cos(c.h*math.Pi/180), c.c*math.Sin(c.h*math.Pi/180)
	l := math.Pow(c.l+0.3963377774*A+0.2158037573*B, 3)
	m := math.Pow(c.l-0.1055613458*A-0.0638541728*B, 3)
	s := math.Pow(c.l-0.0894841775*A-1.2914855480*B, 3)
	return 4.0767416621*l - 3.3077115913*m + 0.2309699292*s,
		-1.2684380046*l + 2.6097574011*m - 0.3413193965*s,
		-0.0041960863*l - 0.7034186147*m + 1.7076147010*s
}

func (c oklch) inGamut() bool {
	r, g, b := c.linearRGB()
	const e = 1e-6
	return r >= -e && r <= 1+e && g >= -e && g <= 1+e && b >= -e && b <= 1+e
}

// hex is c as #RRGGBB, gamut-mapped first: chroma is reduced, lightness
// and hue kept, until the colour is inside sRGB.
func (c oklch) hex() string {
	if !c.inGamut() {
		lo, hi := 0.0, c.c
		for range 24 {
			mid := (lo + hi) / 2
			if (oklch{c.l, mid, c.h}).inGamut() {
				lo = mid
			} else {
				hi = mid
			}
		}
		c.c = lo
	}
	r, g, b := c.linearRGB()
	v := func(f float64) int { return int(math.Round(math.Min(1, math.Max(0, fromLinear(f))) * 255)) }
	return fmt.Sprintf("#%02X%02X%02X", v(r), v(g), v(b))
}
