package image

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The ground-truth set of image.remove_background: packshots rendered at
// test time with a known alpha, so a cut-out can be measured against them.
// Each scene is a backdrop (plain, gradient, vignette), shadows multiplied
// into it, and product parts composited over it with a supersampled
// coverage; noise and JPEG come last.

// rgbf is a colour in 0..255 per channel.
type rgbf [3]float64

// part is one piece of a product: what it covers and its colour there.
type part struct {
	in    func(x, y float64) bool
	col   func(x, y float64) rgbf
	light bool // a part close to the backdrop colour that must be kept
	// alpha, when set, is the part's own opacity (a see-through body): it
	// is composited over the backdrop, its truth alpha coverage × alpha.
	alpha func(x, y float64) float64
}

// scene is a packshot to render.
type scene struct {
	name     string
	w, h     int
	backdrop func(x, y float64) rgbf
	shadow   func(x, y float64) float64 // multiplies the backdrop; 1 = none
	parts    []part
	hole     func(x, y float64) bool // backdrop enclosed by the product
	noise    float64                 // Gaussian σ in 0..255
	jpeg     bool
	quality  int // JPEG quality (0: 85)
	scale    int // pixels per unit of the shapes' coordinates (0: 1)
}

// truth is a rendered scene with what is known of each pixel.
type truth struct {
	name   string
	img    image.Image
	alpha  []float64 // 0..1
	fg     []rgbf    // the product's colour where alpha > 0
	shadow []bool    // backdrop darkened by a shadow, alpha 0
	hole   []bool    // enclosed backdrop, alpha 0
	light  []bool    // inside a light part, alpha 1
	bg     []rgbf    // the backdrop's colour (shadow included) at the pixel
	shade  []float64 // the shadow's density at the pixel: 1 − its factor
	cover  []float64 // the share of the pixel the product covers, 0..1
}

func (s scene) render() truth {
	k := float64(max(1, s.scale))
	W, H := s.w*max(1, s.scale), s.h*max(1, s.scale)
	n := W * H
	t := truth{name: s.name, alpha: make([]float64, n), fg: make([]rgbf, n),
		shadow: make([]bool, n), hole: make([]bool, n), light: make([]bool, n), bg: make([]rgbf, n),
		shade: make([]float64, n), cover: make([]float64, n)}
	px := image.NewNRGBA(image.Rect(0, 0, W, H))
	rng := rand.New(rand.NewPCG(uint64(len(s.name)), 7))
	const ss = 4
	for y := range H {
		for x := range W {
			i := y*W + x
			var acc, fg rgbf
			cov, opa := 0, 0.0
			allLight, anyHole := true, false
			for sy := range ss {
				for sx := range ss {
					fx, fy := (float64(x)+(float64(sx)+0.5)/ss)/k, (float64(y)+(float64(sy)+0.5)/ss)/k
					var c rgbf
					hit, pa := false, 1.0
					for k := len(s.parts) - 1; k >= 0; k-- { // the last part is on top
						if p := s.parts[k]; p.in(fx, fy) {
							c, hit = p.col(fx, fy), true
							allLight = allLight && p.light
							if p.alpha != nil {
								pa = p.alpha(fx, fy)
							}
							break
						}
					}
					own := c
					if hit && pa < 1 { // the backdrop seen through the part
						b, sh := s.backdrop(fx, fy), 1.0
						if s.shadow != nil {
							sh = s.shadow(fx, fy)
						}
						for ch := range 3 {
							c[ch] = pa*c[ch] + (1-pa)*b[ch]*sh
						}
					}
					if hit {
						cov++
						opa += pa
						for ch := range 3 {
							fg[ch] += pa * own[ch]
						}
					} else {
						b, sh := s.backdrop(fx, fy), 1.0
						if s.shadow != nil {
							sh = s.shadow(fx, fy)
						}
						for ch := range 3 {
							c[ch] = b[ch] * sh
						}
						allLight = false
						anyHole = anyHole || (s.hole != nil && s.hole(fx, fy))
					}
					for ch := range 3 {
						acc[ch] += c[ch]
					}
				}
			}
			a := opa / (ss * ss)
			t.alpha[i], t.cover[i] = a, float64(cov)/(ss*ss)
			if cov > 0 {
				for ch := range 3 { // the parts' own colour, by their opacity
					fg[ch] /= max(opa, 1e-9)
				}
			}
			t.fg[i] = fg
			cx, cy := (float64(x)+0.5)/k, (float64(y)+0.5)/k
			b, sh := s.backdrop(cx, cy), 1.0
			if s.shadow != nil {
				sh = s.shadow(cx, cy)
			}
			t.bg[i] = rgbf{b[0] * sh, b[1] * sh, b[2] * sh}
			t.shade[i] = 1 - sh
			if cov == 0 {
				t.shadow[i] = s.shadow != nil && s.shadow(cx, cy) < 0.93
				t.hole[i] = anyHole
			}
			t.light[i] = cov == ss*ss && allLight
			p := px.Pix[i*4 : i*4+4]
			for ch := range 3 {
				v := acc[ch]/(ss*ss) + rng.NormFloat64()*s.noise
				p[ch] = uint8(math.Round(math.Max(0, math.Min(255, v))))
			}
			p[3] = 255
		}
	}
	t.img = px
	if s.jpeg {
		var buf bytes.Buffer
		q := s.quality
		if q == 0 {
			q = 85
		}
		if err := jpeg.Encode(&buf, px, &jpeg.Options{Quality: q}); err != nil {
			panic(err)
		}
		m, err := jpeg.Decode(&buf)
		if err != nil {
			panic(err)
		}
		t.img = m
	}
	return t
}

