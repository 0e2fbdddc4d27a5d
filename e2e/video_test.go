package e2e_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/palette"
	patterntasks "github.com/taskplatform/taskplatform/tasks/pattern"
	"github.com/taskplatform/taskplatform/tasks/video"
)

// resultFile is file i of a Prefer: wait answer: its bytes and data.
func resultFile(t testing.TB, res response, i int) ([]byte, map[string]any) {
	t.Helper()
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	f := res.json(t)["files"].([]any)[i].(map[string]any)
	return download(t, f["url"].(string)), f["data"].(map[string]any)
}

func TestVideoSlideshowGIFAndMP4(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	var slides []string
	for _, c := range []color.NRGBA{{255, 0, 0, 255}, {0, 160, 0, 255}, {0, 0, 255, 255}} {
		slides = append(slides, s.upload("slide.png", pngOf(t, fill(300, 200, c, image.Rectangle{}, nil))))
	}

	start := time.Now()
	res := s.do(
		http.MethodPost,
		"/v1/tasks/video.slideshow",
		map[string]any{"images": slides, "frame_ms": 800, "transition": "cut", "size": "480x480", "format": "gif"},
		"Prefer",
		"wait=60",
	)
	t.Logf("video.slideshow gif: %v", time.Since(start).Round(time.Millisecond))
	data, meta := resultFile(t, res, 0)
	g, err := gif.DecodeAll(bytes.NewReader(data))
	require.NoError(t, err)
	require.Len(t, g.Image, 3)
	require.Equal(t, []int{80, 80, 80}, g.Delay)
	require.Equal(t, image.Rect(0, 0, 480, 480), g.Image[0].Bounds())
	require.Equal(t, color.RGBA{0, 0, 255, 255}, color.RGBAModel.Convert(g.Image[2].At(240, 240)))
	require.Equal(t, float64(2400), meta["duration_ms"])

	start = time.Now()
	res = s.do(
		http.MethodPost,
		"/v1/tasks/video.slideshow",
		map[string]any{"images": slides, "frame_ms": 1000, "transition": "cut", "size": "720x1280", "format": "mp4"},
		"Prefer",
		"wait=120",
	)
	t.Logf("video.slideshow mp4: %v", time.Since(start).Round(time.Millisecond))
	data, _ = resultFile(t, res, 0)
	p := probeMP4(t, data)
	require.Equal(t, "h264", p.codec)
	require.Equal(t, [3]int{720, 1280, 90}, [3]int{p.width, p.height, p.frames})
	require.InDelta(t, 3.0, p.seconds, 0.05)
	require.Equal(t, int64(100-10), s.balance(), "5 credits per video")
}

type mp4Probe struct {
	codec                 string
	width, height, frames int
	seconds               float64
}

// probeMP4 reads codec, frame size, frame count and duration with ffprobe
// (make test installs ffmpeg).
func probeMP4(t testing.TB, data []byte) mp4Probe {
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
		"stream=codec_name,width,height,nb_read_frames",
		"-show_entries",
		"format=duration",
		"-of",
		"json",
		path,
	).Output()
	require.NoError(t, err, "ffprobe (make test installs ffmpeg)")
	var out struct {
		Streams []struct {
			CodecName string `json:"codec_name"`
			Width     int    `json:"width"`
			Height    int    `json:"height"`
			Frames    string `json:"nb_read_frames"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	require.NoError(t, json.Unmarshal(raw, &out), "%s", raw)
	require.Len(t, out.Streams, 1)
	st := out.Streams[0]
	n, _ := strconv.Atoi(st.Frames)
	d, _ := strconv.ParseFloat(out.Format.Duration, 64)
	return mp4Probe{st.CodecName, st.Width, st.Height, n, d}
}

// TestVideoPatternLoopFromAnArtHandle loops a tile pattern.generate
// delivered: the last frame shifted by one step is the first.
func TestVideoPatternLoopFromAnArtHandle(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	tile := s.submit(map[string]any{"kind": "houndstooth", "colors": []string{"#1F3A5F", "#F2C14E"}, "resolution": "512"},
		"Prefer", "wait=30").
		json(t)
	handle := tile["files"].([]any)[0].(map[string]any)["file"].(string)

	res := s.do(
		http.MethodPost,
		"/v1/tasks/video.pattern_loop",
		map[string]any{"tile": handle, "direction": "diagonal", "seconds": 2, "size": "480x480", "format": "gif"},
		"Prefer",
		"wait=60",
	)
	data, meta := resultFile(t, res, 0)
	g, err := gif.DecodeAll(bytes.NewReader(data))
	require.NoError(t, err)
	// 2 s at the frame rate the loop was made at: 20 fps, or 10 where 20
	// would pass the documented size (warned gif_reduced).
	fps := int(meta["fps"].(float64))
	require.Contains(t, []int{10, 20}, fps)
	require.Len(t, g.Image, 2*fps)
	step := int(meta["step_px"].(float64))
	first, last := g.Image[0], g.Image[len(g.Image)-1]
	differ := 0
	for y := 0; y < 480-step; y++ {
		for x := 0; x < 480-step; x++ {
			if first.ColorIndexAt(x, y) != last.ColorIndexAt(x+step, y+step) {
				differ++
			}
		}
	}
	require.Zero(t, differ, "the loop closes: the last frame shifted by one step (%d px) is the first", step)
}

// TestVideoMP4RefusedWithoutFFmpeg serves the video family of a machine
// without ffmpeg: format mp4 is refused at submit, the docs say GIF only.
func TestVideoMP4RefusedWithoutFFmpeg(t *testing.T) {
	t.Parallel()
	r := tasks.NewRegistry()
	for _, f := range []tasks.Family{patterntasks.Family(), palette.Family(), imagetasks.Family(), video.NewFamily(
		video.Options{})} {
		require.NoError(t, r.Add(f))
	}
	s := newStack(t, stackOptions{credits: 100, registry: r})
	up := s.upload("t.png", pngOf(t, fill(64, 64, color.White, image.Rect(0, 0, 32, 32), color.Black)))
	for _, c := range []struct{ name, field string }{{"video.slideshow", "images"}, {"video.pattern_loop", "tile"}} {
		body := map[string]any{c.field: up, "format": "mp4"}
		if c.field == "images" {
			body[c.field] = []string{up}
		}
		res := s.do(http.MethodPost, "/v1/tasks/"+c.name, body)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
		e := res.json(t)["error"].(map[string]any)
		require.Equal(t, "request_refused", e["code"])
		require.Equal(t, "format", e["field"])
		require.Contains(t, e["message"], "ffmpeg is not installed")

		doc := s.do(http.MethodGet, "/v1/tasks/"+c.name, nil)
		require.Equal(t, http.StatusOK, doc.status)
		require.Contains(t, string(doc.body), "GIF only on this server")
	}
	require.Equal(t, int64(100), s.balance())
}
