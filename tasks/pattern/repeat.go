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
	return &tasks.Definition{
		Name: "pattern.repeat", Title: "Lay out a motif as a repeat",
		Description: "Turns one motif image into seamless repeat tiles — grid, half-drop, brick or mirror — ready for " +
			"print or textile production.",
		Category: tasks.CategoryProductionPrep, Unit: "tile", RefSides: map[string]tasks.ImageSides{"image": motifSides},
		InputSchema: tasks.MustJSON(tasks.InputSchema[repeatInput](
			"pattern.repeat input",
			"A motif and the repeat layouts to make of it: one tile per layout.",
			nil,
		)),
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
				"knockout": obj{"type": "string", "enum": []any{"removed", "transparent", "not_plain", "off"},
					"description": "What became of the motif's backdrop: removed (a plain backdrop knocked out with the " +
						"cut-out of image.remove_background; backdrop names its colour), transparent (the motif had " +
						"transparency and was used as sent), not_plain (opaque, but its border is not one plain colour: used " +
						"as sent) or off (knockout false)."},
				"backdrop": tasks.ColourSchema("The backdrop colour knocked out, when knockout is removed."),
				"gap_px": obj{"type": "object", "description": "The gaps between the bounding boxes of neighbouring " +
					"copies, in pixels, before any turn: across (between columns) and down (within a column).",
					"properties": obj{"across": obj{"type": "integer"}, "down": obj{"type": "integer"}},
					"required":   []string{"across", "down"}, "additionalProperties": false},
			},
			"required": []string{"layout", "index", "resolution", "image", "knockout", "gap_px"},
		}),
		Runner:  tasks.Typed[repeatInput](repeatRunner{}),
		Pricing: resolutionPricing,
		Refuse:  tasks.Refusal(refuseRepeat),
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

// tileSide is the tile's side in pixels.
func (in *repeatInput) tileSide() int {
	size := 1024
	_, _ = fmt.Sscanf(in.Resolution, "%d", &size)
	return size
}

// scale is the motif's longest side as a share of a cell: motif_scale, or
// what leaves spacing between copies.
func (in *repeatInput) scale() float64 {
	if in.Spacing == nil {
		return in.MotifScale
	}
	cell := in.tileSide() / 2
	return float64(cell-*in.Spacing) / float64(cell)
}

// refuseRepeat refuses a spacing that leaves no room for the motif.
func refuseRepeat(in *repeatInput, _ map[string]tasks.ImageSize) *apierr.Error {
	cell := in.tileSide() / 2
	if in.Spacing != nil && *in.Spacing > cell-8 {
		return apierr.Newf(apierr.RequestRefused, "spacing %d px leaves no room for the motif: a %s px tile has "+
			"cells of %d px, so spacing is at most %d. Send a smaller spacing or a larger resolution.",
			*in.Spacing, in.Resolution, cell, cell-8).WithField("spacing")
	}
	return nil
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
	meta := map[string]any{"layout": layouts[i], "index": i, "resolution": in.Resolution, "image": ref}
	motif, err = knockOut(ctx, motif, in.Knockout, meta)
	if err != nil {
		return tasks.Output{}, err
	}
	size := in.tileSide()
	png, gap, err := renderRepeat(ctx, motif, layouts[i], size, in.scale(), tasks.ParseColour(in.Background),
		turns(in))
	if err != nil {
		return tasks.Output{}, err
	}
	meta["gap_px"] = map[string]any{"across": gap.X, "down": gap.Y}
	return tasks.Output{Data: png, MediaType: "image/png", Ext: "png", Meta: meta}, nil
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
			"use to hide the grid, a brick offset, or a mirror repeat, spaced by spacing (the gap between copies in " +
			"pixels), each copy turned by rotation and, tossed, by its own angle. A motif with no transparency on a " +
			"plain backdrop (a JPEG on white) has that backdrop knocked out with image.remove_background's cut-out, so " +
			"the ground colour shows around it. Each layout is one square PNG tile that continues across every edge.",
		BuiltFor: []string{
			"Turning a single drawn or generated motif into print-ready repeats.",
			"Comparing layouts of one motif before choosing one for production.",
		},
		WhatYouGet: []string{
			"One PNG tile per entry of layouts, in the order sent.",
			"Each file's data: the layout, its position, the resolution, the motif reference and what became of its " +
				"backdrop (knockout: removed, with the backdrop colour; transparent; not_plain; off) and the gaps between " +
				"copies as drawn (gap_px: across and down).",
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
			"Each tile holds four copies of the motif (2 × 2 cells); larger repeats come from tiling the tile. The gap " +
				"between copies is set by spacing in pixels (exact along the motif's longest side, larger along the other) " +
				"or by motif_scale (0.6 leaves 40 % of a cell); one spacing for both directions, as the tile is square. " +
				"Gaps are measured between bounding boxes before rotation or toss turn the copies.",
			"The knockout removes a backdrop only when the motif's border is one plain colour (image.remove_background's " +
				"test, tolerance 12); a photo's busy backdrop is kept (knockout not_plain), and a motif colour equal to the " +
				"backdrop and touching the border is knocked out with it. Measured on a JPEG (quality 85) red bar on white " +
				"repeated on navy: under 0.5 % of the tile stays near white, against 36 % without the knockout.",
			"Toss turns the four copies by fixed angles (0, 140, 250, 35 degrees): the same every time, not random.",
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
