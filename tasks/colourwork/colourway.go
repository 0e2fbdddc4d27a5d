package colourwork

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// The bounds of colourway.generate: palettes per job (one output each) and
// colours per palette (the recolouring pairs every permutation, 8! at most).
const (
	maxPalettes      = 8
	maxPaletteSize   = 8
	defaultKitCount  = 3
	kitDesignColours = 8
)

func colourway() *tasks.Definition {
	return &tasks.Definition{
		Name: "colourway.generate", Title: "Generate colourways of a design",
		Description: "Recolours a design into each palette or mapping you send, or into colourways drawn from a brand kit " +
			"— colours paired by lightness, light and dark structure kept, edges blended, a product's backdrop left alone — " +
			"one image per palette.",
		Category: tasks.CategoryDesignGeneration, Unit: "image",
		InputSchema: tasks.MustJSON(tasks.InputSchema[colourwayInput](
			"colourway.generate input",
			"A design and the palettes (or brand kit, or mappings) of its colourways.",
			nil,
		)),
		OutputSchema: colourwayOutput(),
		Runner:       tasks.Typed[colourwayInput](colourwayRunner{}),
		Pricing:      perOutput(2),
		RefSides:     map[string]tasks.ImageSides{"image": imagetasks.InputSides},
		Refuse:       tasks.Refusal(refuseCount),
		ErrorRules: []tasks.ErrorRule{
			{Field: "palettes", Keyword: "maxItems", Code: apierr.TooManyItems},
			{Field: "palettes[]", Keyword: "maxItems", Code: apierr.TooManyColours},
			{Field: "palettes[][]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "palettes[][]", Keyword: "type", Code: apierr.InvalidColour},
			{Field: "mappings", Keyword: "maxItems", Code: apierr.TooManyItems},
			{Field: "mappings[]", Keyword: "maxItems", Code: apierr.TooManyColours},
			{Field: "mappings[][].from", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "mappings[][].to", Keyword: "pattern", Code: apierr.InvalidColour},
		},
		Docs:     colourwayDocs(),
		Produces: []string{"colourway", "job"},
		Uses:     []string{"brand_kit", "credit_hold"},
		Examples: []tasks.Example{{
			Name: "lemon_print_colourways", Title: "The lemon print in two colourways",
			Description: "A navy night colourway and a blush one; cream stays the lightest colour and the leaves the darkest " +
				"in each.",
			Input: json.RawMessage(
				`{"image":"file:example_lemon_print","palettes":[["#1B2A4A","#F2C91E","#7D9471"],["#F6E1DC","#D9825B","#5A2446"]]}`,
			),
			Files: []tasks.ExampleFile{printFile},
		}},
	}
}

func colourwayOutput() json.RawMessage {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Colourway data", "type": "object",
		"description": "The data of one colourway.",
		"properties": obj{
			"index": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The output number: the palette's position.",
			},
			"image":  obj{"type": "string", "description": "The input image reference, as sent."},
			"width":  obj{"type": "integer", "minimum": 1, "description": "Width in pixels: the design's."},
			"height": obj{"type": "integer", "minimum": 1, "description": "Height in pixels: the design's."},
			"brand_kit": obj{
				"type":        []any{"string", "null"},
				"description": "The brand kit the palette was drawn from; null for a palette sent.",
			},
			"palette": obj{
				"type":        "array",
				"items":       tasks.ColourSchema("A colour."),
				"description": "The palette, in capitals.",
			},
			"mapping": obj{
				"type":        "array",
				"description": "Each dominant colour of the design and the colour it became, by share of the recoloured area.",
				"items": obj{"type": "object", "required": []string{"from", "to", "share"}, "properties": obj{
					"from": tasks.ColourSchema("A dominant colour of the design (its cluster's mean)."),
					"to":   tasks.ColourSchema("The colour it became."),
					"share": obj{
						"type":        "number",
						"minimum":     0,
						"maximum":     1,
						"description": "The share of the recoloured area's pixels in this colour.",
					},
				}},
			},
			"area": obj{"type": "string", "enum": []any{imagetasks.AreaProduct, imagetasks.AreaWhole},
				"description": "What was recoloured: product (backdrop and shadows kept) or whole."},
		},
		"required": []string{"index", "image", "width", "height", "brand_kit", "palette", "mapping", "area"},
	})
}

