package records

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pagecheck"
)

// TestBoardOfRedAndBlueGivesThoseTwo analyses a board whose answer is
// known: pure red and pure blue images give exactly those two colours,
// half each, named red and blue; each look is a solid.
func TestBoardOfRedAndBlueGivesThoseTwo(t *testing.T) {
	imgs := []image.Image{solid("#FF0000")(64), solid("#0000FF")(200), solid("#FF0000")(32), solid("#0000FF")(90)}
	a := analyse(imgs, []string{"a", "b", "c", "d"}, nil)
	require.Len(t, a.Palette, 2)
	hexes := map[string]float64{}
	for _, c := range a.Palette {
		hexes[c.Hex] = c.Weight
	}
	require.Equal(
		t,
		map[string]float64{"#FF0000": 0.5, "#0000FF": 0.5},
		hexes,
		"every image weighs the same, whatever its size",
	)
	require.Equal(t, "scarlet", nearestName(labOfHex("#FF0000")))
	require.Equal(t, "blue", nearestName(labOfHex("#0000FF")))
	for i, l := range a.Looks {
		require.Len(t, l.Dominant, 1)
		require.Equal(t, "solid", l.Surface)
		require.Zero(t, l.EdgeDensity)
		require.Equal(t, []string{"warm", "cool"}[i%2], l.Temperature)
	}
	require.InDelta(t, 53.2, a.Looks[0].Lightness, 0.1, "L* of sRGB red")
	require.InDelta(t, 32.3, a.Looks[1].Lightness, 0.1, "L* of sRGB blue")
}

// TestLookReadings checks the look of a print, a grey and a board's
// palette bounds on a varied board.
func TestLookReadings(t *testing.T) {
	a := analyse(
		[]image.Image{
			stripes("#1B2A4A", "#FAFAF7", 10)(256),
			solid("#808080")(64),
			check("#E0261B", "#F6D52A", 16)(256),
		},
		[]string{"x", "y", "z"},
		nil,
	)
	require.Equal(t, "print", a.Looks[0].Surface)
	require.Greater(t, a.Looks[0].EdgeDensity, printDensity)
	require.Equal(t, "neutral", a.Looks[1].Temperature, "a grey has no temperature")
	require.InDelta(t, 0, a.Looks[1].Chroma, 0.5)
	require.Equal(t, "warm", a.Looks[2].Temperature)
	require.Equal(t, "print", a.Looks[2].Surface)
	var sum float64
	for _, c := range a.Palette {
		sum += c.Weight
	}
	require.InDelta(t, 1, sum, 0.01)
	for _, b := range curatedBoards {
		n := len(curatedAnalyses()[b.id].Palette)
		require.True(t, n >= 4 && n <= 8, "%s has %d colours", b.id, n)
	}
}

// TestLabRoundTrip converts sRGB to CIELAB and back.
func TestLabRoundTrip(t *testing.T) {
	for _, hex := range []string{"#000000", "#FFFFFF", "#FF0000", "#00FF00", "#0000FF", "#1B2A4A", "#D6C3A1", "#7F7F7F"} {
		require.Equal(t, hex, labOfHex(hex).Hex())
	}
}

