package production

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pagecheck"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
	"github.com/taskplatform/taskplatform/tasks/records"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

func registry(t *testing.T) *tasks.Registry {
	t.Helper()
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(records.Family()))
	require.NoError(t, r.Add(Family()))
	return r
}

func lookup(t *testing.T, name string) *tasks.Definition {
	t.Helper()
	d, err := registry(t).Lookup(name)
	require.NoError(t, err)
	return d
}

func TestFamilyKeepsTheCorePromises(t *testing.T) {
	taskstest.Check(t, registry(t))
}

// poppler runs a poppler-utils program (pdfinfo, pdftotext) on a PDF.
func poppler(t *testing.T, prog string, pdf []byte, args ...string) string {
	t.Helper()
	_, err := exec.LookPath(prog)
	require.NoError(t, err, "%s (Debian poppler-utils) is required; make test installs it", prog)
	cmd := exec.Command(prog, append(args, "-")...)
	if prog == "pdftotext" {
		cmd = exec.Command(prog, "-layout", "-", "-")
	}
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	require.NoError(t, err)
	return string(out)
}

// pdfInfo reads the page count and the first page's size in points.
func pdfInfo(t *testing.T, pdf []byte) (pages int, w, h float64) {
	info := poppler(t, "pdfinfo", pdf)
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindStringSubmatch(info)
	require.NotNil(t, m, info)
	pages, _ = strconv.Atoi(m[1])
	s := regexp.MustCompile(`(?m)^Page size:\s+([\d.]+) x ([\d.]+) pts`).FindStringSubmatch(info)
	require.NotNil(t, s, info)
	w, _ = strconv.ParseFloat(s[1], 64)
	h, _ = strconv.ParseFloat(s[2], 64)
	return pages, w, h
}

// TestTechpackIsAReadablePDF opens the example techpack with poppler: five
// pages, and the style name, the fabric's weight and every BOM row in its
// text.
func TestTechpackIsAReadablePDF(t *testing.T) {
	d := lookup(t, "techpack.create")
	out, err := d.ExampleOutputs(context.Background(), 0)
	require.NoError(t, err)
	require.Len(t, out, 1)
	pdf := out[0]
	require.Equal(t, "application/pdf", pdf.MediaType)
	dump(t, "techpack.pdf", pdf.Data)
	pages, w, h := pdfInfo(t, pdf.Data)
	require.Equal(t, 6, pages)
	require.InDelta(t, 841.89, w, 0.5, "A4 landscape")
	require.InDelta(t, 595.28, h, 0.5)
	txt := poppler(t, "pdftotext", pdf.Data)
	for _, want := range []string{"Harbour Breton tee", "180 g/m²", "5.3 oz/yd²", "CO95EL5-JE-180", "Chest width",
		"#1B2A4A", "sRGB 27 42 74", "C95 M81 Y40 K66", "CMYK through the ICC profile Artifex CMYK SWOP Profile"} {
		require.Contains(t, txt, want)
	}
	var in struct {
		BOM []BOMRow `json:"bom"`
	}
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &in))
	require.Len(t, in.BOM, 4)
	lines := strings.Split(txt, "\n")
	for _, row := range in.BOM {
		found := false
		for _, l := range lines {
			found = found ||
				(strings.Contains(l, row.Item) && strings.Contains(l, row.Material) && strings.Contains(l, row.Unit))
		}
		require.True(t, found, "BOM row %s not on one line of:\n%s", row.Item, txt)
	}
	var meta map[string]any
	b, err := json.Marshal(pdf.Meta)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &meta))
	require.Equal(t, float64(6), meta["pages"])
	fab := meta["fabric"].(map[string]any)
	require.Equal(t, float64(180), fab["weight_gsm"])
	require.Equal(t, []any{"S", "M", "L", "XL"}, meta["sizes"])
	ways := meta["colourways"].([]any)
	require.Len(t, ways, 2)
	first := ways[0].(map[string]any)["colours"].([]any)[0].(map[string]any)
	require.Equal(t, []any{float64(27), float64(42), float64(74)}, first["srgb"])
	// Through Ghostscript's CMYK profile: transicc -t1 gives 94.99 81.00 39.54 65.78.
	require.Equal(t, []any{float64(95), float64(81), float64(40), float64(66)}, first["cmyk"])
	require.Equal(t, "ICC Artifex CMYK SWOP Profile (relative colorimetric)", ways[0].(map[string]any)["cmyk_conversion"])
}

// TestLongTablesContinue sends more rows than a page holds: the tables go
// on to further pages and the page count says so.
func TestLongTablesContinue(t *testing.T) {
	d := lookup(t, "techpack.create")
	var body map[string]any
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &body))
	var rows []any
	for i := range 40 {
		rows = append(
			rows,
			map[string]any{"item": "Trim " + strconv.Itoa(i), "material": "Tape", "quantity": 1, "unit": "pcs"},
		)
	}
	body["bom"] = rows
	raw, _ := json.Marshal(body)
	in, err := d.Validate(raw)
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), loaderOf(d.Examples[0].Files))
	o, err := d.Runner.Step(ctx, in, 0)
	require.NoError(t, err)
	pages, _, _ := pdfInfo(t, o.Data)
	require.Equal(t, 7, pages)
	require.Equal(t, 7, o.Meta["pages"])
	require.Contains(t, poppler(t, "pdftotext", o.Data), "Trim 39")
}

