package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // decodes JPEG outputs
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// upload sends bytes to POST /v1/files and returns the file: handle.
func (s *testStack) upload(name string, data []byte) string {
	s.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, err := w.CreateFormFile("file", name)
	require.NoError(s.t, err)
	_, err = fw.Write(data)
	require.NoError(s.t, err)
	require.NoError(s.t, w.Close())
	up := s.do(http.MethodPost, "/v1/files", body.String(), "Content-Type", w.FormDataContentType())
	require.Equal(s.t, http.StatusCreated, up.status, "%s", up.body)
	return up.json(s.t)["file"].(string)
}

// download GETs a file URL of a result.
func download(t testing.TB, url string) []byte {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return b
}

// outputs are the result files of a Prefer: wait answer, decoded.
func outputImages(t testing.TB, res response) ([]image.Image, []map[string]any) {
	t.Helper()
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	var imgs []image.Image
	var data []map[string]any
	for _, f := range res.json(t)["files"].([]any) {
		f := f.(map[string]any)
		img, _, err := image.Decode(bytes.NewReader(download(t, f["url"].(string))))
		require.NoError(t, err)
		imgs = append(imgs, img)
		data = append(data, f["data"].(map[string]any))
	}
	return imgs, data
}

func pngOf(t testing.TB, img image.Image) []byte {
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// fill is a w × h image of one colour, with an optional rectangle of another.
func fill(w, h int, bg color.Color, r image.Rectangle, fg color.Color) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := bg
			if image.Pt(x, y).In(r) {
				c = fg
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func rgbaAt(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

// TestImageResizeAndCropThroughTheAPI resizes an upload and a URL, crops on
// the subject, and refuses too much upscaling of an upload at submit.
func TestImageResizeAndCropThroughTheAPI(t *testing.T) {
	t.Parallel()
	wide := fill(600, 200, color.NRGBA{30, 32, 36, 255}, image.Rect(500, 60, 580, 140), color.NRGBA{255, 210, 0, 255})
	srv := motifServer(t, pngOf(t, wide))
	s := newStack(t, stackOptions{credits: 100, rootCAs: poolOf(srv)})
	up := s.upload("wide.png", pngOf(t, wide))

	start := time.Now()
	res := s.do(
		http.MethodPost,
		"/v1/tasks/image.resize",
		map[string]any{"images": []string{up, srv.URL + "/motif.png"}, "width": 300, "format": "jpeg"},
		"Prefer",
		"wait=60",
	)
	t.Logf("image.resize, 2 outputs: %v", time.Since(start).Round(time.Millisecond))
	imgs, data := outputImages(t, res)
	require.Len(t, imgs, 2)
	for i, img := range imgs {
		require.Equal(t, image.Pt(300, 100), img.Bounds().Size())
		require.Equal(t, float64(i), data[i]["index"])
	}
	require.Equal(t, int64(100-2), s.balance(), "one credit per output")

	res = s.do(
		http.MethodPost,
		"/v1/tasks/image.crop",
		map[string]any{"images": []string{up}, "aspect_ratio": "1:1"},
		"Prefer",
		"wait=60",
	)
	imgs, data = outputImages(t, res)
	require.Equal(t, image.Pt(200, 200), imgs[0].Bounds().Size())
	require.Equal(t, "attention", data[0]["anchor"])
	c := rgbaAt(imgs[0], 500-int(data[0]["x"].(float64))+40, 100)
	require.Equal(t, color.NRGBA{255, 210, 0, 255}, c, "the attention crop keeps the bright object")

	small := s.upload("small.png", pngOf(t, fill(50, 40, color.White, image.Rectangle{}, nil)))
	res = s.do(
		http.MethodPost,
		"/v1/tasks/image.resize",
		map[string]any{"images": []string{up, small}, "width": 400},
		"Prefer",
		"wait=30",
	)
	require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "request_refused", e["code"])
	require.Equal(t, "width", e["field"])
	require.Contains(t, e["message"], "images[1] ("+small+")")
	require.Equal(t, int64(100-3), s.balance(), "a refused submit holds nothing")
}

// TestImageCutOutSkipsAnInseparableImage: a red square on white is cut
// out; a noisy image is not, and the job says which.
func TestImageCutOutSkipsAnInseparableImage(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	square := s.upload(
		"square.png",
		pngOf(t, fill(200, 200, color.White, image.Rect(60, 60, 140, 140), color.NRGBA{220, 20, 30, 255})),
	)
	noisy := image.NewNRGBA(image.Rect(0, 0, 100, 100))
	for i := range noisy.Pix {
		noisy.Pix[i] = uint8(i*7919%251) | 0x80*uint8(i%4/3)
	}
	noise := s.upload("noise.png", pngOf(t, noisy))

	res := s.do(
		http.MethodPost,
		"/v1/tasks/image.remove_background",
		map[string]any{"images": []string{square, noise}},
		"Prefer",
		"wait=60",
	)
	imgs, data := outputImages(t, res)
	require.Len(t, imgs, 1)
	cut := imgs[0]
	for _, p := range []image.Point{{0, 0}, {199, 0}, {0, 199}, {199, 199}} {
		require.Equal(t, uint8(0), rgbaAt(cut, p.X, p.Y).A, "corner %v", p)
	}
	require.Equal(t, uint8(255), rgbaAt(cut, 100, 100).A)
	require.Equal(t, "#FFFFFF", data[0]["background"])
	warnings := res.json(t)["summary"].(map[string]any)["warnings"].([]any)
	require.Len(t, warnings, 1)
	w := warnings[0].(map[string]any)
	require.Equal(t, "output_not_produced", w["code"])
	require.Contains(t, w["message"], "images[1] ("+noise+"): the background cannot be separated")
	require.Equal(t, int64(100-2), s.balance(), "only the cut-out is charged")

	res = s.do(
		http.MethodPost,
		"/v1/tasks/image.remove_background",
		map[string]any{"images": []string{noise}},
		"Prefer",
		"wait=60",
	)
	require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "processing_failed", e["code"])
	require.Contains(t, e["message"], "the background cannot be separated")
	require.Equal(t, int64(100-2), s.balance())
}

func TestImageRecolourMapsTwoColours(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	bw := s.upload("bw.png", pngOf(t, fill(120, 80, color.White, image.Rect(0, 0, 60, 80), color.Black)))
	res := s.do(
		http.MethodPost,
		"/v1/tasks/image.recolour",
		map[string]any{"image": bw, "palette": []string{"#F2C14E", "#1F3A5F"}},
		"Prefer",
		"wait=60",
	)
	imgs, data := outputImages(t, res)
	require.Len(t, imgs, 1)
	require.Equal(t, color.NRGBA{0x1F, 0x3A, 0x5F, 255}, rgbaAt(imgs[0], 10, 10))
	require.Equal(t, color.NRGBA{0xF2, 0xC1, 0x4E, 255}, rgbaAt(imgs[0], 110, 70))
	require.Len(t, data[0]["mapping"], 2)
}

func TestImageRecolourIntoABrandKit(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	bw := s.upload("bw.png", pngOf(t, fill(120, 80, color.White, image.Rect(0, 0, 60, 80), color.Black)))
	s.refuses(
		"image.recolour",
		map[string]any{"image": bw, "palette": "brand_kit:bk_nope"},
		"invalid_request",
		"palette",
	)
	require.NoError(t, curated.Seed(context.Background(), s.db, s.acts.Blob)) // the kit's curated moodboard
	kitJob := s.accepted(
		"brand_kit.create",
		map[string]any{"name": "Harbour", "colours": []string{"#F2C14E", "#1F3A5F"},
			"moodboards": []string{"moodboard:mb_cur_coastal"}},
	)
	kit := s.newestRecord("brand_kit")
	require.Equal(t, "succeeded", s.waitTerminal(kitJob)["outcome"])

	res := s.do(
		http.MethodPost,
		"/v1/tasks/image.recolour",
		map[string]any{"image": bw, "palette": kit},
		"Prefer",
		"wait=60",
	)
	imgs, data := outputImages(t, res)
	require.Len(t, imgs, 1, "a brand kit is one palette")
	require.Equal(t, color.NRGBA{0x1F, 0x3A, 0x5F, 255}, rgbaAt(imgs[0], 10, 10), "black became the kit's dark colour")
	require.Equal(
		t,
		color.NRGBA{0xF2, 0xC1, 0x4E, 255},
		rgbaAt(imgs[0], 110, 70),
		"white became the kit's light colour",
	)
	require.Equal(t, []any{"#F2C14E", "#1F3A5F"}, data[0]["palette"])
}

func TestImageBadInputs(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true})
	other := newAccountKey(t, s)
	s.key, other = other, s.key
	foreign := s.upload("a.png", pngOf(t, fill(32, 32, color.White, image.Rectangle{}, nil)))
	s.key = other
	mine := s.upload("b.png", pngOf(t, fill(32, 32, color.White, image.Rectangle{}, nil)))
	nine := strings.Split(strings.Repeat(mine+",", 9), ",")[:9]
	tests := []struct {
		task  string
		body  map[string]any
		code  string
		field string
	}{
		{"image.resize", map[string]any{"width": 100}, "images_required", "images"},
		{"image.crop", map[string]any{"images": []string{}}, "images_required", "images"},
		{"image.remove_background", map[string]any{"images": nine}, "too_many_images", "images"},
		{"image.resize", map[string]any{"images": []string{mine, foreign}}, "invalid_request", "images[1]"},
		{
			"image.recolour",
			map[string]any{
				"image": mine,
				"palette": strings.Split(
					"#000000,#111111,#222222,#333333,#444444,#555555,#666666,#777777,#888888",
					",",
				),
			},
			"too_many_colours",
			"palette",
		},
		{"image.recolour", map[string]any{"image": mine, "palette": []string{"navy"}}, "invalid_colour", "palette[0]"},
		{"image.resize", map[string]any{"images": []string{mine}, "width": 200}, "request_refused", "width"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.task, tc.body), func(t *testing.T) {
			// An estimate checks what a submit checks, references and
			// their sizes included.
			for _, path := range []string{"/v1/tasks/" + tc.task + "/estimate", "/v1/tasks/" + tc.task} {
				res := s.do(http.MethodPost, path, tc.body)
				require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
				e := res.json(t)["error"].(map[string]any)
				require.Equal(t, tc.code, e["code"], "%s", res.body)
				require.Equal(t, tc.field, e["field"])
			}
		})
	}
}

