package e2e_test

import (
	"fmt"
	"image"
	"image/color"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// closeTo says whether hex (#RRGGBB) is within tol of c on every channel.
func closeTo(t *testing.T, hex string, c color.NRGBA, tol int) bool {
	var r, g, b int
	_, err := fmt.Sscanf(hex, "#%02X%02X%02X", &r, &g, &b)
	require.NoError(t, err, hex)
	d := func(a int, w uint8) bool { return a-int(w) <= tol && int(w)-a <= tol }
	return d(r, c.R) && d(g, c.G) && d(b, c.B)
}

// TestPicturesANewUserMightSend: pictures drawn apart from the packages'
// own, sent through the API by a new account. A market stall and a mug on
// a cluttered table are refused at submit for every marketplace packshot,
// nothing charged, and their cut-out fails uncharged; a navy jumper on a
// sweep gets its Amazon packshot on white, cut out; model.create refuses a
// cup, a cat drawing and a landscape without spending model credits, and
// reads skin and hair close to those drawn from a dark-skinned, black-haired
// and a fair, blonde portrait.
func TestPicturesANewUserMightSend(t *testing.T) {
	t.Parallel()
	s := walkStack(t)
	up := func(name string, img image.Image) string { return s.upload(name+".png", pngOf(t, img)) }
	for _, name := range []string{"stall", "table"} {
		h := up(name, map[string]image.Image{"stall": busyScene(), "table": clutteredTable()}[name])
		for _, m := range []string{"amazon", "shopify", "zalando"} {
			r := s.try(t, "photoshoot.create", map[string]any{"product": h, "marketplace": m})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s %s: %v", name, m, r)
			require.Equal(t, "request_refused", r.code, "%s %s", name, m)
			require.Contains(t, r.message, "cannot be cut out")
			require.Zero(t, r.spent["service_credits"], "%s %s", name, m)
		}
		r := s.try(t, "image.remove_background", map[string]any{"images": []string{h}})
		require.Equal(t, "failed", r.outcome, "%s: %v", name, r)
		require.Zero(t, r.spent["service_credits"], name)
	}

	r := s.try(t, "photoshoot.create", map[string]any{"product": up("jumper", navyJumper()), "marketplace": "amazon"})
	require.Equal(t, "succeeded", r.outcome, "%v", r)
	require.Len(t, r.files, 1)
	require.Equal(t, true, r.data[0]["cut_out"])
	shot := r.files[0]
	b := shot.Bounds()
	require.True(t, near(shot.At(3, 3), color.NRGBA{255, 255, 255, 255}, 2), "pure white at the corner")
	box := r.data[0]["product_box"].(map[string]any)
	cx, cy := int(box["x"].(float64)+box["width"].(float64)/2), int(box["y"].(float64)+box["height"].(float64)*0.6)
	require.True(t, near(shot.At(cx, cy), color.NRGBA{28, 38, 80, 255}, 20), "the jumper's navy at its middle: %v",
		shot.At(cx, cy))
	require.Equal(t, 2000, b.Dx())
	// A green glass bottle and a white mug (a JPEG) on pale sweeps: cut out, the
	// bottle's body opaque green at its middle, not the white behind it.
	r = s.try(t, "photoshoot.create", map[string]any{"product": up("bottle", glassBottle()), "marketplace": "zalando"})
	require.Equal(t, "succeeded", r.outcome, "%v", r)
	require.Equal(t, true, r.data[0]["cut_out"])
	box = r.data[0]["product_box"].(map[string]any)
	cx, cy = int(box["x"].(float64)+box["width"].(float64)*0.6), int(box["y"].(float64)+box["height"].(float64)*0.7)
	_, g, bl, _ := r.files[0].At(cx, cy).RGBA()
	require.Greater(t, int(g>>8)-int(bl>>8), 40, "green glass at the body's middle: %v", r.files[0].At(cx, cy))
	mug := s.upload("mug.jpg", jpegOf(t, whiteMug(), 80))
	r = s.try(t, "photoshoot.create", map[string]any{"product": mug, "marketplace": "shopify"})
	require.Equal(t, "succeeded", r.outcome, "%v", r)
	require.Equal(t, true, r.data[0]["cut_out"])

	for name, img := range map[string]image.Image{"cup": coffeeCup(), "cat": catDrawing(), "landscape": landscape()} {
		r := s.try(t, "model.create", map[string]any{"name": "not a person", "base": "model:md_ava",
			"images": []string{up(name, img)}})
		require.Equal(t, "failed", r.outcome, "%s: %v", name, r)
		require.Zero(t, r.spent["model_credits"], name)
		require.Empty(t, r.files, name)
	}
	for l, bg := range map[look]color.NRGBA{
		{skin: color.NRGBA{92, 58, 36, 255}, hair: color.NRGBA{22, 18, 16, 255}, hairStrands: true}: {240, 240, 238, 255},
		{skin: color.NRGBA{240, 204, 180, 255}, hair: color.NRGBA{214, 178, 104, 255}, hairStrands: true}: {
			90, 100, 120, 255},
	} {
		r := s.try(t, "model.create", map[string]any{"name": "house", "base": "model:md_ava",
			"images": []string{up("portrait", studioPortrait(l, bg))}})
		require.Equal(t, "succeeded", r.outcome, "%v", r)
		require.EqualValues(t, 10, r.spent["model_credits"])
		d := r.data[0]
		require.Equal(t, "photos", d["skin_source"])
		require.Equal(t, "photos", d["hair_source"])
		require.True(t, closeTo(t, d["skin"].(string), l.skin, 12), "skin %v drawn %v", d["skin"], l.skin)
		require.True(t, closeTo(t, d["hair"].(string), l.hair, 30), "hair %v drawn %v", d["hair"], l.hair)
	}
}
