package colourwork

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
)

// printFile is the design the examples send: a three-colour lemon print
// on cream, drawn here so every example runs anywhere.
var printFile = tasks.ExampleFile{Ref: "file:example_lemon_print", Name: "lemons.png", MediaType: "image/png",
	Data: sync.OnceValue(func() []byte { return pngBytes(examplePrint()) })}

// examplePrint is 240 × 240 px: yellow lemons with green leaves on a cream
// ground, flat colours as a screen print has them.
func examplePrint() *image.NRGBA {
	const S, cell = 240, 80
	cream, lemon, leaf := color.NRGBA{
		0xF4,
		0xEC,
		0xD6,
		255,
	}, color.NRGBA{
		0xF2,
		0xC9,
		0x1E,
		255,
	}, color.NRGBA{
		0x2F,
		0x6B,
		0x3A,
		255,
	}
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	for y := range S {
		for x := range S {
			fx, fy := float64(x%cell)-cell/2, float64(y%cell)-cell/2
			c := cream
			switch {
			case (fx/26)*(fx/26)+(fy/18)*(fy/18) <= 1:
				c = lemon
			case math.Hypot(fx-22, fy+20) <= 10:
				c = leaf
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// pngBytes encodes an example image; a failure is a programming error.
func pngBytes(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// lineArtFile is a line drawing as a print shop gets one: a red ring,
// 1-px black hairlines and a bold black bar on white, drawn here.
var lineArtFile = tasks.ExampleFile{Ref: "file:example_line_art", Name: "line_art.png", MediaType: "image/png",
	Data: sync.OnceValue(func() []byte { return pngBytes(exampleLineArt()) })}

// exampleLineArt is 480 × 320 px: a red ring 14 px wide, five horizontal
// and four diagonal 1-px black hairlines and an 18-px black bar, crisp, on
// white.
func exampleLineArt() *image.NRGBA {
	const W, H = 480, 320
	white, black, red := color.NRGBA{0xFF, 0xFF, 0xFF, 255}, color.NRGBA{0x10, 0x10, 0x10, 255},
		color.NRGBA{0xD2, 0x1F, 0x2B, 255}
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := range H {
		for x := range W {
			c := white
			if d := math.Hypot(float64(x-240), float64(y-140)); d >= 90 && d < 104 {
				c = red
			}
			if y >= 40 && y <= 240 && y%40 == 0 && x >= 30 && x < 450 {
				c = black
			}
			if y >= 30 && y < 250 && (x-y+400)%100 == 0 {
				c = black
			}
			if y >= 270 && y < 288 && x >= 60 && x < 420 {
				c = black
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}