// TestImageCancelMidJob cancels a resize of four images after the first
// output: it keeps what was delivered and charges only that.
func TestImageCancelMidJob(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, stepDelay: 700 * time.Millisecond})
	up := s.upload("a.png", pngOf(t, fill(64, 64, color.White, image.Rect(10, 10, 30, 30), color.Black)))
	res := s.do(
		http.MethodPost,
		"/v1/tasks/image.resize",
		// More outputs than run side by side (contract.StepsPerJob), so the
		// job is still running when the cancel arrives.
		map[string]any{"images": []string{up, up, up, up, up, up, up, up}, "width": 128},
	)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	id := res.json(t)["job_id"].(string)
	require.Eventually(t, func() bool {
		return s.do(http.MethodGet, "/v1/jobs/"+id, nil).json(t)["progress"].(map[string]any)["done"].(float64) >= 1
	}, patience, 50*time.Millisecond)
	require.Equal(t, http.StatusAccepted, s.do(http.MethodPut, "/v1/jobs/"+id+"/cancel", nil).status)
	job := s.waitTerminal(id)
	require.Equal(t, "cancelled", job["outcome"])
	done := int64(job["progress"].(map[string]any)["done"].(float64))
	require.Less(t, done, int64(8))
	require.Equal(t, 100-done, s.balance())
}