// palettes is palettes as sent: a list of palettes, each a list of
// #RRGGBB colours, or one brand kit, brand_kit:<id> (Kit).
type palettes struct {
	List [][]string
	Kit  string
}

// UnmarshalJSON reads either form of palettes.
func (p *palettes) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var kit string
	if err := json.Unmarshal(b, &kit); err == nil {
		*p = palettes{Kit: kit}
		return nil
	}
	*p = palettes{}
	return json.Unmarshal(b, &p.List)
}

// refuseCount refuses count with a list of palettes: a list makes one
// colourway per palette.
func refuseCount(in *colourwayInput, _ map[string]tasks.ImageSize) *apierr.Error {
	hasPalettes := in.Palettes.Kit != "" || len(in.Palettes.List) > 0
	switch {
	case hasPalettes && len(in.Mappings) > 0:
		return apierr.New(apierr.RequestRefused, "Send palettes or mappings, not both.").WithField("mappings")
	case !hasPalettes && len(in.Mappings) == 0:
		return apierr.New(apierr.RequestRefused, "Send palettes (or a brand kit) or mappings.").WithField("palettes")
	}
	if in.Palettes.Kit == "" && in.Count != nil {
		return apierr.New(apierr.RequestRefused, "count applies to a brand kit; a list of palettes makes one colourway "+
			"per palette.").
			WithField("count")
	}
	return nil
}

// colourwayRunner recolours the design once per palette. A brand kit is
// checked at submit (the account's, looks analysed, colours held) and read
// again by each step.
type colourwayRunner struct{}

// Plan implements tasks.Runner: one output per palette, or count for a kit.
func (colourwayRunner) Plan(in *colourwayInput) tasks.Plan {
	n := defaultKitCount
	if in.Count != nil {
		n = *in.Count
	}
	switch {
	case len(in.Mappings) > 0:
		n = len(in.Mappings)
	case in.Palettes.Kit == "":
		n = len(in.Palettes.List)
	}
	return tasks.Plan{Steps: n, Phase: "recolouring"}
}

// Admit implements tasks.Admitter: a brand kit named must be readable and
// ready to use.
func (colourwayRunner) Admit(ctx context.Context, env tasks.Env, in *colourwayInput) error {
	if in.Palettes.Kit == "" {
		return nil
	}
	colours, err := kitColours(ctx, env, in.Palettes.Kit)
	if err != nil {
		return err
	}
	if n := kitCount(in); n > len(colours) {
		return apierr.Newf(apierr.RequestRefused,
			"Brand kit %s has %d colour(s), so it gives %d distinct colourway(s); send count %d or fewer.",
			in.Palettes.Kit, len(colours), len(colours), len(colours)).WithField("count")
	}
	return nil
}

// kitCount is the number of colourways asked of a brand kit.
func kitCount(in *colourwayInput) int {
	if in.Count != nil {
		return *in.Count
	}
	return defaultKitCount
}

// AdmitErrors implements tasks.Admitter.
func (colourwayRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{apierr.InvalidRequest, apierr.BrandKitLookNotReady, apierr.RequestRefused}
}

// kitColours reads a brand kit's colours: the kit must be the account's,
// its looks analysed, and it must hold a colour.
func kitColours(ctx context.Context, env tasks.Env, ref string) ([]color.Color, error) {
	kit, err := recordread.ReadBrandKit(ctx, env, "palettes", ref)
	if err != nil {
		return nil, err
	}
	if err := kit.LooksReady("palettes"); err != nil {
		return nil, err
	}
	var out []color.Color
	for _, c := range kit.Colours {
		out = append(out, tasks.ParseColour(c.Hex))
	}
	if len(out) == 0 {
		return nil, apierr.Newf(apierr.InvalidRequest, "Brand kit %s holds no colours.", ref).WithField("palettes")
	}
	return out, nil
}

