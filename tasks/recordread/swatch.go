package recordread

import (
	"image"
	"image/color"
	"math"

	"github.com/taskplatform/taskplatform/tasks"
)

// shade is base with its lightness moved by d (−1 darker … +1 lighter).
func shade(base color.RGBA, d float64) color.RGBA {
	f := func(v uint8) uint8 {
		x := float64(v)
		if d >= 0 {
			x += (255 - x) * d
		} else {
			x += x * d
		}
		return round8(min(max(x, 0), 255))
	}
	return color.RGBA{f(base.R), f(base.G), f(base.B), 0xff}
}

// round8 is math.Round of v in [0, 255], without its bit twiddling: v +
// 0.5 truncated, less one where the addition rounded up past a half
// (0.49999999999999994 + 0.5 is 1).
func round8(v float64) uint8 {
	r := uint8(v + 0.5)
	if float64(r)-v > 0.5 {
		r--
	}
	return r
}

// noise is a fixed pseudo-random value in [0, 1) for a pixel.
func noise(x, y int) float64 {
	h := uint32(x)*374761393 + uint32(y)*668265263
	h = (h ^ (h >> 13)) * 1274126177
	return float64(h^(h>>16)) / float64(1<<32)
}

// Texture draws a side × side swatch of a construction (vocabulary
// fabric_construction) in colour: its weave, knit or pile as light and
// shade, so a swatch card or a range plan can show a fabric with no photo.
func Texture(construction string, colour color.RGBA, side int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	weave := weaveOf(construction)
	for y := range side {
		row := img.Pix[y*img.Stride:][:4*side]
		for x := range side {
			c := shade(colour, weave(x, y)+0.04*(noise(x, y)-0.5))
			p := row[4*x : 4*x+4 : 4*x+4]
			p[0], p[1], p[2], p[3] = c.R, c.G, c.B, c.A
		}
	}
	return img
}

// weaveOf is the light (+) or shade (−) of a construction at a pixel.
func weaveOf(construction string) func(x, y int) float64 {
	switch construction {
	case "twill", "denim", "gabardine":
		return func(x, y int) float64 {
			if (x+y)/4%3 == 0 {
				return -0.18
			}
			return 0.04
		}
	case "herringbone":
		return func(x, y int) float64 {
			band := (x / 24) % 2
			d := x + y
			if band == 1 {
				d = y - x + 1000
			}
			if d/4%3 == 0 {
				return -0.18
			}
			return 0.04
		}
	case "satin", "velvet", "crepe":
		return func(x, y int) float64 { return 0.12*math.Sin(float64(x)/40+float64(y)/90) - 0.02*float64(y%3) }
	case "ripstop":
		return func(x, y int) float64 {
			if x%40 < 2 || y%40 < 2 {
				return -0.2
			}
			return plain(x, y)
		}
	case "corduroy":
		return func(x, y int) float64 { return 0.16*math.Cos(float64(x%12)/12*2*math.Pi) - 0.04 }
	case "jersey", "interlock":
		return func(x, y int) float64 {
			// Rows of V-shaped loops.
			u := x % 10
			v := (y + abs(u-5)) % 8
			if v < 2 {
				return -0.16
			}
			return 0.03
		}
	case "rib":
		return func(x, y int) float64 {
			if x%8 < 4 {
				return 0.06
			}
			return -0.14
		}
	case "fleece", "terry", "french_terry":
		return func(x, y int) float64 { return 0.22*(noise(x/3, y/3)-0.5) + 0.06*(noise(x, y)-0.5) }
	case "pique", "dobby":
		return func(x, y int) float64 {
			if (x/6+y/6)%2 == 0 && x%6 < 4 && y%6 < 4 {
				return -0.12
			}
			return 0.04
		}
	case "jacquard":
		return func(x, y int) float64 { return 0.14 * math.Sin(float64(x)/14) * math.Cos(float64(y)/14) }
	case "lace":
		return func(x, y int) float64 {
			cx, cy := x%24-12, y%24-12
			if cx*cx+cy*cy < 40 {
				return 0.55
			}
			return -0.05
		}
	}
	return plain
}

// plain is a plain weave: warp and weft crossing every other thread.
func plain(x, y int) float64 {
	if (x/3+y/3)%2 == 0 {
		return 0.05
	}
	return -0.08
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Swatch draws a side × side swatch of the fabric: its construction's
// texture in its measured colour (ecru while it has none), as range plans
// and techpacks show it.
func (f *Fabric) Swatch(side int) image.Image {
	c := Ecru
	if f.Colour != nil {
		c = tasks.ParseColour(f.Colour.Hex)
	}
	return Texture(f.Facts.Construction, c, side)
}

// Ecru is the colour of a swatch drawn without a photo or a colour.
var Ecru = color.RGBA{0xE6, 0xDC, 0xC4, 0xff}
