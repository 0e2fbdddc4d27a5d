package panel

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks/all"
	"github.com/taskplatform/taskplatform/tasks/photoshoot"
)

// eval runs js in the page into out.
func (s *site) eval(t *testing.T, js string, out any) {
	t.Helper()
	s.run(t, chromedp.Evaluate(js, out))
}

// waitFor waits until js is true in the page.
func (s *site) waitFor(t *testing.T, js string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, 15*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Run(ctx, chromedp.Poll(js, nil, chromedp.WithPollingInterval(50*time.Millisecond))),
		"never true: %s", js)
}

// visibleFields are the names of the run form's fields shown, in order.
const visibleFields = `Array.from(document.querySelectorAll("#run-form .field")).filter(f => !f.hidden).
	map(f => f.dataset.field)`

// snippetInput is the JSON input of the snippet shown.
const snippetInput = `(() => { const t = document.getElementById("snippet").textContent;
	return t.slice(t.indexOf("{"), t.lastIndexOf("}") + 1); })()`

// The task list is grouped under category headings with prices and a
// search.
func TestTaskListHasCategoriesPricesAndSearch(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	s.open(t, "/app/run")
	var headings []string
	s.eval(t, `Array.from(document.querySelectorAll(".category h2")).map(h => h.textContent)`, &headings)
	require.Equal(t, []string{"Design generation", "Image editing", "Photoshoots", "Video", "Production prep",
		"Records libraries"}, headings)
	var price string
	s.eval(t, `document.querySelector('a[href="/app/run/photoshoot.create"] .price').textContent`, &price)
	require.Equal(t, "3 credits per shot", price)
	s.run(t, chromedp.SendKeys("#task-search", "resize", chromedp.ByQuery))
	var shown []string
	s.eval(t, `Array.from(document.querySelectorAll(".task")).filter(a => !a.hidden && !a.closest("[hidden]")).
		map(a => a.getAttribute("href"))`, &shown)
	require.Equal(t, []string{"/app/run/image.resize"}, shown)
}