// Shapes and shading.

func ellipse(cx, cy, rx, ry float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		dx, dy := (x-cx)/rx, (y-cy)/ry
		return dx*dx+dy*dy <= 1
	}
}

func rect(x0, y0, x1, y1 float64) func(x, y float64) bool {
	return func(x, y float64) bool { return x >= x0 && x < x1 && y >= y0 && y < y1 }
}

func ring(cx, cy, r0, r1 float64) func(x, y float64) bool {
	return func(x, y float64) bool {
		d := math.Hypot(x-cx, y-cy)
		return d >= r0 && d <= r1
	}
}

func union(fs ...func(x, y float64) bool) func(x, y float64) bool {
	return func(x, y float64) bool {
		for _, f := range fs {
			if f(x, y) {
				return true
			}
		}
		return false
	}
}

func and(a, b func(x, y float64) bool) func(x, y float64) bool {
	return func(x, y float64) bool { return a(x, y) && b(x, y) }
}

// shaded is a colour lit from the left across [x0, x1], with a fine texture.
func shaded(c rgbf, x0, x1, texture float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		t := (x - x0) / (x1 - x0)
		k := 1.1 - 0.35*t*t + texture*math.Sin(x*1.7)*math.Sin(y*1.3)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

func flat(c rgbf) func(x, y float64) rgbf { return func(x, y float64) rgbf { return c } }

func plain(c rgbf) func(x, y float64) rgbf { return func(x, y float64) rgbf { return c } }

// sweep runs from top to bottom between two colours.
func sweep(top, bottom rgbf, h float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		t := y / h
		return rgbf{top[0] + (bottom[0]-top[0])*t, top[1] + (bottom[1]-top[1])*t, top[2] + (bottom[2]-top[2])*t}
	}
}

// vignette darkens c towards the corners.
func vignette(c rgbf, w, h, depth float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		dx, dy := (x-w/2)/(w/2), (y-h/2)/(h/2)
		k := 1 - depth*(dx*dx+dy*dy)/2
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// softShadow is a shadow of the given darkness in an ellipse with a soft
// edge of blur pixels.
func softShadow(cx, cy, rx, ry, dark, blur float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		dx, dy := (x-cx)/rx, (y-cy)/ry
		d := (math.Sqrt(dx*dx+dy*dy) - 1) * math.Min(rx, ry) // ≈ pixels outside the ellipse
		t := 0.5 - d/(2*blur)
		t = math.Max(0, math.Min(1, t))
		t = t * t * (3 - 2*t)
		return 1 - dark*t
	}
}

func shadows(fs ...func(x, y float64) float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		k := 1.0
		for _, f := range fs {
			k *= f(x, y)
		}
		return k
	}
}

// sideBySide is the input next to the cut-out over magenta, to look at.
func sideBySide(in image.Image, cut *image.NRGBA) *image.NRGBA {
	b := cut.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, 2*b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			r, g, bl, _ := in.At(x, y).RGBA()
			out.Set(x, y, color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255})
			p := cut.Pix[y*cut.Stride+4*x:]
			a := float64(p[3]) / 255
			mix := func(v, m uint8) uint8 { return uint8(a*float64(v) + (1-a)*float64(m)) }
			out.Set(b.Dx()+x, y, color.NRGBA{mix(p[0], 255), mix(p[1], 0), mix(p[2], 255), 255})
		}
	}
	return out
}

func writePNG(tb testing.TB, path string, img image.Image) {
	var buf bytes.Buffer
	require.NoError(tb, png.Encode(&buf, img))
	require.NoError(tb, os.WriteFile(path, buf.Bytes(), 0o644))
}
