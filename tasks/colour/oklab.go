package colour

import (
	"image/color"
	"math"
)

// OKLab is a colour in Björn Ottosson's OKLab: perceptual lightness L
// 0–1 and the opponent axes a and b (about ±0.4). Hue and chroma are
// steadier in it than in CIELAB, which makes it the space for building
// harmonies and ramps.
type OKLab struct{ L, A, B float64 }

// OKLCh is OKLab in polar form: lightness L 0–1, chroma C and hue H in
// degrees 0–360.
type OKLCh struct{ L, C, H float64 }

// OKLabOfLinear converts a linear-light sRGB colour to OKLab.
func OKLabOfLinear(r, g, b float64) OKLab {
	l := math.Cbrt(0.4122214708*r + 0.5363325363*g + 0.0514459929*b)
	m := math.Cbrt(0.2119034982*r + 0.6806995451*g + 0.1073969566*b)
	s := math.Cbrt(0.0883024619*r + 0.2817188376*g + 0.6299787005*b)
	return OKLab{
		0.2104542553*l + 0.7936177850*m - 0.0040720468*s,
		1.9779984951*l - 2.4285922050*m + 0.4505937099*s,
		0.0259040371*l + 0.7827717662*m - 0.8086757660*s,
	}
}

// OKLabOf converts any colour (alpha ignored, not premultiplied).
func OKLabOf(c color.Color) OKLab {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return OKLabOfLinear(linear8[n.R], linear8[n.G], linear8[n.B])
}

// Linear is c in linear-light sRGB, possibly outside 0..1.
func (c OKLab) Linear() (r, g, b float64) {
	l := cube(c.L + 0.3963377774*c.A + 0.2158037573*c.B)
	m := cube(c.L - 0.1055613458*c.A - 0.0638541728*c.B)
	s := cube(c.L - 0.0894841775*c.A - 1.2914855480*c.B)
	return 4.0767416621*l - 3.3077115913*m + 0.2309699292*s,
		-1.2684380046*l + 2.6097574011*m - 0.3413193965*s,
		-0.0041960863*l - 0.7034186147*m + 1.7076147010*s
}

func cube(v float64) float64 { return v * v * v }

// Dist is the Euclidean distance of two colours in OKLab (about 0.01 is
// ΔE2000 1).
func (c OKLab) Dist(o OKLab) float64 {
	return math.Sqrt((c.L-o.L)*(c.L-o.L) + (c.A-o.A)*(c.A-o.A) + (c.B-o.B)*(c.B-o.B))
}

// LCh is c in polar form.
func (c OKLab) LCh() OKLCh { return OKLCh{c.L, math.Hypot(c.A, c.B), hueDeg(c.A, c.B)} }

// Lab is c in cartesian form.
func (c OKLCh) Lab() OKLab {
	return OKLab{c.L, c.C * math.Cos(c.H*rad), c.C * math.Sin(c.H*rad)}
}

// OKLChOf converts any colour to OKLCh.
func OKLChOf(c color.Color) OKLCh { return OKLabOf(c).LCh() }

// InGamut reports whether sRGB can show c (within rounding).
func (c OKLCh) InGamut() bool {
	r, g, b := c.Lab().Linear()
	return inUnit(r) && inUnit(g) && inUnit(b)
}

// Gamut maps c into sRGB by lowering its chroma, lightness and hue kept,
// to the most chroma sRGB can show there (CSS Color 4's approach without
// its tolerance: the result is in gamut). A colour already inside is
// returned as it is; L is clipped to 0..1 first.
func (c OKLCh) Gamut() OKLCh {
	c.L = min(max(c.L, 0), 1)
	if c.InGamut() {
		return c
	}
	lo, hi := 0.0, c.C
	for range 24 {
		mid := (lo + hi) / 2
		if (OKLCh{c.L, mid, c.H}).InGamut() {
			lo = mid
		} else {
			hi = mid
		}
	}
	c.C = lo
	return c
}

// NRGBA is c gamut-mapped (Gamut) as an opaque 8-bit colour.
func (c OKLCh) NRGBA() color.NRGBA {
	r, g, b := c.Gamut().Lab().Linear()
	return color.NRGBA{To8(r), To8(g), To8(b), 255}
}

// Hex writes c gamut-mapped (Gamut), #RRGGBB.
func (c OKLCh) Hex() string { return Hex(c.NRGBA()) }
