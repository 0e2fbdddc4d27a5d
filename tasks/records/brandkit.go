package records

import (
	"context"
	"fmt"
	"image"
	"math"
	"path"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
)

// onBrandDE is the CIEDE2000 difference under which a look's colour counts
// as one of the kit's.
const onBrandDE = 10

// brandKit makes a brand kit record: a brand sheet as PNG and PDF.
func brandKit() *tasks.Definition {
	return &tasks.Definition{
		Name: "brand_kit.create", Title: "Create a brand kit",
		Description: "Keeps a brand's colours, moodboards and chosen looks as a brand kit record, delivered as a brand " +
			"sheet (PNG and a one-page PDF).",
		Category: tasks.CategoryRecordsLibraries, Unit: "file",
		InputSchema: tasks.MustJSON(tasks.InputSchema[brandKitInput](
			"brand_kit.create input",
			"A brand kit: colours, moodboards and looks.",
			nil,
		)),
		OutputSchema: brandKitOutput(),
		Runner:       tasks.Typed[brandKitInput](brandKitRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 2},
		ErrorRules: append([]tasks.ErrorRule{
			{Field: "colours[]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "colours[]", Keyword: "type", Code: apierr.InvalidColour},
			{Field: "colours", Keyword: "maxItems", Code: apierr.TooManyColours},
			{Field: "moodboards", Keyword: "required", Code: apierr.MoodboardRequired},
			{Field: "moodboards", Keyword: "minItems", Code: apierr.MoodboardRequired},
			{Field: "moodboards[]", Keyword: "pattern", Code: apierr.MoodboardRequired},
			{Field: "moodboards[]", Keyword: "type", Code: apierr.MoodboardRequired},
		}, nameRules...),
		Docs:     brandKitDocs(),
		Examples: brandKitExamples(),
		Produces: []string{"brand_kit", "job"},
		Uses:     []string{"moodboard", "look", "credit_hold"},
	}
}

func brandKitOutput() []byte {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Brand sheet data", "type": "object",
		"description": "The data of a brand sheet, PNG (index 0) or PDF (index 1).",
		"properties": obj{
			"brand_kit": obj{
				"type":        []any{"string", "null"},
				"description": "The record, brand_kit:<id>; null in a catalogue example.",
			},
			"index":  obj{"type": "integer", "minimum": 0, "maximum": 1},
			"format": obj{"type": "string", "enum": []any{"png", "pdf"}},
			"name":   obj{"type": "string"},
			"colours": obj{
				"type": "array",
				"items": obj{"type": "object", "required": []string{"hex", "name"}, "properties": obj{
					"hex": tasks.ColourSchema(
						"A brand colour.",
					), "name": obj{"type": "string", tasks.VocabKeyword: "colour_name"}}},
			},
			"moodboards": obj{"type": "array", "items": obj{"type": "string"}},
			"looks":      obj{"type": "integer", "minimum": 0, "description": "The number of looks the kit keeps."},
		},
		"required": []string{"brand_kit", "index", "format", "name", "colours", "moodboards", "looks"},
	})
}

type brandKitRunner struct{}

// Plan asks for the sheet as PNG, then as PDF.
func (brandKitRunner) Plan(*brandKitInput) tasks.Plan {
	return tasks.Plan{Steps: 2, Phase: "drawing the brand sheet"}
}

// AdmitErrors is what Admit answers.
func (brandKitRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{
		apierr.NameRequired,
		apierr.MoodboardRequired,
		apierr.MoodboardNotReady,
		apierr.LookNotInMoodboard,
	}
}

// Admit checks the moodboards (the account's or curated, analysed) and
// that every look comes from one of them, then opens the record.
func (brandKitRunner) Admit(ctx context.Context, env tasks.Env, in *brandKitInput) error {
	if err := checkName(in.Name); err != nil {
		return err
	}
	kit, err := resolveKit(ctx, env, in)
	if err != nil {
		return err
	}
	looks := make([]KitLook, len(kit.looks))
	for i, l := range kit.looks {
		looks[i] = KitLook{URL: l.rel, Moodboard: l.board, Index: l.look.Index}
	}
	return openRecord(
		ctx,
		env,
		KindBrandKit,
		kit.name,
		brandKitFields{Colours: kit.colours, Moodboards: kit.boardRefs, Looks: looks, Notes: notesOf(in)},
	)
}

// notes are the kit's notes, "" when none were sent.
func (in *brandKitInput) notes() string {
	if in.Notes == nil {
		return ""
	}
	return *in.Notes
}

// notesOf is the kit's notes as its record keeps them: nil when none or
// empty.
func notesOf(in *brandKitInput) *string {
	if n := in.notes(); n != "" {
		return &n
	}
	return nil
}

// kitLook is a look a kit keeps, found in its moodboard.
type kitLook struct {
	board string
	look  Look
	rel   string // the stored copy's relative address
}

// kit is a brand kit's input resolved against its moodboards.
type kit struct {
	name      string
	colours   []KitColour
	boardRefs []string
	boards    []*Moodboard
	looks     []kitLook
}

