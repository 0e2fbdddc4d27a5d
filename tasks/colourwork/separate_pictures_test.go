package colourwork

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"

	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
)

// writePictures draws the README's before-and-after picture of the badge:
// the design as sent (anti-aliased, JPEG), the grey ink's film as the
// nearest-colour separation gave it (before), and the film now.
func writePictures(t testing.TB, dir string) {
	d := truthDesigns()[0]
	img, _ := d.render()
	noisy := jpegNoised(t, img)
	q, err := imagetasks.Quantise(context.Background(), noisy, 8, mergeDE, minCoverage)
	require.NoError(t, err)
	grey, bd := 0, 1e9
	for j, c := range q.Colours {
		if e := imagetasks.DeltaE(c.Colour, d.inks[2]); e < bd {
			grey, bd = j, e
		}
	}
	before := image.NewGray(q.Index.Rect)
	for p, v := range q.Index.Pix {
		before.Pix[p] = 255
		if int(v) == grey {
			before.Pix[p] = 0
		}
	}
	job, err := newSeparation(context.Background(), noisy, &separateInput{Image: "file:badge", MaxColours: 8,
		Order: "light_to_dark", JobName: "Badge tee", DPI: 150})
	require.NoError(t, err)
	n := 0
	for i, j := range job.order {
		if imagetasks.DeltaE(job.inks[j].Colour, d.inks[2]) < 5 {
			n = i
		}
	}
	after := job.inkFilm(n)
	const h = 360
	parts := []image.Image{imaging.Resize(noisy, 0, h*d.h/after.Rect.Dy(), imaging.Lanczos),
		imaging.Resize(before, 0, h*d.h/after.Rect.Dy(), imaging.NearestNeighbor),
		imaging.Resize(after, 0, h, imaging.Lanczos)}
	w := 0
	for _, p := range parts {
		w += p.Bounds().Dx() + 16
	}
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Rect, image.NewUniform(color.NRGBA{0xE8, 0xE8, 0xE8, 255}), image.Point{}, draw.Src)
	x := 0
	for _, p := range parts {
		b := p.Bounds()
		y := (h - b.Dy()) / 2
		draw.Draw(out, image.Rect(x, y, x+b.Dx(), y+b.Dy()), p, b.Min, draw.Src)
		x += b.Dx() + 16
	}
	f, err := os.Create(filepath.Join(dir, "separate-badge.png"))
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, png.Encode(f, out))
}
