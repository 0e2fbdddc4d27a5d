package e2e_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Pictures drawn for the outside checks: each differs from the repo's own
// test images (other shapes, colours, sizes and clutter).

// canvas is a w × h image of one colour.
func canvas(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
	}
	return img
}

// paint sets every pixel where in(x, y) holds to the colour at(x, y) gives.
func paint(img *image.NRGBA, in func(x, y float64) bool, at func(x, y float64) color.NRGBA) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if in(float64(x), float64(y)) {
				img.SetNRGBA(x, y, at(float64(x), float64(y)))
			}
		}
	}
}

func flat(c color.NRGBA) func(x, y float64) color.NRGBA {
	return func(float64, float64) color.NRGBA { return c }
}

func ellipse(cx, cy, rx, ry float64) func(x, y float64) bool {
	return func(x, y float64) bool { return sq((x-cx)/rx)+sq((y-cy)/ry) <= 1 }
}

func rect(x0, y0, x1, y1 float64) func(x, y float64) bool {
	return func(x, y float64) bool { return x >= x0 && x < x1 && y >= y0 && y < y1 }
}

func sq(v float64) float64 { return v * v }

func clamp8(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v)))) }

// shade is c scaled by k (k < 1 darker).
func shade(c color.NRGBA, k float64) color.NRGBA {
	return color.NRGBA{clamp8(float64(c.R) * k), clamp8(float64(c.G) * k), clamp8(float64(c.B) * k), 255}
}

// grain adds photo-like noise of amplitude a.
func grain(img *image.NRGBA, a float64, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < len(img.Pix); i += 4 {
		n := (r.Float64()*2 - 1) * a
		for k := range 3 {
			img.Pix[i+k] = clamp8(float64(img.Pix[i+k]) + n)
		}
	}
}

func jpegOf(t testing.TB, img image.Image, q int) []byte {
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}))
	return buf.Bytes()
}

// busyScene is a market stall of coloured crates filling the frame, an
// orange bottle in the middle: no backdrop to cut it from.
func busyScene() *image.NRGBA {
	img := canvas(640, 480, color.NRGBA{90, 70, 50, 255})
	r := rand.New(rand.NewPCG(3, 9))
	for range 160 {
		x, y := r.Float64()*640, r.Float64()*480
		w, h := 20+r.Float64()*90, 20+r.Float64()*70
		c := color.NRGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
		paint(img, rect(x, y, x+w, y+h), flat(c))
	}
	paint(img, rect(295, 150, 345, 400), flat(color.NRGBA{235, 120, 20, 255}))
	paint(img, rect(310, 100, 330, 150), flat(color.NRGBA{235, 120, 20, 255}))
	grain(img, 4, 1)
	return img
}

// clutteredTable is a blue mug on a wooden table, books and a lamp beside
// it, a window and a shelf behind.
func clutteredTable() *image.NRGBA {
	img := canvas(800, 600, color.NRGBA{205, 190, 160, 255})
	paint(img, rect(0, 380, 800, 600), func(x, y float64) color.NRGBA { // wood grain
		v := 150 + 25*math.Sin(y*0.35+math.Sin(x*0.02)*3)
		return color.NRGBA{clamp8(v), clamp8(v * 0.7), clamp8(v * 0.45), 255}
	})
	paint(img, rect(520, 40, 760, 300), flat(color.NRGBA{250, 252, 255, 255})) // window
	paint(img, rect(636, 40, 644, 300), flat(color.NRGBA{120, 90, 60, 255}))
	for i, c := range []color.NRGBA{{180, 30, 30, 255}, {30, 120, 60, 255}, {230, 200, 40, 255}, {40, 40, 120, 255}} {
		x := 40 + float64(i)*34
		paint(img, rect(x, 200, x+30, 320), flat(c)) // books on a shelf
	}
	paint(img, rect(30, 320, 300, 335), flat(color.NRGBA{110, 80, 50, 255}))
	paint(img, rect(80, 330, 230, 400), flat(color.NRGBA{200, 60, 120, 255})) // books on the table
	paint(img, rect(90, 300, 220, 330), flat(color.NRGBA{60, 160, 170, 255}))
	paint(img, ellipse(620, 420, 50, 14), flat(color.NRGBA{240, 240, 230, 255})) // a plate
	blue := color.NRGBA{40, 80, 170, 255}
	paint(img, rect(360, 300, 460, 440), func(x, _ float64) color.NRGBA {
		return shade(blue, 0.75+0.35*math.Sin((x-360)/100*math.Pi))
	})
	paint(img, func(x, y float64) bool {
		d := math.Hypot(x-460, y-365)
		return d > 22 && d < 36 && x > 460
	}, flat(shade(blue, 0.8)))
	grain(img, 3, 2)
	return img
}

