package pattern

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// repeat lays a caller's motif image out as seamless repeat tiles.
func repeat() *tasks.Definition {
	props := obj{
		"image": obj{"type": "string", "pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
			"description": "The motif: a file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL.",
			"examples":    []any{"file:abc123", "art:def456"}},
		"layouts": obj{
			"type":        "array",
			"items":       tasks.VocabEnum(layoutVocab(), "A repeat layout."),
			"minItems":    1,
			"maxItems":    4,
			"uniqueItems": true,
			"default":     []any{"half_drop"},
			"description": "The layouts to make, one tile each, in this order.",
		},
		"resolution": tasks.VocabEnum(tasks.ResolutionVocab(), "The side of each square tile in pixels."),
		"motif_scale": obj{
			"type":        "number",
			"minimum":     0.1,
			"maximum":     1,
			"default":     0.6,
			"description": "The motif's longest side as a share of a cell (a tile is 2 × 2 cells).",
		},
		"background": tasks.ColourSchema(
			"The ground colour behind the motif, #RRGGBB; transparent parts of the motif show it.",
		),
	}
	props["resolution"].(obj)["default"] = "1024"
	props["background"].(obj)["default"] = "#FFFFFF"
	return &tasks.Definition{
		Name: "pattern.repeat", Title: "Lay out a motif as a repeat",
		Description: "Turns one motif image into seamless repeat tiles — grid, half-drop, brick or mirror — ready for " +
			"print or textile production.",
		Category: tasks.CategoryProductionPrep, Unit: "tile", RefSides: map[string]tasks.ImageSides{"image": motifSides},
		InputSchema: tasks.MustJSON(tasks.ObjectSchema("pattern.repeat input",
			"A motif and the repeat layouts to make of it: one tile per layout.", props, []string{"image"}, nil)),
		OutputSchema: tasks.MustJSON(obj{
			"$schema": tasks.SchemaDialect, "title": "Repeat tile data", "type": "object", "description": "The data of one " +
				"repeat tile.",
			"properties": obj{
				"layout": obj{
					"type":             "string",
					tasks.VocabKeyword: "repeat_layout",
					"description":      "The layout of this tile.",
				},
				"index": obj{
					"type":        "integer",
					"minimum":     0,
					"description": "The output number: the position in layouts.",
				},
				"resolution": obj{
					"type":             "string",
					tasks.VocabKeyword: "resolution",
					"description":      "The tile's side in pixels.",
				},
				"image": obj{"type": "string", "description": "The motif reference, as sent."},
			},
			"required": []string{"layout", "index", "resolution", "image"},
		}),
		Runner:  tasks.Typed[repeatInput](repeatRunner{}),
		Pricing: resolutionPricing,
		ErrorRules: []tasks.ErrorRule{
			{Field: "background", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "background", Keyword: "type", Code: apierr.InvalidColour},
		},
		Docs: repeatDocs(),
		Examples: []tasks.Example{{Name: "half_drop_and_brick", Title: "A leaf motif in half-drop and brick",
			Description: "An uploaded leaf on a transparent ground, laid out two ways on a cream ground.",
			Input: json.RawMessage(
				`{"image":"file:example_leaf","layouts":["half_drop","brick"],"resolution":"512","background":"#F4EBD9"}`,
			),
			Files: []tasks.ExampleFile{
				{Ref: "file:example_leaf", Name: "leaf.png", MediaType: "image/png", Data: exampleLeaf},
			},
		}},
	}
}

// repeatInput is a pattern.repeat request, defaults applied.
type repeatInput struct {
	Image      string   `json:"image"`
	Layouts    []string `json:"layouts"`
	Resolution string   `json:"resolution"`
	MotifScale float64  `json:"motif_scale"`
	Background string   `json:"background"`
}

// repeatRunner makes one tile per layout.
type repeatRunner struct{}

// Plan asks for one tile per layout.
func (repeatRunner) Plan(in *repeatInput) tasks.Plan {
	return tasks.Plan{Steps: len(in.Layouts), Phase: "laying out repeats"}
}

