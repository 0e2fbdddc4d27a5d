package image

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// canvas is a scene drawn in floating-point RGB (0–255), then grained
// and saved as a JPEG the crop reads back, as a camera delivers it.
type canvas struct {
	w, h    int
	r, g, b []float64
}

func newCanvas(w, h int, sky func(x, y float64) [3]float64) *canvas {
	c := &canvas{w: w, h: h, r: make([]float64, w*h), g: make([]float64, w*h), b: make([]float64, w*h)}
	for y := range h {
		for x := range w {
			v := sky(float64(x)+0.5, float64(y)+0.5)
			i := y*w + x
			c.r[i], c.g[i], c.b[i] = v[0], v[1], v[2]
		}
	}
	return c
}

// shape paints col over the pixels whose signed distance d (negative
// inside) is under 0.5, blended over a pixel's width, within box.
func (c *canvas) shape(p glowPart, col func(x, y float64) [3]float64) {
	d := p.d
	box := p.box.Intersect(image.Rect(0, 0, c.w, c.h))
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			a := math.Max(0, math.Min(1, 0.5-d(fx, fy)))
			if a == 0 {
				continue
			}
			v := col(fx, fy)
			i := y*c.w + x
			c.r[i] += a * (v[0] - c.r[i])
			c.g[i] += a * (v[1] - c.g[i])
			c.b[i] += a * (v[2] - c.b[i])
		}
	}
}

// glow adds light: col × a Gaussian of sigma s about (cx, cy) (a lamp's
// halo, a floodlight, a sun's glare, steam lit from below).
func (c *canvas) glow(cx, cy, s float64, col [3]float64) {
	box := image.Rect(int(cx-3*s), int(cy-3*s), int(cx+3*s)+1, int(cy+3*s)+1).Intersect(image.Rect(0, 0, c.w, c.h))
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			k := math.Exp(-(dx*dx + dy*dy) / (2 * s * s))
			i := y*c.w + x
			c.r[i] += k * col[0]
			c.g[i] += k * col[1]
			c.b[i] += k * col[2]
		}
	}
}

// disc is a soft-edged round of light (bokeh): col added with the given
// strength, fading over soft pixels at its rim.
func (c *canvas) disc(cx, cy, rad, soft float64, col [3]float64) {
	box := image.Rect(int(cx-rad-soft), int(cy-rad-soft), int(cx+rad+soft)+1, int(cy+rad+soft)+1)
	box = box.Intersect(image.Rect(0, 0, c.w, c.h))
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) - rad
			k := math.Max(0, math.Min(1, 0.5-d/soft))
			i := y*c.w + x
			c.r[i] += k * col[0]
			c.g[i] += k * col[1]
			c.b[i] += k * col[2]
		}
	}
}

// photo is the canvas with sensor grain of the given depth, saved as a
// JPEG at quality q and read back.
func (c *canvas) photo(tb testing.TB, grainDepth float64, q int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, c.w, c.h))
	for y := range c.h {
		for x := range c.w {
			i := y*c.w + x
			n := grainDepth * (grain(x, y) + 0.5*grain(x/2+7919, y/2+104729))
			img.SetNRGBA(x, y, color.NRGBA{clamp8(c.r[i] + n), clamp8(c.g[i] + n), clamp8(c.b[i] + n), 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(tb, jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}))
	out, err := jpeg.Decode(&buf)
	require.NoError(tb, err)
	return cropSource(out)
}

// Signed distances (negative inside).
func boxDist(x0, y0, x1, y1 float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		dx, dy := math.Max(x0-x, x-x1), math.Max(y0-y, y-y1)
		if dx <= 0 && dy <= 0 {
			return math.Max(dx, dy)
		}
		return math.Hypot(math.Max(dx, 0), math.Max(dy, 0))
	}
}

func ovalDist(cx, cy, rx, ry float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return (math.Hypot((x-cx)/rx, (y-cy)/ry) - 1) * math.Min(rx, ry) }
}