// whiteMug is a white mug on a white sweep, shaded on its left, its rim a
// faint line, handle on the right.
func whiteMug() *image.NRGBA {
	img := canvas(640, 640, color.NRGBA{246, 246, 244, 255})
	paint(img, rect(0, 0, 640, 640), func(_, y float64) color.NRGBA { // the sweep's fall-off
		v := 248 - 8*y/640
		return color.NRGBA{clamp8(v), clamp8(v), clamp8(v - 1), 255}
	})
	paint(img, ellipse(330, 520, 130, 22), flat(color.NRGBA{222, 222, 220, 255})) // contact shadow
	paint(img, rect(220, 230, 440, 520), func(x, _ float64) color.NRGBA {
		v := 252 - 40*sq((x-330)/110)
		if x < 300 {
			v -= 12 * (300 - x) / 80
		}
		return color.NRGBA{clamp8(v), clamp8(v), clamp8(v), 255}
	})
	paint(img, ellipse(330, 520, 110, 16), func(x, _ float64) color.NRGBA {
		v := 250 - 40*sq((x-330)/110)
		return color.NRGBA{clamp8(v), clamp8(v), clamp8(v), 255}
	})
	paint(img, ellipse(330, 230, 110, 18), flat(color.NRGBA{228, 228, 226, 255})) // the rim, inside
	paint(img, func(x, y float64) bool {
		d := math.Sqrt(sq(x-330)/12100 + sq(y-230)/324)
		return d > 0.93 && d <= 1
	}, flat(color.NRGBA{212, 212, 210, 255}))
	paint(img, func(x, y float64) bool {
		d := math.Hypot((x-440)/1.2, y-370)
		return d > 38 && d < 58 && x > 440
	}, func(x, _ float64) color.NRGBA { return shade(color.NRGBA{240, 240, 240, 255}, 1-0.05*(x-440)/70) })
	grain(img, 1.5, 3)
	return img
}

// glassBottle is a green glass bottle on a pale grey sweep: the body shows
// the sweep through it, tinted, with dark edges and a highlight.
func glassBottle() *image.NRGBA {
	img := canvas(480, 720, color.NRGBA{226, 227, 229, 255})
	in := func(x, y float64) bool {
		switch {
		case y >= 260 && y < 660:
			return math.Abs(x-240) < 90
		case y >= 170 && y < 260:
			return math.Abs(x-240) < 30+60*sq((y-170)/90)
		case y >= 90 && y < 170:
			return math.Abs(x-240) < 28
		}
		return false
	}
	paint(img, in, func(x, y float64) color.NRGBA {
		half := 90.0
		if y < 260 {
			half = 30
		}
		e := math.Min(1, math.Abs(x-240)/half)
		k := 0.55 + 0.25*(1-e*e) // thicker glass at the edges is darker
		c := color.NRGBA{clamp8(226 * k * 0.55), clamp8(227 * k), clamp8(229 * k * 0.6), 255}
		if x > 195 && x < 210 && y > 280 && y < 620 {
			c = color.NRGBA{235, 245, 235, 255} // highlight
		}
		return c
	})
	paint(img, rect(212, 70, 268, 92), flat(color.NRGBA{60, 50, 40, 255})) // cork
	grain(img, 2, 4)
	return img
}

