package photoshoot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

// The sides photoshoot.upscale takes: at 2× every shot photoshoot.create
// makes (the tallest, Zalando's, is 2600 px), at 4× shots up to 2048 px (an
// 8192 px side; a 2600 px shot at 4× would be a 75 MP image).
const (
	maxUpscaleSide  = 2600
	maxUpscale4Side = 2048
)

// artPattern is an art: handle: a file a job delivered.
const artPattern = `^art:[A-Za-z0-9_-]{1,64}$`

// factors are how many times larger photoshoot.upscale makes each side of
// a shot: only its factor takes them, so they are its schema's enum and
// have no vocabulary name.
func factors() []tasks.VocabValue {
	return []tasks.VocabValue{
		{
			Value:       "2",
			Description: "Each side doubled: a 1024 px shot becomes 2048 px.",
			Default:     true,
			ChooseWhen:  "the shots go to a zoomable product page",
		},
		{
			Value:       "4",
			Description: "Each side four times: a 2048 px shot becomes 8192 px.",
			ChooseWhen:  "the shots go to large print",
		},
	}
}

func upscale() *tasks.Definition {
	return &tasks.Definition{
		Name: "photoshoot.upscale", Title: "Upscale photoshoot shots",
		Description: "Enlarges shots of one of your photoshoots 2× or 4×, sharper than Lanczos resampling and without its " +
			"ringing, as JPEGs in the shots' order.",
		Category: tasks.CategoryPhotoshoots, Unit: "image", AddedOn: "2026-11-22",
		InputSchema: tasks.MustJSON(tasks.InputSchema[upscaleInput](
			"photoshoot.upscale input",
			"Shots of one photoshoot and how much to enlarge them.",
			nil,
		)),
		OutputSchema: tasks.MustJSON(obj{
			"$schema": tasks.SchemaDialect, "title": "Upscaled shot data", "type": "object", "description": "The data of one " +
				"enlarged shot.",
			"properties": obj{
				"photoshoot": obj{
					"type":        []any{"string", "null"},
					"description": "The shots' photoshoot, photoshoot:<id>; null in a catalogue example.",
				},
				"index": obj{
					"type":        "integer",
					"minimum":     0,
					"description": "The position of its shot in images.",
				},
				"image":         obj{"type": "string", "description": "The shot, as sent."},
				"factor":        obj{"type": "integer", "enum": []any{2, 4}},
				"width":         obj{"type": "integer", "minimum": 1},
				"height":        obj{"type": "integer", "minimum": 1},
				"source_width":  obj{"type": "integer", "minimum": 1},
				"source_height": obj{"type": "integer", "minimum": 1},
			},
			"required": []string{
				"photoshoot",
				"index",
				"image",
				"factor",
				"width",
				"height",
				"source_width",
				"source_height",
			},
		}),
		Runner: tasks.Typed[upscaleInput](upscaleRunner{}),
		Pricing: tasks.Pricing{CreditType: contract.CreditService, Option: "factor",
			ByOption: []tasks.OptionPrice{{Value: "2", Credits: 2}, {Value: "4", Credits: 4}}},
		RefSides: map[string]tasks.ImageSides{"images": {Min: 16, Max: maxUpscaleSide}},
		ErrorRules: []tasks.ErrorRule{
			{Field: "images", Keyword: "required", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "minItems", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "maxItems", Code: apierr.TooManyImages},
		},
		Docs:     upscaleDocs(),
		Examples: upscaleExamples(),
		Produces: []string{"output_resolution"},
		Uses:     []string{"photoshoot"},
	}
}

type upscaleRunner struct{}

// Plan asks for one output per shot.
func (upscaleRunner) Plan(in *upscaleInput) tasks.Plan {
	return tasks.Plan{Steps: len(in.Images), Phase: "upscaling shots"}
}

// AdmitErrors is what Admit answers.
func (upscaleRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{apierr.ImageNotFromShoot, apierr.RequestRefused}
}

