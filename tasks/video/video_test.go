package video

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// withFFmpeg is the family as the machine has it; make test installs
// ffmpeg, so its MP4 branch is tested too.
func withFFmpeg(t testing.TB) Options {
	t.Helper()
	o := Options{FFmpeg: LookFFmpeg()}
	require.NotEmpty(t, o.FFmpeg, "ffmpeg is not installed: make test installs it (apt-get install ffmpeg)")
	return o
}

func registry(t testing.TB, o Options) *tasks.Registry {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(NewFamily(o)))
	return r
}

func task(t testing.TB, o Options, name string) *tasks.Definition {
	d, err := registry(t, o).Lookup(name)
	require.NoError(t, err)
	return d
}

func TestFamilyKeepsTheCorePromises(t *testing.T) {
	t.Run("with ffmpeg", func(t *testing.T) { taskstest.Check(t, registry(t, withFFmpeg(t))) })
	t.Run("without ffmpeg", func(t *testing.T) { taskstest.Check(t, registry(t, Options{})) })
}

// files is a loader of test images by reference.
type files = taskstest.Files

// run validates body and runs its one step.
func run(t testing.TB, o Options, name, body string, f files) tasks.Output {
	t.Helper()
	d := task(t, o, name)
	in, err := d.Validate([]byte(body))
	require.NoError(t, err, body)
	raw, _ := json.Marshal(in)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	in, err = d.Input(fields)
	require.NoError(t, err)
	require.Equal(t, 1, d.Runner.Plan(in).Steps)
	start := time.Now()
	out, err := d.Runner.Step(tasks.WithLoader(context.Background(), f), in, 0)
	require.NoError(t, err)
	t.Logf("%s %s: %v, %d bytes", name, body, time.Since(start).Round(time.Millisecond), len(out.Data))
	return out
}

func solid(w, h int, c color.Color) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		r, g, b, a := c.RGBA()
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(r>>8), uint8(g>>8), uint8(b>>8), uint8(a>>8)
	}
	return pngOf(img)
}

var three = files{
	"file:r": solid(300, 200, color.NRGBA{255, 0, 0, 255}),
	"file:g": solid(200, 300, color.NRGBA{0, 255, 0, 255}),
	"file:b": solid(100, 100, color.NRGBA{0, 0, 255, 255}),
}

func at(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

func TestSlideshowGIFFramesAndDelays(t *testing.T) {
	o := Options{}
	out := run(
		t,
		o,
		"video.slideshow",
		`{"images":["file:r","file:g","file:b"],"frame_ms":700,"transition":"cut","size":"480x480"}`,
		three,
	)
	require.Equal(t, "image/gif", out.MediaType)
	g, err := gif.DecodeAll(bytes.NewReader(out.Data))
	require.NoError(t, err)
	require.Len(t, g.Image, 3)
	require.Equal(t, []int{70, 70, 70}, g.Delay)
	require.Equal(t, 0, g.LoopCount, "loops forever")
	require.Equal(t, image.Rect(0, 0, 480, 480), g.Image[0].Bounds())
	require.Equal(t, color.RGBA{255, 0, 0, 255}, at(g.Image[0], 240, 240))
	require.Equal(t, color.RGBA{0, 0, 255, 255}, at(g.Image[2], 10, 10), "cover fills the frame")

	out = run(
		t,
		o,
		"video.slideshow",
		`{"images":["file:r","file:g","file:b"],"frame_ms":1000,"size":"480x480","fit":"contain","background":"#000000"}`,
		three,
	)
	g, err = gif.DecodeAll(bytes.NewReader(out.Data))
	require.NoError(t, err)
	require.Len(t, g.Image, 3+2*fadeSteps, "a crossfade adds 8 frames per change")
	want := []int{60}
	for range fadeSteps {
		want = append(want, 5)
	}
	want = append(want, want...)
	want = append(want, 100)
	require.Equal(t, want, g.Delay)
	total := 0
	for _, d := range g.Delay {
		total += d * 10
	}
	require.Equal(t, 3000, total)
	require.Equal(t, 3000, out.Meta["duration_ms"])
	require.Equal(t, color.RGBA{0, 0, 0, 255}, at(g.Image[0], 240, 10), "contain: the background above a wide image")
	mid := at(g.Image[fadeSteps/2+1], 240, 240)
	require.InDelta(t, 128, int(mid.R), 40, "half way through the fade: %v", mid)
	require.InDelta(t, 128, int(mid.G), 40, "half way through the fade: %v", mid)
}

// probe is what ffprobe reads of a video.
type probe struct {
	Streams []struct {
		CodecName    string `json:"codec_name"`
		Width        int    `json:"width"`
		Height       int    `json:"height"`
		PixFmt       string `json:"pix_fmt"`
		NbReadFrames string `json:"nb_read_frames"`
	} `json:"streams"`
	Format struct {
		Duration string `json:"duration"`
	} `json:"format"`
}

func ffprobe(t testing.TB, data []byte) (codec string, w, h, frames int, seconds float64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "v.mp4")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	raw, err := exec.Command(
		"ffprobe",
		"-v",
		"error",
		"-select_streams",
		"v:0",
		"-count_frames",
		"-show_entries",
		"stream=codec_name,width,height,pix_fmt,nb_read_frames",
		"-show_entries",
		"format=duration",
		"-of",
		"json",
		path,
	).Output()
	require.NoError(t, err)
	var p probe
	require.NoError(t, json.Unmarshal(raw, &p), "%s", raw)
	require.Len(t, p.Streams, 1)
	s := p.Streams[0]
	require.Equal(t, "yuv420p", s.PixFmt)
	frames, _ = strconv.Atoi(s.NbReadFrames)
	seconds, _ = strconv.ParseFloat(p.Format.Duration, 64)
	return s.CodecName, s.Width, s.Height, frames, seconds
}