// resolveKit reads the moodboards and finds the looks of a brand kit input:
// moodboard_required, moodboard_not_ready and look_not_in_moodboard name
// the field at fault.
func resolveKit(ctx context.Context, env tasks.Env, in *brandKitInput) (*kit, error) {
	k := &kit{name: strings.TrimSpace(in.Name), boardRefs: in.Moodboards}
	for _, hex := range in.Colours {
		hex = strings.ToUpper(hex)
		k.colours = append(k.colours, KitColour{Hex: hex, Name: nearestName(labOfHex(hex))})
	}
	for i, ref := range k.boardRefs {
		field := fmt.Sprintf("moodboards[%d]", i)
		mb, err := ReadMoodboard(ctx, env, field, ref)
		if ae := apierr.As(err); err != nil && ae != nil && ae.Code == apierr.InvalidRequest {
			return nil, apierr.Newf(apierr.MoodboardRequired, "%s names no moodboard of the account's or the curated "+
				"library's; list them at GET /v1/refs/moodboard.", field).
				WithField(field)
		}
		if err != nil {
			return nil, err
		}
		if err := mb.Ready(field); err != nil {
			return nil, err
		}
		k.boards = append(k.boards, mb)
	}
	for i, url := range in.Looks {
		l, ok := findLook(k.boards, url)
		if !ok {
			return nil, apierr.Newf(apierr.LookNotInMoodboard, "looks[%d] is not a look of the named moodboards; send "+
				"looks[].url of their analysis (GET /v1/files/{moodboard}).", i).
				WithField(fmt.Sprintf("looks[%d]", i))
		}
		k.looks = append(k.looks, l)
	}
	return k, nil
}

// findLook finds the look of boards whose stored copy url names (by its
// /files/{id}.{ext} path, whatever the host).
func findLook(boards []*Moodboard, url string) (kitLook, bool) {
	i := strings.LastIndex(url, "/files/")
	if i < 0 {
		return kitLook{}, false
	}
	want := url[i:]
	for _, mb := range boards {
		if mb.Analysis == nil {
			continue
		}
		for _, l := range mb.Analysis.Looks {
			if j := strings.LastIndex(l.URL, "/files/"); j >= 0 && l.URL[j:] == want {
				return kitLook{board: mb.Handle, look: l, rel: want}, true
			}
		}
	}
	return kitLook{}, false
}

// matchKit pairs each dominant colour of a look with the nearest kit colour.
func matchKit(l Look, colours []KitColour) []KitMatch {
	var out []KitMatch
	for _, d := range l.Dominant {
		best, bd := "", math.Inf(1)
		for _, c := range colours {
			if de := colour.DeltaE(labOfHex(d.Hex), labOfHex(c.Hex)); de < bd {
				best, bd = c.Hex, de
			}
		}
		out = append(out, KitMatch{Hex: d.Hex, KitHex: best, DeltaE: round(bd, 1), OnBrand: bd < onBrandDE})
	}
	return out
}

// Step draws the sheet (0: PNG, 1: PDF); the first also analyses the kit's
// looks against its colours and completes the record.
func (brandKitRunner) Step(ctx context.Context, in *brandKitInput, i int) (tasks.Output, error) {
	env, _ := tasks.EnvOf(ctx)
	k, err := resolveKit(ctx, env, in)
	if err != nil {
		return tasks.Output{}, tasks.InStep(err)
	}
	looks := make([]KitLook, len(k.looks))
	imgs := make([]image.Image, len(k.looks))
	for j, l := range k.looks {
		a := l.look
		a.URL = l.rel
		looks[j] = KitLook{
			URL:       l.rel,
			Moodboard: l.board,
			Index:     l.look.Index,
			Look:      &a,
			Match:     matchKit(l.look, k.colours),
		}
		if imgs[j], err = recordImage(ctx, env, l.rel); err != nil {
			return tasks.Output{}, err
		}
	}
	meta := obj{
		"brand_kit":  handleOf(ctx, KindBrandKit),
		"index":      i,
		"name":       k.name,
		"colours":    toJSON(k.colours),
		"moodboards": k.boardRefs,
		"looks":      len(looks),
	}
	notes := in.notes()
	switch i {
	case 0:
		fields := brandKitFields{Colours: k.colours, Moodboards: k.boardRefs, Looks: looks, Notes: notesOf(in)}
		if err := completeRecord(ctx, KindBrandKit, fields, nil); err != nil {
			return tasks.Output{}, err
		}
		data, err := encodePNG(brandSheet(k, looks, imgs, notes))
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "png"
		return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: meta}, nil
	case 1:
		data, err := brandPDF(k, looks, imgs, notes)
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "pdf"
		return tasks.Output{Data: data, MediaType: "application/pdf", Ext: "pdf", Meta: meta}, nil
	}
	return tasks.Output{}, fmt.Errorf("brand_kit.create: no output %d", i)
}

// recordImage reads the stored image a record keeps at a relative address
// (/files/{id}.{ext}).
func recordImage(ctx context.Context, env tasks.Env, rel string) (image.Image, error) {
	if env.DB == nil {
		return nil, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: "no stored image outside a job"}
	}
	id := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	f, err := models.FileByID(ctx, env.DB, id)
	if err != nil {
		return nil, fmt.Errorf("read stored image %s: %w", id, err)
	}
	data, err := env.Blob.ReadAll(ctx, f.BlobKey)
	if err != nil {
		return nil, fmt.Errorf("read stored image %s: %w", id, err)
	}
	img, err := imagefile.Decode(data)
	if err != nil {
		return nil, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: "a stored look cannot be decoded"}
	}
	return img, nil
}
