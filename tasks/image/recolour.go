package image

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/records"
)

// maxPaletteColours bounds a palette: the image is reduced to as many
// dominant colours, matched one to one.
const maxPaletteColours = 8

func recolour() *tasks.Definition {
	props := obj{
		"image": obj{"type": "string", "pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
			"description": "The image to recolour: a file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL.",
			"examples":    []any{"file:abc123", "art:def456"}},
		"palette": obj{"oneOf": []any{
			obj{
				"type":        "array",
				"minItems":    1,
				"maxItems":    maxPaletteColours,
				"items":       tasks.ColourSchema("A colour, #RRGGBB."),
				"description": fmt.Sprintf("1 to %d colours.", maxPaletteColours),
			},
			obj{"type": "string", "pattern": records.HandlePattern(models.RecordBrandKit),
				"description": fmt.Sprintf(
					"brand_kit:<id> of the account's: its colours, in the kit's order (its first %d).",
					maxPaletteColours,
				),
				"examples": []any{"brand_kit:abc123"}},
		},
			"description": fmt.Sprintf(
				"The colours to recolour into, 1 to %d, or brand_kit:<id> of the account's (its first %d colours): the image's as many dominant colours are mapped onto them one to one.",
				maxPaletteColours,
				maxPaletteColours,
			),
			"examples": []any{[]any{"#F3EBDD", "#7D9471"}, "brand_kit:abc123"}},
	}
	formatProps(props)
	return &tasks.Definition{
		Name: "image.recolour", Title: "Recolour an image into a palette",
		Description: "Maps an image's dominant colours onto a palette — perceptual nearest match in CIELAB, shading kept — for colourways of a print or a product.",
		Category:    tasks.CategoryImageEditing, Unit: "image",
		InputSchema: tasks.MustJSON(tasks.ObjectSchema(
			"image.recolour input",
			"An image and the palette to recolour it into: one output per palette.",
			props,
			[]string{"image", "palette"},
			formatVariant,
		)),
		OutputSchema: outputSchema("Recoloured image data", "The data of one recoloured image.", obj{
			"index": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The output number: the palette's position.",
			},
			"palette": obj{
				"type":        "array",
				"items":       tasks.ColourSchema("A colour."),
				"description": "The palette, in capitals.",
			},
			"mapping": obj{
				"type":        "array",
				"description": "Each dominant colour found and the palette colour it became, by share of the image.",
				"items": obj{"type": "object", "required": []string{"from", "to", "share"}, "properties": obj{
					"from": tasks.ColourSchema("A dominant colour of the image (its cluster's mean)."),
					"to":   tasks.ColourSchema("The palette colour it became."),
					"share": obj{
						"type":        "number",
						"minimum":     0,
						"maximum":     1,
						"description": "The share of the image's opaque pixels in this colour.",
					},
				}},
			},
		}),
		Runner:   tasks.Typed[recolourInput](recolourRunner{}),
		Uses:     []string{"brand_kit"},
		Pricing:  perOutput(2),
		Variant:  formatVariant,
		RefSides: map[string]tasks.ImageSides{"image": inputSides},
		ErrorRules: []tasks.ErrorRule{
			{Field: "palette", Keyword: "maxItems", Code: apierr.TooManyColours},
			{Field: "palette[]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "palette[]", Keyword: "type", Code: apierr.InvalidColour},
		},
		Docs: recolourDocs(),
		Examples: []tasks.Example{{
			Name: "navy_print_to_sage", Title: "A navy and white print as a sage colourway",
			Description: "A two-colour dot print mapped onto a cream ground and sage dots; the dots' soft edges stay soft.",
			Input:       json.RawMessage(`{"image":"file:example_print","palette":["#F3EBDD","#7D9471"]}`),
			Files:       []tasks.ExampleFile{printFile},
		}},
	}
}

// recolourInput is an image.recolour request, defaults applied; quality
// is set for format jpeg only.
type recolourInput struct {
	Image   string       `json:"image"`
	Palette paletteInput `json:"palette"`
	Format  string       `json:"format"`
	Quality int          `json:"quality"`
}

// paletteInput is image.recolour's palette: a list of colours, or a
// brand_kit: handle whose colours to use.
type paletteInput struct {
	Colours  []string
	BrandKit string
}

// UnmarshalJSON reads either form.
func (p *paletteInput) UnmarshalJSON(b []byte) error {
	*p = paletteInput{}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte(`"`)) {
		return json.Unmarshal(b, &p.BrandKit)
	}
	return json.Unmarshal(b, &p.Colours)
}