func TestSlideshowMP4IsH264(t *testing.T) {
	out := run(
		t,
		withFFmpeg(t),
		"video.slideshow",
		`{"images":["file:r","file:g","file:b"],"frame_ms":1000,"transition":"cut","size":"1280x720","format":"mp4"}`,
		three,
	)
	require.Equal(t, "video/mp4", out.MediaType)
	codec, w, h, frames, seconds := ffprobe(t, out.Data)
	require.Equal(t, "h264", codec)
	require.Equal(t, 1280, w)
	require.Equal(t, 720, h)
	require.Equal(t, 90, frames)
	require.InDelta(t, 3.0, seconds, 0.05)
	require.Equal(t, 90, out.Meta["frames"])

	out = run(
		t,
		withFFmpeg(t),
		"video.slideshow",
		`{"images":["file:r","file:g","file:b"],"frame_ms":500,"size":"480x480","format":"mp4"}`,
		three,
	)
	_, _, _, frames, seconds = ffprobe(t, out.Data)
	require.Equal(t, 45, frames, "a crossfade takes its frames from the images' time")
	require.InDelta(t, 1.5, seconds, 0.05)
}

func TestMP4IsRefusedWithoutFFmpeg(t *testing.T) {
	for _, name := range []string{"video.slideshow", "video.pattern_loop"} {
		body := `{"images":["file:r"],"format":"mp4"}`
		if name == "video.pattern_loop" {
			body = `{"tile":"file:r","format":"mp4"}`
		}
		_, err := task(t, Options{}, name).Validate([]byte(body))
		e := apierr.As(err)
		require.Equal(t, apierr.RequestRefused, e.Code, name)
		require.Equal(t, "format", *e.Field)
		require.Contains(t, e.Message, "ffmpeg is not installed")
		require.Contains(t, specText(task(t, Options{}, name), "output_format"), "GIF only on this server")

		_, err = task(t, Options{FFmpeg: "/usr/bin/ffmpeg"}, name).Validate([]byte(body))
		require.NoError(t, err, "with ffmpeg, mp4 is taken")
		require.Contains(
			t,
			specText(task(t, Options{FFmpeg: "/usr/bin/ffmpeg"}, name), "output_format"),
			"GIF and MP4 on this server",
		)
	}
}

func specText(d *tasks.Definition, key string) string {
	for _, s := range d.Docs.Specs {
		if s.Key == key {
			return s.Text
		}
	}
	return ""
}

func TestValidationCodes(t *testing.T) {
	var many []string
	for range maxSlides + 1 {
		many = append(many, `"file:r"`)
	}
	tests := []struct {
		task, body string
		code       apierr.Code
		field      string
	}{
		{"video.slideshow", `{"frame_ms":1000}`, apierr.ImagesRequired, "images"},
		{"video.slideshow", `{"images":[]}`, apierr.ImagesRequired, "images"},
		{"video.slideshow", fmt.Sprintf(`{"images":[%s]}`, joinComma(many)), apierr.TooManyImages, "images"},
		{
			"video.slideshow",
			fmt.Sprintf(`{"images":[%s],"size":"1080x1080"}`, joinComma(many[1:])),
			apierr.RequestRefused,
			"size",
		},
		{
			"video.slideshow",
			fmt.Sprintf(`{"images":[%s],"size":"1080x1080","transition":"cut"}`, joinComma(many[1:])),
			"",
			"",
		},
		{"video.slideshow", `{"images":["file:r"],"size":"100x100"}`, apierr.InvalidOption, "size"},
		{"video.pattern_loop", `{"tile":"file:r","seconds":20}`, apierr.RequestRefused, "seconds"},
		{"video.pattern_loop", `{"tile":"file:r","seconds":8}`, "", ""},
		{"video.pattern_loop", `{"tile":"file:r","direction":"sideways"}`, apierr.InvalidOption, "direction"},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			_, err := task(t, Options{}, tc.task).Validate([]byte(tc.body))
			if tc.code == "" {
				require.NoError(t, err)
				return
			}
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.Equal(t, tc.field, *e.Field)
		})
	}
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}

