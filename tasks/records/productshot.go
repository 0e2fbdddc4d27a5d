package records

import (
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/vector"

	"github.com/taskplatform/taskplatform/tasks"
)

// silhouettes are garment outlines on a unit square (x right, y down),
// clockwise from the left shoulder: what a product shot of the garment
// laid flat shows.
var silhouettes = map[string][][2]float64{
	"t_shirt": {{.36, .14}, {.22, .18}, {.06, .36}, {.16, .46}, {.26, .39}, {.26, .9}, {.74, .9}, {.74, .39},
		{.84, .46}, {.94, .36}, {.78, .18}, {.64, .14}, {.58, .2}, {.5, .22}, {.42, .2}},
	"shirt": {{.36, .1}, {.2, .16}, {.1, .6}, {.19, .62}, {.28, .34}, {.27, .92}, {.73, .92}, {.72, .34},
		{.81, .62}, {.9, .6}, {.8, .16}, {.64, .1}, {.5, .2}},
	"trousers": {{.28, .06}, {.72, .06}, {.78, .94}, {.58, .94}, {.5, .34}, {.42, .94}, {.22, .94}},
	"dress": {{.38, .06}, {.33, .3}, {.2, .92}, {.8, .92}, {.67, .3}, {.62, .06}, {.56, .12}, {.5, .16},
		{.44, .12}},
	"jacket": {{.34, .08}, {.18, .14}, {.08, .62}, {.18, .64}, {.26, .36}, {.25, .9}, {.75, .9}, {.74, .36},
		{.82, .64}, {.92, .62}, {.82, .14}, {.66, .08}, {.5, .42}},
}

// ProductShot draws a product photo of a garment kind (t_shirt, shirt,
// trousers, dress or jacket) in colour hex, laid flat on a studio sweep
// of backdrop, side × side pixels, with the soft shadow and shading a
// photo has: the ground truth of the line sheet, flat-sketch and
// palette tests (the garment's colour and outline are known).
func ProductShot(kind, hex, backdrop string, side int) *image.RGBA {
	pts, ok := silhouettes[kind]
	if !ok {
		pts = silhouettes["t_shirt"]
	}
	bg := tasks.ParseColour(backdrop)
	out := image.NewRGBA(image.Rect(0, 0, side, side))
	for y := range side {
		// A sweep: a touch darker towards the bottom, as a studio paper is.
		t := float64(y) / float64(side)
		c := scaleRGB(bg, 1-0.05*t)
		draw.Draw(out, image.Rect(0, y, side, y+1), image.NewUniform(c), image.Point{}, draw.Src)
	}
	s := float64(side)
	shadow := mask(pts, s, 0.012*s, 0.018*s)
	body := mask(pts, s, 0, 0)
	fc := tasks.ParseColour(hex)
	for y := range side {
		for x := range side {
			i := y*side + x
			px := out.RGBAAt(x, y)
			if a := shadow.Pix[i]; a > 0 {
				px = mix(px, scaleRGB(bg, 0.82), float64(a)/255*0.6)
			}
			if a := body.Pix[i]; a > 0 {
				// Light falls from the top left.
				lit := 1.06 - 0.12*(float64(x)+float64(y))/(2*s)
				px = mix(px, scaleRGB(fc, lit), float64(a)/255)
			}
			out.SetRGBA(x, y, px)
		}
	}
	return out
}

// mask rasterises the polygon pts (unit square) at side s, moved by dx, dy.
func mask(pts [][2]float64, s, dx, dy float64) *image.Alpha {
	r := vector.NewRasterizer(int(s), int(s))
	for i, p := range pts {
		x, y := float32(p[0]*s+dx), float32(p[1]*s+dy)
		if i == 0 {
			r.MoveTo(x, y)
		} else {
			r.LineTo(x, y)
		}
	}
	r.ClosePath()
	m := image.NewAlpha(image.Rect(0, 0, int(s), int(s)))
	r.Draw(m, m.Bounds(), image.Opaque, image.Point{})
	return m
}

// scaleRGB scales c's channels by f, clamped.
func scaleRGB(c color.RGBA, f float64) color.RGBA {
	ch := func(v uint8) uint8 { return uint8(min(255, max(0, float64(v)*f))) }
	return color.RGBA{ch(c.R), ch(c.G), ch(c.B), 0xff}
}

// mix is a blended towards b by t (0 to 1).
func mix(a, b color.RGBA, t float64) color.RGBA {
	ch := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{ch(a.R, b.R), ch(a.G, b.G), ch(a.B, b.B), 0xff}
}

// Silhouette is the outline ProductShot draws a garment kind from, on a
// unit square: the ground truth of tests that trace it.
func Silhouette(kind string) [][2]float64 { return silhouettes[kind] }