// segDist is a stroke of width w from (x0, y0) to (x1, y1).
func segDist(x0, y0, x1, y1, w float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		vx, vy := x1-x0, y1-y0
		t := math.Max(0, math.Min(1, ((x-x0)*vx+(y-y0)*vy)/(vx*vx+vy*vy)))
		return math.Hypot(x-x0-t*vx, y-y0-t*vy) - w/2
	}
}

// polyDist is a convex polygon's distance (its points clockwise or not),
// the largest of its edges' half-plane distances.
func polyDist(pts ...[2]float64) func(x, y float64) float64 {
	var sign float64 = 1
	if area := polyArea(pts); area < 0 {
		sign = -1
	}
	return func(x, y float64) float64 {
		d := math.Inf(-1)
		for i, p := range pts {
			q := pts[(i+1)%len(pts)]
			ex, ey := q[0]-p[0], q[1]-p[1]
			l := math.Hypot(ex, ey)
			d = math.Max(d, sign*((x-p[0])*ey-(y-p[1])*ex)/l)
		}
		return d
	}
}

func polyArea(pts [][2]float64) float64 {
	var a float64
	for i, p := range pts {
		q := pts[(i+1)%len(pts)]
		a += p[0]*q[1] - q[0]*p[1]
	}
	return a / 2
}

func glowRGB(r, g, b float64) func(x, y float64) [3]float64 {
	return func(float64, float64) [3]float64 { return [3]float64{r, g, b} }
}

// glowPart is a shape's signed distance and the box it is drawn in.
type glowPart struct {
	box image.Rectangle
	d   func(x, y float64) float64
}

func around(d func(x, y float64) float64, x0, y0, x1, y1 float64) glowPart {
	return glowPart{image.Rect(int(x0)-2, int(y0)-2, int(x1)+3, int(y1)+3), d}
}

// glowScene is one of the glow, lights and lattice scenes: a photo, its
// subject's box and the ratios to crop it to.
type glowScene struct {
	name    string
	img     image.Image
	subject image.Rectangle
	ratios  [][2]int
}

