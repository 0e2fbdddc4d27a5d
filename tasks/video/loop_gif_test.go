package video

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// screens is what a viewer shows at each frame of g: each frame drawn over
// the last (disposal none), its transparent pixels leaving the last one's,
// as indices of the global palette.
func screens(g *gif.GIF) []*image.Paletted {
	r := image.Rect(0, 0, g.Config.Width, g.Config.Height)
	screen := image.NewPaletted(r, g.Image[0].Palette)
	var out []*image.Paletted
	for _, f := range g.Image {
		for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
			for x := f.Rect.Min.X; x < f.Rect.Max.X; x++ {
				i := f.ColorIndexAt(x, y)
				if _, _, _, a := f.Palette[i].RGBA(); a != 0 {
					screen.SetColorIndex(x, y, i)
				}
			}
		}
		out = append(out, image.NewPaletted(r, screen.Palette))
		copy(out[len(out)-1].Pix, screen.Pix)
	}
	return out
}

func TestGIFLoopStoresOnlyWhatChanged(t *testing.T) {
	pal := loopPalette(color.Palette{color.RGBA{250, 240, 220, 255}, color.RGBA{20, 40, 90, 255}})
	var frames []*image.Paletted
	for k := range 6 {
		f := image.NewPaletted(image.Rect(0, 0, 200, 100), pal)
		for y := 40; y < 60; y++ {
			for x := 10 + 20*k; x < 30+20*k; x++ {
				f.SetColorIndex(x, y, 1) // a square moving right on a plain ground
			}
		}
		frames = append(frames, f)
	}
	data, err := encodeLoopGIF(context.Background(), frames, pal, 5)
	require.NoError(t, err)
	g, err := gif.DecodeAll(bytes.NewReader(data))
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 200, 100), g.Image[0].Rect, "the first frame whole")
	for k, f := range g.Image[1:] {
		require.Equal(t, image.Rect(10+20*k, 40, 50+20*k, 60), f.Rect, "frame %d: only the changed rectangle", k+1)
	}
	for k, s := range screens(g) {
		require.Equal(t, frames[k].Pix, s.Pix, "frame %d shows exactly what was asked", k)
	}
}

func TestDetailedGIFLoopIsReducedToItsCapAndSaysSo(t *testing.T) {
	out := run(t, Options{}, "video.pattern_loop", `{"tile":"file:d","seconds":2,"size":"480x480","format":"gif"}`,
		files{"file:d": detailFile.Data()})
	limit := 4 * 480 * 480 * 2
	require.LessOrEqual(t, len(out.Data), limit, "the GIF keeps to the documented cap")
	require.Equal(t, 10, out.Meta["fps"])
	require.Len(t, out.Warnings, 1)
	require.Equal(t, string(apierr.GIFReduced), out.Warnings[0].Code)
	require.Contains(t, out.Warnings[0].Message, "10 frames per second")
	g, err := gif.DecodeAll(bytes.NewReader(out.Data))
	require.NoError(t, err)
	require.Len(t, g.Image, 20, "2 s at 10 frames per second")
	require.Equal(t, 10, g.Delay[0])
}

func TestFlatGIFLoopKeepsFullQuality(t *testing.T) {
	out := run(t, Options{}, "video.pattern_loop", `{"tile":"file:w","seconds":2,"size":"480x480","format":"gif"}`,
		files{"file:w": wavesFile.Data()})
	require.Empty(t, out.Warnings)
	require.Equal(t, 20, out.Meta["fps"])
	require.LessOrEqual(t, len(out.Data), 4*480*480*2)
	g, err := gif.DecodeAll(bytes.NewReader(out.Data))
	require.NoError(t, err)
	require.Len(t, g.Image, 40)
	require.NotNil(t, g.Config.ColorModel, "one global palette")
	require.LessOrEqual(t, len(g.Config.ColorModel.(color.Palette)), 16,
		"two flat colours and their edges: 15 colours and the transparent one, 4-bit codes")
}

func TestManyColouredTileKeepsAFullPalette(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(detailFile.Data()))
	require.NoError(t, err)
	require.Len(t, histogramOf(imaging.Clone(img)).fewestColours(255), 255)
}
