package photoshoot

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/faces"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// The bounds of model.create.
const (
	maxReferencePhotos = 8
	maxNameLength      = 80
	// maxHeightAdjust and maxWidthAdjust bound the proportions a saved
	// style may change, in head heights.
	maxHeightAdjust = 0.4
	maxWidthAdjust  = 0.15
	// sampleSide is the side reference photos are read at.
	sampleSide = faces.Side
)

// adjustments are the proportions model.create may change, with their
// bounds and their field of modelAdjustments.
var adjustments = []struct {
	name, text string
	bound      float64
	of         func(modelAdjustments) float64
}{
	{"height", "Head heights added to the figure's height (taller or shorter legs).", maxHeightAdjust,
		func(a modelAdjustments) float64 { return a.Height }},
	{"shoulders", "Head heights added to half the shoulder width.", maxWidthAdjust,
		func(a modelAdjustments) float64 { return a.Shoulders }},
	{"waist", "Head heights added to half the waist width.", maxWidthAdjust,
		func(a modelAdjustments) float64 { return a.Waist }},
	{"hips", "Head heights added to half the hip width.", maxWidthAdjust,
		func(a modelAdjustments) float64 { return a.Hips }},
}

// modelAdjustments are the proportions asked for, in head heights (see
// adjustments).
type modelAdjustments struct {
	Height    float64 `json:"height"`
	Shoulders float64 `json:"shoulders"`
	Waist     float64 `json:"waist"`
	Hips      float64 `json:"hips"`
}

func modelCreate() *tasks.Definition {
	return &tasks.Definition{
		Name: "model.create", Title: "Create a saved model style",
		Description: "Derives a saved style of a base model: skin and hair tones clustered from reference photos and " +
			"proportions adjusted within bounds, kept as model:<id> and delivered as a style card. Priced in model credits.",
		Category: tasks.CategoryPhotoshoots, Unit: "style", AddedOn: "2026-11-22",
		InputSchema: tasks.MustJSON(tasks.InputSchema[modelInput](
			"model.create input",
			"A name, a base model, reference photos and optional proportion changes.",
			nil,
		)),
		OutputSchema: styleSchema(),
		Runner:       tasks.Typed[modelInput](modelRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditModel, PerOutput: 10},
		RefSides:     map[string]tasks.ImageSides{"images": {Min: 16, Max: 8192}},
		ErrorRules: []tasks.ErrorRule{
			{Field: "name", Keyword: "required", Code: apierr.NameRequired},
			{Field: "name", Keyword: "minLength", Code: apierr.NameRequired},
			{Field: "images", Keyword: "required", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "minItems", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "maxItems", Code: apierr.TooManyImages},
		},
		Docs:     modelDocs(),
		Examples: modelExamples(),
		Produces: []string{"model"},
		Uses:     []string{"credit_hold"},
	}
}

func styleSchema() json.RawMessage {
	tone := func(d string) obj { return obj{"type": "string", "pattern": tasks.ColourPattern, "description": d} }
	source := obj{
		"type":        "string",
		"enum":        []any{"photos", "base"},
		"description": "photos: clustered from the reference photos; base: none were found, the base's is kept.",
	}
	num := func(d string) obj { return obj{"type": "number", "description": d} }
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Style card data", "type": "object", "description": "The data of a saved " +
			"style's card.",
		"properties": obj{
			"model": obj{
				"type":        []any{"string", "null"},
				"description": "The saved style, model:<id>; null in a catalogue example.",
			},
			"index":       obj{"type": "integer", "minimum": 0, "maximum": 0},
			"name":        obj{"type": "string"},
			"base":        obj{"type": "string", "description": "The base model, model:<id>."},
			"gender":      obj{"type": "string", "enum": genders},
			"skin":        tone("The skin tone."),
			"hair":        tone("The hair colour."),
			"skin_source": source,
			"hair_source": source,
			"hair_covered": obj{"type": "boolean", "description": "The hair is covered in every photo (a headscarf " +
				"wrapped under the chin): none was read and the base's is kept."},
			"heads":       num("The height in head heights."),
			"shoulders":   num("Half the shoulder width, in head heights."),
			"waist":       num("Half the waist width, in head heights."),
			"hips":        num("Half the hip width, in head heights."),
			"photos_read": obj{"type": "integer", "minimum": 1, "description": "The reference photos read."},
		},
		"required": []string{
			"model",
			"index",
			"name",
			"base",
			"gender",
			"skin",
			"hair",
			"skin_source",
			"hair_source",
			"heads",
			"shoulders",
			"waist",
			"hips",
			"photos_read",
		},
	})
}

type modelRunner struct{}

// Plan asks for one style card.
func (modelRunner) Plan(*modelInput) tasks.Plan {
	return tasks.Plan{Steps: 1, Phase: "reading the reference photos"}
}

// AdmitErrors is what Admit answers.
func (modelRunner) AdmitErrors() []apierr.Code { return []apierr.Code{apierr.NameRequired} }