// rocketPad is a night launch: a slender white rocket with fins on its
// pad at rx, and at gx a taller lattice gantry (thin members, rows of
// lamps), a floodlight glaring at its top and white steam lit at its foot
// — brighter, larger and busier than the rocket. 2000 × 1250.
func rocketPad(tb testing.TB, rx, gx float64) glowScene {
	const W, H = 2000, 1250
	pad := 1060.0
	c := newCanvas(W, H, func(x, y float64) [3]float64 {
		if y >= pad {
			return [3]float64{52, 50, 48}
		}
		t := y / pad
		return [3]float64{8 + 30*t*t, 12 + 26*t*t, 30 + 22*t*t}
	})
	// The gantry: legs, cross members and diagonals, 180 px wide.
	top, gw := 150.0, 180.0
	steel := glowRGB(150, 135, 110)
	for _, lx := range []float64{gx, gx + gw} {
		c.shape(around(segDist(lx, top, lx, pad, 7), lx-4, top, lx+4, pad), steel)
	}
	for y := top; y < pad; y += 64 {
		c.shape(around(segDist(gx, y, gx+gw, y, 4), gx, y-3, gx+gw, y+3), steel)
		c.shape(around(segDist(gx, y, gx+gw, y+64, 3), gx, y, gx+gw, y+64), steel)
		c.shape(around(segDist(gx+gw, y, gx, y+64, 3), gx, y, gx+gw, y+64), steel)
		for _, lx := range []float64{gx, gx + gw/2, gx + gw} { // lamps on the members
			c.glow(lx, y, 9, [3]float64{255, 215, 140})
			c.shape(around(ovalDist(lx, y, 4, 4), lx-5, y-5, lx+5, y+5), glowRGB(255, 250, 225))
		}
	}
	// An arm reaching to the rocket's top.
	arm := 330.0
	c.shape(around(boxDist(math.Min(rx, gx), arm, math.Max(rx, gx), arm+14), math.Min(rx, gx), arm,
		math.Max(rx, gx), arm+14), glowRGB(110, 100, 85))
	// Floodlights: a glare at the gantry's top, white steam at its foot.
	c.glow(gx+gw/2, top-10, 140, [3]float64{240, 235, 215})
	c.glow(gx+gw/2, top-10, 30, [3]float64{255, 255, 255})
	c.glow((rx+gx+gw/2)/2, pad-30, 170, [3]float64{190, 190, 185})
	c.glow(gx+gw+80, pad-60, 120, [3]float64{150, 150, 148})
	// The rocket: a white body with shading and a dark band, a cone, fins.
	body, bw, nose := 430.0, 58.0, 300.0
	c.shape(around(boxDist(rx-bw/2, body, rx+bw/2, pad-20), rx-bw/2, body, rx+bw/2, pad-20),
		func(x, _ float64) [3]float64 {
			s := 1 - 0.4*math.Abs(x-rx+8)/(bw/2)
			return [3]float64{238 * s, 238 * s, 232 * s}
		})
	c.shape(around(boxDist(rx-bw/2, 560, rx+bw/2, 585), rx-bw/2, 560, rx+bw/2, 585), glowRGB(40, 40, 46))
	c.shape(around(polyDist([2]float64{rx - bw/2, body}, [2]float64{rx, nose}, [2]float64{rx + bw/2, body}),
		rx-bw/2, nose, rx+bw/2, body), glowRGB(215, 215, 210))
	for _, s := range []float64{-1, 1} {
		fin := polyDist([2]float64{rx + s*bw/2, pad - 150}, [2]float64{rx + s*(bw/2+42), pad - 40},
			[2]float64{rx + s*(bw/2+42), pad - 20}, [2]float64{rx + s*bw/2, pad - 20})
		c.shape(around(fin, rx-bw/2-44, pad-152, rx+bw/2+44, pad-18), glowRGB(200, 200, 196))
	}
	subject := image.Rect(int(rx-bw/2-42), int(nose), int(rx+bw/2+42), int(pad-20))
	return glowScene{fmt.Sprintf("rocket at %.0f, gantry at %.0f", rx, gx), c.photo(tb, 3, 82), subject,
		[][2]int{{9, 16}, {4, 5}, {1, 1}}}
}

// birdAtSunset is a dark gull flying against a sky glowing orange, the
// sun low at sunX with a wide glare, dark hills below. 1800 × 1200.
func birdAtSunset(tb testing.TB, sunX, birdX, birdY float64) glowScene {
	const W, H = 1800, 1200
	horizon := 880.0
	c := newCanvas(W, H, func(x, y float64) [3]float64 {
		t := y / horizon
		return [3]float64{40 + 150*t, 40 + 70*t, 90 - 20*t}
	})
	c.glow(sunX, horizon-40, 420, [3]float64{120, 70, 10})
	c.glow(sunX, horizon-40, 110, [3]float64{90, 80, 40})
	c.shape(around(ovalDist(sunX, horizon-40, 38, 38), sunX-40, horizon-80, sunX+40, horizon), glowRGB(255, 250, 225))
	c.shape(glowPart{image.Rect(0, int(horizon)-60, W, H), func(x, y float64) float64 {
		return horizon - 25*math.Sin(x/260) - 15*math.Sin(x/97+1) - y
	}}, glowRGB(28, 22, 30))
	// The gull: wings in a shallow M, a body, dark against the glow.
	wing := 46.0
	for _, s := range []float64{-1, 1} {
		c.shape(around(segDist(birdX, birdY, birdX+s*wing*0.55, birdY-14, 7), birdX-wing, birdY-20, birdX+wing,
			birdY+6), glowRGB(30, 24, 28))
		c.shape(around(segDist(birdX+s*wing*0.55, birdY-14, birdX+s*wing, birdY-2, 5), birdX-wing-4,
			birdY-20, birdX+wing+4, birdY+6), glowRGB(30, 24, 28))
	}
	c.shape(around(ovalDist(birdX, birdY+2, 14, 7), birdX-15, birdY-6, birdX+15, birdY+10), glowRGB(34, 28, 30))
	subject := image.Rect(int(birdX-wing-4), int(birdY-20), int(birdX+wing+4), int(birdY+10))
	return glowScene{fmt.Sprintf("gull at %.0f, sun at %.0f", birdX, sunX), c.photo(tb, 4, 80), subject,
		[][2]int{{9, 16}, {4, 5}, {1, 1}}}
}

