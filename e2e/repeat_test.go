package e2e_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// motifServer serves one PNG at /motif.png over https, 404 elsewhere.
func motifServer(t *testing.T, motif []byte) *httptest.Server {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/motif.png" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(motif)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func requirePNGTile(t *testing.T, url string, side int) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	img, err := png.Decode(res.Body)
	require.NoError(t, err)
	require.Equal(t, side, img.Bounds().Dx())
	require.Equal(t, side, img.Bounds().Dy())
}

func TestRepeatFromAnArtHandle(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	motif := s.submit(map[string]any{"kind": "dots", "colors": []string{"#AA3355", "#FFFFFF"}, "resolution": "512"},
		"Prefer", "wait=30").
		json(t)
	handle := motif["files"].([]any)[0].(map[string]any)["file"].(string)

	res := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.repeat",
		map[string]any{"image": handle, "layouts": []string{"grid", "mirror"}, "resolution": "512"},
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	files := res.json(t)["files"].([]any)
	require.Len(t, files, 2)
	for i, f := range files {
		f := f.(map[string]any)
		require.Equal(t, []string{"grid", "mirror"}[i], f["data"].(map[string]any)["layout"])
		requirePNGTile(t, f["url"].(string), 512)
	}

	other := newAccountKey(t, s)
	s.key, other = other, s.key
	foreign := s.do(http.MethodPost, "/v1/tasks/pattern.repeat", map[string]any{"image": handle})
	s.key = other
	require.Equal(t, http.StatusUnprocessableEntity, foreign.status, "%s", foreign.body)
	require.Equal(t, "image", foreign.json(t)["error"].(map[string]any)["field"])
}

func TestRepeatFromAURL(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, testMotif()))
	srv := motifServer(t, buf.Bytes())
	s := newStack(t, stackOptions{credits: 100, rootCAs: poolOf(srv)})

	res := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.repeat",
		map[string]any{"image": srv.URL + "/motif.png", "resolution": "512"},
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	requirePNGTile(t, res.json(t)["files"].([]any)[0].(map[string]any)["url"].(string), 512)

	missing := s.do(
		http.MethodPost,
		"/v1/tasks/pattern.repeat",
		map[string]any{"image": srv.URL + "/gone.png"},
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusUnprocessableEntity, missing.status, "%s", missing.body)
	require.Equal(t, "processing_failed", missing.errorCode(t))
	require.Equal(t, int64(100-1), s.balance(), "only the delivered tile is charged")
}

// testMotif is a small opaque square with a transparent border.
func testMotif() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 16; y < 48; y++ {
		for x := 16; x < 48; x++ {
			img.Set(x, y, color.NRGBA{R: 200, G: 40, B: 90, A: 255})
		}
	}
	return img
}

func TestRepeatExampleShowsTheFileItSends(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{noWorker: true})
	ex := s.do(http.MethodGet, "/v1/tasks/pattern.repeat/examples", nil).json(t)["items"].([]any)[0].(map[string]any)
	sent := ex["files_sent"].([]any)
	require.Len(t, sent, 1)
	f := sent[0].(map[string]any)
	require.Equal(t, "file:example_leaf", f["file"])
	res, err := http.Get(f["url"].(string))
	require.NoError(t, err)
	defer res.Body.Close()
	_, err = png.Decode(res.Body)
	require.NoError(t, err, "the file sent is a real PNG")
	require.Len(t, ex["files_delivered"], 2)
}

func TestRepeatRefusesAHandleOfTheWrongKind(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	art := s.submit(pattern(1), "Prefer", "wait=30").json(t)["files"].([]any)[0].(map[string]any)["file"].(string)
	res := s.do(http.MethodPost, "/v1/tasks/pattern.repeat", map[string]any{"image": "file:" + art[len("art:"):]})
	require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
	require.Equal(t, "image", res.json(t)["error"].(map[string]any)["field"])
}

// TestRepeatExampleRunsForAnyCaller submits the example's exact request, as
// the catalogue serves it, from a fresh account with no files.
func TestRepeatExampleRunsForAnyCaller(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	ex := s.do(http.MethodGet, "/v1/tasks/pattern.repeat/examples", nil).json(t)["items"].([]any)[0].(map[string]any)
	req := ex["request"].(map[string]any)
	body, err := json.Marshal(req["body"])
	require.NoError(t, err)
	res := s.do(req["method"].(string), req["path"].(string), string(body), "Prefer", "wait=30")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	files := res.json(t)["files"].([]any)
	delivered := ex["files_delivered"].([]any)
	require.Len(t, files, len(delivered))
	for i, f := range files {
		got, err := http.Get(f.(map[string]any)["url"].(string))
		require.NoError(t, err)
		gotBytes, err := io.ReadAll(got.Body)
		require.NoError(t, err)
		require.NoError(t, got.Body.Close())
		want, err := http.Get(delivered[i].(map[string]any)["url"].(string))
		require.NoError(t, err)
		wantBytes, err := io.ReadAll(want.Body)
		require.NoError(t, err)
		require.NoError(t, want.Body.Close())
		require.Equal(t, wantBytes, gotBytes, "the job delivers what the example shows")
	}
}