// Step loads the motif and lays it out as layouts[i].
func (repeatRunner) Step(ctx context.Context, in *repeatInput, i int) (tasks.Output, error) {
	layouts := in.Layouts
	if i < 0 || i >= len(layouts) {
		return tasks.Output{}, fmt.Errorf("pattern.repeat: no output %d", i)
	}
	ref := in.Image
	motif, err := tasks.LoadImage(ctx, tasks.Ref{Field: "image", Ref: ref}, motifSides)
	if err != nil {
		return tasks.Output{}, err
	}
	res := in.Resolution
	size := 1024
	_, _ = fmt.Sscanf(res, "%d", &size)
	png, err := renderRepeat(ctx, motif, layouts[i], size, in.MotifScale, tasks.ParseColour(in.Background))
	if err != nil {
		return tasks.Output{}, err
	}
	return tasks.Output{Data: png, MediaType: "image/png", Ext: "png",
		Meta: map[string]any{"layout": layouts[i], "index": i, "resolution": res, "image": ref}}, nil
}

// exampleLeaf draws the example motif: a leaf with a vein on a transparent ground.
func exampleLeaf() []byte {
	const n = 160
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	leaf := color.NRGBA{R: 0x3A, G: 0x7D, B: 0x44, A: 0xFF}
	vein := color.NRGBA{R: 0xE8, G: 0xF0, B: 0xD8, A: 0xFF}
	for y := range n {
		for x := range n {
			u, v := (float64(x)-n/2)/(n/2), (float64(y)-n/2)/(n/2)
			// A leaf: between two arcs, pointed at both ends.
			if math.Abs(u) < 0.55*(1-v*v) && math.Abs(v) < 0.95 {
				img.SetNRGBA(x, y, leaf)
				if math.Abs(u) < 0.03 {
					img.SetNRGBA(x, y, vein)
				}
			}
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

func repeatDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "pattern.repeat lays one motif out as a seamless repeat: the classic grid, the half-drop textile designers " +
			"use to hide the grid, a brick offset, or a mirror repeat. Each layout is one square PNG tile that continues " +
			"across every edge.",
		BuiltFor: []string{
			"Turning a single drawn or generated motif into print-ready repeats.",
			"Comparing layouts of one motif before choosing one for production.",
		},
		WhatYouGet: []string{
			"One PNG tile per entry of layouts, in the order sent.",
			"Each file's data: the layout, its position, the resolution and the motif reference.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One tile per entry of layouts (1 to 4; default 1).",
			CountDependsOn: []string{"layouts"},
			Order:          new("The order of layouts."),
			AbsentWhen: new(
				"A tile that cannot be made is absent and not charged; the summary carries output_not_produced.",
			),
		},
		Specs: []tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text: "One image: PNG, JPEG, GIF (first frame), WebP or BMP, " +
					"8 to 8192 px a side, " + tasks.ImageBudget + "; transparency is kept, JPEG EXIF orientation applied.",
			},
			{Key: "input_count", Title: "Input count", Text: "One motif."},
			{Key: "output_format", Title: "Output format", Text: "PNG, RGBA."},
			{Key: "output_resolution", Title: "Output resolution", Text: "512, 1024 or 2048 px square (resolution)."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "1 to 4 (layouts)."},
			{Key: "watermark", Title: "Watermark", Text: "None."},
			{Key: "commercial_use", Title: "Commercial use", Text: "Allowed for motifs you hold the rights to."},
			{Key: "content_checks", Title: "Content checks", Text: "None."},
			{
				Key:   "reproducibility",
				Title: "Reproducibility",
				Text:  "Deterministic: the same motif and input give the same bytes.",
			},
		},
		Limitations: []string{
			"Each tile holds four copies of the motif (2 × 2 cells); larger repeats come from tiling the tile.",
			"URLs are fetched when the job runs, within limits.url_fetch; a motif that cannot be fetched or read fails the " +
				"job with processing_failed.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.InvalidColour,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
		),
		Related: []tasks.Related{
			{Task: "pattern.generate", Relation: "sibling"},
			{Task: "palette.generate", Relation: "before"},
		},
	}
}