// mugByLights is a teal mug on a shelf at mx, a string of warm fairy
// lights draped in loops across the rest of a dim wall. 1800 × 1200.
func mugByLights(tb testing.TB, mx float64, lightsFrom, lightsTo float64) glowScene {
	const W, H = 1800, 1200
	shelf := 820.0
	c := newCanvas(W, H, func(x, y float64) [3]float64 {
		if y >= shelf {
			return [3]float64{70, 52, 38}
		}
		return [3]float64{58, 50, 46}
	})
	for loop := range 3 {
		y0 := 180 + 190*float64(loop)
		var px, py float64
		for k := 0; k <= 60; k++ {
			t := float64(k) / 60
			x := lightsFrom + t*(lightsTo-lightsFrom)
			y := y0 + 150*math.Sin(math.Pi*t*2+float64(loop))*0.5 + 60*t
			if k > 0 {
				c.shape(around(segDist(px, py, x, y, 2), math.Min(px, x), math.Min(py, y), math.Max(px, x),
					math.Max(py, y)), glowRGB(25, 25, 22))
			}
			if k%3 == 0 {
				c.glow(x, y+6, 14, [3]float64{230, 170, 70})
				c.shape(around(ovalDist(x, y+6, 5, 7), x-6, y-2, x+6, y+14), glowRGB(255, 240, 190))
			}
			px, py = x, y
		}
	}
	// The mug: a body, a handle, a dark rim of coffee.
	top, bottom, half := 660.0, 820.0, 70.0
	c.shape(around(boxDist(mx-half, top, mx+half, bottom), mx-half, top, mx+half, bottom),
		func(x, _ float64) [3]float64 {
			s := 1 - 0.35*math.Abs(x-mx+20)/half
			return [3]float64{40 * s, 150 * s, 150 * s}
		})
	handle := func(x, y float64) float64 {
		return math.Abs(math.Hypot((x-mx-half)/40, (y-740)/50)-0.8)*40 - 7
	}
	c.shape(glowPart{image.Rect(int(mx+half), int(top), int(mx+half+50), int(bottom)), func(x, y float64) float64 {
		if x < mx+half {
			return 1
		}
		return handle(x, y)
	}}, glowRGB(36, 130, 130))
	c.shape(around(ovalDist(mx, top, half, 12), mx-half, top-12, mx+half, top+12), glowRGB(50, 30, 20))
	subject := image.Rect(int(mx-half), int(top-12), int(mx+half+42), int(bottom))
	return glowScene{fmt.Sprintf("mug at %.0f by fairy lights", mx), c.photo(tb, 3, 85), subject,
		[][2]int{{9, 16}, {4, 5}, {1, 1}}}
}