// shifted reports whether b is a shifted by (dx, dy): b(x, y) = a(x+dx, y+dy)
// wherever both are in the frame.
// Frames of one loop share one palette, so indices compare as colours.
func shifted(a, b *image.Paletted, dx, dy int) bool {
	r := a.Bounds()
	for y := max(0, -dy); y < r.Dy()-max(0, dy); y++ {
		x0, x1 := max(0, -dx), r.Dx()-max(0, dx)
		if !bytes.Equal(a.Pix[(y+dy)*a.Stride+x0+dx:(y+dy)*a.Stride+x1+dx], b.Pix[y*b.Stride+x0:y*b.Stride+x1]) {
			return false
		}
	}
	return true
}

func TestPatternLoopIsSeamless(t *testing.T) {
	tile := files{"file:t": wavesFile.Data()}
	for _, dir := range []string{"left", "right", "up", "down", "diagonal"} {
		t.Run(dir, func(t *testing.T) {
			out := run(
				t,
				Options{},
				"video.pattern_loop",
				`{"tile":"file:t","direction":"`+dir+`","seconds":1,"repeats":4,"size":"480x480"}`,
				tile,
			)
			g, err := gif.DecodeAll(bytes.NewReader(out.Data))
			require.NoError(t, err)
			require.Len(t, g.Image, gifFPS)
			for _, d := range g.Delay {
				require.Equal(t, 5, d)
			}
			step := out.Meta["step_px"].(int)
			require.Equal(t, gifFPS*step, out.Meta["tile_px"])
			v := directions[dir]
			dx, dy := v[0]*step, v[1]*step
			shown := screens(g)
			first, last := shown[0], shown[len(shown)-1]
			// The frame after the last is the first: the last shifted by
			// one step is the first.
			require.True(t, shifted(last, first, dx, dy), "the loop closes")
			require.True(t, shifted(first, shown[1], dx, dy), "each frame is one step on")
			require.False(t, shifted(last, first, 0, 0), "and the pattern does move")
		})
	}
}

func TestPatternLoopMP4(t *testing.T) {
	out := run(
		t,
		withFFmpeg(t),
		"video.pattern_loop",
		`{"tile":"file:t","seconds":3,"size":"720x1280","direction":"up","format":"mp4"}`,
		files{"file:t": wavesFile.Data()},
	)
	codec, w, h, frames, seconds := ffprobe(t, out.Data)
	require.Equal(t, "h264", codec)
	require.Equal(t, []int{720, 1280, 90}, []int{w, h, frames})
	require.InDelta(t, 3.0, seconds, 0.05)
}

func TestQuantizerKeepsFlatColoursAndDithersGradients(t *testing.T) {
	flat := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	grad := image.NewNRGBA(image.Rect(0, 0, 256, 64))
	for y := range 64 {
		for x := range 64 {
			c := color.NRGBA{31, 58, 95, 255}
			if x < 32 {
				c = color.NRGBA{242, 193, 78, 255}
			}
			flat.SetNRGBA(x, y, c)
		}
		for x := range 256 {
			grad.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(255 - x), uint8(x / 2), 255})
		}
	}
	q := quantize(flat)
	require.Equal(t, color.RGBA{242, 193, 78, 255}, at(q, 5, 5))
	require.Equal(t, color.RGBA{31, 58, 95, 255}, at(q, 60, 60))
	q = quantize(grad)
	require.LessOrEqual(t, len(q.Palette), 256)
	// Dithering keeps the average colour of each column close.
	for x := 8; x < 256; x += 16 {
		sum := 0
		for y := range 64 {
			sum += int(at(q, x, y).R)
		}
		require.InDelta(t, x, float64(sum)/64, 3, "column %d", x)
	}
}

func TestExamplesSendRealFiles(t *testing.T) {
	for _, f := range append(slideFiles, wavesFile) {
		_, format, err := image.Decode(bytes.NewReader(f.Data()))
		require.NoError(t, err)
		require.Equal(t, f.MediaType, "image/"+format)
	}
}

// BenchmarkVideos measures one video of each kind at sizes a shop uses.
func BenchmarkVideos(b *testing.B) {
	f := files{"file:t": wavesFile.Data()}
	var slides []string
	for i, s := range slideFiles {
		f[s.Ref] = s.Data()
		slides = append(slides, fmt.Sprintf("%q", slideFiles[i].Ref))
	}
	list := joinComma(slides)
	for _, c := range []struct{ name, task, body string }{
		{"slideshow_3_crossfade_720_gif", "video.slideshow", `{"images":[` + list + `],"size":"720x720"}`},
		{"slideshow_3_crossfade_1080_mp4", "video.slideshow", `{"images":[` + list + `],"size":"1080x1080","format":"mp4"}`},
		{"pattern_loop_4s_720_gif", "video.pattern_loop", `{"tile":"file:t","size":"720x720"}`},
		{"pattern_loop_4s_1080x1920_mp4", "video.pattern_loop", `{"tile":"file:t","size":"1080x1920","format":"mp4"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			d := task(b, withFFmpeg(b), c.task)
			in, err := d.Validate([]byte(c.body))
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
