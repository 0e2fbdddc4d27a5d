package video

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
)

// The files the family's examples send, drawn here so every example runs
// anywhere: three product shots (a sneaker-like shape in three colourways)
// and a seamless wave tile.
var (
	slideFiles = []tasks.ExampleFile{
		{
			Ref:       "file:example_slide_1",
			Name:      "red.jpg",
			MediaType: "image/jpeg",
			Data:      sync.OnceValue(func() []byte { return jpegOf(exampleSlide(color.NRGBA{196, 48, 43, 255})) }),
		},
		{
			Ref:       "file:example_slide_2",
			Name:      "teal.jpg",
			MediaType: "image/jpeg",
			Data:      sync.OnceValue(func() []byte { return jpegOf(exampleSlide(color.NRGBA{30, 128, 128, 255})) }),
		},
		{
			Ref:       "file:example_slide_3",
			Name:      "ochre.jpg",
			MediaType: "image/jpeg",
			Data:      sync.OnceValue(func() []byte { return jpegOf(exampleSlide(color.NRGBA{214, 160, 40, 255})) }),
		},
	}
	wavesFile = tasks.ExampleFile{
		Ref:       "file:example_waves",
		Name:      "waves.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngOf(exampleWaves()) }),
	}
)

func jpegOf(img image.Image) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func pngOf(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// exampleSlide is a rounded shoe-like shape in c on a soft grey gradient
// with a shadow, 400 × 300 px.
func exampleSlide(c color.NRGBA) *image.NRGBA {
	const W, H = 400, 300
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := range H {
		for x := range W {
			g := 238 - 24*float64(y)/H
			px := color.NRGBA{uint8(g), uint8(g), uint8(g - 4), 255}
			u, v := (float64(x)-200)/150, (float64(y)-165)/70
			if sh := math.Hypot(u, (float64(y)-228)/10); sh < 1 { // shadow
				k := 0.75 + 0.25*sh
				px = color.NRGBA{uint8(float64(px.R) * k), uint8(float64(px.G) * k), uint8(float64(px.B) * k), 255}
			}
			if u*u+v*v < 1 && !(v < -0.2 && u > 0.1) { // body with an opening
				shade := 0.8 + 0.3*(1-math.Abs(v))
				px = color.NRGBA{
					uint8(math.Min(255, float64(c.R)*shade)),
					uint8(math.Min(255, float64(c.G)*shade)),
					uint8(math.Min(255, float64(c.B)*shade)),
					255,
				}
				if v > 0.6 { // sole
					px = color.NRGBA{245, 243, 238, 255}
				}
			}
			img.SetNRGBA(x, y, px)
		}
	}
	return img
}

// exampleWaves is a seamless two-colour wave tile, 128 × 128 px: the
// waves complete whole periods across the tile, so its edges continue
// each other.
func exampleWaves() *image.NRGBA {
	const S = 128
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	ink, ground := color.NRGBA{31, 58, 95, 255}, color.NRGBA{242, 193, 78, 255}
	for y := range S {
		for x := range S {
			// Four bands of waves, two periods across.
			v := math.Mod(float64(y)+10*math.Sin(2*math.Pi*2*float64(x)/S), S/4)
			if v < 0 {
				v += S / 4
			}
			c := ground
			if v < S/10 {
				c = ink
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// stripesFile is a tile that is not seamless: a left-to-right ramp from
// cream to teal with a dark band near its top, so its left and right edges
// and its top and bottom edges differ.
// detailFile is a tile of fine detail in many colours, the hardest case
// for a GIF loop.
var detailFile = tasks.ExampleFile{
	Ref:       "file:example_detail",
	Name:      "detail.png",
	MediaType: "image/png",
	Data:      sync.OnceValue(func() []byte { return pngOf(detailedTile()) }),
}

// detailedTile is a 256 px seamless tile with fine detail in many
// colours: a sum of periodic waves of several frequencies, the hardest
// case for a GIF (every pixel dithered).
func detailedTile() *image.NRGBA {
	const n = 256
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			u, v := 2*math.Pi*float64(x)/n, 2*math.Pi*float64(y)/n
			a := math.Sin(3*u+2*v) + math.Sin(7*u-5*v)/2 + math.Sin(13*u+11*v)/3
			b := math.Cos(5*u-3*v) + math.Sin(17*v+9*u)/2
			img.SetNRGBA(x, y, color.NRGBA{
				uint8(128 + 60*a), uint8(128 + 70*b), uint8(128 + 40*(a-b)), 255,
			})
		}
	}
	return img
}

var stripesFile = tasks.ExampleFile{
	Ref:       "file:example_ramp",
	Name:      "ramp.png",
	MediaType: "image/png",
	Data:      sync.OnceValue(func() []byte { return pngOf(exampleRamp()) }),
}

// exampleRamp is 160 × 160 px: cream (#F4ECD6) on the left to teal
// (#1E8080) on the right, with a navy band 20 px high 10 px from the top.
func exampleRamp() *image.NRGBA {
	const S = 160
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	for y := range S {
		for x := range S {
			t := float64(x) / (S - 1)
			mix := func(a, b float64) uint8 { return uint8(math.Round(a + (b-a)*t)) }
			c := color.NRGBA{mix(0xF4, 0x1E), mix(0xEC, 0x80), mix(0xD6, 0x80), 255}
			if y >= 10 && y < 30 {
				c = color.NRGBA{0x1B, 0x2A, 0x4A, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}
