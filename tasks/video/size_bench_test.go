package video

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// detailedTile is a 256 px seamless tile with fine detail in many
// colours: a sum of periodic waves of several frequencies, the hardest
// case for a GIF (every pixel dithered).
func detailedTile() *image.NRGBA {
	const n = 256
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			u, v := 2*math.Pi*float64(x)/n, 2*math.Pi*float64(y)/n
			a := math.Sin(3*u+2*v) + math.Sin(7*u-5*v)/2 + math.Sin(13*u+11*v)/3
			b := math.Cos(5*u-3*v) + math.Sin(17*v+9*u)/2
			img.SetNRGBA(x, y, color.NRGBA{
				uint8(128 + 60*a), uint8(128 + 70*b), uint8(128 + 40*(a-b)), 255,
			})
		}
	}
	return img
}

// BenchmarkLoopSizes prints the file sizes the docs of video.pattern_loop
// quote: 720 × 720 loops of 3 and 4 seconds, GIF and MP4, of the flat
// two-colour wave example, the mirrored ramp and a detailed many-colour
// tile (make bench; MB/video is the size).
func BenchmarkLoopSizes(b *testing.B) {
	f := files{"file:waves": wavesFile.Data(), "file:ramp": stripesFile.Data(), "file:detail": pngOf(detailedTile())}
	for _, tile := range []struct{ name, body string }{
		{"waves", `"tile":"file:waves"`},
		{"ramp_mirrored", `"tile":"file:ramp","mirror":true`},
		{"detailed", `"tile":"file:detail"`},
	} {
		for _, format := range []string{"gif", "mp4"} {
			for _, seconds := range []int{3, 4} {
				name := fmt.Sprintf("%s_%ds_720_%s", tile.name, seconds, format)
				body := fmt.Sprintf(`{%s,"size":"720x720","seconds":%d,"format":%q}`, tile.body, seconds, format)
				b.Run(name, func(b *testing.B) {
					d := task(b, withFFmpeg(b), "video.pattern_loop")
					in, err := d.Validate([]byte(body))
					require.NoError(b, err)
					ctx := tasks.WithLoader(context.Background(), f)
					for b.Loop() {
						out, err := d.Runner.Step(ctx, in, 0)
						require.NoError(b, err)
						b.ReportMetric(float64(len(out.Data))/1e6, "MB/video")
					}
				})
			}
		}
	}
}
