package image

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// maxPaletteColours bounds a palette: the image is reduced to as many
// dominant colours at most, paired one to one.
const maxPaletteColours = 8

func recolour() *tasks.Definition {
	return &tasks.Definition{
		Name: "image.recolour", Title: "Recolour an image into a palette",
		Description: "Maps an image's dominant colours onto a palette — paired by lightness or by an explicit mapping, " +
			"shading kept, edges blended, a product's backdrop and shadow left alone — for colourways of a print or a product.",
		Category: tasks.CategoryImageEditing, Unit: "image",
		InputSchema: tasks.MustJSON(tasks.InputSchema[recolourInput](
			"image.recolour input",
			"An image and the palette (or explicit mapping) to recolour it into: one output.",
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
			"area": obj{
				"type":        "string",
				"enum":        []any{AreaProduct, AreaWhole},
				"description": "What was recoloured: product (backdrop and shadows kept) or whole.",
			},
			"mapping": obj{
				"type":        "array",
				"description": "Each dominant colour found and the colour it became, by share of the recoloured area.",
				"items": obj{"type": "object", "required": []string{"from", "to", "share"}, "properties": obj{
					"from": tasks.ColourSchema("A dominant colour of the image (its cluster's mean)."),
					"to":   tasks.ColourSchema("The palette colour it became."),
					"share": obj{
						"type":        "number",
						"minimum":     0,
						"maximum":     1,
						"description": "The share of the recoloured area's pixels in this colour.",
					},
				}},
			},
		}),
		Runner:   tasks.Typed[recolourInput](recolourRunner{}),
		Refuse:   tasks.Refusal(refuseRecolour),
		Uses:     []string{"brand_kit"},
		Pricing:  perOutput(2),
		Variant:  formatVariant,
		RefSides: map[string]tasks.ImageSides{"image": inputSides},
		ErrorRules: []tasks.ErrorRule{
			{Field: "palette", Keyword: "maxItems", Code: apierr.TooManyColours},
			{Field: "palette[]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "palette[]", Keyword: "type", Code: apierr.InvalidColour},
			{Field: "mapping", Keyword: "maxItems", Code: apierr.TooManyColours},
			{Field: "mapping[].from", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "mapping[].to", Keyword: "pattern", Code: apierr.InvalidColour},
		},
		Docs: recolourDocs(),
		Examples: []tasks.Example{{
			Name: "navy_print_to_sage", Title: "A navy and white print as a sage colourway",
			Description: "A two-colour dot print mapped onto a cream ground and sage dots; the dots' soft edges blend cream " +
				"into sage.",
			Input: json.RawMessage(`{"image":"file:example_print","palette":["#F3EBDD","#7D9471"]}`),
			Files: []tasks.ExampleFile{printFile},
		}},
	}
}

// refuseRecolour refuses a request with neither palette nor mapping, or
// both.
func refuseRecolour(in *recolourInput, _ map[string]tasks.ImageSize) *apierr.Error {
	hasPalette := len(in.Palette.Colours) > 0 || in.Palette.BrandKit != ""
	switch {
	case hasPalette && len(in.Mapping) > 0:
		return apierr.New(apierr.RequestRefused, "Send palette or mapping, not both.").WithField("mapping")
	case !hasPalette && len(in.Mapping) == 0:
		return apierr.New(apierr.RequestRefused, "Send palette (the colours to recolour into) or mapping (from/to pairs).").
			WithField("palette")
	}
	return nil
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
		return in.Palette.Colours, nil // none with a mapping
	}
	kit, err := recordread.ReadBrandKit(ctx, env, "palette", ref)
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
		return tasks.Output{}, tasks.InStep(err)
	}
	r := tasks.Ref{Field: "image", Ref: in.Image}
	src, err := load(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	o := RecolourOptions{Area: in.Area, Pairs: Pairs(in.Mapping)}
	upper := []string{}
	for _, c := range colours {
		o.Palette = append(o.Palette, tasks.ParseColour(c))
		upper = append(upper, hex(tasks.ParseColour(c)))
	}
	for _, p := range in.Mapping {
		upper = append(upper, hex(tasks.ParseColour(p.To)))
	}
	res, err := recolourWith(ctx, src.img, o)
	if err != nil {
		return tasks.Output{}, failf(r.Field, r.Ref, "%v", err)
	}
	out, mapping := res.Image, res.Mapping
	format := in.Format
	enc, err := encode(out, format, in.Quality, src.icc)
	if err != nil {
		return tasks.Output{}, err
	}
	b := out.Bounds()
	return enc.output(map[string]any{"index": i, "image": r.Ref, "width": b.Dx(), "height": b.Dy(), "format": format,
		"source_width": b.Dx(), "source_height": b.Dy(), "palette": upper, "mapping": mapping, "area": res.Area}), nil
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

func recolourDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "image.recolour turns an image into a new colourway. On a product shot (one object on a plain or graded " +
			"backdrop, found as image.remove_background finds it) only the product is recoloured: backdrop and shadows keep " +
			"their pixels, and the product's soft edge is laid back over them. It finds the product's (or the whole image's) " +
			"dominant colours — as many as the palette has, at most, by k-means in CIELAB — and pairs them with the palette " +
			"by lightness rank, the lightest with the lightest, or as you pair them with mapping. Every pixel moves with its " +
			"colour: its lightness offset from its colour's mean is kept, so shading and texture stay; anti-aliased edges " +
			"between two colours become the same blend of their two new colours. It is colour mapping, not a generative " +
			"model: shapes never change.",
		BuiltFor: []string{
			"Colourways of a print, a pattern tile or a flat illustration in a collection's or brand's colours.",
			"Previewing a product in other colours from one render.",
		},
		WhatYouGet: []string{
			"One PNG or JPEG for the palette (a list, or a brand kit's colours), at the input's size.",
			"The file's data: the palette, the area recoloured (product or whole), and each dominant colour found with the " +
				"colour it became and its share of the recoloured area.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One image per palette: one for palette.",
			CountDependsOn: []string{"palette"},
			AbsentWhen: new(
				"An image that cannot be fetched or read, or is fully transparent, gives no file: the job fails with " +
					"processing_failed and the reason.",
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
			"Measured on rendered products and designs with known regions (the recolour benchmark in tasks/image): the " +
				"product's lightness order is kept (Spearman rank correlation of L* inside it 0.999–1.0 on seven scenes, grainy " +
				"ones included), backdrop and shadow pixels change by ΔE2000 0 (at most 1 is the promise), and no pixel takes a " +
				"colour (a*b*) that is in neither the palette, its shades or a blend of two of its colours, nor at the " +
				"product's edge a blend with the backdrop it joins.",
			"The product is found only on a plain or evenly graded backdrop; a product in a scene, or an image of several " +
				"objects, is recoloured whole (area auto) or refused (area product). A single motif on a plain ground reads as " +
				"a product: send area whole to recolour the ground too.",
			"Works best on images with a few flat colours (prints, illustrations, products); a photo is reduced to as many " +
				"colours as the palette has, and one shaded material may split into two colours when the palette has more " +
				"colours than the image.",
			"Automatic pairing follows lightness, not hue: send mapping to choose which colour goes where.",
			"Colours that sRGB cannot show are brought in by lowering their chroma, lightness and hue kept; a target near " +
				"white or black compresses the shading on that side.",
			"Every pixel of a colour takes its target's hue: hue variations inside one colour (a print's tints of one ink, a " +
				"photo's colour casts) are not kept, only lightness and chroma variations.",
			"Anti-aliased edges are unmixed over 2 pixels; a softer blur between two colours keeps each pixel's own move, " +
				"which may drift off the palette's hues.",
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
