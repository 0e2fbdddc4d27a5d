package e2e_test

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
)

// pngHeader is a PNG of a few dozen bytes that declares a w × h image of
// the given bit depth (colour type RGBA) and holds no pixels.
func pngHeader(w, h uint32, depth byte) []byte {
	chunk := func(kind string, data []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		out = append(append(out, kind...), data...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
	ihdr = append(ihdr, depth, 6, 0, 0, 0)
	out := append([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr)...)
	return append(append(out, chunk("IDAT", nil)...), chunk("IEND", nil)...)
}

// stepAttempts are the attempts of every activity task job id ran.
func stepAttempts(t *testing.T, s *testStack, id string) []int32 {
	t.Helper()
	var out []int32
	it := s.temporal.GetWorkflowHistory(
		context.Background(),
		id,
		"",
		false,
		enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT,
	)
	for it.HasNext() {
		ev, err := it.Next()
		require.NoError(t, err)
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
			out = append(out, a.GetAttempt())
		}
	}
	return out
}

// TestImageBombsAreRefusedFromTheirHeader: images whose header asks for
// more than the pixel budget — a PNG of a few dozen bytes declaring 60000 ×
// 60000 px, 16-bit PNGs declaring 30000 × 30000 or 6000 × 6000 px, 48
// megapixels within the sides — are
// refused from the header, never decoded: by URL the output is not
// produced, saying why, on the first attempt (never retried); by upload,
// where the size is known at submit, the submit answers 422 naming the
// field. The worker (this process) stays up throughout.
func TestImageBombsAreRefusedFromTheirHeader(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{
		"/bomb.png":    pngHeader(60000, 60000, 8),
		"/deep.png":    pngHeader(30000, 30000, 16),
		"/deepish.png": pngHeader(6000, 6000, 16),
		"/wide.png":    pngHeader(8000, 6000, 8),
		"/ok.png":      pngOf(t, fill(64, 64, color.White, image.Rect(8, 8, 56, 56), color.NRGBA{20, 90, 160, 255})),
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(files[r.URL.Path])
	}))
	t.Cleanup(srv.Close)
	s := newStack(t, stackOptions{credits: 100, rootCAs: poolOf(srv)})

	const (
		sides      = "the image is 60000 × 60000 px; it must be 8 to 8192 px a side"
		deep       = "the image is 30000 × 30000 px; it must be 8 to 8192 px a side"
		megapixels = "the image is 60000 × 60000 px (3600.0 megapixels); at most 40 megapixels are read"
		wide       = "the image is 8000 × 6000 px (48.0 megapixels); at most 40 megapixels are read"
		memory     = "the image (6000 × 6000 px, 16-bit png) needs 275 MB to decode; at most 256 MB are taken — " +
			"send it smaller or with 8 bits a channel"
	)
	failed := func(task string, input map[string]any, want string) {
		t.Helper()
		res := s.do(http.MethodPost, "/v1/tasks/"+task, input, "Prefer", "wait=60")
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
		e := res.json(t)["error"].(map[string]any)
		require.Equal(t, "processing_failed", e["code"])
		require.Equal(t, "The job delivered no output: "+want+".", e["message"])
		for _, a := range stepAttempts(t, s, e["job_id"].(string)) {
			require.EqualValues(t, 1, a, "a refused image is not retried")
		}
	}
	refused := func(task string, input map[string]any, field, want string) {
		t.Helper()
		res := s.do(http.MethodPost, "/v1/tasks/"+task, input)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
		e := res.json(t)["error"].(map[string]any)
		require.Equal(t, "request_refused", e["code"])
		require.Equal(t, field, e["field"])
		require.Contains(t, e["message"], want)
	}

	// By URL: the size is known when the step reads the header.
	failed("pattern.repeat", map[string]any{"image": srv.URL + "/bomb.png"}, "image: "+sides)
	failed("pattern.repeat", map[string]any{"image": srv.URL + "/deep.png"}, "image: "+deep)
	failed("pattern.repeat", map[string]any{"image": srv.URL + "/wide.png"}, "image: "+wide)
	failed("pattern.repeat", map[string]any{"image": srv.URL + "/deepish.png"}, "image: "+memory)
	board := []string{srv.URL + "/ok.png", srv.URL + "/wide.png", srv.URL + "/ok.png"}
	failed("moodboard.create", map[string]any{"name": "Bombs", "images": board}, "images[1]: "+wide)

	// By upload: refused at submit, naming the field.
	bomb, deepUpload := s.uploadFile(files["/bomb.png"]), s.uploadFile(files["/deep.png"])
	ok := s.uploadFile(files["/ok.png"])
	refused("pattern.repeat", map[string]any{"image": bomb}, "image", "60000 × 60000 px")
	refused("pattern.repeat", map[string]any{"image": deepUpload}, "image", "30000 × 30000 px")
	refused(
		"moodboard.create",
		map[string]any{"name": "Bombs", "images": []string{ok, ok, bomb}},
		"images[2]",
		megapixels,
	)
	refused("image.crop", map[string]any{"images": []string{ok, deepUpload}}, "images[1]", "30000 × 30000 px")
	// Within 40 megapixels at submit; its bit depth is read by the step.
	failed("pattern.repeat", map[string]any{"image": s.uploadFile(files["/deepish.png"])}, "image: "+memory)

	require.Equal(t, int64(100), s.balance(), "nothing delivered, nothing charged")
	res := s.do(http.MethodPost, "/v1/tasks/pattern.repeat", map[string]any{"image": ok, "resolution": "512"},
		"Prefer", "wait=60")
	require.Equal(t, http.StatusOK, res.status, "the worker is up: %s", res.body)
}