// dump writes an output under $TP_DUMP, when set, for a person to look at.
func dump(t *testing.T, name string, data []byte) {
	if dir := os.Getenv("TP_DUMP"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
}

// loaderOf serves example files to a step.
type loaderOf []tasks.ExampleFile

func (l loaderOf) Load(_ context.Context, ref string) ([]byte, error) {
	for _, f := range l {
		if f.Ref == ref {
			return f.Data(), nil
		}
	}
	return nil, &tasks.StepError{Code: "processing_failed", Message: "no file " + ref}
}

// TestRefusals checks the codes and fields of requests the tasks refuse at
// validation.
func TestRefusals(t *testing.T) {
	const tp = `"style_images":["file:a"],"fabric":"fabric:fb_x","measurements":[{"point":"Chest","tolerance_mm":5,` +
		`"sizes":{"M":500}}],"bom":[{"item":"Shell","material":"Jersey","quantity":1,"unit":"m"}]`
	tests := []struct {
		task, body string
		code       apierr.Code
		field      string
		message    string
	}{
		{
			"print.prepare",
			`{"image":"file:a","width_mm":100,"height_mm":100,"dpi":71}`,
			apierr.InvalidRequest,
			"dpi",
			"at least 72",
		},
		{
			"print.prepare",
			`{"image":"file:a","width_mm":100,"height_mm":100,"dpi":601}`,
			apierr.InvalidRequest,
			"dpi",
			"at most 600",
		},
		// 1000 × 1000 mm at 300 dpi is 11811² px = 139.5 MP; 175 dpi gives 6890² = 47.5 MP, 176 dpi 6929² = 48.01 MP.
		{
			"print.prepare",
			`{"image":"file:a","width_mm":1000,"height_mm":1000,"dpi":300}`,
			apierr.RequestRefused,
			"dpi",
			"Send dpi 175 or less",
		},
		// 2000 × 2000 mm at 87 dpi is 6850² = 46.9 MP; at 88, 6929² px.
		{
			"print.prepare",
			`{"image":"file:a","width_mm":2000,"height_mm":2000,"dpi":600}`,
			apierr.RequestRefused,
			"dpi",
			"Send dpi 87 or less",
		},
		// Bleed counts: 1000 × 1000 mm fits at 175 dpi, not with 5 mm bleed (6959² px).
		{
			"print.prepare",
			`{"image":"file:a","width_mm":1000,"height_mm":1000,"dpi":175,"bleed_mm":5}`,
			apierr.RequestRefused,
			"dpi",
			"Send dpi 174 or less",
		},
		// A 160 cm fabric width at 150 dpi is 9449 px: 48 MP holds 5079 rows, 860 mm.
		{
			"print.prepare",
			`{"image":"file:a","width_mm":1600,"height_mm":1500,"dpi":150}`,
			apierr.RequestRefused,
			"dpi",
			"height_mm 860 or less at this width and dpi",
		},
		{
			"print.prepare",
			`{"image":"file:a","width_mm":100,"height_mm":100,"dpi":300,"repeat":"mirror"}`,
			apierr.InvalidOption,
			"repeat",
			"",
		},
		{"techpack.create", `{"name":"  ","colourways":[["#111111"]],` + tp + `}`, apierr.NameRequired, "name", ""},
		{
			"techpack.create",
			`{"name":"x","colourways":[["#111111","#12345"]],` + tp + `}`,
			apierr.InvalidColour,
			"colourways[0][1]",
			"#RRGGBB",
		},
		{
			"techpack.create",
			`{"name":"x","colourways":[[]],` + tp + `}`,
			apierr.InvalidRequest,
			"colourways[0]",
			"at least 1",
		},
		{
			"techpack.create",
			`{"name":"x","colourways":"moodboard:abc",` + tp + `}`,
			apierr.InvalidRequest,
			"colourways",
			"",
		},
		{
			"techpack.create",
			`{"name":"x","colourways":[["#111111"]],"style_images":[],"fabric":"fabric:fb_x",` +
				`"measurements":[{"point":"Chest","tolerance_mm":5,"sizes":{"M":500}}],"bom":[{"item":"Shell",` +
				`"material":"Jersey","quantity":1,"unit":"m"}]}`,
			apierr.ImagesRequired,
			"style_images",
			"",
		},
		{
			"techpack.create",
			`{"name":"x","colourways":[["#111111"]],"style_images":["file:a"],"fabric":"fabric:fb_x",` +
				`"measurements":[{"point":"Chest","tolerance_mm":5,"sizes":{}}],"bom":[{"item":"Shell","material":"Jersey",` +
				`"quantity":1,"unit":"m"}]}`,
			apierr.RequestRefused,
			"measurements[0].sizes",
			"empty",
		},
		{
			"techpack.create",
			`{"name":"x","colourways":[["#111111"]],"style_images":["file:a"],"fabric":"fabric:fb_x",` +
				`"measurements":[{"point":"Chest","tolerance_mm":5,"sizes":{"M":500}}],"bom":[{"item":"Shell",` +
				`"material":"Jersey","quantity":1,"unit":"bolt"}]}`,
			apierr.InvalidOption,
			"bom[0].unit",
			"",
		},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			_, err := lookup(t, tc.task).Validate([]byte(tc.body))
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.NotNil(t, e.Field)
			require.Equal(t, tc.field, *e.Field)
			require.Contains(t, e.Message, tc.message)
		})
	}
}

