// Package colourwork is the colour work of a finished design:
// colour.separate (production_prep: screen-printing separations, one
// greyscale film per spot colour, and a composite preview) and
// colourway.generate (design_generation: the design recoloured into each
// palette sent, or into colourways drawn from a brand kit). Both read and
// map colours with the image family's machinery (k-means in CIELAB,
// lightness kept); both are deterministic image processing, never a
// generative model.
package colourwork

import (
	"context"
	"image"
	"image/png"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

type obj = map[string]any

// Family is everything the colourwork family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:         "colourwork",
		Tasks:        []*tasks.Definition{separate(), colourway()},
		Vocabularies: []tasks.Vocabulary{orderVocab()},
		Concepts: []tasks.Concept{{
			Name: "colour_separation", Short: "One film per ink: where a spot colour prints on a screen-printed design.",
			Long: "A separation is a greyscale image the size of the design, black where its ink prints and white where " +
				"it does not. colour.separate reduces a design to its spot colours (at most max_colours), gives every pixel to " +
				"exactly one of them, and delivers one separation per colour with a composite that lays the inks back together, " +
				"so the separations cover the design once and only once.",
			Related: []string{"colourway"},
		}, {
			Name: "colourway", Short: "The same design in another set of colours.",
			Long: "A colourway keeps a design's shapes and its light and dark structure and changes its colours. " +
				"colourway.generate pairs the design's dominant colours with each palette by lightness rank (or as a mapping " +
				"says) and moves every pixel with its colour, so shading stays and soft edges blend the two new colours; a " +
				"product's backdrop and shadow are kept.",
			Related: []string{"colour_separation", "brand_kit"},
		}},
	}
}

// imageProp is the input image field: a file: or art: handle or a public
// https URL, fetched through the step's loader.
func imageProp(what string) obj {
	return obj{"type": "string", "pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
		"description": what + ": a file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL.",
		"examples":    []any{"file:abc123", "art:def456"}}
}

// load fetches r through the step's loader (the SSRF-safe fetch in a job)
// and decodes it as the image family does.
func load(ctx context.Context, r tasks.Ref) (image.Image, error) {
	data, err := tasks.LoadRef(ctx, r)
	if err != nil {
		return nil, err
	}
	return imagetasks.Decode(r, data)
}

// perOutput prices every output alike.
func perOutput(credits int64) tasks.Pricing {
	return tasks.Pricing{CreditType: contract.CreditService, PerOutput: credits}
}

// failf is a permanent step failure; its message is the caller's.
func failf(msg string) error {
	return &tasks.StepError{Code: contract.ErrTypeProcessing, Message: msg}
}

// pngOutput encodes img as PNG with the output's data.
func pngOutput(img image.Image, meta map[string]any) (tasks.Output, error) {
	data, err := pngenc.Encode(img, png.BestSpeed)
	if err != nil {
		return tasks.Output{}, err
	}
	return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: meta}, nil
}

// commonSpecs are the spec rows both tasks share: the input formats and
// the family's terms.
func commonSpecs() []tasks.SpecRow {
	return append([]tasks.SpecRow{
		tasks.Spec("input_formats", imagetasks.InputFormats+" Pixels under half opacity count as no colour."),
	}, tasks.Terms{
		CommercialUse:   "Allowed for designs you hold the rights to.",
		ContentChecks:   "None: the task changes colours only.",
		Reproducibility: "Deterministic: the same image and fields give the same bytes (k-means from a fixed seed).",
	}.Rows()...)
}
