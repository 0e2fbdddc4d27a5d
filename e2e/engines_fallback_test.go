package e2e_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/engines"
	"github.com/taskplatform/taskplatform/engines/cogtest"
)

// fallbackShot is a 96 × 96 PNG of a dark red box on a plain grey backdrop,
// or (busy) on one whose lower half is striped blue: a scene the built-in
// cut-out refuses (confidence about 0.73).
func fallbackShot(t *testing.T, busy bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 96, 96))
	for y := range 96 {
		for x := range 96 {
			c := color.RGBA{230, 230, 230, 255}
			if busy && y >= 40 && (x/6)%2 == 0 {
				c = color.RGBA{60, 90, 160, 255}
			}
			if x >= 30 && x < 66 && y >= 24 && y < 72 {
				c = color.RGBA{150, 20, 30, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// TestAFallbackRouteSendsOnlyTheHardImageToTheEngine: image.remove_background
// routed with a fallback cuts out a plain packshot itself and hands the
// busy one to the engine, whose file is delivered with its name in the
// data; each output charged once, the built-in step not charged for the one
// it handed off.
func TestAFallbackRouteSendsOnlyTheHardImageToTheEngine(t *testing.T) {
	t.Parallel()
	var model bytes.Buffer
	magenta := image.NewNRGBA(image.Rect(0, 0, 96, 96))
	for i := 0; i < len(magenta.Pix); i += 4 {
		magenta.Pix[i], magenta.Pix[i+2], magenta.Pix[i+3] = 255, 255, 255
	}
	require.NoError(t, png.Encode(&model, magenta))
	s, cog := engineStackWith(t, cogtest.Options{Output: func(map[string]any) []byte { return model.Bytes() }},
		stackOptions{}, func(c *engines.Config) {
			c.Routes["image.remove_background"] = engines.Binding{Engine: "sdxl",
				Routing: engines.Routing{Fallback: &engines.Fallback{Below: 0.9}},
				Input:   engines.Mapping{"image": "$images[$index]"}, MediaTypes: []string{"image/png"},
				Meta: engines.Mapping{"index": "$index", "image": "$images[$index]", "width": "$output.width",
					"height": "$output.height", "format": "$output.format", "source_width": "$output.source_width",
					"source_height": "$output.source_height"}}
		})
	plain, busy := s.upload("plain.png", fallbackShot(t, false)), s.upload("busy.png", fallbackShot(t, true))
	res := s.do(http.MethodPost, "/v1/tasks/image.remove_background", map[string]any{"images": []string{plain, busy}},
		"Prefer", "wait=60")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	body := res.json(t)
	files := body["files"].([]any)
	require.Len(t, files, 2)
	first := files[0].(map[string]any)["data"].(map[string]any)
	require.NotContains(t, first, "engine", "the plain packshot is the built-in cut-out")
	require.InDelta(t, 1, first["confidence"], 0.01)
	second := files[1].(map[string]any)["data"].(map[string]any)
	require.Equal(t, "sdxl", second["engine"])
	got := download(t, files[1].(map[string]any)["url"].(string))
	require.Equal(t, model.Bytes(), got, "the model's file")
	require.Len(t, cog.Inputs(), 1, "one prediction: the hard image only")
	require.ElementsMatch(t, []string{"", "", "sdxl"}, stepEngines(t, s, body["job_id"].(string)),
		"two built-in steps (one handed off), then one on the engine")
	require.Equal(t, int64(100-2*2), s.balance(), "2 credits an output, charged once each")
	require.Equal(t, s.balance(), s.ledgerSum())
	recordHistory(t, body["job_id"].(string), "engine_fallback")
}