// recolourRunner recolours into the palette sent, or into a brand kit's
// colours: the kit is checked at submit (it must be the account's) and read
// again by the step, so a kit edited meanwhile gives its colours of then.
type recolourRunner struct{}

// Plan implements tasks.Runner: one output, for the one palette.
func (recolourRunner) Plan(*recolourInput) tasks.Plan {
	return tasks.Plan{Steps: 1, Phase: "recolouring"}
}

// Step implements tasks.Runner.
func (recolourRunner) Step(ctx context.Context, in *recolourInput, i int) (tasks.Output, error) {
	return recolourStep(ctx, in, i)
}

// Admit implements tasks.Admitter: a brand kit must be the account's and
// hold colours.
func (recolourRunner) Admit(ctx context.Context, env tasks.Env, in *recolourInput) error {
	_, err := palette(ctx, env, in)
	return err
}

// AdmitErrors implements tasks.Admitter.
func (recolourRunner) AdmitErrors() []apierr.Code { return []apierr.Code{apierr.InvalidRequest} }

// palette is the job's palette: the colours sent, or the first
// maxPaletteColours colours of the brand kit named.
func palette(ctx context.Context, env tasks.Env, in *recolourInput) ([]string, error) {
	ref := in.Palette.BrandKit
	if ref == "" {
		return in.Palette.Colours, nil
	}
	kit, err := records.ReadBrandKit(ctx, env, "palette", ref)
	if err != nil {
		return nil, err
	}
	var cs []string
	for _, c := range kit.Colours {
		cs = append(cs, c.Hex)
	}
	if len(cs) == 0 {
		return nil, apierr.Newf(apierr.InvalidRequest, "Brand kit %s holds no colours.", ref).WithField("palette")
	}
	return cs[:min(len(cs), maxPaletteColours)], nil
}

func recolourStep(ctx context.Context, in *recolourInput, i int) (tasks.Output, error) {
	if i != 0 {
		return tasks.Output{}, fmt.Errorf("image.recolour: no output %d", i)
	}
	env, _ := tasks.EnvOf(ctx)
	colours, err := palette(ctx, env, in)
	if err != nil {
		return tasks.Output{}, records.InStep(err)
	}
	r := tasks.Ref{Field: "image", Ref: in.Image}
	src, err := load(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	var pal []colour.Lab
	var upper []string
	for _, c := range colours {
		pal = append(pal, colour.LabOf(tasks.ParseColour(c)))
		upper = append(upper, hex(tasks.ParseColour(c)))
	}
	out, mapping, err := recolourImage(ctx, src.img, pal)
	if err != nil {
		return tasks.Output{}, failf(r.Field, r.Ref, "%v", err)
	}
	format := in.Format
	enc, err := encode(out, format, in.Quality, src.icc)
	if err != nil {
		return tasks.Output{}, err
	}
	b := out.Bounds()
	return enc.output(map[string]any{"index": i, "image": r.Ref, "width": b.Dx(), "height": b.Dy(), "format": format,
		"source_width": b.Dx(), "source_height": b.Dy(), "palette": upper, "mapping": mapping}), nil
}

// recolourImage finds the image's len(pal) dominant colours (k-means in
// CIELAB on a copy at most 256 px a side), assigns them one to one to the
// palette colours with the smallest total ΔE, and moves every pixel by its
// colour's shift: a pixel keeps its offset (in lightness and hue) from its
// cluster's mean, so shading, texture and soft edges survive.
func recolourImage(ctx context.Context, img image.Image, pal []colour.Lab) (*image.NRGBA, []map[string]any, error) {
	samples := opaqueColours(img)
	if len(samples) == 0 {
		return nil, nil, fmt.Errorf("the image is fully transparent")
	}
	centres := colour.KMeans(samples, len(pal))
	assign := matchPalette(centres, pal)
	counts := make([]float64, len(centres))
	var total float64
	for _, r := range samples {
		counts[colour.Nearest(centres, r.C)] += r.W
		total += r.W
	}

	src, px := copyTarget(img)
	W, H := px.Rect.Dx(), px.Rect.Dy()
	shift := func(r, g, b uint8) uint32 {
		c := colour.LabOf8(r, g, b)
		j := colour.Nearest(centres, c)
		t := pal[assign[j]]
		r, g, b = t.Add(c, 1).Add(centres[j], -1).RGB()
		return uint32(r)<<16 | uint32(g)<<8 | uint32(b)
	}
	// Every colour is shifted once while it stays in the cache; a run of
	// one colour reads it once.
	cache := newRGBCache()
	defer cache.release()
	for y := range H {
		if y%256 == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		in, row := src.Pix[y*src.Stride:y*src.Stride+W*4], px.Pix[y*px.Stride:y*px.Stride+W*4]
		last, v := uint32(1<<24), uint32(0)
		for x := 0; x < len(row); x += 4 {
			s, p := in[x:x+4:x+4], row[x:x+4:x+4]
			if key := uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2]); key != last {
				last, v = key, cache.get(s[0], s[1], s[2], shift)
			}
			p[0], p[1], p[2], p[3] = uint8(v>>16), uint8(v>>8), uint8(v), s[3]
		}
	}
	var mapping []map[string]any
	for j, c := range centres {
		mapping = append(mapping, map[string]any{"from": c.Hex(), "to": pal[assign[j]].Hex(),
			"share": math.Round(counts[j]/total*1e4) / 1e4})
	}
	slices.SortStableFunc(mapping, func(a, b map[string]any) int {
		return -cmpFloat(a["share"].(float64), b["share"].(float64))
	})
	return px, mapping, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// matchPalette assigns each centre a distinct palette colour (palettes are
