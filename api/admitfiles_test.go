package api

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/testenv"
)

// TestAnUncuttablePackshotIsRefusedAtSubmit: a marketplace packshot of an
// uploaded photo before a busy wall is refused by the estimate and the
// submit alike with 422 request_refused naming the product and the reason
// (no job, nothing held); the same product on a plain sweep is priced.
func TestAnUncuttablePackshotIsRefusedAtSubmit(t *testing.T) {
	t.Parallel()
	photo := func(busy bool) string {
		img := image.NewNRGBA(image.Rect(0, 0, 600, 400))
		for y := range 400 {
			for x := range 600 {
				c := color.NRGBA{235, 235, 233, 255}
				if busy && (x/12+y/17)%2 == 0 {
					c = color.NRGBA{30, 120, 60, 255}
				} else if busy {
					c = color.NRGBA{240, 200, 40, 255}
				}
				if x > 200 && x < 400 && y > 80 && y < 340 {
					c = color.NRGBA{40, 60, 170, 255}
				}
				img.SetNRGBA(x, y, c)
			}
		}
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, img))
		return buf.String()
	}
	e := newFileEnv(t, testenv.SQLite)
	handle := func(busy bool) string {
		res := e.upload(e.key, part{"file", "product.png", photo(busy)})
		require.Equal(t, http.StatusCreated, res.code, "%s", res.body)
		return res.obj(t)["file"].(string)
	}
	busy, plain := handle(true), handle(false)
	body := func(h string) string {
		return `{"product":"` + h + `","background":"#FFFFFF","poses":["pose:ps_woman_front"],"marketplace":"amazon"}`
	}
	call := func(path, h string) answer {
		return e.send(http.MethodPost, path, body(h), with(keyed(e.key), "Content-Type", "application/json")...)
	}
	for _, path := range []string{"/v1/tasks/photoshoot.create/estimate", "/v1/tasks/photoshoot.create"} {
		res := call(path, busy)
		require.Equal(t, http.StatusUnprocessableEntity, res.code, "%s: %s", path, res.body)
		eo := res.errObj(t)
		require.Equal(t, "request_refused", eo["code"], "%s", res.body)
		require.Equal(t, "product", eo["field"])
		require.Contains(t, eo["message"], "cannot be cut out for the Amazon")
		require.Contains(t, eo["message"], "the background cannot be separated")
	}
	priced := call("/v1/tasks/photoshoot.create/estimate", plain)
	require.Equal(t, http.StatusOK, priced.code, "%s", priced.body)
}
