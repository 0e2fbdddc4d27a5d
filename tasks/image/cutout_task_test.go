package image

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// image.remove_background through the task: what a client gets back.

// redSquare is a red square (60 to 140) on white, 200 × 200.
func redSquare() *image.NRGBA {
	img := solid(200, 200, color.White)
	for y := 60; y < 140; y++ {
		for x := 60; x < 140; x++ {
			img.Set(x, y, color.NRGBA{220, 20, 30, 255})
		}
	}
	return img
}

func TestCutOutOfARedSquareOnWhite(t *testing.T) {
	out, errs := run(
		t,
		"image.remove_background",
		`{"images":["file:r"],"feather":3}`,
		files{"file:r": pngBytes(redSquare())},
	)
	require.Empty(t, errs)
	img := decode(t, out[0])
	require.Equal(t, image.Pt(200, 200), img.Bounds().Size())
	for _, p := range []image.Point{{0, 0}, {199, 0}, {0, 199}, {199, 199}, {30, 100}, {59, 100}} {
		require.Equal(t, uint8(0), nrgba(img, p.X, p.Y).A, "background at %v", p)
	}
	require.Equal(t, color.NRGBA{220, 20, 30, 255}, nrgba(img, 100, 100), "the centre is opaque and untouched")
	require.Equal(t, color.NRGBA{220, 20, 30, 255}, nrgba(img, 60, 100), "a hard outline stays hard, without a fringe")
	require.Equal(t, "#FFFFFF", out[0].Meta["background"])
	require.InDelta(t, 0.16, out[0].Meta["object_share"], 0.001)
	require.Equal(t, 1.0, out[0].Meta["confidence"], "a plain backdrop all round")
}

func TestCutOutThatCannotBeSeparated(t *testing.T) {
	noise := image.NewNRGBA(image.Rect(0, 0, 120, 120))
	for y := range 120 {
		for x := range 120 {
			g := grain(x, y)
			noise.Set(x, y, color.NRGBA{uint8(128 + 120*g), uint8(128 - 120*g), uint8(x * 2), 255})
		}
	}
	f := files{
		"file:r": pngBytes(redSquare()),
		"file:n": pngBytes(noise),
		"file:w": pngBytes(solid(100, 100, color.White)),
	}
	out, errs := run(t, "image.remove_background", `{"images":["file:r","file:n","file:w"]}`, f)
	require.Len(t, out, 1)
	var se *tasks.StepError
	require.True(t, errors.As(errs[1], &se))
	require.Contains(t, se.Message, "images[1] (file:n): the background cannot be separated")
	require.True(t, errors.As(errs[2], &se))
	require.Contains(t, se.Message, "images[2] (file:w): no object was found")
}