// guitarByNeon is an acoustic guitar leaning on a dark brick wall at gx,
// beside a neon sign (pink script and a cyan frame, each tube's glow on
// the wall around it). 2000 × 1300.
func guitarByNeon(tb testing.TB, gx, signX float64) glowScene {
	const W, H = 2000, 1300
	c := newCanvas(W, H, func(x, y float64) [3]float64 {
		row := int(y / 40)
		off := float64(row%2) * 60
		v := 42.0
		if math.Mod(y, 40) < 4 || math.Mod(x+off, 120) < 4 {
			v = 30
		}
		return [3]float64{v + 10, v, v - 4}
	})
	// The sign: a cyan frame and a pink squiggle inside it.
	fx0, fy0, fx1, fy1 := signX-300, 220.0, signX+300, 620.0
	tubes := [][4]float64{{fx0, fy0, fx1, fy0}, {fx1, fy0, fx1, fy1}, {fx1, fy1, fx0, fy1}, {fx0, fy1, fx0, fy0}}
	for _, t := range tubes {
		for k := 0.0; k <= 1; k += 0.05 {
			c.glow(t[0]+k*(t[2]-t[0]), t[1]+k*(t[3]-t[1]), 26, [3]float64{0, 38, 48})
		}
		c.shape(around(segDist(t[0], t[1], t[2], t[3], 9), math.Min(t[0], t[2]), math.Min(t[1], t[3]),
			math.Max(t[0], t[2]), math.Max(t[1], t[3])), glowRGB(170, 250, 255))
	}
	var px, py float64
	for k := 0; k <= 80; k++ {
		t := float64(k) / 80
		x := fx0 + 60 + t*480
		y := 420 + 90*math.Sin(t*5*math.Pi) - 40*math.Cos(t*13)
		if k%4 == 0 {
			c.glow(x, y, 30, [3]float64{60, 8, 40})
		}
		if k > 0 {
			c.shape(around(segDist(px, py, x, y, 10), math.Min(px, x), math.Min(py, y), math.Max(px, x),
				math.Max(py, y)), glowRGB(255, 120, 210))
		}
		px, py = x, y
	}
	// The guitar: two lobes of warm wood, a dark sound hole, a neck, a head.
	lo, up := 1080.0, 930.0
	wood := func(x, y float64) [3]float64 {
		s := 1 - 0.3*math.Hypot(x-gx+30, y-lo+40)/150
		return [3]float64{200 * s, 130 * s, 60 * s}
	}
	c.shape(around(ovalDist(gx, lo, 150, 130), gx-150, lo-130, gx+150, lo+130), wood)
	c.shape(around(ovalDist(gx, up, 115, 105), gx-115, up-105, gx+115, up+105), wood)
	c.shape(around(ovalDist(gx, 980, 45, 45), gx-45, 935, gx+45, 1025), glowRGB(20, 14, 10))
	c.shape(around(boxDist(gx-20, 520, gx+20, 830), gx-20, 520, gx+20, 830), glowRGB(70, 40, 25))
	c.shape(around(boxDist(gx-28, 440, gx+28, 520), gx-28, 440, gx+28, 520), glowRGB(50, 30, 20))
	subject := image.Rect(int(gx-150), 440, int(gx+150), int(lo+130))
	return glowScene{fmt.Sprintf("guitar at %.0f by neon at %.0f", gx, signX), c.photo(tb, 3, 80), subject,
		[][2]int{{9, 16}, {4, 5}, {1, 1}}}
}

