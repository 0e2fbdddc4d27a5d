package video

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// TestSeamsAreFoundWhereTheyAre: the wave tile, a 2 × 2 checker (its wrap
// as sharp as its inside edge) and a band across the top (stripes) are
// seamless; a ramp across has a seam side to side, turned upright top to
// bottom; a mirrored ramp is seamless.
func TestSeamsAreFoundWhereTheyAre(t *testing.T) {
	checker := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	band := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	ramp := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			c := color.NRGBA{240, 240, 240, 255}
			if (x/32+y/32)%2 == 1 {
				c = color.NRGBA{20, 40, 80, 255}
			}
			checker.SetNRGBA(x, y, c)
			b := color.NRGBA{240, 230, 200, 255}
			if y < 8 {
				b = color.NRGBA{30, 40, 70, 255}
			}
			band.SetNRGBA(x, y, b)
			ramp.SetNRGBA(x, y, color.NRGBA{uint8(4 * x), 100, 100, 255})
		}
	}
	waves, err := png.Decode(bytes.NewReader(wavesFile.Data()))
	require.NoError(t, err)
	for _, tc := range []struct {
		name         string
		img          image.Image
		seamX, seamY bool
	}{
		{"waves", waves, false, false},
		{"checker", checker, false, false},
		{"a band at the top (stripes)", band, false, false},
		{"ramp across", ramp, true, false},
		{"the example ramp", exampleRamp(), true, false},
		{"the example ramp upright", imaging.Rotate90(exampleRamp()), false, true},
		{"the example ramp mirrored", mirrored(exampleRamp()), false, false},
	} {
		s := checkSeams(tc.img)
		require.Equal(t, tc.seamX, s.seamX(), "%s: %+v", tc.name, s)
		require.Equal(t, tc.seamY, s.seamY(), "%s: %+v", tc.name, s)
	}
}

// TestNonSeamlessTileWarnsOrMirrors: the ramp loops with a
// tile_not_seamless warning and seamless false; with mirror true it does
// not warn, and every frame's left and right edges continue each other
// across the repeat.
func TestNonSeamlessTileWarnsOrMirrors(t *testing.T) {
	f := files{"file:t": stripesFile.Data()}
	out := run(t, Options{}, "video.pattern_loop", `{"tile":"file:t","seconds":1,"size":"480x480"}`, f)
	require.Len(t, out.Warnings, 1)
	require.Equal(t, string(apierr.TileNotSeamless), out.Warnings[0].Code)
	require.Equal(t, false, out.Meta["seamless"])
	require.Equal(t, false, out.Meta["mirrored"])

	out = run(t, Options{}, "video.pattern_loop", `{"tile":"file:t","seconds":1,"size":"480x480","mirror":true}`, f)
	require.Empty(t, out.Warnings)
	require.Equal(t, false, out.Meta["seamless"], "the tile as sent still has its seam")
	require.Equal(t, true, out.Meta["mirrored"])
	g, err := gif.DecodeAll(bytes.NewReader(out.Data))
	require.NoError(t, err)
	tile := out.Meta["tile_px"].(int)
	frame := g.Image[0]
	// Where the block repeats and where its mirrored halves meet (every
	// half tile), the frame steps as little as anywhere: no seam.
	step := func(x int) float64 {
		d := 0.0
		for y := range 480 {
			a, b := color.NRGBAModel.Convert(frame.At(x, y)).(color.NRGBA),
				color.NRGBAModel.Convert(frame.At(x+1, y)).(color.NRGBA)
			d += float64(abs(int(a.R)-int(b.R)) + abs(int(a.G)-int(b.G)) + abs(int(a.B)-int(b.B)))
		}
		return d / 480 / 3
	}
	for x := tile/2 - 1; x+1 < 480; x += tile / 2 {
		require.Less(t, step(x), 8.0, "no seam at x %d", x)
	}
}

// A loop sent without a format is an MP4 where the server has ffmpeg — a
// small file that opens in a player as delivered — and a GIF where it has
// not; both tasks and the served vocabulary say the same default.
func TestLoopsPreferMP4WhereFFmpegIs(t *testing.T) {
	f := files{"file:t": wavesFile.Data()}
	body := `{"tile":"file:t","seconds":4,"size":"480x480"}`
	mp4 := run(t, withFFmpeg(t), "video.pattern_loop", body, f)
	require.Equal(t, "video/mp4", mp4.MediaType)
	require.Equal(t, "mp4", mp4.Ext)
	gif := run(t, Options{}, "video.pattern_loop", body, f)
	require.Equal(t, "image/gif", gif.MediaType)
	require.Equal(t, "gif", gif.Ext)
	require.Less(t, 10*len(mp4.Data), len(gif.Data), "the MP4 is a tenth of the GIF or less")
	for _, o := range []Options{withFFmpeg(t), {}} {
		want := map[bool]string{true: "mp4", false: "gif"}[o.FFmpeg != ""]
		require.Equal(t, want, *formatVocab(o).Default)
		for name, body := range map[string]string{
			"video.pattern_loop": `{"tile":"file:t"}`, "video.slideshow": `{"images":["file:a","file:b"]}`,
		} {
			in, err := task(t, o, name).Validate([]byte(body))
			require.NoError(t, err, name)
			require.Equal(t, want, in.Fields["format"], name)
		}
	}
}
