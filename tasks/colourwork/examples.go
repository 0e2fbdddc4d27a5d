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
