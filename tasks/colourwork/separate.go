package colourwork

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
)

// The bounds of max_colours: a screen print has at least two inks (or a
// shirt and one ink) and rarely more than twelve screens.
const (
	minSeparations = 2
	maxSeparations = 12
)

// A spot colour is a cluster the design keeps: clusters nearer than
// mergeDE (CIEDE2000) are one ink, and one under minCoverage of the design
// (anti-aliased edges, noise) is folded into its nearest ink.
const (
	mergeDE     = 8
	minCoverage = 0.01
)

func separate() *tasks.Definition {
	props := obj{
		"image": imageProp("The design to separate"),
		"max_colours": obj{"type": "integer", "minimum": minSeparations, "maximum": maxSeparations,
			"description": fmt.Sprintf(
				"The most spot colours (inks, screens) to separate into, %d to %d; a design with fewer distinct colours gets fewer separations.",
				minSeparations,
				maxSeparations,
			)},
		"order": tasks.VocabEnum(orderVocab(), "The order of the separations (the print order)."),
	}
	return &tasks.Definition{
		Name: "colour.separate", Title: "Separate a design into spot colours",
		Description: "Splits a flat-colour design into screen-printing separations — one greyscale film per spot colour, black where the ink prints — with a composite preview and each ink's coverage.",
		Category:    tasks.CategoryProductionPrep, Unit: "file",
		InputSchema: tasks.MustJSON(tasks.ObjectSchema("colour.separate input",
			"A design and the most spot colours to separate it into.", props, []string{"image", "max_colours"}, nil)),
		OutputSchema: separateOutput(),
		Runner:       tasks.Typed[separateInput](separateRunner{}),
		Pricing:      perOutput(1),
		RefSides:     map[string]tasks.ImageSides{"image": imagetasks.InputSides},
		ErrorRules:   []tasks.ErrorRule{{Field: "max_colours", Keyword: "maximum", Code: apierr.TooManyColours}},
		Docs:         separateDocs(),
		Produces:     []string{"colour_separation", "job"},
		Uses:         []string{"credit_hold"},
		Examples: []tasks.Example{{
			Name: "lemon_print", Title: "A three-colour lemon print as screens",
			Description: "Three inks: the job delivers the composite and the cream, lemon and leaf green separations, light to dark, with each ink's coverage.",
			Input:       json.RawMessage(`{"image":"file:example_lemon_print","max_colours":3}`),
			Files:       []tasks.ExampleFile{printFile},
		}},
	}
}

func separateOutput() json.RawMessage {
	ink := obj{"type": "object", "required": []string{"hex", "coverage", "separation"}, "properties": obj{
		"hex": tasks.ColourSchema("The ink's colour: the mean of the design's pixels it prints."),
		"coverage": obj{
			"type":        "number",
			"minimum":     0,
			"maximum":     100,
			"description": "The percentage of the design's opaque pixels the ink prints; the inks add up to 100.",
		},
		"separation": obj{"type": "integer", "minimum": 1, "description": "The output index of the ink's separation."},
	}}
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Separation data", "type": "object",
		"description": "The data of the composite (index 0) or of one separation (index 1 on).",
		"properties": obj{
			"index": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "0 for the composite; 1 on for the separations in order.",
			},
			"kind": obj{
				"type":        "string",
				"enum":        []any{"composite", "separation"},
				"description": "What the file is.",
			},
			"image":  obj{"type": "string", "description": "The input image reference, as sent."},
			"width":  obj{"type": "integer", "minimum": 1, "description": "Width in pixels: the design's."},
			"height": obj{"type": "integer", "minimum": 1, "description": "Height in pixels: the design's."},
			"order": obj{
				"type":             "string",
				tasks.VocabKeyword: "separation_order",
				"description":      "The order of the separations.",
			},
			"hex": tasks.ColourSchema("A separation's ink; absent on the composite."),
			"coverage": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     100,
				"description": "A separation's coverage in percent; absent on the composite.",
			},
			"colours": obj{
				"type":        "array",
				"items":       ink,
				"description": "Every ink found, in the separations' order.",
			},
		},
		"required": []string{"index", "kind", "image", "width", "height", "order", "colours"},
	})
}

// separateInput is a colour.separate request, defaults applied.
type separateInput struct {
	Image      string `json:"image"`
	MaxColours int    `json:"max_colours"`
	Order      string `json:"order"`
}

// separateRunner plans the composite and max_colours separations: the
// design may have fewer colours, and a separation it has no ink for is not
// produced (nor charged).
type separateRunner struct{}

// Plan implements tasks.Runner.
func (separateRunner) Plan(in *separateInput) tasks.Plan {
	return tasks.Plan{Steps: 1 + in.MaxColours, Phase: "separating colours"}
}

