package image

import (
	"image/color"
	"math"
)

// lab is a colour in CIELAB (D65 white), the space where a distance is
// close to how different two colours look (ΔE76 = Euclidean distance).
type lab struct{ L, A, B float64 }

// linear maps an 8-bit sRGB channel to linear light.
var linear = func() (t [256]float64) {
	for i := range t {
		c := float64(i) / 255
		if c <= 0.04045 {
			t[i] = c / 12.92
		} else {
			t[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return t
}()

const (
	whiteX = 0.95047
	whiteY = 1.0
	whiteZ = 1.08883
)

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

// toLab converts an 8-bit sRGB colour (alpha ignored) to CIELAB.
func toLab(r, g, b uint8) lab {
	lr, lg, lb := linear[r], linear[g], linear[b]
	x := (0.4124564*lr + 0.3575761*lg + 0.1804375*lb) / whiteX
	y := (0.2126729*lr + 0.7151522*lg + 0.0721750*lb) / whiteY
	z := (0.0193339*lr + 0.1191920*lg + 0.9503041*lb) / whiteZ
	fx, fy, fz := labF(x), labF(y), labF(z)
	return lab{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// rgb converts a CIELAB colour back to 8-bit sRGB, clipping what sRGB
// cannot show.
func (c lab) rgb() (r, g, b uint8) {
	fy := (c.L + 16) / 116
	fx, fz := fy+c.A/500, fy-c.B/200
	x, y, z := labFInv(fx)*whiteX, labFInv(fy)*whiteY, labFInv(fz)*whiteZ
	lr := 3.2404542*x - 1.5371385*y - 0.4985314*z
	lg := -0.9692660*x + 1.8760108*y + 0.0415560*z
	lb := 0.0556434*x - 0.2040259*y + 1.0572252*z
	return gamma(lr), gamma(lg), gamma(lb)
}

func gamma(v float64) uint8 {
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255))
}

// labOf converts any colour.
func labOf(c color.Color) lab {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return toLab(n.R, n.G, n.B)
}

// dist is ΔE76, the distance of two colours in CIELAB.
func (c lab) dist(o lab) float64 {
	return math.Sqrt(c.dist2(o))
}

func (c lab) dist2(o lab) float64 {
	dl, da, db := c.L-o.L, c.A-o.A, c.B-o.B
	return dl*dl + da*da + db*db
}

// labCache remembers the CIELAB colours of the sRGB colours last seen in a
// direct-mapped table: an image of a few flat colours converts each once,
// and a photo's misses cost one table write beside the conversion.
type labCache struct {
	keys [1 << 12]uint32 // the colour | 1<<24; 0 is an empty slot
	vals [1 << 12]lab
}

// of is toLab(r, g, b), from the table when the colour is in it.
func (c *labCache) of(r, g, b uint8) lab {
	key := uint32(r)<<16 | uint32(g)<<8 | uint32(b) | 1<<24
	slot := key * 0x9E3779B1 >> 20
	if c.keys[slot] != key {
		c.keys[slot], c.vals[slot] = key, toLab(r, g, b)
	}
	return c.vals[slot]
}

// rgbCache maps sRGB colours to a 32-bit result per colour, remembering
// the last ones seen as labCache does; get's compute runs on a miss.
type rgbCache struct {
	keys [1 << 14]uint32 // the colour | 1<<24; 0 is an empty slot
	vals [1 << 14]uint32
}

// get is compute(r, g, b), from the table when the colour is in it.
func (c *rgbCache) get(r, g, b uint8, compute func(r, g, b uint8) uint32) uint32 {
	key := uint32(r)<<16 | uint32(g)<<8 | uint32(b) | 1<<24
	slot := key * 0x9E3779B1 >> 18
	if c.keys[slot] != key {
		c.keys[slot], c.vals[slot] = key, compute(r, g, b)
	}
	return c.vals[slot]
}