// The run form puts the variant field first and the rest in the task's
// order, hides the fields of other variants (and leaves them out of the
// input), lets colours be removed, prices the input before Run, shows the
// same input as curl, CLI and Go, and sums a refusal up at the top.
func TestRunFormFollowsTheSchema(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	s.open(t, "/app/run/pattern.generate")
	var fields []string
	s.eval(t, `Array.from(document.querySelectorAll("#run-form .field")).map(f => f.dataset.field)`, &fields)
	require.Equal(t, []string{"kind", "colors", "count", "resolution", "seed", "repeats", "use_case", "stripe_angle",
		"dot_size", "amplitude", "dot_layout", "stripe_widths", "line_width", "format", "sett"}, fields,
		"the variant field, the required colours, then the task's own order")
	s.eval(t, visibleFields, &fields)
	require.Equal(t, []string{"kind", "colors", "count", "resolution", "seed", "repeats", "use_case", "stripe_angle",
		"stripe_widths", "format"}, fields, "the default kind (stripes) shows its own fields only")
	s.run(t, chromedp.SetValue("#in-kind", "waves", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("in-kind").dispatchEvent(new Event("change", {bubbles: true}))`,
			nil))
	s.eval(t, visibleFields, &fields)
	require.Contains(t, fields, "amplitude")
	require.NotContains(t, fields, "stripe_angle")

	s.run(t, chromedp.SetValue("#in-stripe_angle", "45", chromedp.ByQuery),
		chromedp.Click(`[data-list="colors"] .chip:last-of-type [data-remove-colour]`, chromedp.ByQuery),
		chromedp.SetValue("#in-count", "2", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("in-count").dispatchEvent(new Event("input", {bubbles: true}))`,
			nil))
	// The estimate of one output was ready before: wait for two outputs'.
	s.waitFor(t, `document.getElementById("estimate").classList.contains("ready") && `+
		`document.getElementById("estimate").textContent.includes("2 outputs")`)
	var estimate string
	s.eval(t, `document.getElementById("estimate").textContent`, &estimate)
	d, err := all.Registry().Lookup("pattern.generate")
	require.NoError(t, err)
	two, err := d.Input(map[string]any{"kind": "waves", "count": 2})
	require.NoError(t, err)
	each := d.PricePerOutput(two)
	require.Contains(t, estimate, fmt.Sprintf("Up to %d credits", 2*each), "the price of two outputs before Run")
	require.Contains(t, estimate, fmt.Sprintf("2 outputs × %d each", each))

	var raw string
	s.eval(t, snippetInput, &raw)
	var input map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &input), raw)
	require.Equal(t, "waves", input["kind"])
	require.Len(t, input["colors"], 2, "a removed colour is not sent")
	require.NotContains(t, input, "stripe_angle", "a field of another variant is not sent")
	var snippet string
	s.eval(t, `document.getElementById("snippet").textContent`, &snippet)
	require.Contains(t, snippet, "curl -X POST "+s.url+"/v1/tasks/pattern.generate")
	for tab, want := range map[string]string{"cli": "taskplatform run pattern.generate --input -",
		"go": `c.Run(context.Background(), "pattern.generate", input`} {
		s.run(t, chromedp.Click(`[data-snippet="`+tab+`"]`, chromedp.ByQuery))
		s.eval(t, `document.getElementById("snippet").textContent`, &snippet)
		require.Contains(t, snippet, want)
		require.Contains(t, snippet, `"kind": "waves"`, "the %s snippet sends the same input", tab)
	}
	s.shoot(t, "runform-pattern")

	s.run(t, chromedp.SetValue("#in-count", "999", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("in-count").removeAttribute("max")`, nil),
		chromedp.Click("#run-submit", chromedp.ByQuery))
	s.waitFor(t, `!document.getElementById("run-errors").hidden`)
	var summary struct {
		Text string
		Top  float64
	}
	s.waitFor(t, `Math.abs(document.getElementById("run-errors").getBoundingClientRect().top) < 5`)
	s.eval(t, `({Text: document.getElementById("run-errors").textContent,
		Top: document.getElementById("run-errors").getBoundingClientRect().top})`, &summary)
	require.Contains(t, summary.Text, "The task was not started")
	require.Contains(t, summary.Text, "Go to count")
	s.shoot(t, "runform-refused")
}

// The pickers of a photoshoot list what each field takes: images only for
// the product, the library's backgrounds, models and poses, searchable.
func TestRunFormPickers(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	require.NoError(t, photoshoot.SeedLibrary(context.Background(), s.db, s.bucket))
	jobID := jobOf(t, s.db, s.user, contract.LifecycleTerminal, contract.OutcomeSucceeded, 0, 2, nil, nil)
	png := s.file(t, jobID, 0, "image/png", pngOf(t, 64, 64, color.NRGBA{R: 200, A: 255}), "{}")
	pdf := s.file(t, jobID, 1, "application/pdf", []byte("%PDF-1.4\n%%EOF\n"), "{}")
	upload := s.file(t, "", 0, "image/png", pngOf(t, 64, 64, color.NRGBA{G: 200, A: 255}), "{}")
	s.open(t, "/app/run/photoshoot.create")
	s.waitFor(t, `document.querySelectorAll('[data-picker="poses"] .pick').length > 0`)
	values := func(picker string) []string {
		var out []string
		s.eval(t, `Array.from(document.querySelectorAll('[data-picker="`+picker+`"] .pick:not([hidden]) input[name]')).
			map(i => i.value)`, &out)
		return out
	}
	// Each picker fills on its own request: wait for the product's two
	// images before reading them (a PDF would make a third).
	s.waitFor(t, `document.querySelectorAll('[data-picker="product"] .pick:not([hidden]) input[name]').length >= 2`)
	product := values("product")
	require.ElementsMatch(t, []string{png.Handle(), upload.Handle()}, product, "images only: never the PDF %s",
		pdf.Handle())
	prefixes := func(list []string) []string {
		var out []string
		for _, v := range list {
			kind, _, _ := strings.Cut(v, ":")
			if !strings.HasPrefix(v, "#") && kind != "" && !contains(out, kind) {
				out = append(out, kind)
			}
		}
		return out
	}
	require.Equal(t, []string{"background"}, prefixes(values("background")))
	require.Contains(t, values("background"), "#F3EFE8", "a studio colour is a choice too")
	require.Equal(t, []string{"model"}, prefixes(values("model")))
	require.ElementsMatch(t, []string{"pose", "pose_preset"}, prefixes(values("poses")))
	s.run(t, chromedp.SendKeys(`[data-search-picker="product"]`, upload.ID, chromedp.ByQuery))
	require.Equal(t, []string{upload.Handle()}, values("product"), "the search keeps the matching files")
	var thumbs []string
	s.eval(t, `Array.from(document.querySelectorAll('[data-picker="product"] img')).map(i => i.getAttribute("src"))`,
		&thumbs)
	require.ElementsMatch(t, []string{"/app/thumbs/" + png.ID, "/app/thumbs/" + upload.ID}, thumbs,
		"files are shown as small copies")
	s.waitFor(t, `Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)`)
	s.shoot(t, "runform-photoshoot")

	tiny := pngOf(t, 8, 8, color.NRGBA{B: 200, A: 255})
	for range 100 {
		s.file(t, "", 0, "image/png", tiny, "{}")
	}
	s.open(t, "/app/run/photoshoot.create")
	s.waitFor(t, `document.querySelectorAll('[data-picker="product"] .pick').length > 0`)
	require.Len(t, values("product"), 101, "a page of uploads (100) and the one image output")
	s.run(t, chromedp.Click(`[data-picker="product"] .more-items`, chromedp.ByQuery))
	s.waitFor(t, `document.querySelectorAll('[data-picker="product"] .pick').length === 102`)
	require.Contains(t, values("product"), upload.Handle(), "the next page shows the oldest upload")
	var more int
	s.eval(t, `document.querySelectorAll('[data-picker="product"] .more-items').length`, &more)
	require.Zero(t, more, "nothing more to show")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
