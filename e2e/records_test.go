package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/records"
)

// uploadSolid uploads a w × w PNG of one colour and returns its file: handle.
func (s *testStack) uploadSolid(c color.RGBA, w int) string {
	s.t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, w))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 0xff
	}
	var pngData, body bytes.Buffer
	require.NoError(s.t, png.Encode(&pngData, img))
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("file", "solid.png")
	require.NoError(s.t, err)
	_, _ = part.Write(pngData.Bytes())
	require.NoError(s.t, mw.Close())
	req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/v1/files", &body)
	require.NoError(s.t, err)
	req.Header.Set("Authorization", "Key "+s.key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	require.Equal(s.t, http.StatusCreated, res.StatusCode, "%s", raw)
	var out map[string]any
	require.NoError(s.t, json.Unmarshal(raw, &out))
	return out["file"].(string)
}

// refuses submits body to task and checks the 422 code and field.
func (s *testStack) refuses(task string, body any, code, field string) {
	s.t.Helper()
	res := s.do(http.MethodPost, "/v1/tasks/"+task, body)
	require.Equal(s.t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
	e := res.json(s.t)["error"].(map[string]any)
	require.Equal(s.t, code, e["code"], "%s", res.body)
	require.Equal(s.t, field, e["field"], "%s", res.body)
}

// accepted submits body to task and returns the job id.
func (s *testStack) accepted(task string, body any) string {
	s.t.Helper()
	res := s.do(http.MethodPost, "/v1/tasks/"+task, body)
	require.Equal(s.t, http.StatusAccepted, res.status, "%s", res.body)
	return res.json(s.t)["job_id"].(string)
}

// record reads a record handle.
func (s *testStack) record(handle string) map[string]any {
	s.t.Helper()
	res := s.do(http.MethodGet, "/v1/files/"+handle, nil)
	require.Equal(s.t, http.StatusOK, res.status, "%s", res.body)
	return res.json(s.t)
}

// newestRecord is the handle of the newest record of kind in the account.
func (s *testStack) newestRecord(kind string) string {
	s.t.Helper()
	items := s.do(http.MethodGet, "/v1/refs/"+kind, nil).json(s.t)["items"].([]any)
	require.NotEmpty(s.t, items)
	return items[0].(map[string]any)["file"].(string)
}

// TestRecordsEndToEnd makes a moodboard of red and blue images, reads it
// while it is analysed and after, refuses a brand kit on it until it is
// ready, makes the kit with one of its looks, refuses a range plan while
// the kit's looks are analysed, then plans a range on curated fabrics; the
// records are listed, read and refused for deletion.
func TestRecordsEndToEnd(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 500, stepDelay: 1500 * time.Millisecond})
	require.NoError(t, curated.Seed(context.Background(), s.db, s.acts.Blob))
	red, blue := color.RGBA{0xFF, 0, 0, 0xff}, color.RGBA{0, 0, 0xFF, 0xff}
	images := []string{
		s.uploadSolid(red, 64),
		s.uploadSolid(blue, 96),
		s.uploadSolid(red, 40),
		s.uploadSolid(blue, 128),
	}

	board := s.accepted(
		"moodboard.create",
		map[string]any{"name": "Red and blue", "images": images, "description": "Two colours."},
	)
	handle := s.newestRecord("moodboard")
	require.True(t, strings.HasPrefix(handle, "moodboard:"), handle)
	rec := s.record(handle)
	require.Equal(t, "analysing", rec["status"], "the record exists at once")
	require.Equal(t, board, rec["job_id"])
	require.Nil(t, rec["analysis"])
	require.Equal(t, false, rec["deletable"])
	require.Len(t, rec["images"], 4)

	kit := map[string]any{"name": "Primary", "colours": []string{"#FF0000", "#0000FF"}, "moodboards": []string{handle}}
	s.refuses("brand_kit.create", kit, "moodboard_not_ready", "moodboards[0]")

	require.Equal(t, "succeeded", s.waitTerminal(board)["outcome"])
	rec = s.record(handle)
	require.Equal(t, "ready", rec["status"])
	require.NotEmpty(t, rec["url"], "the collage is the preview")
	analysis := rec["analysis"].(map[string]any)
	palette := map[string]float64{}
	for _, c := range analysis["palette"].([]any) {
		m := c.(map[string]any)
		palette[m["hex"].(string)] = m["weight"].(float64)
	}
	require.Equal(t, map[string]float64{"#FF0000": 0.5, "#0000FF": 0.5}, palette)
	looks := analysis["looks"].([]any)
	require.Len(t, looks, 4)
	look0 := looks[0].(map[string]any)
	require.Equal(t, images[0], look0["image"])
	require.Equal(t, "solid", look0["surface"])
	require.Equal(t, "warm", look0["temperature"])
	lookURL := look0["url"].(string)
	require.True(t, strings.HasPrefix(lookURL, s.srv.URL+"/files/"), lookURL)
	got, err := http.Get(lookURL)
	require.NoError(t, err)
	_ = got.Body.Close()
	require.Equal(t, http.StatusOK, got.StatusCode)
	require.Equal(t, "image/jpeg", got.Header.Get("Content-Type"))

	s.refuses(
		"brand_kit.create",
		map[string]any{"name": "Primary", "colours": []string{"#FF0000"}, "moodboards": []string{"moodboard:mb_nope"}},
		"moodboard_required",
		"moodboards[0]",
	)
	s.refuses(
		"brand_kit.create",
		map[string]any{"name": "Primary", "colours": []string{"#FF0000"}, "moodboards": []string{handle},
			"looks": []string{"https://elsewhere.example/files/nope.jpg"}},
		"look_not_in_moodboard",
		"looks[0]",
	)
	kit["looks"] = []string{lookURL}
	kitJob := s.accepted("brand_kit.create", kit)
	kitHandle := s.newestRecord("brand_kit")
	require.Equal(t, "creating", s.record(kitHandle)["status"])

	item := func(typ, name string, qty int) map[string]any {
		return map[string]any{
			"type":     typ,
			"name":     name,
			"fabric":   "fabric:fb_cur_poplin_white",
			"colours":  []string{"#FF0000"},
			"quantity": qty,
		}
	}
	plan := map[string]any{"name": "Primary SS27", "season": "SS27", "brand_kit": kitHandle,
		"items": []any{item("shirt", "Red shirt", 100), item("dress", "Blue dress", 50)}}
	s.refuses("range_plan.create", plan, "brand_kit_look_not_ready", "brand_kit")

	require.Equal(t, "succeeded", s.waitTerminal(kitJob)["outcome"])
	kitRec := s.record(kitHandle)
	require.Equal(t, "ready", kitRec["status"])
	kitLooks := kitRec["looks"].([]any)
	require.Len(t, kitLooks, 1)
	require.Equal(t, lookURL, kitLooks[0].(map[string]any)["url"])
	match := kitLooks[0].(map[string]any)["kit_match"].([]any)
	require.Equal(t, true, match[0].(map[string]any)["on_brand"])
	kitFiles := s.do(http.MethodGet, "/v1/jobs/"+kitJob+"/result", nil).json(t)["files"].([]any)
	require.Equal(t, "application/pdf", kitFiles[1].(map[string]any)["media_type"])

	var dresses []any
	for i := range 13 {
		dresses = append(dresses, item("dress", fmt.Sprintf("Dress %d", i), 10))
	}
	s.refuses(
		"range_plan.create",
		map[string]any{"name": "Too many", "season": "SS27", "items": dresses},
		"too_many_items",
		"items[12]",
	)
	s.refuses("range_plan.create", map[string]any{"name": "No fabric", "season": "SS27",
		"items": []any{
			map[string]any{"type": "dress", "name": "x", "fabric": "fabric:fb_nope", "quantity": 1},
		}}, "invalid_request", "items[0].fabric")

	planJob := s.accepted("range_plan.create", plan)
	require.Equal(t, "succeeded", s.waitTerminal(planJob)["outcome"])
	planRec := s.record(s.newestRecord("range_plan"))
	require.Equal(t, "ready", planRec["status"])
	require.Equal(t, float64(150), planRec["quantity"])
	require.NotEmpty(t, planRec["url"])

	fabricJob := s.accepted("fabric.create", map[string]any{"name": "Red poplin", "swatch": images[0],
		"facts": map[string]any{
			"weight_gsm":   120,
			"composition":  []any{map[string]any{"fibre": "cotton", "percent": 100}},
			"construction": "poplin",
		}})
	require.Equal(t, "succeeded", s.waitTerminal(fabricJob)["outcome"])
	fab := s.record(s.newestRecord("fabric"))
	require.Equal(t, "ready", fab["status"])
	require.Equal(t, "CO100-PO-120", fab["code"])
	require.Equal(t, "#FF0000", fab["colour"].(map[string]any)["hex"])
	require.True(t, strings.HasPrefix(fab["swatch_url"].(string), s.srv.URL+"/files/"))

	for _, h := range []string{handle, kitHandle, fab["file"].(string), planRec["file"].(string),
		"fabric:fb_cur_denim_indigo"} {
		res := s.do(http.MethodDelete, "/v1/files/"+h, nil)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, "%s", res.body)
		require.Equal(t, "file_not_deletable", res.errorCode(t))
		require.Nil(t, res.json(t)["error"].(map[string]any)["field"])
	}

	other := newAccountKey(t, s)
	require.Equal(
		t,
		http.StatusNotFound,
		s.doAs(other, http.MethodGet, "/v1/files/"+handle).status,
		"another account's moodboard",
	)
	res := s.doAs(other, http.MethodGet, "/v1/files/fabric:fb_cur_denim_indigo")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	require.Equal(t, true, res.json(t)["curated"])
	for kind, least := range map[string]int{"fabric": 20, "moodboard": 6} {
		res := s.doAs(other, http.MethodGet, "/v1/refs/"+kind+"?curated=true&limit=100")
		require.Equal(t, http.StatusOK, res.status)
		items := res.json(t)["items"].([]any)
		require.GreaterOrEqual(t, len(items), least, kind)
		require.NotEmpty(t, items[0].(map[string]any)["url"])
	}
	mine := s.do(http.MethodGet, "/v1/refs/moodboard?limit=1", nil).json(t)
	require.Len(t, mine["items"], 1)
	require.Equal(t, handle, mine["items"].([]any)[0].(map[string]any)["file"])
}

