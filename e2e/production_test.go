package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks/records"
)

// kitRecord writes a brand kit record of the stack's account directly, in
// the given status, with one look (analysed only when ready).
func (s *testStack) kitRecord(id, status string) string {
	s.t.Helper()
	fields, err := json.Marshal(map[string]any{
		"colours":    []map[string]string{{"hex": "#1B2A4A", "name": "navy"}, {"hex": "#D6C3A1", "name": "sand"}},
		"moodboards": []string{"moodboard:mb_cur_harbour"},
		"looks": []map[string]any{{"url": "/files/none.png", "moodboard": "moodboard:mb_cur_harbour", "index": 0,
			"analysis": nil, "kit_match": nil}},
		"notes": nil,
	})
	require.NoError(s.t, err)
	require.NoError(
		s.t,
		models.CreateRecord(
			context.Background(),
			s.db,
			&models.Record{ID: id, Kind: records.KindBrandKit, UserID: s.userID,
				Name: "Kit " + id, Status: status, Fields: string(fields)},
			time.Now(),
		),
	)
	return "brand_kit:" + id
}

// techpackBody is a valid techpack.create body with the given style image
// and colourways.
func techpackBody(img string, colourways any) map[string]any {
	return map[string]any{
		"name": "Dock coat", "style_images": []string{img}, "fabric": "fabric:fb_cur_gabardine_navy",
		"colourways": colourways,
		"measurements": []map[string]any{
			{"point": "Chest width", "tolerance_mm": 10, "sizes": map[string]any{"S": 520, "M": 550}},
		},
		"bom": []map[string]any{{"item": "Shell", "material": "Wool gabardine", "quantity": 2.4, "unit": "m"},
			{"item": "Horn button", "material": "Horn 24L", "supplier": "Button Co", "quantity": 6, "unit": "pcs"}},
	}
}

// TestProductionBadInputs sends what the production tasks refuse through
// the API: the code and field of each, nothing held.
func TestProductionBadInputs(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, noWorker: true})
	require.NoError(t, curated.Seed(context.Background(), s.db, s.acts.Blob))
	img := s.upload(
		"flat.png",
		pngOf(t, fill(64, 64, color.White, image.Rect(16, 16, 48, 48), color.NRGBA{27, 42, 74, 255})),
	)
	pending := s.kitRecord("bk_e2e_pending", models.RecordCreating)
	noFabric := techpackBody(img, [][]string{{"#1B2A4A"}})
	noFabric["fabric"] = "fabric:fb_nope"
	tests := []struct {
		task  string
		body  map[string]any
		code  string
		field string
	}{
		{
			"print.prepare",
			map[string]any{"image": img, "width_mm": 100, "height_mm": 100, "dpi": 71},
			"invalid_request",
			"dpi",
		},
		{
			"print.prepare",
			map[string]any{"image": img, "width_mm": 100, "height_mm": 100, "dpi": 601},
			"invalid_request",
			"dpi",
		},
		{
			"print.prepare",
			map[string]any{"image": img, "width_mm": 1000, "height_mm": 1000, "dpi": 300},
			"request_refused",
			"dpi",
		},
		{"techpack.create", noFabric, "invalid_request", "fabric"},
		{"techpack.create", techpackBody(img, "brand_kit:bk_nope"), "invalid_request", "colourways"},
		{"techpack.create", techpackBody(img, pending), "brand_kit_look_not_ready", "colourways"},
		{"techpack.create", techpackBody(img, [][]string{{"#1B2A4A", "navy"}}), "invalid_colour", "colourways[0][1]"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.task, " ", tc.code, " ", tc.field), func(t *testing.T) {
			s.refuses(tc.task, tc.body, tc.code, tc.field)
		})
	}
	res := s.do(
		http.MethodPost,
		"/v1/tasks/print.prepare",
		map[string]any{"image": img, "width_mm": 1000, "height_mm": 1000, "dpi": 300},
	)
	require.Contains(t, res.json(t)["error"].(map[string]any)["message"], "Send dpi 175 or less")
	require.Equal(t, int64(100), s.balance(), "a refused submit holds nothing")
}