// Step implements tasks.Runner.
func (colourwayRunner) Step(ctx context.Context, in *colourwayInput, i int) (tasks.Output, error) {
	r := tasks.Ref{Field: "image", Ref: in.Image}
	img, err := load(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	o := imagetasks.RecolourOptions{Area: in.Area}
	var kit any
	switch ref := in.Palettes.Kit; {
	case len(in.Mappings) > 0:
		if i < 0 || i >= len(in.Mappings) {
			return tasks.Output{}, fmt.Errorf("colourway.generate: no output %d", i)
		}
		o.Pairs = imagetasks.Pairs(in.Mappings[i])
	case ref != "":
		kit = ref
		env, _ := tasks.EnvOf(ctx)
		colours, err := kitColours(ctx, env, ref)
		if err != nil {
			return tasks.Output{}, tasks.InStep(err)
		}
		if o.Palette, o.Rotate, err = kitPalette(img, colours, i); err != nil {
			return tasks.Output{}, err
		}
	default:
		ps := in.Palettes.List
		if i < 0 || i >= len(ps) {
			return tasks.Output{}, fmt.Errorf("colourway.generate: no output %d", i)
		}
		for _, c := range ps[i] {
			o.Palette = append(o.Palette, tasks.ParseColour(c))
		}
	}
	res, err := imagetasks.Recolour(ctx, img, o)
	if err != nil {
		return tasks.Output{}, failf(fmt.Sprintf("image (%s): %v", r.Ref, err))
	}
	hexes := []string{}
	for _, c := range o.Palette {
		hexes = append(hexes, imagetasks.Swatch{Colour: color.NRGBAModel.Convert(c).(color.NRGBA)}.Hex())
	}
	for _, p := range o.Pairs {
		hexes = append(hexes, imagetasks.Swatch{Colour: color.NRGBAModel.Convert(p.To).(color.NRGBA)}.Hex())
	}
	b := res.Image.Bounds()
	return pngOutput(res.Image, map[string]any{"index": i, "image": r.Ref, "width": b.Dx(), "height": b.Dy(),
		"brand_kit": kit, "palette": hexes, "mapping": res.Mapping, "area": res.Area})
}

// kitPalette is colourway i of a brand kit of m colours for a design of
// n spot colours: the n kit colours starting at the kit's colour i
// (wrapping round), paired by lightness. A kit of no more colours than the
// design gives the same colours each time, so colourway i turns the
// lightness pairing by i instead: m distinct colourways either way.
func kitPalette(design image.Image, colours []color.Color, i int) ([]color.Color, int, error) {
	spots, err := imagetasks.Dominant(design, kitDesignColours, mergeDE, minCoverage)
	if err != nil {
		return nil, 0, failf("image: " + err.Error())
	}
	n, m := min(len(spots), len(colours)), len(colours)
	if i >= m {
		return nil, 0, failf(fmt.Sprintf("the brand kit has %d colours, so it gives %d distinct colourway(s)", m, m))
	}
	if n == m {
		return colours, i, nil
	}
	pal := make([]color.Color, n)
	for t := range n {
		pal[t] = colours[(i+t)%m]
	}
	return pal, 0, nil
}

func colourwayDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "colourway.generate makes colourways of a finished design: the same shapes, and the same light and dark " +
			"structure, in other colours. For each palette it finds as many dominant colours in the design as the palette " +
			"has, at most (k-means in CIELAB), pairs them with the palette by lightness rank — the lightest with the " +
			"lightest — or as a mapping pairs them, and moves every pixel with its colour: each pixel keeps its lightness " +
			"offset from its colour's mean, so shading stays, and anti-aliased edges become the same blend of the two new " +
			"colours. A product on a plain backdrop is recoloured alone, its backdrop and shadow kept (area). It is " +
			"image.recolour's mapping run once per palette; deterministic, not a generative model.",
		BuiltFor: []string{
			"A print or a product graphic in a season's colourways, side by side.",
			"A design in a brand's colours: brand_kit:<id> draws colourways from the kit.",
		},
		WhatYouGet: []string{
			"One PNG per palette, in the order sent, at the design's size.",
			"Each file's data: the palette, and each dominant colour of the design with the palette colour it became and its " +
				"share.",
			"With a brand kit of m colours: up to m colourways. When the kit has more colours than the design, colourway i " +
				"takes as many kit colours as the design has, starting at the kit's colour i (wrapping round), paired by " +
				"lightness; when it has no more, every colourway uses the kit's colours and colourway i turns the lightness " +
				"pairing by i (the first keeps lights light).",
		},
		Outputs: tasks.DocsOutputs{
			Count: fmt.Sprintf(
				"One per palette of palettes (1 to %d); with a brand kit, count (default %d).",
				maxPalettes,
				defaultKitCount,
			),
			CountDependsOn: []string{"palettes", "count"},
			Order:          new("The palettes' order; with a brand kit, by the kit colour each colourway starts at."),
			AbsentWhen: new(
				"A brand kit gives as many colourways as it has colours: a count above that is refused at submit " +
					"(request_refused). An image that cannot be read, or is fully transparent, fails the job with processing_failed.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_count",
				Title: "Input count",
				Text: fmt.Sprintf(
					"One image and 1 to %d palettes (or mappings) of 1 to %d colours, or one brand kit.",
					maxPalettes,
					maxPaletteSize,
				),
			},
			{
				Key:   "output_format",
				Title: "Output format",
				Text:  "PNG, RGBA; transparency is kept. Colours are computed as sRGB.",
			},
			{Key: "output_resolution", Title: "Output resolution", Text: "The design's, after EXIF orientation."},
			{
				Key:   "outputs_per_job",
				Title: "Outputs per job",
				Text:  fmt.Sprintf("1 to %d: one per palette.", maxPalettes),
			},
		}, commonSpecs()...),
		Limitations: []string{
			"Measured on rendered designs and products with known regions (the recolour benchmark in tasks/image): lightness " +
				"order kept inside the recoloured area (Spearman rank correlation of L* 0.999–1.0), a product's backdrop and " +
				"shadow unchanged (ΔE2000 0), no edge pixel of a hue in neither the palette nor the input.",
			"Works best on designs with a few flat colours; a photo is reduced to as many colours as each palette has, at most.",
			"Automatic pairing follows lightness, not hue: send mappings to choose which colour goes where. A brand kit's " +
				"later colourways turn the pairing, so they can swap lights and darks.",
			"Colours that sRGB cannot show are brought in by lowering their chroma, lightness and hue kept.",
			"A brand kit is read when the job is submitted and again when each colourway is made: a kit edited meanwhile " +
				"gives its colours of then. Its looks must be analysed (brand_kit_look_not_ready otherwise).",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.InvalidRequest,
			apierr.TooManyItems,
			apierr.TooManyColours,
			apierr.InvalidColour,
			apierr.BrandKitLookNotReady,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
		),
		Compares: []tasks.Compare{{
			Task:         "image.recolour",
			UseThisWhen:  "you want several colourways of one design in one job, or colourways drawn from a brand kit.",
			UseOtherWhen: "you want one recolouring with a JPEG option or the colour profile kept.",
		}},
		Related: []tasks.Related{
			{Task: "palette.generate", Relation: "before"},
			{Task: "colour.separate", Relation: "after"},
			{Task: "image.recolour", Relation: "sibling"},
		},
	}
}