// TestRecordsRefusals produces every input code of the record tasks
// through the API.
func TestRecordsRefusals(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100})
	ex := []string{"file:example_mb_breton", "file:example_mb_linen", "file:example_mb_sky"}
	s.refuses("moodboard.create", map[string]any{"name": "", "images": ex}, "name_required", "name")
	s.refuses("moodboard.create", map[string]any{"name": "   ", "images": ex}, "name_required", "name")
	s.refuses("moodboard.create", map[string]any{"images": ex}, "name_required", "name")
	s.refuses("moodboard.create", map[string]any{"name": "x"}, "images_required", "images")
	s.refuses("moodboard.create", map[string]any{"name": "x", "images": []string{}}, "images_required", "images")
	s.refuses("moodboard.create", map[string]any{"name": "x", "images": ex[:2]}, "moodboard_needs_images", "images")
	var many []string
	for range 25 {
		many = append(many, ex[0])
	}
	s.refuses("moodboard.create", map[string]any{"name": "x", "images": many}, "too_many_images", "images")
	s.refuses(
		"moodboard.create",
		map[string]any{"name": "x", "images": append(ex[:2:2], "https://no-such-host.invalid/look.png")},
		"image_not_public",
		"images[2]",
	)

	s.refuses(
		"brand_kit.create",
		map[string]any{
			"name":       "k",
			"colours":    []string{"#FF0000", "red"},
			"moodboards": []string{"moodboard:mb_cur_coastal"},
		},
		"invalid_colour",
		"colours[1]",
	)
	var colours []string
	for range 13 {
		colours = append(colours, "#123456")
	}
	s.refuses(
		"brand_kit.create",
		map[string]any{"name": "k", "colours": colours, "moodboards": []string{"moodboard:mb_cur_coastal"}},
		"too_many_colours",
		"colours",
	)
	s.refuses(
		"brand_kit.create",
		map[string]any{"name": "k", "colours": []string{"#FF0000"}, "moodboards": []string{}},
		"moodboard_required",
		"moodboards",
	)

	facts := func(weight any, comp ...any) map[string]any {
		return map[string]any{
			"name":  "f",
			"facts": map[string]any{"weight_gsm": weight, "composition": comp, "construction": "twill"},
		}
	}
	cotton := map[string]any{"fibre": "cotton", "percent": 100}
	s.refuses("fabric.create", facts(12.5, cotton), "invalid_weight", "facts.weight_gsm")
	s.refuses("fabric.create", facts(900, cotton), "invalid_weight", "facts.weight_gsm")
	s.refuses(
		"fabric.create",
		facts(200, map[string]any{"fibre": "cotton", "percent": 60}, map[string]any{"fibre": "linen", "percent": 30}),
		"invalid_request",
		"facts.composition",
	)

	// A refused submit leaves no record and holds nothing.
	for _, kind := range records.Family().Records {
		require.Empty(t, s.do(http.MethodGet, "/v1/refs/"+kind.Name, nil).json(t)["items"], kind.Name)
	}
	require.Equal(t, int64(100), s.balance())
}

