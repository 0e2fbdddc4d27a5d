package photoshoot

import (
	"image"
	"image/color"
	"math"
)

// The drawing primitives of the library and the compositor: shapes given
// by their signed distance (negative inside), painted with a one-pixel
// anti-aliased edge onto opaque canvases.

// newCanvas is a w × h canvas filled with c.
func newCanvas(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
	}
	return img
}

// blend lays c over pixel (x, y) of an opaque canvas with coverage a (0–1).
func blend(img *image.NRGBA, x, y int, c color.NRGBA, a float64) {
	if a <= 0 || !(image.Point{x, y}.In(img.Rect)) {
		return
	}
	a = math.Min(1, a*float64(c.A)/255)
	o := img.PixOffset(x, y)
	p := img.Pix[o : o+3 : o+3]
	p[0] = uint8(float64(p[0])*(1-a) + float64(c.R)*a + 0.5)
	p[1] = uint8(float64(p[1])*(1-a) + float64(c.G)*a + 0.5)
	p[2] = uint8(float64(p[2])*(1-a) + float64(c.B)*a + 0.5)
}

// sdf is a shape: its signed distance at a point, negative inside.
type sdf func(x, y float64) float64

// fillShape paints c inside shape d within the box (minX, minY)–(maxX, maxY).
func fillShape(img *image.NRGBA, minX, minY, maxX, maxY float64, c color.NRGBA, d sdf) {
	b := image.Rect(int(math.Floor(minX))-1, int(math.Floor(minY))-1, int(math.Ceil(maxX))+2, int(math.Ceil(maxY))+2).
		Intersect(img.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if cov := 0.5 - d(float64(x)+0.5, float64(y)+0.5); cov > 0 {
				blend(img, x, y, c, math.Min(1, cov))
			}
		}
	}
}

// capsule fills the segment a–b drawn with radius r (a limb).
func capsule(img *image.NRGBA, ax, ay, bx, by, r float64, c color.NRGBA) {
	fillShape(
		img,
		math.Min(ax, bx)-r,
		math.Min(ay, by)-r,
		math.Max(ax, bx)+r,
		math.Max(ay, by)+r,
		c,
		func(x, y float64) float64 {
			px, py, dx, dy := x-ax, y-ay, bx-ax, by-ay
			t := 0.0
			if l := dx*dx + dy*dy; l > 0 {
				t = math.Max(0, math.Min(1, (px*dx+py*dy)/l))
			}
			return math.Hypot(px-t*dx, py-t*dy) - r
		},
	)
}

// ellipse fills the ellipse of centre (cx, cy) and radii rx, ry.
func ellipse(img *image.NRGBA, cx, cy, rx, ry float64, c color.NRGBA) {
	m := math.Min(rx, ry)
	fillShape(img, cx-rx, cy-ry, cx+rx, cy+ry, c, func(x, y float64) float64 {
		return (math.Hypot((x-cx)/rx, (y-cy)/ry) - 1) * m
	})
}

// polygon fills a convex polygon whose points run clockwise on screen (a
// concave one would fill only its convex kernel: split it).
func polygon(img *image.NRGBA, pts [][2]float64, c color.NRGBA) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, minY, maxX, maxY = math.Min(minX, p[0]), math.Min(minY, p[1]), math.Max(maxX, p[0]), math.Max(maxY, p[1])
	}
	fillShape(img, minX, minY, maxX, maxY, c, func(x, y float64) float64 {
		d := math.Inf(-1)
		for i, a := range pts {
			b := pts[(i+1)%len(pts)]
			ex, ey := b[0]-a[0], b[1]-a[1]
			l := math.Hypot(ex, ey)
			if l == 0 {
				continue
			}
			// Positive outside the edge of a clockwise (screen) polygon.
			d = math.Max(d, ((x-a[0])*ey-(y-a[1])*ex)/l)
		}
		return d
	})
}

// rect fills a rectangle.
func rect(img *image.NRGBA, r image.Rectangle, c color.NRGBA) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			blend(img, x, y, c, 1)
		}
	}
}

// mix is a + (b − a)·t per channel.
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	t = math.Max(0, math.Min(1, t))
	f := func(p, q uint8) uint8 { return uint8(float64(p) + (float64(q)-float64(p))*t + 0.5) }
	return color.NRGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}

// darker is c with its channels scaled by 1 − f.
func darker(c color.NRGBA, f float64) color.NRGBA {
	return mix(c, color.NRGBA{0, 0, 0, 255}, f)
}

// noise is a small deterministic value in [−1, 1] per pixel, for grain.
func noise(x, y int) float64 {
	h := uint32(x)*374761393 + uint32(y)*668265263
	h = (h ^ h>>13) * 1274126177
	return float64(h&0xFFFF)/32767.5 - 1
}