// navyJumper is a navy jumper laid flat on a light grey sweep: a product a
// packshot should cut out well.
func navyJumper() *image.NRGBA {
	img := canvas(600, 700, color.NRGBA{232, 230, 226, 255})
	navy := color.NRGBA{28, 38, 80, 255}
	paint(img, rect(170, 150, 430, 560), flat(navy))
	paint(img, func(x, y float64) bool { // sleeves
		return (x >= 90 && x < 170 || x >= 430 && x < 510) && y >= 160+math.Abs(x-300)*0.4-90 && y < 470
	}, flat(shade(navy, 0.9)))
	paint(img, ellipse(300, 150, 45, 18), flat(color.NRGBA{232, 230, 226, 255})) // the neck
	paint(img, rect(170, 530, 430, 560), flat(shade(navy, 0.8)))                 // rib
	grain(img, 3, 5)
	return img
}

// look is a synthesised person's colouring: skin, hair (zero: none seen),
// a head covering (zero: none) and whether it wraps under the chin.
type look struct {
	skin, hair, cover color.NRGBA
	wrap              bool
	hairStrands       bool
}

// portrait draws a head and shoulders of l at (cx, cy), the face ry tall
// (half-height), on img: a shaded skin oval, eyes with whites and irises,
// brows, a nose shadow, lips, hair around and above the face (strands
// when hairStrands), a cap or a wrapped scarf over it.
func portrait(img *image.NRGBA, l look, cx, cy, ry float64) {
	rx := ry * 0.76
	shirt := color.NRGBA{70, 110, 90, 255}
	paint(img, func(x, y float64) bool { return y > cy+ry*1.45 && math.Abs(x-cx) < rx*2.6 }, flat(shirt))
	paint(img, rect(cx-rx*0.42, cy+ry*0.6, cx+rx*0.42, cy+ry*1.5), flat(shade(l.skin, 0.85)))
	if l.hair.A > 0 {
		r := rand.New(rand.NewPCG(11, 13))
		paint(img, func(x, y float64) bool {
			return sq((x-cx)/(rx*1.22))+sq((y-cy+ry*0.12)/(ry*1.18)) <= 1 && y < cy+ry*0.9
		}, func(x, y float64) color.NRGBA {
			if !l.hairStrands {
				return l.hair
			}
			k := 0.82 + 0.3*math.Abs(math.Sin(x*0.9+math.Sin(y*0.05)*4)) + 0.06*r.Float64()
			return shade(l.hair, k)
		})
	}
	paint(img, ellipse(cx, cy, rx, ry), func(x, y float64) color.NRGBA {
		return shade(l.skin, 1.04-0.16*sq((x-cx)/rx)-0.05*(y-cy)/ry)
	})
	if l.hair.A > 0 { // a fringe over the forehead
		paint(img, func(x, y float64) bool {
			return sq((x-cx)/(rx*1.02))+sq((y-cy+ry*0.05)/(ry*1.02)) <= 1 && y < cy-ry*0.55
		}, flat(l.hair))
	}
	for _, s := range []float64{-1, 1} {
		ex, ey := cx+s*rx*0.4, cy-ry*0.12
		paint(img, ellipse(ex, ey, rx*0.2, ry*0.08), flat(color.NRGBA{246, 246, 240, 255}))
		paint(img, ellipse(ex, ey, ry*0.075, ry*0.075), flat(color.NRGBA{70, 50, 35, 255}))
		paint(img, ellipse(ex, ey, ry*0.035, ry*0.035), flat(color.NRGBA{10, 10, 10, 255}))
		paint(img, rect(ex-rx*0.22, ey-ry*0.2, ex+rx*0.22, ey-ry*0.15), flat(shade(l.skin, 0.45)))
	}
	paint(img, ellipse(cx, cy+ry*0.18, rx*0.1, ry*0.16), flat(shade(l.skin, 0.86)))
	paint(img, ellipse(cx, cy+ry*0.5, rx*0.34, ry*0.08), flat(color.NRGBA{170, 60, 70, 255}))
	if l.cover.A > 0 && !l.wrap { // a cap: crown and brim
		paint(img, func(x, y float64) bool {
			return sq((x-cx)/(rx*1.08))+sq((y-cy+ry*0.5)/(ry*0.75)) <= 1 && y < cy-ry*0.5
		}, flat(l.cover))
		paint(img, ellipse(cx+rx*0.3, cy-ry*0.52, rx*1.1, ry*0.1), flat(shade(l.cover, 0.8)))
	}
	if l.cover.A > 0 && l.wrap { // a scarf wrapped round the face and under the chin
		paint(img, func(x, y float64) bool {
			outer := sq((x-cx)/(rx*1.4))+sq((y-cy)/(ry*1.35)) <= 1
			inner := sq((x-cx)/(rx*0.92))+sq((y-cy+ry*0.05)/(ry*0.95)) <= 1
			return outer && !inner || outer && y > cy+ry*0.9
		}, func(x, y float64) color.NRGBA { return shade(l.cover, 0.9+0.1*math.Sin(x*0.05+y*0.03)) })
	}
}