func TestSizeOrder(t *testing.T) {
	require.Equal(
		t,
		[]string{"XS", "S", "M", "L", "XL", "2XL", "36", "38", "40", "One"},
		sortedSizes(
			map[string]int{"40": 0, "M": 0, "XS": 0, "One": 0, "2XL": 0, "S": 0, "38": 0, "L": 0, "36": 0, "XL": 0},
		),
	)
}

// TestTechpackPages opens every page of the example techpack with poppler:
// A4 landscape, text on each, no words overlapping, none mostly empty,
// the style code, version and date at the head and the page number at the
// foot of every page, each measurement's letter on the flat sketch, and no
// text over a swatch or an image.
func TestTechpackPages(t *testing.T) {
	d := lookup(t, "techpack.create")
	var in techpackInput
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &in))
	out, err := d.ExampleOutputs(context.Background(), 0)
	require.NoError(t, err)
	pages := pagecheck.Check(t, out[0].Data, pagecheck.Sheet{W: 842, H: 595})
	for i, p := range pages {
		if i < len(pages)-1 {
			require.GreaterOrEqual(t, p.Ink, 0.4, "page %d is mostly empty", i+1)
		}
		text := p.Text()
		require.Contains(t, text, "HB-TEE-001 · Harbour Breton tee", "page %d", i+1)
		require.Contains(t, text, "Version 2 · 2026-11-20", "page %d", i+1)
		require.Contains(t, text, fmt.Sprintf("Page %d of %d", i+1, len(pages)), "page %d", i+1)
	}
	sketch := pages[1].Text()
	require.Contains(t, sketch, "Flat sketch")
	require.NotContains(t, sketch, "not placed", "every point of the example is placed on the flat")
	all := ""
	for _, p := range pages {
		all += p.Text() + " "
	}
	for _, want := range []string{"Grading (mm)", "S → M", "+30", "Bill of materials", "Construction",
		"Shoulder seams: 4-thread overlock"} {
		require.Contains(t, all, want)
	}

	ctx := tasks.WithLoader(context.Background(), loaderOf(d.Examples[0].Files))
	p := packOf(&in)
	r, err := resolve(ctx, tasks.Env{}, p)
	require.NoError(t, err)
	doc := &layout{p: p, r: r, ctx: ctx}
	for _, f := range d.Examples[0].Files {
		img, err := png.Decode(bytes.NewReader(f.Data()))
		require.NoError(t, err)
		doc.images = append(doc.images, img)
	}
	_, _, err = doc.pdf()
	require.NoError(t, err)
	require.Empty(t, pagecheck.Collisions(doc.s.Boxes(), 0.6))
	letters := 0
	for _, b := range doc.s.Boxes() {
		if b.Kind == pdfsheet.BoxCallout {
			letters++
		}
	}
	require.Equal(t, len(in.Measurements), letters, "a callout per measurement")
}

// TestLongSizeRuns: a footwear run of 16 sizes (EU 35 to 50) with
// four-digit, one-decimal measurements lays out on the techpack's page
// with no words overlapping, every size and value in the text and none
// cut short.
func TestLongSizeRuns(t *testing.T) {
	d := lookup(t, "techpack.create")
	var body map[string]any
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &body))
	var meas []any
	for i, point := range []string{"Foot length", "Ball girth", "Heel height", "Shaft height"} {
		sizes := map[string]any{}
		for j := range 16 {
			sizes["EU "+strconv.Itoa(35+j)] = 1000.5 + float64(100*i+7*j)
		}
		meas = append(meas, map[string]any{"point": point, "tolerance_mm": 2, "sizes": sizes})
	}
	body["measurements"] = meas
	raw, _ := json.Marshal(body)
	in, err := d.Validate(raw)
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), loaderOf(d.Examples[0].Files))
	o, err := d.Runner.Step(ctx, in, 0)
	require.NoError(t, err)
	dump(t, "techpack_16_sizes.pdf", o.Data)
	pagecheck.Check(t, o.Data, sheetTasks[1].page)
	text := poppler(t, "pdftotext", o.Data, "-layout")
	for j := range 16 {
		require.Contains(t, text, "EU "+strconv.Itoa(35+j))
	}
	require.Contains(t, text, "1405.5", "the last value of the last size")
	require.NotContains(t, text, "…", "no value or size name is cut short")
}
