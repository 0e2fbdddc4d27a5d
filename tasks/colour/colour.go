// Package colour is the platform's colour maths: sRGB and linear light,
// CIELAB (D65) and OKLab/OKLCH, one perceptual difference (CIEDE2000),
// gamut mapping into sRGB and one clustering routine (k-means++ in CIELAB
// from a fixed seed). Every task that measures, names, clusters or maps
// colours uses it, so two tasks never disagree about a colour.
//
// It is written here rather than taken from a library because the image
// tasks convert every pixel: 8-bit channels are linearised from a table,
// and the conversions allocate nothing.
package colour

import (
	"fmt"
	"image/color"
	"math"
)

// ToLinear undoes the sRGB transfer curve of one channel in 0..1.
func ToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// FromLinear applies the sRGB transfer curve to one linear channel in 0..1.
func FromLinear(c float64) float64 {
	if c <= 0.0031308 {
		return 12.92 * c
	}
	return 1.055*math.Pow(c, 1/2.4) - 0.055
}

// linear8 is ToLinear of every 8-bit channel value.
var linear8 = func() (t [256]float64) {
	for i := range t {
		t[i] = ToLinear(float64(i) / 255)
	}
	return t
}()

// Linear8 is the linear light of an 8-bit sRGB channel value.
func Linear8(v uint8) float64 { return linear8[v] }

// To8 is a linear channel as an 8-bit sRGB value, clipped to 0..255.
func To8(v float64) uint8 {
	return uint8(math.Round(255 * min(max(FromLinear(min(max(v, 0), 1)), 0), 1)))
}

// Hex writes a colour #RRGGBB (alpha ignored).
func Hex(c color.Color) string {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return fmt.Sprintf("#%02X%02X%02X", n.R, n.G, n.B)
}

// Lab is a colour in CIELAB (D65 white): L* 0–100, a* and b* about ±128.
type Lab struct{ L, A, B float64 }

// D65 reference white, XYZ with Y = 1.
const xn, yn, zn = 0.95047, 1.0, 1.08883

func labF(t float64) float64 {
	if t > 216.0/24389 {
		return math.Cbrt(t)
	}
	return (24389.0/27*t + 16) / 116
}

func labFInv(t float64) float64 {
	if t3 := t * t * t; t3 > 216.0/24389 {
		return t3
	}
	return (116*t - 16) * 27 / 24389
}

// LabOf8 converts an 8-bit sRGB colour to CIELAB.
func LabOf8(r, g, b uint8) Lab {
	return LabOfLinear(linear8[r], linear8[g], linear8[b])
}

// LabOfLinear converts a linear-light sRGB colour to CIELAB.
func LabOfLinear(r, g, b float64) Lab {
	x := (0.4124564*r + 0.3575761*g + 0.1804375*b) / xn
	y := (0.2126729*r + 0.7151522*g + 0.0721750*b) / yn
	z := (0.0193339*r + 0.1191920*g + 0.9503041*b) / zn
	fx, fy, fz := labF(x), labF(y), labF(z)
	return Lab{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// LabOf converts any colour (alpha ignored, not premultiplied).
func LabOf(c color.Color) Lab {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return LabOf8(n.R, n.G, n.B)
}

// Linear is c in linear-light sRGB, possibly outside 0..1.
func (c Lab) Linear() (r, g, b float64) {
	fy := (c.L + 16) / 116
	fx, fz := fy+c.A/500, fy-c.B/200
	x, y, z := xn*labFInv(fx), yn*labFInv(fy), zn*labFInv(fz)
	return 3.2404542*x - 1.5371385*y - 0.4985314*z,
		-0.9692660*x + 1.8760108*y + 0.0415560*z,
		0.0556434*x - 0.2040259*y + 1.0572252*z
}

// RGB is c as 8-bit sRGB, each channel clipped to what sRGB can show.
func (c Lab) RGB() (r, g, b uint8) {
	lr, lg, lb := c.Linear()
	return To8(lr), To8(lg), To8(lb)
}

// NRGBA is c as an opaque 8-bit colour, clipped as RGB is.
func (c Lab) NRGBA() color.NRGBA {
	r, g, b := c.RGB()
	return color.NRGBA{r, g, b, 255}
}

// RGBA implements color.Color (opaque, clipped as RGB is).
func (c Lab) RGBA() (r, g, b, a uint32) { return c.NRGBA().RGBA() }

// Hex writes c #RRGGBB, clipped as RGB is.
func (c Lab) Hex() string { return Hex(c.NRGBA()) }

// Chroma is C*ab, the colour's distance from grey.
func (c Lab) Chroma() float64 { return math.Hypot(c.A, c.B) }

// Hue is h_ab in degrees, 0–360 (0 for a grey).
func (c Lab) Hue() float64 {
	if c.A == 0 && c.B == 0 {
		return 0
	}
	h := math.Atan2(c.B, c.A) * 180 / math.Pi
	if h < 0 {
		h += 360
	}
	return h
}

// Mix is the colour a share t of the way from c to o (0 gives c, 1 gives o).
func (c Lab) Mix(o Lab, t float64) Lab {
	return Lab{c.L + (o.L-c.L)*t, c.A + (o.A-c.A)*t, c.B + (o.B-c.B)*t}
}

// Dist2 is the squared Euclidean distance of two colours in CIELAB: the
// objective k-means minimises. Compare colours with DeltaE.
func (c Lab) Dist2(o Lab) float64 {
	dl, da, db := c.L-o.L, c.A-o.A, c.B-o.B
	return dl*dl + da*da + db*db
}

// Add is the channel-wise sum c + w·o, for weighted means.
func (c Lab) Add(o Lab, w float64) Lab { return Lab{c.L + o.L*w, c.A + o.A*w, c.B + o.B*w} }

// Scale is c with every channel multiplied by f.
func (c Lab) Scale(f float64) Lab { return Lab{c.L * f, c.A * f, c.B * f} }

// InGamut reports whether sRGB can show c (within rounding).
func (c Lab) InGamut() bool {
	r, g, b := c.Linear()
	return inUnit(r) && inUnit(g) && inUnit(b)
}

func inUnit(v float64) bool { const e = 1e-6; return v >= -e && v <= 1+e }

// Gamut maps c into sRGB by lowering its chroma, lightness and hue kept,
// to the most chroma sRGB can show there; L* is clipped to 0..100 first.
// A colour already inside is returned as it is.
func (c Lab) Gamut() Lab {
	c.L = min(max(c.L, 0), 100)
	if c.InGamut() {
		return c
	}
	lo, hi := 0.0, 1.0
	for range 20 {
		mid := (lo + hi) / 2
		if (Lab{c.L, c.A * mid, c.B * mid}).InGamut() {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Lab{c.L, c.A * lo, c.B * lo}
}