// finchInBokeh is a small yellow finch on a twig at (bx, by), sharp,
// before a dark green garden out of focus: soft rounds of light of
// several colours, larger and brighter than it. 1800 × 1200.
func finchInBokeh(tb testing.TB, bx, by float64) glowScene {
	const W, H = 1800, 1200
	c := newCanvas(W, H, func(x, y float64) [3]float64 {
		return [3]float64{25 + 15*math.Sin(x/300), 50 + 20*math.Sin(y/250+x/700), 30}
	})
	cols := [][3]float64{{120, 110, 60}, {90, 130, 70}, {140, 100, 110}, {150, 150, 140}}
	for k := range 26 {
		x := math.Mod(float64(k)*397+120, 1700) + 50
		if math.Abs(x-bx) < 220 { // the rounds lie beside the bird, not on it
			x = math.Mod(x+480, 1700) + 50
		}
		y := math.Mod(float64(k)*263+90, 1100) + 50
		c.disc(x, y, 40+float64(k%5)*14, 10, cols[k%len(cols)])
	}
	c.shape(around(segDist(bx-160, by+40, bx+150, by+60, 8), bx-160, by+30, bx+150, by+70), glowRGB(70, 48, 30))
	c.shape(around(ovalDist(bx, by, 48, 30), bx-48, by-30, bx+48, by+30), func(x, y float64) [3]float64 {
		s := 1 - 0.3*math.Max(0, (y-by)/30)
		return [3]float64{235 * s, 200 * s, 40 * s}
	})
	c.shape(around(ovalDist(bx+38, by-22, 20, 18), bx+18, by-40, bx+58, by-4), glowRGB(230, 195, 40))
	c.shape(around(ovalDist(bx+44, by-26, 4, 4), bx+40, by-30, bx+48, by-22), glowRGB(10, 10, 10))
	c.shape(around(polyDist([2]float64{bx + 56, by - 28}, [2]float64{bx + 72, by - 20},
		[2]float64{bx + 56, by - 16}), bx+56, by-28, bx+72, by-16), glowRGB(220, 150, 110))
	c.shape(around(polyDist([2]float64{bx - 40, by - 8}, [2]float64{bx - 110, by + 8},
		[2]float64{bx - 40, by + 14}), bx-110, by-8, bx-40, by+14), glowRGB(60, 55, 40))
	c.shape(around(ovalDist(bx-5, by-4, 28, 14), bx-33, by-18, bx+23, by+10), glowRGB(70, 70, 50))
	subject := image.Rect(int(bx-110), int(by-40), int(bx+72), int(by+30))
	return glowScene{fmt.Sprintf("finch at %.0f in bokeh", bx), c.photo(tb, 3, 85), subject,
		[][2]int{{9, 16}, {4, 5}, {1, 1}}}
}

// dogUnderStreetlamp is a tall night street: a lamp at the top glaring
// over a wide halo, lit windows, and a small brown dog on the pavement,
// off to one side. 1200 × 2000, cropped wide.
func dogUnderStreetlamp(tb testing.TB, dx float64) glowScene {
	const W, H = 1200, 2000
	kerb := 1650.0
	c := newCanvas(W, H, func(_, y float64) [3]float64 {
		if y >= kerb {
			return [3]float64{48, 46, 50}
		}
		return [3]float64{22, 24, 36}
	})
	c.shape(around(boxDist(300, 380, 318, kerb), 300, 380, 318, kerb), glowRGB(35, 35, 38))
	c.glow(309, 360, 260, [3]float64{200, 160, 80})
	c.glow(309, 360, 50, [3]float64{255, 240, 200})
	c.shape(around(ovalDist(309, 365, 40, 16), 269, 349, 349, 381), glowRGB(255, 252, 240))
	// The dog: a body, a head, ears, legs and a tail, warm brown.
	by := kerb + 160
	brown := glowRGB(150, 90, 45)
	c.shape(around(ovalDist(dx, by, 85, 42), dx-85, by-42, dx+85, by+42), brown)
	c.shape(around(ovalDist(dx+90, by-55, 38, 32), dx+52, by-87, dx+128, by-23), brown)
	c.shape(around(ovalDist(dx+80, by-82, 12, 20), dx+68, by-102, dx+92, by-62), glowRGB(100, 55, 25))
	c.shape(around(ovalDist(dx+122, by-50, 6, 6), dx+116, by-56, dx+128, by-44), glowRGB(15, 10, 10))
	for _, lx := range []float64{dx - 60, dx - 35, dx + 40, dx + 62} {
		c.shape(around(boxDist(lx-8, by+20, lx+8, by+100), lx-8, by+20, lx+8, by+100), brown)
	}
	c.shape(around(segDist(dx-80, by-15, dx-130, by-60, 12), dx-136, by-66, dx-74, by-9), brown)
	subject := image.Rect(int(dx-136), int(by-102), int(dx+128), int(by+100))
	return glowScene{fmt.Sprintf("dog at %.0f under a streetlamp", dx), c.photo(tb, 4, 80), subject,
		[][2]int{{16, 9}, {4, 5}, {1, 1}}}
}

