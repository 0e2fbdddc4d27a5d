package photoshoot

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// The test products, each photographed on a sweep with its own soft
// shadow under it, as a packshot comes from a studio.

// photoSweep is a sweep of colour c with grain and a soft shadow under the
// product's base line, from x0 to x1 at row y.
func photoSweep(w, h int, c color.NRGBA, x0, x1, y float64) *image.NRGBA {
	img := sweep(w, h, c)
	ellipse(img, (x0+x1)/2, y, (x1-x0)*0.55, 10, color.NRGBA{0, 0, 0, 40})
	return img
}

// sneakerShapes draws a sneaker in profile, toe to the right lifting off
// the floor: a navy upper, white laces, and a white sole outlined by a
// grey seam. paint maps each part's colour (to draw its coverage).
func sneakerShapes(img *image.NRGBA, paint func(color.NRGBA) color.NRGBA) {
	navy, sole, seam := hexColour("#22304F"), hexColour("#F7F7F5"), hexColour("#8C8C8A")
	// The sole: a seam-coloured slab, the white inside it.
	polygon(img, [][2]float64{{70, 262}, {530, 262}, {566, 280}, {556, 300}, {520, 312}, {84, 318}, {66, 296}},
		paint(seam))
	polygon(img, [][2]float64{{75, 266}, {527, 266}, {560, 281}, {551, 297}, {518, 308}, {87, 314}, {71, 295}},
		paint(sole))
	// The upper: heel counter, quarter and vamp, toe cap.
	polygon(img, [][2]float64{{80, 150}, {170, 140}, {200, 266}, {76, 266}}, paint(navy))
	polygon(img, [][2]float64{{170, 140}, {250, 150}, {330, 200}, {330, 266}, {200, 266}}, paint(navy))
	polygon(img, [][2]float64{{330, 200}, {470, 222}, {530, 262}, {330, 266}}, paint(navy))
	ellipse(img, 500, 252, 48, 20, paint(navy))
	for i := range 4 {
		x := 250 + float64(i)*22
		capsule(img, x, 165+float64(i)*11, x+24, 180+float64(i)*11, 4, paint(hexColour("#EDEDED")))
	}
}

// sneakerCut is the sneaker as a transparent PNG's pixels: its own
// cut-out, anti-aliased, the sole opaque white.
func sneakerCut() *image.NRGBA {
	col := newCanvas(640, 380, color.NRGBA{255, 255, 255, 255})
	sneakerShapes(col, func(c color.NRGBA) color.NRGBA { return c })
	mask := newCanvas(640, 380, color.NRGBA{0, 0, 0, 255})
	sneakerShapes(mask, func(color.NRGBA) color.NRGBA { return color.NRGBA{255, 255, 255, 255} })
	out := image.NewNRGBA(col.Rect)
	for i := 0; i < len(out.Pix); i += 4 {
		a := mask.Pix[i]
		copy(out.Pix[i:i+3], col.Pix[i:i+3])
		out.Pix[i+3] = a
		if a > 0 && a < 255 {
			// Unmix the edge from the white it was drawn on.
			for k := range 3 {
				v := (float64(col.Pix[i+k]) - 255*(1-float64(a)/255)) / (float64(a) / 255)
				out.Pix[i+k] = uint8(math.Max(0, math.Min(255, v+0.5)))
			}
		}
	}
	return out
}

// sneakerPhoto is the sneaker photographed on a white sweep.
func sneakerPhoto() *image.NRGBA {
	img := photoSweep(640, 380, color.NRGBA{250, 250, 248, 255}, 80, 540, 316)
	sneakerShapes(img, func(c color.NRGBA) color.NRGBA { return c })
	return img
}

// bagPhoto is a tan bag with a handle (its hole shows the grey sweep).
func bagPhoto() *image.NRGBA {
	img := photoSweep(480, 560, color.NRGBA{232, 232, 229, 255}, 100, 380, 498)
	tan := hexColour("#B0703C")
	for _, dx := range []float64{-80, 80} {
		capsule(img, 240+dx, 210, 240+dx*0.7, 90, 12, darker(tan, 0.2))
	}
	capsule(img, 240-56, 90, 240+56, 90, 12, darker(tan, 0.2))
	polygon(img, [][2]float64{{100, 200}, {380, 200}, {392, 496}, {88, 496}}, tan)
	return img
}

// cutProduct cuts a test photo out as a shoot does.
func cutProduct(t *testing.T, photo *image.NRGBA) *image.NRGBA {
	t.Helper()
	p, err := prepareProduct(context.Background(), photo)
	require.NoError(t, err)
	require.True(t, p.cut)
	return p.img
}

// keep writes img to $TP_SHOOT_LOOK/name.png when that is set, to look at.
func keep(t testing.TB, name string, img image.Image) {
	dir := os.Getenv("TP_SHOOT_LOOK")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name+".png"))
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, png.Encode(f, imaging.Fit(img, 800, 800, imaging.Lanczos)))
}
