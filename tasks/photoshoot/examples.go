package photoshoot

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"github.com/taskplatform/taskplatform/tasks"
)

// The files the family's examples send, drawn here so every example runs
// anywhere: a tote bag and a T-shirt, each photographed on a plain sweep.
var (
	toteFile = tasks.ExampleFile{
		Ref:       "file:example_ps_tote",
		Name:      "tote.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(exampleTote()) }),
	}
	toteBackFile = tasks.ExampleFile{
		Ref:       "file:example_ps_tote_back",
		Name:      "tote_back.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(exampleToteBack()) }),
	}
	toteSideFile = tasks.ExampleFile{
		Ref:       "file:example_ps_tote_side",
		Name:      "tote_side.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(exampleToteSide()) }),
	}
	faceFile = tasks.ExampleFile{
		Ref:       "file:example_ps_portrait",
		Name:      "portrait.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(examplePortrait()) }),
	}
)

// sweep is a pale grey backdrop with a little grain, like a photo's.
func sweep(w, h int, c color.NRGBA) *image.NRGBA {
	img := newCanvas(w, h, c)
	for y := range h {
		for x := range w {
			o := img.PixOffset(x, y)
			n := 1.5 * noise(x, y)
			for k := range 3 {
				img.Pix[o+k] = uint8(math.Max(0, math.Min(255, float64(img.Pix[o+k])+n)))
			}
		}
	}
	return img
}

// exampleTote is a teal canvas tote with a cream pocket and a handle on a
// pale grey sweep, 480 × 560 px.
func exampleTote() *image.NRGBA {
	img := sweep(480, 560, color.NRGBA{236, 236, 233, 255})
	teal, cream := hexColour("#1F7A74"), hexColour("#F1E6CF")
	for _, dx := range []float64{-70, 70} {
		capsule(img, 240+dx, 190, 240+dx*0.6, 90, 11, darker(teal, 0.15))
	}
	capsule(img, 240-42, 90, 240+42, 90, 11, darker(teal, 0.15))
	polygon(img, [][2]float64{{110, 190}, {370, 190}, {390, 500}, {90, 500}}, teal)
	polygon(img, [][2]float64{{185, 320}, {295, 320}, {300, 430}, {180, 430}}, cream)
	return img
}

// exampleToteBack is the tote from behind: no pocket, a label.
func exampleToteBack() *image.NRGBA {
	img := sweep(480, 560, color.NRGBA{236, 236, 233, 255})
	teal := hexColour("#1F7A74")
	for _, dx := range []float64{-70, 70} {
		capsule(img, 240+dx, 190, 240+dx*0.6, 90, 11, darker(teal, 0.15))
	}
	capsule(img, 240-42, 90, 240+42, 90, 11, darker(teal, 0.15))
	polygon(img, [][2]float64{{110, 190}, {370, 190}, {390, 500}, {90, 500}}, darker(teal, 0.06))
	rect(img, image.Rect(215, 230, 265, 252), hexColour("#F1E6CF"))
	return img
}

// exampleToteSide is the tote from the side: its narrow gusset, the handle
// seen edge-on.
func exampleToteSide() *image.NRGBA {
	img := sweep(480, 560, color.NRGBA{236, 236, 233, 255})
	teal := hexColour("#1F7A74")
	capsule(img, 240, 190, 240, 80, 10, darker(teal, 0.15))
	polygon(img, [][2]float64{{205, 190}, {275, 190}, {285, 500}, {195, 500}}, darker(teal, 0.12))
	return img
}

// examplePortrait is a reference photo for model.create: a face (eyes,
// brows, lips) with dark brown hair against a blue wall, 400 × 500 px.
func examplePortrait() *image.NRGBA {
	img := sweep(400, 500, hexColour("#7FA6C9"))
	hair, skin, top := hexColour("#4A3020"), hexColour("#C98E6B"), hexColour("#2F3E4F")
	ellipse(img, 200, 190, 120, 150, hair)
	polygon(img, [][2]float64{{60, 420}, {340, 420}, {360, 500}, {40, 500}}, top)
	capsule(img, 200, 300, 200, 420, 40, skin)
	ellipse(img, 200, 210, 88, 112, skin)
	ellipse(img, 200, 120, 98, 50, hair)
	for _, dx := range []float64{-34, 34} { // eyes and brows
		ellipse(img, 200+dx, 200, 13, 7, hexColour("#FAFAF8"))
		ellipse(img, 200+dx, 200, 6, 6, hexColour("#3A2A20"))
		capsule(img, 200+dx-14, 180, 200+dx+14, 178, 3, hair)
	}
	ellipse(img, 200, 272, 24, 8, hexColour("#A8545A")) // lips
	return img
}

// pngBytes encodes an image as PNG; a failure is a programming error.
func pngBytes(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
