package image

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// faceScene is a room 1600 × 900 with a bright window and a lit lamp on
// the left — the brightest, most detailed things — and a person small and
// off the centre at fx (their face about 70 × 90 px, its box returned with
// the hair above it).
func faceScene(fx, fy float64) (*image.NRGBA, image.Rectangle) {
	const W, H = 1600, 900
	img := paint(W, H, func(x, y int) color.NRGBA {
		px, py := float64(x), float64(y)
		n := 3 * grain(x, y)
		c := rgb(120, 110, 100, n+4*grain(x/5, y/5))     // a wall
		if px > 80 && px < 520 && py > 120 && py < 620 { // the window, bright, with mullions
			c = rgb(250, 250, 245, n)
			if math.Mod(px-80, 110) < 8 || math.Mod(py-120, 125) < 8 {
				c = rgb(60, 50, 40, n)
			}
		}
		if d := math.Hypot(px-650, py-300); d < 50 { // a lamp's glare
			c = rgb(255, 245, 200, 0)
		}
		if py > 700 {
			c = rgb(90, 70, 50, n+6*grain(x/9, y/3)) // a floor
		}
		// The person: shoulders in a dark top, a neck, a face, hair.
		dx, dy := (px-fx)/35, (py-fy)/45
		switch {
		case py > fy+70 && math.Abs(px-fx) < 90+(py-fy-70)*0.3:
			c = rgb(40, 50, 70, n)
		case py > fy+30 && math.Abs(px-fx) < 16:
			c = rgb(200, 145, 110, n)
		case dx*dx+dy*dy < 1:
			c = rgb(205, 150, 115, n)
			for _, ex := range []float64{fx - 13, fx + 13} {
				if e := math.Hypot((px-ex)/6, (py-fy+6)/3.5); e < 1 {
					c = rgb(248, 248, 246, 0)
					if math.Abs(px-ex) < 2.5 {
						c = rgb(40, 30, 25, 0)
					}
				}
			}
			if math.Hypot((px-fx)/11, (py-fy-24)/4) < 1 {
				c = rgb(165, 80, 85, 0)
			}
		case math.Hypot((px-fx)/42, (py-fy+18)/42) < 1 && py < fy-12:
			c = rgb(60, 40, 28, n)
		}
		return c
	})
	return img, image.Rect(int(fx-42), int(fy-60), int(fx+42), int(fy+45))
}

// TestCropKeepsFacesWhole: a small face off the centre, beside a window
// and a lamp brighter than it, is kept whole with its hair in 9:16, 4:5
// and 1:1 crops, wherever it stands.
func TestCropKeepsFacesWhole(t *testing.T) {
	dir := os.Getenv("CROP_DIR")
	for _, at := range [][2]float64{{1350, 330}, {980, 250}, {250, 380}} {
		img, face := faceScene(at[0], at[1])
		_, _, ok := faceSpan(img, img, true)
		require.True(t, ok, "the face at %v is found", at)
		for _, r := range [][2]int{{9, 16}, {4, 5}, {1, 1}} {
			cw, ch := cropSize(1600, 900, r[0], r[1])
			rect, err := cropRect(img, cw, ch, "attention")
			require.NoError(t, err)
			require.True(t, face.In(rect), "face %v at %v in the %d:%d crop %v", face, at, r[0], r[1], rect)
			if dir != "" {
				writePNG(t, filepath.Join(dir, fmt.Sprintf("face_%.0f_%dx%d.png", at[0], r[0], r[1])),
					cropped(img, rect))
			}
		}
	}
}

// BenchmarkCropWithFaces is the attention crop of the 1600 × 900 room with
// a face (saliency and the face detector): go test -run '^$' -bench
// CropWithFaces ./tasks/image.
func BenchmarkCropWithFaces(b *testing.B) {
	img, _ := faceScene(1350, 330)
	cw, ch := cropSize(1600, 900, 9, 16)
	for b.Loop() {
		if _, err := cropRect(img, cw, ch, "attention"); err != nil {
			b.Fatal(err)
		}
	}
}
