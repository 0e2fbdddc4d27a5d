package video

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// BenchmarkLoopSizes prints the file sizes the docs of video.pattern_loop
// quote: 720 × 720 loops of 3 and 4 seconds, GIF and MP4, of the flat
// two-colour wave example, the mirrored ramp and a detailed many-colour
// tile (make bench; MB/video is the size).
func BenchmarkLoopSizes(b *testing.B) {
	f := files{"file:waves": wavesFile.Data(), "file:ramp": stripesFile.Data(), "file:detail": detailFile.Data()}
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
						b.ReportMetric(float64(out.Meta["fps"].(int)), "fps")
					}
				})
			}
		}
	}
}