// at least as long as the centres) minimising the total ΔE: every
// permutation is tried, at most 8! of them.
func matchPalette(centres, pal []colour.Lab) []int {
	best := make([]int, len(centres))
	bestCost := math.Inf(1)
	cur := make([]int, 0, len(centres))
	used := make([]bool, len(pal))
	var walk func(cost float64)
	walk = func(cost float64) {
		if cost >= bestCost {
			return
		}
		j := len(cur)
		if j == len(centres) {
			bestCost = cost
			copy(best, cur)
			return
		}
		for p := range pal {
			if !used[p] {
				used[p] = true
				cur = append(cur, p)
				walk(cost + colour.DeltaE(centres[j], pal[p]))
				cur = cur[:len(cur)-1]
				used[p] = false
			}
		}
	}
	walk(0)
	return best
}

func recolourDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "image.recolour turns an image into a new colourway. It finds the image's dominant colours — as many as the palette has, by k-means in CIELAB — pairs them one to one with the palette colours at the smallest total perceptual distance, and moves every pixel with its colour: each pixel keeps its offset in lightness and hue from its colour's mean, so shading, texture and anti-aliased edges stay as they were. It is colour mapping, not a generative model: shapes never change.",
		BuiltFor: []string{
			"Colourways of a print, a pattern tile or a flat illustration in a collection's or brand's colours.",
			"Previewing a product in other colours from one render.",
		},
		WhatYouGet: []string{
			"One PNG or JPEG for the palette (a list, or a brand kit's colours), at the input's size.",
			"The file's data: the palette, and each dominant colour found with the palette colour it became and its share of the image.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One image per palette: one for palette.",
			CountDependsOn: []string{"palette"},
			AbsentWhen: new(
				"An image that cannot be fetched or read, or is fully transparent, gives no file: the job fails with processing_failed and the reason.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: inputFormats + " Transparency is kept."},
			{
				Key:   "input_count",
				Title: "Input count",
				Text:  fmt.Sprintf("One image and one palette of 1 to %d colours.", maxPaletteColours),
			},
			{
				Key:   "output_format",
				Title: "Output format",
				Text:  "PNG (default) or JPEG (format, quality). The colour profile is kept; colours are computed as sRGB.",
			},
			{Key: "output_resolution", Title: "Output resolution", Text: "The input's, after EXIF orientation."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "One per palette."},
		}, commonSpecs()...),
		Limitations: []string{
			"Works best on images with a few flat colours (prints, illustrations, products); photos with many colours are reduced to as many colours as the palette has.",
			"Colours that sRGB cannot show after the shift are clipped.",
			"A brand kit gives one palette, its first 8 colours in the kit's order; send a list to choose among more.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.FieldNotSupported,
			apierr.InvalidOption,
			apierr.TooManyColours,
			apierr.InvalidColour,
			apierr.InvalidRequest,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
		),
		Related: []tasks.Related{
			{Task: "palette.generate", Relation: "before"},
			{Task: "pattern.generate", Relation: "before"},
		},
	}
}