func TestValidationCodes(t *testing.T) {
	tests := []struct {
		task, body string
		code       apierr.Code
		field      string
	}{
		{"moodboard.create", `{"images":["file:a","file:b","file:c"]}`, apierr.NameRequired, "name"},
		{"moodboard.create", `{"name":"","images":["file:a","file:b","file:c"]}`, apierr.NameRequired, "name"},
		{"moodboard.create", `{"name":"x"}`, apierr.ImagesRequired, "images"},
		{"moodboard.create", `{"name":"x","images":[]}`, apierr.ImagesRequired, "images"},
		{"moodboard.create", `{"name":"x","images":["file:a","file:b"]}`, apierr.MoodboardNeedsImages, "images"},
		{
			"moodboard.create",
			`{"name":"x","images":[` + strings.Repeat(`"file:a",`, 24) + `"file:a"]}`,
			apierr.TooManyImages,
			"images",
		},
		{"moodboard.create", `{"name":"x","images":["file:a","file:b","ftp://x"]}`, apierr.InvalidRequest, "images[2]"},
		{
			"brand_kit.create",
			`{"name":"x","colours":["#12345"],"moodboards":["moodboard:a"]}`,
			apierr.InvalidColour,
			"colours[0]",
		},
		{
			"brand_kit.create",
			`{"name":"x","colours":[` + strings.Repeat(`"#111111",`, 12) + `"#111111"],"moodboards":["moodboard:a"]}`,
			apierr.TooManyColours,
			"colours",
		},
		{"brand_kit.create", `{"name":"x","colours":["#111111"]}`, apierr.MoodboardRequired, "moodboards"},
		{
			"brand_kit.create",
			`{"name":"x","colours":["#111111"],"moodboards":[]}`,
			apierr.MoodboardRequired,
			"moodboards",
		},
		{
			"brand_kit.create",
			`{"name":"x","colours":["#111111"],"moodboards":["fabric:a"]}`,
			apierr.MoodboardRequired,
			"moodboards[0]",
		},
		{
			"fabric.create",
			`{"name":"x","facts":{"weight_gsm":180.5,"composition":[{"fibre":"cotton","percent":100}],"construction":"twill"}}`,
			apierr.InvalidWeight,
			"facts.weight_gsm",
		},
		{
			"fabric.create",
			`{"name":"x","facts":{"weight_gsm":601,"composition":[{"fibre":"cotton","percent":100}],"construction":"twill"}}`,
			apierr.InvalidWeight,
			"facts.weight_gsm",
		},
		{
			"fabric.create",
			`{"name":"x","facts":{"weight_gsm":"200","composition":[{"fibre":"cotton","percent":100}],"construction":"twill"}}`,
			apierr.InvalidWeight,
			"facts.weight_gsm",
		},
		{
			"fabric.create",
			`{"name":"x","facts":{"weight_gsm":200,"composition":[{"fibre":"nettle","percent":100}],"construction":"twill"}}`,
			apierr.InvalidOption,
			"facts.composition[0].fibre",
		},
		{
			"range_plan.create",
			`{"name":"x","season":"SS27","items":[{"type":"cape","name":"a","quantity":1}]}`,
			apierr.InvalidOption,
			"items[0].type",
		},
		{
			"range_plan.create",
			`{"name":"x","season":"SS27","items":[{"type":"dress","name":"a","quantity":1,"colours":["red"]}]}`,
			apierr.InvalidColour,
			"items[0].colours[0]",
		},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			_, err := mustLookup(t, tc.task).Validate([]byte(tc.body))
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.NotNil(t, e.Field)
			require.Equal(t, tc.field, *e.Field)
		})
	}
}

// TestChecksBeforeRecords runs the submit checks that need no record.
func TestChecksBeforeRecords(t *testing.T) {
	facts := func(comp string) FabricFacts {
		d := mustLookup(t, "fabric.create")
		in, err := d.Validate(
			[]byte(`{"name":"x","facts":{"weight_gsm":200,"composition":` + comp + `,"construction":"twill"}}`),
		)
		require.NoError(t, err)
		v := tasks.Arg[fabricInput](in)
		require.NotNil(t, v)
		return v.Facts
	}
	e := apierr.As(checkComposition(facts(`[{"fibre":"cotton","percent":60},{"fibre":"linen","percent":30}]`)))
	require.Equal(t, apierr.InvalidRequest, e.Code)
	require.Equal(t, "facts.composition", *e.Field)
	require.Contains(t, e.Message, "90%")
	e = apierr.As(checkComposition(facts(`[{"fibre":"cotton","percent":50},{"fibre":"cotton","percent":50}]`)))
	require.Equal(t, "facts.composition[1].fibre", *e.Field)
	require.NoError(
		t,
		checkComposition(facts(`[{"fibre":"cotton","percent":97.5},{"fibre":"elastane","percent":2.5}]`)),
	)
	require.Equal(t, "CO97.5EL2.5-TW-200",
		fabricCode(facts(`[{"fibre":"elastane","percent":2.5},{"fibre":"cotton","percent":97.5}]`)))

	e = apierr.As(checkName("   "))
	require.Equal(t, apierr.NameRequired, e.Code)
	require.Equal(t, "light", weightClass(110))
	require.Equal(t, "medium", weightClass(270))
	require.Equal(t, "heavy", weightClass(271))
	require.GreaterOrEqual(t, len(curatedFabrics), 20)
	require.GreaterOrEqual(t, len(curatedBoards), 6)
	for _, f := range curatedFabrics {
		require.NoError(t, checkComposition(f.facts), f.id)
	}
}