// Admit checks every image is a shot of one photoshoot of the account.
func (upscaleRunner) Admit(ctx context.Context, env tasks.Env, in *upscaleInput) error {
	first := ""
	for _, r := range tasks.ListRefs("images", in.Images) {
		if r.Ref == shotFile.Ref {
			continue // the example's shot stands for a shot of the account's
		}
		if err := fitsFactor(ctx, env, r, in.Factor); err != nil {
			return err
		}
		shoot, err := shootOf(ctx, env, r.Ref)
		if err != nil {
			return err
		}
		switch {
		case shoot == "":
			return apierr.Newf(apierr.ImageNotFromShoot, "%s is not a shot of one of the account's photoshoots; send art: "+
				"handles listed in a photoshoot's images (GET /v1/files/photoshoot:<id>).", r.Ref).
				WithField(r.Field)
		case first == "":
			first = shoot
		case shoot != first:
			return apierr.Newf(apierr.ImageNotFromShoot, "%s is a shot of %s, the images before it of %s; send the shots of "+
				"one photoshoot per job.", r.Ref, shoot, first).
				WithField(r.Field)
		}
	}
	return nil
}

// fitsFactor refuses a shot over maxUpscale4Side at factor 4, with the
// way out; a shot whose size is not recorded is measured by the step.
func fitsFactor(ctx context.Context, env tasks.Env, r tasks.Ref, factor string) error {
	id, ok := strings.CutPrefix(r.Ref, "art:")
	if factor != "4" || !ok || env.DB == nil {
		return nil
	}
	f, err := models.FileByID(ctx, env.DB, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil // shootOf answers it
	}
	if err != nil {
		return err
	}
	if w, h, known := f.ImageSize(); known && max(w, h) > maxUpscale4Side {
		return apierr.Newf(apierr.RequestRefused, "%s is %d × %d px; factor 4 takes shots up to %d px a side: send "+
			"factor 2.", r.Ref, w, h, maxUpscale4Side).WithField(r.Field)
	}
	return nil
}