// Step implements tasks.Runner: 0 is the composite, i the separation of
// ink i-1 in order. Every step quantises the design again, from a fixed
// seed, so all steps agree on the inks.
func (separateRunner) Step(ctx context.Context, in *separateInput, i int) (tasks.Output, error) {
	r := tasks.Ref{Field: "image", Ref: in.Image}
	img, err := load(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	q, err := imagetasks.Quantise(ctx, img, in.MaxColours, mergeDE, minCoverage)
	if err != nil {
		return tasks.Output{}, failf(fmt.Sprintf("image (%s): %v", r.Ref, err))
	}
	order := in.Order
	inks := inkOrder(q.Colours, order)
	var colours []any
	for n, j := range inks {
		colours = append(
			colours,
			map[string]any{"hex": q.Colours[j].Hex(), "coverage": percent(q.Colours[j].Share), "separation": n + 1},
		)
	}
	b := q.Index.Bounds()
	meta := map[string]any{
		"index":   i,
		"image":   r.Ref,
		"width":   b.Dx(),
		"height":  b.Dy(),
		"order":   order,
		"colours": colours,
	}
	if i == 0 {
		meta["kind"] = "composite"
		return pngOutput(composite(q), meta)
	}
	if i > len(inks) {
		return tasks.Output{}, failf(
			fmt.Sprintf("the design has %d spot colours, so separation %d has no ink", len(inks), i),
		)
	}
	j := inks[i-1]
	meta["kind"], meta["hex"], meta["coverage"] = "separation", q.Colours[j].Hex(), percent(q.Colours[j].Share)
	return pngOutput(film(q, uint8(j)), meta)
}

// inkOrder lists the positions of the inks in print order: lightest first
// (the usual order on a light garment) or most coverage first; ties keep
// the order k-means found.
func inkOrder(sw []imagetasks.Swatch, order string) []int {
	idx := make([]int, len(sw))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if order == "coverage" {
			return -cmp(sw[a].Share, sw[b].Share)
		}
		return -cmp(imagetasks.Lightness(sw[a].Colour), imagetasks.Lightness(sw[b].Colour))
	})
	return idx
}

func cmp(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func percent(share float64) float64 { return math.Round(share*1e4) / 100 }

// film is the separation of ink j: black where it prints, white elsewhere.
func film(q *imagetasks.Quantised, j uint8) *image.Gray {
	out := image.NewGray(q.Index.Bounds())
	for p, v := range q.Index.Pix {
		out.Pix[p] = 255
		if v == j {
			out.Pix[p] = 0
		}
	}
	return out
}

// composite lays every ink back in its colour; no ink is transparent.
func composite(q *imagetasks.Quantised) *image.NRGBA {
	var lut [256]color.NRGBA // Transparent stays the zero colour
	for j, c := range q.Colours {
		lut[j] = c.Colour
		lut[j].A = 255
	}
	out := image.NewNRGBA(q.Index.Bounds())
	for p, v := range q.Index.Pix {
		c := lut[v]
		px := out.Pix[4*p : 4*p+4 : 4*p+4]
		px[0], px[1], px[2], px[3] = c.R, c.G, c.B, c.A
	}
	return out
}

func orderVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "separation_order", Description: "The order of a design's separations, which is the order the screens print in.",
		Values: []tasks.VocabValue{
			{
				Value:       "light_to_dark",
				Label:       "Light to dark",
				Description: "Lightest ink first (CIELAB L*), as most prints on light garments go down.",
				ChooseWhen:  "you are unsure",
				Default:     true,
			},
			{
				Value:       "coverage",
				Label:       "By coverage",
				Description: "The ink that covers most first.",
				ChooseWhen:  "you budget screens by how much ink they lay",
			},
		},
		Default: new("light_to_dark"), Concept: new("colour_separation"),
	}
}

func separateDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "colour.separate prepares a flat-colour design for screen printing. It finds the design's spot colours — at most max_colours, by k-means in CIELAB from a fixed seed, colours closer than ΔE2000 8 counted as one ink and an ink under 1 % of the design folded into its nearest — gives every pixel to exactly one ink, and delivers a greyscale separation per ink (black where it prints) with a composite preview that lays the inks back together. It is deterministic image processing, not a generative model.",
		BuiltFor: []string{
			"Screen and pad printing: one film or screen per ink, in print order.",
			"Quoting a print job: how many inks a design needs and how much of each.",
		},
		WhatYouGet: []string{
			"Index 0: the composite preview, a PNG of the design in its inks only; compare it with the design to see what the separation keeps.",
			"Index 1 on: one greyscale PNG per ink, in order, black (0) where the ink prints and white (255) elsewhere, at the design's size.",
			"Every file's data lists the inks in order with their hex and coverage in percent (adding up to 100); a separation's data names its own ink.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "1 + max_colours files asked for: the composite, then a separation per ink found (at most max_colours).",
			CountDependsOn: []string{"max_colours"},
			Order:          new("The composite first, then the separations in order (separation_order)."),
			AbsentWhen: new(
				"A design with fewer spot colours than max_colours gets fewer separations: the missing ones are reported output_not_produced and not charged. An image that cannot be read, or is fully transparent, fails the job with processing_failed.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{Key: "input_count", Title: "Input count", Text: "One image."},
			{
				Key:   "output_format",
				Title: "Output format",
				Text:  "PNG: the composite in RGBA (transparent where the design is), the separations 8-bit greyscale.",
			},
			{Key: "output_resolution", Title: "Output resolution", Text: "The design's, after EXIF orientation."},
			{
				Key:   "outputs_per_job",
				Title: "Outputs per job",
				Text:  fmt.Sprintf("2 to %d: the composite and one separation per ink.", 1+maxSeparations),
			},
		}, commonSpecs()...),
		Limitations: []string{
			"Made for flat-colour art: a photo or a gradient is posterised into at most max_colours inks, and halftones are not made.",
			"Every pixel prints one ink: no overprints, trapping or choke and spread; anti-aliased edges go to the nearer ink.",
			"Ink colours are the design's measured colours (sRGB), not Pantone or other ink system matches.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.TooManyColours,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
		),
		Related: []tasks.Related{
			{Task: "colourway.generate", Relation: "before"},
			{Task: "image.recolour", Relation: "before"},
		},
	}
}