// Admit checks the name and the base, and opens the saved style's record:
// listed under its base from the moment it is accepted.
func (modelRunner) Admit(ctx context.Context, env tasks.Env, in *modelInput) error {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return apierr.New(apierr.NameRequired, "name is empty; give the style a name.").WithField("name")
	}
	ref := in.Base
	base, ok := baseByHandle(ref)
	if !ok {
		return apierr.Newf(apierr.InvalidRequest, "%s is not a base model; a style derives from a base of the library "+
			"(GET /v1/refs/model, base null).", ref).
			WithField("base")
	}
	return openRecord(ctx, env, kindModel, name, styleOf(in, base.Body, base.Body))
}

// styleOf is the saved style of an input on base: body with the asked
// proportions, within their bounds.
func styleOf(in *modelInput, base, body Body) styleFields {
	var adj modelAdjustments
	if in.Adjustments != nil {
		adj = *in.Adjustments
	}
	asked := map[string]float64{}
	for _, a := range adjustments {
		asked[a.name] = math.Max(-a.bound, math.Min(a.bound, a.of(adj)))
	}
	body.Heads = round2(base.Heads + asked["height"])
	body.Shoulders = round2(base.Shoulders + asked["shoulders"])
	body.Waist = round2(base.Waist + asked["waist"])
	body.Hips = round2(base.Hips + asked["hips"])
	return styleFields{Base: in.Base, Body: body, Images: in.Images, Adjustments: asked}
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Step reads the photos, clusters the tones, completes the style and draws
// its card.
func (modelRunner) Step(ctx context.Context, in *modelInput, i int) (tasks.Output, error) {
	if i != 0 {
		return tasks.Output{}, fmt.Errorf("model.create: no output %d", i)
	}
	base, ok := baseByHandle(in.Base)
	if !ok {
		return tasks.Output{}, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: "base: not a base model"}
	}
	var photos []image.Image
	refs := tasks.ListRefs("images", in.Images)
	for _, r := range refs {
		// Each photo is read at sampleSide, one at a time.
		img, err := tasks.ReduceImage(ctx, r, imgfam.InputSides, func(full image.Image) image.Image {
			return imaging.Fit(full, sampleSide, sampleSide, imaging.Box)
		})
		if err != nil {
			return tasks.Output{}, err
		}
		photos = append(photos, img)
	}
	reads := make([]toneRead, len(photos))
	for i, p := range photos {
		if reads[i] = readPhoto(p); !reads[i].found {
			// No style is sold that was not read from a person: no output,
			// so nothing is charged, and the saved style's record fails.
			return tasks.Output{}, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: fmt.Sprintf(
				"%s (%s) shows no face: model.create reads skin and hair from a face seen from the front, both eyes "+
					"open and the mouth visible, against a plain background. Send a portrait, or leave this photo out.",
				refs[i].Field, refs[i].Ref)}
		}
	}
	t := tonesOf(reads)
	body := base.Body
	skinSource, hairSource := "base", "base"
	if t.skin != "" {
		body.Skin, skinSource = t.skin, "photos"
	}
	if t.hair != "" {
		body.Hair, hairSource = t.hair, "photos"
	}
	covered := true
	for _, r := range reads {
		covered = covered && r.hairCovered
	}
	said := func(source string, n int) string {
		if source == "base" {
			return "kept from " + base.Name + ": none read from the photos"
		}
		return fmt.Sprintf("read from %d photo%s", n, map[bool]string{true: "", false: "s"}[n == 1])
	}
	style := styleOf(in, base.Body, body)
	if err := completeRecord(ctx, kindModel, style); err != nil {
		return tasks.Output{}, err
	}
	card := styleCard(strings.TrimSpace(in.Name), base.Name, style.Body, []cardTone{
		{"Skin", style.Body.Skin, said(skinSource, len(photos))},
		{"Hair", style.Body.Hair, hairSaid(said(hairSource, len(photos)), hairSource, covered, base.Name)},
	}, photos, reads)
	data, err := encodeJPEG(card)
	if err != nil {
		return tasks.Output{}, err
	}
	b := style.Body
	return tasks.Output{Data: data, MediaType: "image/jpeg", Ext: "jpg", Meta: map[string]any{
		"model": handleOf(ctx, kindModel), "index": 0, "name": strings.TrimSpace(in.Name), "base": style.Base,
		"gender": b.Gender, "skin": b.Skin, "hair": b.Hair, "skin_source": skinSource, "hair_source": hairSource,
		"hair_covered": hairSource == "base" && covered, "heads": b.Heads, "shoulders": b.Shoulders, "waist": b.Waist,
		"hips": b.Hips, "photos_read": len(photos),
	}}, nil
}

// hairSaid is the card's line on the hair: when no photo shows it because
// it is covered in every one (a headscarf), the card says so.
func hairSaid(said, source string, covered bool, base string) string {
	if source == "base" && covered {
		return "kept from " + base + ": the hair is covered in the photos"
	}
	return said
}