// shootOf is the photoshoot (photoshoot:<id>) of the account whose job
// delivered the art: file ref, or "" when none did.
func shootOf(ctx context.Context, env tasks.Env, ref string) (string, error) {
	id, ok := strings.CutPrefix(ref, "art:")
	if !ok || env.DB == nil {
		return "", nil
	}
	f, err := models.FileByID(ctx, env.DB, id)
	if errors.Is(err, models.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if f.UserID != env.UserID || f.JobID == "" {
		return "", nil
	}
	r, err := models.RecordByJob(ctx, env.DB, f.JobID)
	if errors.Is(err, models.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if r.Kind != kindPhotoshoot || r.UserID != env.UserID {
		return "", nil
	}
	return r.Handle(), nil
}

// Step enlarges shot i.
func (upscaleRunner) Step(ctx context.Context, in *upscaleInput, i int) (tasks.Output, error) {
	refs := tasks.ListRefs("images", in.Images)
	if i < 0 || i >= len(refs) {
		return tasks.Output{}, fmt.Errorf("photoshoot.upscale: no output %d", i)
	}
	factor, _ := strconv.Atoi(in.Factor)
	src, err := imgfam.Load(ctx, refs[i])
	if err != nil {
		return tasks.Output{}, err
	}
	b := src.Bounds()
	if factor == 4 && max(b.Dx(), b.Dy()) > maxUpscale4Side {
		return tasks.Output{}, &tasks.StepError{Code: contract.ErrTypeProcessing, Message: fmt.Sprintf(
			"%s is %d × %d px; factor 4 takes shots up to %d px a side: send factor 2.",
			refs[i].Ref, b.Dx(), b.Dy(), maxUpscale4Side)}
	}
	out := resample.Upscale(src, factor)
	data, err := encodeJPEG(out)
	if err != nil {
		return tasks.Output{}, err
	}
	var shoot any
	if env, ok := tasks.EnvOf(ctx); ok {
		h, err := shootOf(ctx, env, refs[i].Ref)
		if err != nil {
			return tasks.Output{}, err
		}
		if h != "" {
			shoot = h
		}
	}
	return tasks.Output{Data: data, MediaType: "image/jpeg", Ext: "jpg", Meta: map[string]any{
		"photoshoot": shoot, "index": i, "image": refs[i].Ref, "factor": factor, "width": out.Rect.Dx(),
		"height":       out.Rect.Dy(),
		"source_width": b.Dx(), "source_height": b.Dy(),
	}}, nil
}

// shotFile is a shot of the catalogue example of photoshoot.create, sent by
// the upscale example under an art: handle.
var shotFile = tasks.ExampleFile{
	Ref:       "art:example_ps_shot",
	Name:      "shot.jpg",
	MediaType: "image/jpeg",
	Data: sync.OnceValue(func() []byte {
		prod, _ := prepareProduct(context.Background(), exampleTote())
		img := shot{bg: backgrounds[1], pose: poseFor(genderWoman, angleFront), w: 512, h: 640}.draw(prod.img).img
		data, err := encodeJPEG(img)
		if err != nil {
			panic(err)
		}
		return data
	}),
}

func upscaleExamples() []tasks.Example {
	return []tasks.Example{{
		Name: "double_a_shot", Title: "A packshot doubled for a zoomable product page",
		Description: "A 512 × 640 px shot becomes 1024 × 1280 px. Send art: handles of your own photoshoot's images; the " +
			"example's shot stands for one.",
		Input: json.RawMessage(`{"images":["art:example_ps_shot"],"factor":"2"}`),
		Files: []tasks.ExampleFile{shotFile},
	}}
}

func upscaleDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "photoshoot.upscale enlarges shots of one of your photoshoots 2× or 4× by iterative back-projection: a " +
			"Lanczos-3 enlargement corrected, round after round, until it gives back the shot when reduced again, which " +
			"restores the edges Lanczos leaves soft; every pixel is then kept within the range of the shot's pixels around " +
			"it, so edges get no halo or ringing and noise is not amplified. On our test set (text, edges, textures, fabric, " +
			"noise and a packshot, rendered large, reduced and enlarged again: go test -bench UpscaleQuality " +
			"./tasks/resample) it is 0.6 dB PSNR and 0.009 SSIM closer to the originals than Lanczos on average (up to 1.7 " +
			"dB on a packshot at 2×), better on every image, and rings less. It is image processing, not a generative model: " +
			"no detail that the shot does not hold is invented, so a 4× shot still looks soft up close.",
		BuiltFor: []string{
			"Zoomable product pages: 1024 px shots made 2048 px.",
			"Print: a shoot's selects enlarged for a catalogue or a poster.",
		},
		WhatYouGet: []string{
			"One JPEG per shot, each side factor times the shot's, in the order sent.",
			"Each file's data: the shot, its photoshoot, the factor and both sizes.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          fmt.Sprintf("One per entry of images (1 to %d).", maxOutputs),
			CountDependsOn: []string{"images"},
			Order:          new("The order of images."),
		},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text: "art: handles of your photoshoots' shots (JPEG): at factor 2 up to 2600 px a side (every shot " +
					"photoshoot.create makes, Zalando's 1801 × 2600 included), at factor 4 up to 2048 px.",
			},
			{
				Key:   "input_count",
				Title: "Input count",
				Text:  fmt.Sprintf("1 to %d shots of one photoshoot.", maxOutputs),
			},
			{Key: "output_format", Title: "Output format", Text: fmt.Sprintf("JPEG, quality %d.", shotQuality)},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text:  "factor × the shot's width and height: at most 8192 px a side.",
			},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: fmt.Sprintf("1 to %d (images).", maxOutputs)},
		}, commonSpecs()...),
		Limitations: []string{
			"No detail is invented: texture finer than the shot's pixels stays soft, most visibly at 4× (there the gain over " +
				"Lanczos is 0.3 dB, at 2× 0.9 dB).",
			"It takes longer than plain resampling: about 8 times as long in our benchmark (BenchmarkUpscaleSpeed).",
			"Every image must be a shot of one of the account's photoshoots, all of the same one (image_not_from_shoot " +
				"otherwise); other images go to image.resize.",
			planLimitation,
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.ImagesRequired,
			apierr.TooManyImages,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.ImageNotFromShoot,
		),
		Related: []tasks.Related{
			{Task: "photoshoot.create", Relation: "before"},
			{Task: "image.resize", Relation: "sibling"},
		},
	}
}
