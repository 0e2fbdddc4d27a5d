package image

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// The files the family's examples send, drawn here so every example runs
// anywhere: a product shot, a wide photo with an off-centre subject and a
// two-colour print.
var (
	productFile = tasks.ExampleFile{
		Ref:       "file:example_product",
		Name:      "bottle.jpg",
		MediaType: "image/jpeg",
		Data:      sync.OnceValue(func() []byte { return jpegBytes(exampleProduct()) }),
	}
	sceneFile = tasks.ExampleFile{
		Ref:       "file:example_scene",
		Name:      "flower.jpg",
		MediaType: "image/jpeg",
		Data:      sync.OnceValue(func() []byte { return jpegBytes(exampleScene()) }),
	}
	printFile = tasks.ExampleFile{
		Ref:       "file:example_print",
		Name:      "dots.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(examplePrint()) }),
	}
)

// grain is a small deterministic noise in [-1, 1], like a camera's.
func grain(x, y int) float64 {
	h := uint32(x)*374761393 + uint32(y)*668265263
	h = (h ^ h>>13) * 1274126177
	return float64(h&0xFFFF)/32767.5 - 1
}

func clamp8(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(255, v)))) }

// exampleProduct is a green bottle with a cream label and a dark cap on a
// pale grey sweep, 480 × 360 px.
func exampleProduct() *image.NRGBA {
	const W, H = 480, 360
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := range H {
		for x := range W {
			n := 1.5 * grain(x, y)
			c := color.NRGBA{clamp8(236 + n), clamp8(236 + n), clamp8(232 + n), 255}
			dx := math.Abs(float64(x) - W/2)
			switch {
			case y >= 90 && y < 320 && dx < 55-math.Max(0, float64(110-y))*0.8: // body with shoulders
				c = color.NRGBA{clamp8(40 + 30*(1-dx/55) + n), clamp8(96 + 40*(1-dx/55) + n), clamp8(62 + n), 255}
				if y > 170 && y < 260 && dx < 48 { // label
					c = color.NRGBA{clamp8(243 + n), clamp8(233 + n), clamp8(210 + n), 255}
				}
			case y >= 60 && y < 90 && dx < 18: // neck
				c = color.NRGBA{clamp8(50 + n), clamp8(110 + n), clamp8(70 + n), 255}
			case y >= 40 && y < 60 && dx < 20: // cap
				c = color.NRGBA{clamp8(30 + n), clamp8(30 + n), clamp8(34 + n), 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// exampleScene is a dusky, quiet landscape with a bright yellow flower near
// its right edge, 640 × 360 px.
func exampleScene() *image.NRGBA {
	const W, H = 640, 360
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	cx, cy, r := 0.82*W, 0.5*H, 46.0
	for y := range H {
		for x := range W {
			t := float64(y) / H
			n := 2 * grain(x, y)
			c := color.NRGBA{clamp8(52 + 20*t + n), clamp8(58 + 16*t + n), clamp8(70 + 6*t + n), 255}
			dx, dy := float64(x)-cx, float64(y)-cy
			d := math.Hypot(dx, dy)
			petal := r * (0.75 + 0.25*math.Cos(6*math.Atan2(dy, dx)))
			switch {
			case d < 0.3*r:
				c = color.NRGBA{clamp8(200 + n), clamp8(90 + n), clamp8(20 + n), 255}
			case d < petal:
				c = color.NRGBA{clamp8(250 + n), clamp8(205 - 40*d/r + n), clamp8(30 + n), 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// examplePrint is navy dots on white, anti-aliased, 256 × 256 px.
func examplePrint() *image.NRGBA {
	const S, cell, r = 256, 64, 18.0
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	navy, white := colour.LabOf8(0x1F, 0x2A, 0x44), colour.LabOf8(0xFF, 0xFF, 0xFF)
	for y := range S {
		for x := range S {
			dx, dy := float64(x%cell)+0.5-cell/2, float64(y%cell)+0.5-cell/2
			cover := math.Max(0, math.Min(1, r+0.5-math.Hypot(dx, dy)))
			img.SetNRGBA(x, y, white.Mix(navy, cover).NRGBA())
		}
	}
	return img
}
