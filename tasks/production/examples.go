package production

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
// anywhere: a T-shirt flat, front and back, and a print motif.
var (
	teeFrontFile = tasks.ExampleFile{
		Ref:       "file:example_tee_front",
		Name:      "tee-front.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(teeFlat(true)) }),
	}
	teeBackFile = tasks.ExampleFile{
		Ref:       "file:example_tee_back",
		Name:      "tee-back.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(teeFlat(false)) }),
	}
	motifFile = tasks.ExampleFile{
		Ref:       "file:example_motif",
		Name:      "lemons.png",
		MediaType: "image/png",
		Data:      sync.OnceValue(func() []byte { return pngBytes(motif()) }),
	}
)

// pngBytes encodes an image as PNG; a failure is a programming error.
func pngBytes(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// inside says whether (x, y) lies inside the polygon pts (even-odd rule).
func inside(pts [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		a, b := pts[i], pts[j]
		if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// teeFlat is a technical flat of a striped T-shirt, 480 × 520 px, outlined
// in ink: navy and white Breton stripes, a scooped neck at the front, a higher one at the
// back.
func teeFlat(front bool) *image.NRGBA {
	const W, H = 480, 520
	body := [][2]float64{
		{170, 60},
		{100, 80},
		{20, 170},
		{75, 225},
		{120, 190},
		{120, 480},
		{360, 480},
		{360, 190},
		{405, 225},
		{460, 170},
		{380, 80},
		{310, 60},
	}
	neckDepth := 110.0
	if !front {
		neckDepth = 75
	}
	navy, cream := color.NRGBA{0x1B, 0x2A, 0x4A, 0xff}, color.NRGBA{0xFA, 0xFA, 0xF7, 0xff}
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := range H {
		for x := range W {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			c := color.NRGBA{0xFF, 0xFF, 0xFF, 0xff}
			neck := math.Pow((fx-240)/70, 2)+math.Pow((fy-60)/(neckDepth-60), 2) < 1
			if inside(body, fx, fy) && !neck {
				c = cream
				if fy > 130 && int(fy-130)%36 < 14 {
					c = navy
				}
				// A flat is drawn: its outline in ink, two pixels wide.
				for _, d := range [][2]float64{{-2, 0}, {2, 0}, {0, -2}, {0, 2}} {
					nx, ny := fx+d[0], fy+d[1]
					out := !inside(body, nx, ny) ||
						math.Pow((nx-240)/70, 2)+math.Pow((ny-60)/(neckDepth-60), 2) < 1
					if out {
						c = color.NRGBA{0x22, 0x22, 0x22, 0xff}
					}
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// motif is a print motif of 256 × 256 px that repeats seamlessly: yellow
// lemons with green leaves on a pale blue ground, half-dropped.
func motif() *image.NRGBA {
	const S = 256
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	ground := color.NRGBA{0xDC, 0xEB, 0xF5, 0xff}
	lemon := color.NRGBA{0xF4, 0xD0, 0x3F, 0xff}
	leaf := color.NRGBA{0x3E, 0x8E, 0x4F, 0xff}
	centres := [][2]float64{{64, 64}, {192, 192}, {192, -64}, {-64, 192}, {320, 192}, {64, 320}}
	for y := range S {
		for x := range S {
			c := ground
			for _, p := range centres {
				for _, dx := range []float64{-S, 0, S} {
					for _, dy := range []float64{-S, 0, S} {
						u, v := float64(x)+0.5-p[0]-dx, float64(y)+0.5-p[1]-dy
						if math.Pow(u/40, 2)+math.Pow(v/28, 2) < 1 {
							c = lemon
						} else if math.Pow((u-30)/18, 2)+math.Pow((v+30)/9, 2) < 1 {
							c = leaf
						}
					}
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}