// studioPortrait is l on a plain backdrop, 600 × 750.
func studioPortrait(l look, bg color.NRGBA) *image.NRGBA {
	img := canvas(600, 750, bg)
	portrait(img, l, 300, 330, 150)
	grain(img, 2, 6)
	return img
}

// coffeeCup is a brown ceramic cup and saucer on a cream table: no person.
func coffeeCup() *image.NRGBA {
	img := canvas(640, 480, color.NRGBA{238, 228, 210, 255})
	paint(img, ellipse(320, 380, 170, 30), flat(color.NRGBA{250, 248, 244, 255}))
	paint(img, rect(230, 200, 410, 370), func(x, _ float64) color.NRGBA {
		return shade(color.NRGBA{205, 150, 110, 255}, 1.05-0.3*sq((x-320)/90))
	})
	paint(img, ellipse(320, 200, 90, 18), flat(color.NRGBA{90, 55, 30, 255}))
	paint(img, func(x, y float64) bool { d := math.Hypot(x-410, y-280); return d > 25 && d < 40 && x > 410 },
		flat(color.NRGBA{195, 140, 100, 255}))
	grain(img, 2, 8)
	return img
}

// catDrawing is a ginger cat drawn in black lines and flat fills.
func catDrawing() *image.NRGBA {
	img := canvas(600, 600, color.NRGBA{255, 255, 255, 255})
	ginger := color.NRGBA{226, 150, 80, 255}
	paint(img, ellipse(300, 420, 160, 130), flat(ginger))
	paint(img, ellipse(300, 250, 120, 100), flat(ginger))
	for _, s := range []float64{-1, 1} {
		paint(img, func(x, y float64) bool {
			dx := s * (x - 300)
			return y > 120 && y < 190 && dx > 50 && dx < 120 && (y-120) > (120-dx)*0.9
		}, flat(ginger))
		paint(img, ellipse(300+s*45, 235, 22, 16), flat(color.NRGBA{250, 250, 240, 255}))
		paint(img, ellipse(300+s*45, 235, 6, 14), flat(color.NRGBA{20, 20, 20, 255}))
		for k := -1.0; k <= 1; k++ {
			paint(img, rect(300+s*60, 285+k*10, 300+s*150, 287+k*10), flat(color.NRGBA{20, 20, 20, 255}))
		}
	}
	paint(img, ellipse(300, 275, 12, 8), flat(color.NRGBA{220, 110, 120, 255}))
	paint(img, ellipse(300, 305, 30, 8), flat(color.NRGBA{150, 60, 60, 255}))
	return img
}

// landscape is hills under a sky with a low sun.
func landscape() *image.NRGBA {
	img := canvas(800, 500, color.NRGBA{140, 190, 235, 255})
	paint(img, rect(0, 0, 800, 500), func(_, y float64) color.NRGBA {
		return color.NRGBA{clamp8(140 + y*0.2), clamp8(190 + y*0.1), 235, 255}
	})
	paint(img, ellipse(600, 200, 50, 50), flat(color.NRGBA{255, 230, 170, 255}))
	paint(img, func(x, y float64) bool { return y > 300+40*math.Sin(x*0.01) }, flat(color.NRGBA{80, 140, 60, 255}))
	paint(img, func(x, y float64) bool { return y > 380+30*math.Sin(x*0.017+1) }, flat(color.NRGBA{50, 110, 40, 255}))
	grain(img, 3, 9)
	return img
}