// TestProductionJobs runs both tasks through the worker: a techpack whose
// colourways come from a ready brand kit, read by poppler, and a print
// file whose PNG and proof have their physical size.
func TestProductionJobs(t *testing.T) {
	t.Parallel()
	for _, prog := range []string{"pdfinfo", "pdftotext"} {
		_, err := exec.LookPath(prog)
		require.NoError(t, err, "%s (Debian poppler-utils) is required; make test installs it", prog)
	}
	s := newStack(t, stackOptions{credits: 100})
	require.NoError(t, curated.Seed(context.Background(), s.db, s.acts.Blob))
	img := s.upload(
		"flat.png",
		pngOf(t, fill(300, 400, color.White, image.Rect(50, 50, 250, 350), color.NRGBA{27, 42, 74, 255})),
	)
	kit := s.kitRecord("bk_e2e_ready", models.RecordReady)

	res := s.do(http.MethodPost, "/v1/tasks/techpack.create", techpackBody(img, kit), "Prefer", "wait=60")
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	files := res.json(t)["files"].([]any)
	require.Len(t, files, 1)
	pdf := download(t, files[0].(map[string]any)["url"].(string))
	info := run(t, "pdfinfo", pdf)
	require.Regexp(t, `(?m)^Pages:\s+4$`, info)
	txt := run(t, "pdftotext", pdf)
	for _, want := range []string{"Dock coat", "240 g/m²", "navy", "sand", "#D6C3A1", "Horn button", "Button Co"} {
		require.Contains(t, txt, want)
	}
	data := files[0].(map[string]any)["data"].(map[string]any)
	require.Equal(t, kit, data["brand_kit"])
	require.Len(t, data["colourways"], 2, "one colourway per kit colour")
	require.Equal(t, int64(100-4), s.balance())

	res = s.do(
		http.MethodPost,
		"/v1/tasks/print.prepare",
		map[string]any{"image": img, "width_mm": 50, "height_mm": 80, "dpi": 254, "bleed_mm": 2},
		"Prefer",
		"wait=60",
	)
	imgs, meta := outputImagesAndPDF(t, res)
	// 50 × 80 mm at 254 dpi is 500 × 800 px; 2 mm bleed is 20 px a side.
	require.Equal(t, image.Pt(540, 840), imgs.Bounds().Size())
	require.Equal(t, float64(540), meta["width_px"])
	page := regexp.MustCompile(`Page size:\s+([\d.]+) x ([\d.]+) pts`).
		FindStringSubmatch(run(t, "pdfinfo", meta["pdf"].([]byte)))
	require.NotNil(t, page)
	// The print PDF's page is the bleed box plus a 10 mm slug a side for crop marks.
	pw, _ := strconv.ParseFloat(page[1], 64)
	ph, _ := strconv.ParseFloat(page[2], 64)
	require.InDelta(t, 74*72/25.4, pw, 0.01)
	require.InDelta(t, 104*72/25.4, ph, 0.01)
	require.Equal(t, int64(100-4-4), s.balance(), "two outputs at 2 credits")
}

// outputImagesAndPDF reads a print.prepare answer: the PNG decoded, its
// data, and the proof's bytes under data["pdf"].
func outputImagesAndPDF(t *testing.T, res response) (image.Image, map[string]any) {
	t.Helper()
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	files := res.json(t)["files"].([]any)
	require.Len(t, files, 2)
	first, second := files[0].(map[string]any), files[1].(map[string]any)
	img, _, err := image.Decode(bytes.NewReader(download(t, first["url"].(string))))
	require.NoError(t, err)
	meta := first["data"].(map[string]any)
	meta["pdf"] = download(t, second["url"].(string))
	return img, meta
}

// run runs a poppler program on a PDF and answers its output.
func run(t *testing.T, prog string, pdf []byte) string {
	t.Helper()
	cmd := exec.Command(prog, "-", "-")
	if prog == "pdfinfo" {
		cmd = exec.Command(prog, "-")
	}
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	require.NoError(t, err)
	return string(out)
}