func glowScenes(tb testing.TB) []glowScene {
	return []glowScene{
		rocketPad(tb, 420, 1150), rocketPad(tb, 1560, 500),
		birdAtSunset(tb, 500, 1500, 520), birdAtSunset(tb, 1350, 260, 640),
		mugByLights(tb, 1520, 80, 1150), mugByLights(tb, 280, 650, 1750),
		guitarByNeon(tb, 1650, 800), guitarByNeon(tb, 330, 1300),
		finchInBokeh(tb, 1400, 560), finchInBokeh(tb, 420, 420),
		dogUnderStreetlamp(tb, 850),
	}
}

// TestCropKeepsTheSubjectBesideLightsAndGlare: a subject beside the
// brightest, busiest thing in the photo — a rocket beside its lit lattice
// gantry with floodlight glare and steam, a dark gull against a sunset, a
// small mug off the centre of a wall hung with fairy lights, a guitar by
// a neon sign, a dog under a streetlamp's halo — is kept whole in every
// crop (9:16, 4:5, 1:1, or 16:9 of a tall photo), left or right. With
// TP_CROP_LOOK set to a folder the crops are written there.
func TestCropKeepsTheSubjectBesideLightsAndGlare(t *testing.T) {
	look := os.Getenv("TP_CROP_LOOK")
	scenes := []glowScene{
		rocketPad(t, 420, 1150), rocketPad(t, 1560, 500), birdAtSunset(t, 1350, 260, 640),
		mugByLights(t, 1520, 80, 1150), mugByLights(t, 280, 650, 1750),
		guitarByNeon(t, 1650, 800), guitarByNeon(t, 330, 1300), dogUnderStreetlamp(t, 850),
	}
	for _, s := range scenes {
		b := s.img.Bounds()
		for _, r := range s.ratios {
			cw, ch := cropSize(b.Dx(), b.Dy(), r[0], r[1])
			rect, err := cropRect(s.img, cw, ch, "attention")
			require.NoError(t, err)
			if look != "" {
				writePNG(t, filepath.Join(look, fmt.Sprintf("%s-%dx%d.png", s.name, r[0], r[1])), cropped(s.img, rect))
			}
			require.True(t, s.subject.In(rect), "%s %d:%d: the subject %v is cut by the crop %v", s.name, r[0], r[1],
				s.subject, rect)
		}
	}
}

// BenchmarkCropGlowSubjectShare reports, on the glow, lights and lattice
// scenes (a rocket beside its lit lattice gantry, floodlight glare and
// steam; a dark gull against a sunset; a mug by fairy lights; a guitar by
// a neon sign; a finch before bokeh; a dog under a streetlamp's halo), the
// share of the subject's box each attention crop keeps (subject/op, 1 is
// whole) and, in the last line, how many crops keep it whole (kept/op of
// crops/op): go test -run '^$' -bench CropGlow -benchtime 1x ./tasks/image.
func BenchmarkCropGlowSubjectShare(b *testing.B) {
	kept, crops := 0, 0
	for _, s := range glowScenes(b) {
		for _, r := range s.ratios {
			b.Run(fmt.Sprintf("%s %d:%d", s.name, r[0], r[1]), func(b *testing.B) {
				bd := s.img.Bounds()
				cw, ch := cropSize(bd.Dx(), bd.Dy(), r[0], r[1])
				var rect image.Rectangle
				for b.Loop() {
					rect, _ = cropRect(s.img, cw, ch, "attention")
				}
				b.ReportMetric(keptShare(s.subject, rect), "subject/op")
			})
			bd := s.img.Bounds()
			cw, ch := cropSize(bd.Dx(), bd.Dy(), r[0], r[1])
			rect, _ := cropRect(s.img, cw, ch, "attention")
			crops++
			if s.subject.In(rect) {
				kept++
			}
		}
	}
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(float64(kept), "kept/op")
		b.ReportMetric(float64(crops), "crops/op")
	})
}