// TestMoodboardCapacityBusy saturates the analysis queue: with one slot and
// a short capacity deadline, the second of two moodboards cannot start its
// analysis in time and fails capacity_busy (retryable), charged for its
// collage only; its record reads failed with the reason.
func TestMoodboardCapacityBusy(t *testing.T) {
	t.Parallel()
	s := newStack(
		t,
		stackOptions{credits: 100, stepDelay: 4 * time.Second, analysisCapacity: 1, capacityDeadline: 2 * time.Second},
	)
	body := map[string]any{
		"name":   "Busy",
		"images": []string{"file:example_mb_breton", "file:example_mb_linen", "file:example_mb_sky"},
	}
	first, second := s.accepted("moodboard.create", body), s.accepted("moodboard.create", body)
	outcomes := map[string]map[string]any{first: s.waitTerminal(first), second: s.waitTerminal(second)}
	var busy, done string
	for id, job := range outcomes {
		if job["outcome"] == "failed" {
			busy = id
			e := job["error"].(map[string]any)
			require.Equal(t, "capacity_busy", e["code"], "%v", e)
			require.Equal(t, true, e["retryable"])
		} else {
			require.Equal(t, "succeeded", job["outcome"])
			done = id
		}
	}
	require.NotEmpty(t, busy, "one job is refused capacity")
	require.NotEmpty(t, done, "one job gets the slot")
	require.Equal(t, int64(100-4-2), s.balance(), "the busy job is charged for its collage only")
	require.Equal(t, s.balance(), s.ledgerSum())
	items := s.do(http.MethodGet, "/v1/refs/moodboard", nil).json(t)["items"].([]any)
	require.Len(t, items, 2)
	for _, it := range items {
		rec := s.record(it.(map[string]any)["file"].(string))
		if rec["job_id"] == busy {
			require.Equal(t, "failed", rec["status"])
			require.Contains(t, rec["reason"], "capacity_busy")
		} else {
			require.Equal(t, "ready", rec["status"])
		}
	}
}