// TestSheetsArePDFsWithSearchableText renders the brand kit and range plan
// examples: their PDFs embed the Go font as a TrueType subset with a
// Unicode map, so pdftotext (poppler-utils, which make test installs)
// reads the text back.
func TestSheetsArePDFsWithSearchableText(t *testing.T) {
	for task, words := range map[string][]string{"brand_kit.create": {"Harbour", "#1B2A4A", "Navy leads"},
		"range_plan.create": {"Harbour SS27", "Breton tee", "CO95EL5-JE-180"}} {
		d := mustLookup(t, task)
		out, err := d.ExampleOutputs(context.Background(), 0)
		require.NoError(t, err)
		require.Len(t, out, 2)
		pdf := out[1]
		require.Equal(t, "application/pdf", pdf.MediaType)
		require.True(t, bytes.HasPrefix(pdf.Data, []byte("%PDF-")))
		require.Contains(t, string(pdf.Data), "/ToUnicode")
		require.Contains(t, string(pdf.Data), "/FontFile2")
		_, err = exec.LookPath("pdftotext")
		require.NoError(t, err, "pdftotext (Debian poppler-utils) is required; make test installs it")
		cmd := exec.Command("pdftotext", "-", "-")
		cmd.Stdin = bytes.NewReader(pdf.Data)
		txt, err := cmd.Output()
		require.NoError(t, err)
		for _, w := range words {
			require.Contains(t, string(txt), w, task)
		}
		meta, _ := json.Marshal(out[0].Meta)
		require.Contains(t, string(meta), `"format":"png"`)
	}
}

// TestRecipesUseThisFamily checks every recipe step body validates against
// its task.
func TestRecipesUseThisFamily(t *testing.T) {
	r := registry(t)
	for _, rc := range Family().Recipes {
		for _, s := range rc.Steps {
			if s.Task == "" {
				continue
			}
			d, err := r.Lookup(s.Task)
			require.NoError(t, err)
			_, err = d.Validate(s.Body)
			require.NoError(t, err, "%s / %s", rc.Name, s.Title)
		}
	}
	var _ tasks.TaskAdmitter[moodboardInput] = moodboardRunner{}
}

// TestBrandSheetFitsOnePage draws the fullest brand kit a request can
// make: twelve colours, six boards and twelve looks stay on the one A4
// page, with no text over text, a swatch or an image.
func TestBrandSheetFitsOnePage(t *testing.T) {
	mb, ok := curatedMoodboard("moodboard:mb_cur_coastal")
	require.True(t, ok)
	k := &kit{name: "Full kit"}
	for i := range 12 {
		hex := fmt.Sprintf("#%02X%02X%02X", 20*i, 255-20*i, 128)
		k.colours = append(k.colours, KitColour{Hex: hex, Name: nearestName(labOfHex(hex))})
	}
	for range 6 {
		k.boards = append(k.boards, mb)
	}
	var looks []KitLook
	var imgs []image.Image
	for i := range 12 {
		looks = append(looks, KitLook{URL: fmt.Sprint(i)})
		imgs = append(imgs, solid("#8EC6EA")(64))
	}
	data, err := brandPDF(k, looks, imgs, strings.Repeat("A long note on usage. ", 40))
	require.NoError(t, err)
	dump(t, "brandkit_full.pdf", data)
	pages := pagecheck.Check(t, data, pagecheck.Sheet{W: 595, H: 842})
	require.Len(t, pages, 1)
	text := pages[0].Text()
	require.Equal(t, 12, strings.Count(text, "on brand"), "every look is on the page")
	require.Contains(t, text, "Notes")
	for _, w := range pages[0].Words {
		require.LessOrEqual(t, w.YMax, 842.0-30, "%q runs off the page", w.Text)
	}
}
