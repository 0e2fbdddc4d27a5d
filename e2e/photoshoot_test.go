package e2e_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
)

// productPNG is a red box on a light grey sweep, w × h px: a packshot
// whose dominant colour is red.
func productPNG(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{232, 232, 230, 255}
			if x > w/5 && x < 4*w/5 && y > h/8 && y < 7*h/8 {
				c = color.NRGBA{200, 30, 40, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// isRed says whether a pixel is the product's red.
func isRed(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r>>8 > 150 && g>>8 < 90 && b>>8 < 100
}

// redPixels counts the product's pixels in a shot.
func redPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if isRed(img.At(x, y)) {
				n++
			}
		}
	}
	return n
}

// luma is a pixel's brightness, 0–255.
func luma(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.299*float64(r>>8) + 0.587*float64(g>>8) + 0.114*float64(b>>8))
}

// near says whether a pixel is within tol of a colour on every channel.
func near(c color.Color, want color.NRGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(v uint32, w uint8) bool { return int(v>>8)-int(w) <= tol && int(w)-int(v>>8) <= tol }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

// shootStack is a stack with the photoshoots library written.
func shootStack(t *testing.T, credits int64) *testStack {
	s := newStack(t, stackOptions{credits: credits})
	require.NoError(t, photoshoot.SeedLibrary(context.Background(), s.db, s.acts.Blob))
	return s
}

// TestPhotoshootLibraryIsListed lists the library: backgrounds with their
// kind and no name, poses with their gender and no name, named presets,
// base models with their gender; a second seeding adds nothing.
func TestPhotoshootLibraryIsListed(t *testing.T) {
	t.Parallel()
	s := shootStack(t, 10)
	require.NoError(t, photoshoot.SeedLibrary(context.Background(), s.db, s.acts.Blob))
	list := func(path string) []map[string]any {
		res := s.do(http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, res.status, "%s", res.body)
		var out []map[string]any
		for _, it := range res.json(t)["items"].([]any) {
			out = append(out, it.(map[string]any))
		}
		return out
	}
	bgs := list("/v1/refs/background?limit=100")
	require.GreaterOrEqual(t, len(bgs), 8)
	kinds := map[any]int{}
	for _, b := range bgs {
		kinds[b["kind"]]++
		require.Nil(t, b["name"])
		require.NotEmpty(t, b["url"])
		img, _, err := image.Decode(bytes.NewReader(download(t, b["url"].(string))))
		require.NoError(t, err)
		require.Equal(t, 480, img.Bounds().Dx())
	}
	require.GreaterOrEqual(t, kinds["studio"], 4)
	require.GreaterOrEqual(t, kinds["scene"], 4)
	require.Len(t, kinds, 2)

	poses := list("/v1/refs/pose?limit=100")
	genders := map[any]int{}
	for _, p := range poses {
		genders[p["gender"]]++
		require.Nil(t, p["name"])
	}
	for _, g := range []string{"woman", "man", "girl", "boy"} {
		require.GreaterOrEqual(t, genders[g], 4, g)
	}
	presets := list("/v1/refs/pose_preset?limit=100")
	require.NotEmpty(t, presets)
	require.Equal(t, "Catalogue: front, back, side", presets[0]["name"])
	preset := s.record("pose_preset:pp_catalogue")
	require.Equal(t, []any{"front", "back", "side"}, preset["angles"])

	bases := list("/v1/refs/model?limit=100")
	modelGenders := map[any]bool{}
	for _, m := range bases {
		modelGenders[m["gender"]] = true
		require.Nil(t, m["base"])
	}
	require.Len(t, modelGenders, 4)
	require.Len(t, list("/v1/refs/model?q=ava"), 1)
}

// TestPhotoshootPackshots shoots a red box on the white studio sweep in
// the catalogue preset, two placements each, then in the loft scene at
// three depths: every shot shows the product's red, a studio shot's corners
// are the studio colour, a shadow darker than the floor lies under the
// product, a nearer placement in the scene is larger; the photoshoot record
// lists the shots.
func TestPhotoshootPackshots(t *testing.T) {
	t.Parallel()
	s := shootStack(t, 200)
	product := s.upload("box.png", productPNG(t, 300, 400))
	res := s.do(
		http.MethodPost,
		"/v1/tasks/photoshoot.create",
		map[string]any{"product": product, "product_back": product, "product_side": product,
			"background": "background:bg_studio_white",
			"poses":      []string{"pose_preset:pp_catalogue"}, "count_per_pose": 2, "aspect_ratio": "4:5"},
		"Prefer",
		"wait=60",
	)
	imgs, data := outputImages(t, s.result(res))
	require.Len(t, imgs, 6)
	white := color.NRGBA{255, 255, 255, 255}
	for i, img := range imgs {
		d := data[i]
		require.Equal(t, []any{"front", "back", "side"}[i/2], d["angle"], "shot %d", i)
		require.EqualValues(t, i%2, d["variant"])
		require.Equal(t, true, d["cut_out"])
		b := img.Bounds()
		require.Equal(t, 819, b.Dx())
		require.Equal(t, 1024, b.Dy())
		require.Greater(t, redPixels(img), 5000, "shot %d shows the product", i)
		for _, p := range []image.Point{{2, 2}, {b.Dx() - 3, 2}, {2, b.Dy() - 3}, {b.Dx() - 3, b.Dy() - 3}} {
			require.True(t, near(img.At(p.X, p.Y), white, 3), "shot %d corner %v is %v", i, p, img.At(p.X, p.Y))
		}
		box := d["product_box"].(map[string]any)
		cx := int(box["x"].(float64) + box["width"].(float64)/2)
		below := int(box["y"].(float64)+box["height"].(float64)) + 3
		require.Less(t, luma(img.At(cx, below)), 235.0, "shot %d: a shadow lies under the product", i)
	}
	shoot := data[0]["photoshoot"].(string)
	rec := s.record(shoot)
	require.Equal(t, "ready", rec["status"])
	require.Len(t, rec["images"], 6)
	require.Equal(t, []any{"pose:ps_woman_front", "pose:ps_woman_back", "pose:ps_woman_side"}, rec["poses"])
	require.Equal(t, shoot, s.newestRecord("photoshoot"))

	res = s.do(
		http.MethodPost,
		"/v1/tasks/photoshoot.create",
		map[string]any{"product": product, "background": "background:bg_scene_loft",
			"product_height_cm": 40, "count_per_pose": 3},
		"Prefer",
		"wait=60",
	)
	imgs, data = outputImages(t, s.result(res))
	require.Len(t, imgs, 3)
	heights := make([]float64, 3)
	for i, img := range imgs {
		require.Greater(t, redPixels(img), 3000)
		heights[i] = data[i]["product_box"].(map[string]any)["height"].(float64)
		require.Equal(t, "scene", data[i]["setting"])
	}
	// Placements: centred, nearer (lower on the floor, larger), further (smaller).
	require.Greater(t, heights[1], heights[0])
	require.Less(t, heights[2], heights[0])
	require.Greater(t, data[1]["floor_y"].(float64), data[0]["floor_y"].(float64))
}

// TestPhotoshootRefusals: over the most outputs answers too_many_outputs;
// a model, a back with no image of it, a scene with no size and Amazon on
// a non-white backdrop answer request_refused naming the field; an unknown
// background answers invalid_request; a starter-plan
// account is refused the category with permission_denied. Nothing is held.
func TestPhotoshootRefusals(t *testing.T) {
	t.Parallel()
	s := shootStack(t, 200)
	product := s.upload("box.png", productPNG(t, 120, 160))
	body := func(extra ...map[string]any) map[string]any {
		b := map[string]any{"product": product, "background": "#F3EFE8"}
		for _, e := range extra {
			for k, v := range e {
				b[k] = v
			}
		}
		return b
	}
	views := map[string]any{"product_back": product, "product_side": product, "product_three_quarter": product}
	s.refuses(
		"photoshoot.create",
		body(map[string]any{"poses": []string{"pose_preset:pp_full_turn"}, "count_per_pose": 4},
			views),
		"too_many_outputs",
		"count_per_pose",
	)
	s.refuses(
		"photoshoot.create",
		body(
			map[string]any{
				"poses": []string{
					"pose_preset:pp_full_turn",
					"pose_preset:pp_full_turn",
					"pose_preset:pp_catalogue",
					"pose_preset:pp_catalogue",
				},
			},
			views,
		),
		"too_many_outputs",
		"poses",
	)
	s.refuses("photoshoot.create", body(map[string]any{"model": "model:md_ava"}), "request_refused", "model")
	s.refuses("photoshoot.create", body(map[string]any{"poses": []string{"pose:ps_woman_back"}}), "request_refused",
		"poses[0]")
	s.refuses("photoshoot.create", body(map[string]any{"background": "background:bg_scene_beach"}),
		"request_refused", "product_height_cm")
	s.refuses("photoshoot.create", body(map[string]any{"marketplace": "amazon"}), "request_refused", "background")
	s.refuses(
		"photoshoot.create",
		body(map[string]any{"background": "background:bg_nowhere"}),
		"invalid_request",
		"background",
	)
	require.Equal(t, int64(200), s.balance())
	require.Empty(t, s.do(http.MethodGet, "/v1/refs/photoshoot", nil).json(t)["items"])

	ctx := context.Background()
	u, err := models.CreateUser(ctx, s.db, models.NewID("")+"@example.com", models.PlanStarter)
	require.NoError(t, err)
	_, err = models.Grant(ctx, s.db, u.ID, contract.CreditService, 100, nil, "test")
	require.NoError(t, err)
	_, key, err := models.CreateKey(ctx, s.db, u.ID, nil, nil, api.CurrentVersion)
	require.NoError(t, err)
	saved := s.key
	s.key = key
	res := s.do(http.MethodPost, "/v1/tasks/photoshoot.create", body())
	s.key = saved
	require.Equal(t, http.StatusForbidden, res.status, "%s", res.body)
	require.Equal(t, "permission_denied", res.errorCode(t))
}

// modelBalance is the account's remaining model credits.
func (s *testStack) modelBalance() int64 {
	s.t.Helper()
	n, err := models.Available(context.Background(), s.db, s.userID, contract.CreditModel, time.Now())
	require.NoError(s.t, err)
	return n
}

// TestModelStyleSpendsModelCredits: model.create is estimated and held in
// model credits; without them it answers 402 naming them; with them it
// makes a saved style listed under its base (and by name), charged in model
// credits only; a shoot refuses to dress it.
func TestModelStyleSpendsModelCredits(t *testing.T) {
	t.Parallel()
	s := shootStack(t, 100)
	body := map[string]any{
		"name":        "Ava, warm brunette",
		"base":        "model:md_ava",
		"images":      []string{"file:example_ps_portrait"},
		"adjustments": map[string]any{"height": 0.2},
	}
	est := s.do(http.MethodPost, "/v1/tasks/model.create/estimate", body).json(t)
	require.Equal(t, "model_credits", est["credit_type"], "%v", est)
	require.EqualValues(t, 10, est["credits"])

	res := s.do(http.MethodPost, "/v1/tasks/model.create", body)
	require.Equal(t, http.StatusPaymentRequired, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "insufficient_credits", e["code"])
	require.Contains(t, e["message"], "model_credits")
	amounts := e["ctx"].(map[string]any)
	require.EqualValues(t, 10, amounts["required"])
	require.EqualValues(t, 0, amounts["balance"])
	require.Empty(t, s.do(http.MethodGet, "/v1/refs/model?base=model:md_ava", nil).json(t)["items"])

	_, err := models.Grant(context.Background(), s.db, s.userID, contract.CreditModel, 25, nil, "test")
	require.NoError(t, err)
	res = s.do(http.MethodPost, "/v1/tasks/model.create", body)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	require.Equal(t, "model_credits", res.header.Get("X-Service-Credit-Type"))
	require.Equal(t, "10", res.header.Get("X-Service-Credits"))
	job := s.waitTerminal(res.json(t)["job_id"].(string))
	require.Equal(t, "succeeded", job["outcome"], "%v", job)
	require.Equal(t, int64(15), s.modelBalance())
	require.Equal(t, int64(100), s.balance())

	items := s.do(http.MethodGet, "/v1/refs/model?base=model:md_ava", nil).json(t)["items"].([]any)
	require.Len(t, items, 1)
	style := items[0].(map[string]any)
	require.Equal(t, "model:md_ava", style["base"])
	require.Equal(t, "woman", style["gender"])
	require.Equal(t, "Ava, warm brunette", style["name"])
	require.NotEmpty(t, style["url"])
	require.Empty(t, s.do(http.MethodGet, "/v1/refs/model?base=model:md_noah", nil).json(t)["items"])
	require.Len(t, s.do(http.MethodGet, "/v1/refs/model?q=BRUNETTE", nil).json(t)["items"], 1)
	rec := s.record(style["file"].(string))
	require.Equal(t, "ready", rec["status"])
	require.Equal(t, "model:md_ava", rec["base"])

	// A shoot does not dress it: on-model shots are refused, nothing held.
	product := s.upload("garment.png", productPNG(t, 300, 360))
	s.refuses("photoshoot.create", map[string]any{"product": product, "model": style["file"]}, "request_refused",
		"model")
	require.Equal(t, int64(100), s.balance())
}

// TestPhotoshootUpscale enlarges two shots of one shoot 2×; a file of
// another job and shots of two shoots answer image_not_from_shoot naming
// the image.
func TestPhotoshootUpscale(t *testing.T) {
	t.Parallel()
	s := shootStack(t, 300)
	product := s.upload("box.png", productPNG(t, 200, 260))
	shoot := func() []string {
		res := s.do(
			http.MethodPost,
			"/v1/tasks/photoshoot.create",
			map[string]any{"product": product, "background": "#E6E6E3",
				"product_side": product, "poses": []string{
					"pose:ps_woman_front",
					"pose:ps_woman_side",
				}, "resolution": "1024", "aspect_ratio": "1:1"},
			"Prefer",
			"wait=60",
		)
		res = s.result(res)
		require.Equal(t, http.StatusOK, res.status, "%s", res.body)
		var out []string
		for _, f := range res.json(t)["files"].([]any) {
			out = append(out, f.(map[string]any)["file"].(string))
		}
		return out
	}
	first, second := shoot(), shoot()
	res := s.do(
		http.MethodPost,
		"/v1/tasks/photoshoot.upscale",
		map[string]any{"images": first, "factor": "2"},
		"Prefer",
		"wait=60",
	)
	imgs, data := outputImages(t, s.result(res))
	require.Len(t, imgs, 2)
	for i, img := range imgs {
		require.Equal(t, 2048, img.Bounds().Dx())
		require.Equal(t, 2048, img.Bounds().Dy())
		require.Equal(t, first[i], data[i]["image"])
		require.Greater(t, redPixels(img), 4*5000)
	}
	require.Equal(t, data[0]["photoshoot"], data[1]["photoshoot"])

	generated := s.do(http.MethodPost, "/v1/tasks/pattern.generate", pattern(1), "Prefer", "wait=60").json(t)
	other := generated["files"].([]any)[0].(map[string]any)["file"].(string)
	s.refuses("photoshoot.upscale", map[string]any{"images": []string{other}}, "image_not_from_shoot", "images[0]")
	s.refuses(
		"photoshoot.upscale",
		map[string]any{"images": []string{first[0], second[1]}},
		"image_not_from_shoot",
		"images[1]",
	)
}

// TestPhotoshootAnswersAsDocumented checks the library's and a shoot's
// answers against the served OpenAPI document (objects closed): the
// listings of every photoshoots kind and the records they name.
func TestPhotoshootAnswersAsDocumented(t *testing.T) {
	t.Parallel()
	s := shootStack(t, 100)
	check := s.asDocumented(t)
	product := s.upload("box.png", productPNG(t, 120, 160))
	res := check(http.MethodPost, "/v1/tasks/{name}", "/v1/tasks/photoshoot.create", map[string]any{"product": product,
		"background": "background:bg_scene_beach", "product_height_cm": 30, "poses": []string{"pose:ps_boy_walking"}},
		http.StatusOK, "Prefer", "wait=60")
	shoot := res.json(t)["files"].([]any)[0].(map[string]any)["data"].(map[string]any)["photoshoot"].(string)
	for _, ref := range []string{"background:bg_studio_sand", "background:bg_scene_meadow", "pose:ps_girl_three_quarter",
		"pose_preset:pp_lookbook", "model:md_imani", shoot} {
		check(http.MethodGet, "/v1/files/{ref}", "/v1/files/"+ref, nil, http.StatusOK)
	}
	for _, kind := range photoshoot.Family().Records {
		items := check(http.MethodGet, "/v1/refs/{kind}", "/v1/refs/"+kind.Name, nil, http.StatusOK).json(t)["items"].([]any)
		require.NotEmpty(t, items, kind.Name)
	}
	check(http.MethodGet, "/v1/refs/{kind}", "/v1/refs/model?base=model:md_ava&q=a", nil, http.StatusOK)
}

// TestModelStyleOfNoPersonIsRefusedNotCharged: model.create of a photo of
// a cup (a tan body, a dark round top, on white) fails with the reason
// naming the photo; no model credit is spent and the style's record ends
// failed, not listed as ready.
func TestModelStyleOfNoPersonIsRefusedNotCharged(t *testing.T) {
	t.Parallel()
	s := shootStack(t, 100)
	_, err := models.Grant(context.Background(), s.db, s.userID, contract.CreditModel, 25, nil, "test")
	require.NoError(t, err)
	cup := fill(300, 300, color.White, image.Rect(90, 80, 210, 260), color.NRGBA{200, 162, 124, 255})
	for y := 70; y < 100; y++ {
		for x := 90; x < 210; x++ {
			if (x-150)*(x-150)/36+(y-85)*(y-85)*4 < 100*4 {
				cup.Set(x, y, color.NRGBA{74, 44, 26, 255})
			}
		}
	}
	photo := s.upload("cup.png", pngOf(t, cup))
	res := s.do(http.MethodPost, "/v1/tasks/model.create",
		map[string]any{"name": "Cup", "base": "model:md_ava", "images": []string{photo}})
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	job := s.waitTerminal(res.json(t)["job_id"].(string))
	require.Equal(t, "failed", job["outcome"], "%v", job)
	require.Contains(t, job["error"].(map[string]any)["message"], "images[0] ("+photo+") shows no face")
	require.Equal(t, int64(25), s.modelBalance(), "nothing charged")
	for _, item := range s.do(http.MethodGet, "/v1/refs/model?base=model:md_ava", nil).json(t)["items"].([]any) {
		require.NotEqual(t, "ready", item.(map[string]any)["status"], "%v", item)
	}
}
