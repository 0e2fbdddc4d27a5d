package tasks

import (
	"context"
	"encoding/json"
	"image/color"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
)

// useCase is one value of the use_case vocabulary with the repeat count it
// sets when repeats is not sent.
type useCase struct {
	value, label, text string
	repeats            int
}

var useCases = []useCase{
	{"general", "General", "No particular use.", 6},
	{"apparel", "Apparel", "Garments: small motifs that read at arm's length.", 8},
	{"home_textiles", "Home textiles", "Cushions, curtains and bedding: medium motifs.", 4},
	{"wallpaper", "Wallpaper", "Walls seen from across a room: large motifs.", 3},
	{"stationery", "Stationery", "Wrapping paper, cards and notebooks.", 6},
	{"packaging", "Packaging", "Boxes, bags and labels.", 5},
	{"digital", "Digital", "Screens: web backgrounds, slides and apps.", 4},
}

func useCaseRepeats(v string) int {
	for _, u := range useCases {
		if u.value == v {
			return u.repeats
		}
	}
	return useCases[0].repeats
}

// patternFields are the input properties pattern.generate and pattern.stripes share.
func patternFields() obj {
	return obj{
		"colors": obj{
			"type": "array", "minItems": 1, "maxItems": 6, "items": colourSchema("A colour, #RRGGBB."),
			"description": "The colours to draw with, 1 to 6, in order; the first is the ground of dots, diamonds and houndstooth. One colour is drawn on a transparent ground.",
		},
		"count":      obj{"type": "integer", "minimum": 1, "maximum": 8, "default": 1, "description": "How many tiles to make; tile i uses seed + i."},
		"resolution": vocabEnum("resolution", "Side of the square tile in pixels; the price depends on it."),
		"seed":       obj{"type": "integer", "minimum": 0, "maximum": 4294967295, "default": 0, "description": "Same input and seed give the same bytes."},
		"repeats": obj{"type": "integer", "minimum": 1, "maximum": 32,
			"description": "Motif repeats across the tile side; default from use_case. Kinds that cycle colours per cell round it up to a multiple of the colours cycled."},
		"use_case": vocabEnum("use_case", "Where the design goes; sets repeats when repeats is not sent."),
		"stripe_angle": obj{"type": "integer", "enum": []any{0, 45, 90, 135}, "default": 0,
			"description": "Direction of stripes in degrees: 0 horizontal, 90 vertical, 45 and 135 diagonal. Only for kind stripes."},
	}
}

func patternOutputSchema() json.RawMessage {
	return mustJSON(obj{
		"$schema": SchemaDialect, "title": "Pattern tile data", "type": "object",
		"description": "The data of one delivered tile.",
		"properties": obj{
			"kind":               obj{"type": "string", VocabKeyword: "pattern_kind", "description": "The motif drawn."},
			"index":              obj{"type": "integer", "minimum": 0, "description": "The output number, from 0."},
			"seed":               obj{"type": "integer", "minimum": 0, "description": "The seed this tile was drawn with (the input seed + index)."},
			"colors":             obj{"type": "array", "items": colourSchema("A colour drawn."), "description": "The colours drawn, as sent."},
			"transparent_ground": obj{"type": "boolean", "description": "True when one colour was sent and the ground is transparent."},
			"width":              obj{"type": "integer", "description": "Width in pixels."},
			"height":             obj{"type": "integer", "description": "Height in pixels."},
			"resolution":         obj{"type": "string", VocabKeyword: "resolution"},
			"repeats":            obj{"type": "integer", "minimum": 1, "description": "Motif repeats across the tile side, as drawn."},
			"use_case":           obj{"type": "string", VocabKeyword: "use_case"},
			"seamless":           obj{"const": true, "description": "The left edge continues the right, the top continues the bottom."},
		},
		"required": []string{"kind", "index", "seed", "colors", "transparent_ground", "width", "height", "resolution", "repeats", "use_case", "seamless"},
	})
}

var colourRules = []ErrorRule{
	{"colors", "maxItems", apierr.TooManyColours},
	{"colors[]", "pattern", apierr.InvalidColour},
	{"colors[]", "type", apierr.InvalidColour},
}

var resolutionPricing = Pricing{
	CreditType: CreditService, Option: "resolution",
	ByOption: []OptionPrice{{"512", 1}, {"1024", 2}, {"2048", 4}},
}

func patternGenerate() *Definition {
	props := patternFields()
	props["kind"] = vocabEnum("pattern_kind", "The motif. Some fields apply to some kinds only.")
	props["dot_size"] = obj{"type": "number", "minimum": 0.1, "maximum": 0.9, "default": 0.5,
		"description": "Dot diameter as a fraction of the cell. Only for kind dots."}
	props["amplitude"] = obj{"type": "number", "minimum": 0.1, "maximum": 1, "default": 0.5,
		"description": "Height of the zigzag or wave as a fraction of one repeat. Only for kinds chevron and waves."}
	v := &Variant{Field: "kind", Default: "stripes", Only: map[string][]string{
		"stripe_angle": {"stripes"}, "dot_size": {"dots"}, "amplitude": {"chevron", "waves"},
	}}
	return &Definition{
		Name: "pattern.generate", Title: "Generate a repeat pattern",
		Description: "Draws seamless repeat pattern tiles in your colours: stripes, checks, dots, chevron, waves, diamonds, houndstooth or plaid.",
		Category:    CategoryDesignGeneration, Unit: "tile",
		InputSchema: mustJSON(objectSchema("pattern.generate input",
			"A seamless pattern tile request.", props, []string{"colors"}, v)),
		OutputSchema: patternOutputSchema(),
		Runner:       patternRunner{},
		Pricing:      resolutionPricing,
		ErrorRules:   colourRules,
		Variant:      v,
		Docs:         patternDocs(),
		Examples:     patternExamples(),
	}
}

// patternRunner renders tiles; kind, when set, overrides the input's kind.
type patternRunner struct{ kind string }

// Plan asks for count tiles.
func (r patternRunner) Plan(in map[string]any) Plan {
	return Plan{Steps: int(integer(in, "count", 1)), Phase: "drawing tiles"}
}

// Step draws tile i.
func (r patternRunner) Step(ctx context.Context, in map[string]any, i int) (Output, error) {
	s := newPatternSpec(in, i, r.kind)
	img, err := s.render(ctx)
	if err != nil {
		return Output{}, err
	}
	data, err := encodePNG(img)
	if err != nil {
		return Output{}, err
	}
	colors := strList(in, "colors")
	for j, c := range colors {
		colors[j] = strings.ToUpper(c)
	}
	return Output{Data: data, MediaType: "image/png", Ext: "png", Meta: map[string]any{
		"kind": s.kind, "index": i, "seed": int64(s.seed), "colors": colors,
		"transparent_ground": len(colors) == 1, "width": s.size, "height": s.size,
		"resolution": strconv.Itoa(s.size), "repeats": s.repeats,
		"use_case": str(in, "use_case", "general"), "seamless": true,
	}}, nil
}

func parseHex(h string) color.RGBA {
	v, _ := strconv.ParseUint(strings.TrimPrefix(h, "#"), 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// newPatternSpec derives tile i of a validated input.
func newPatternSpec(in map[string]any, i int, kind string) *patternSpec {
	if kind == "" {
		kind = str(in, "kind", "stripes")
	}
	pk, ok := kindByValue(kind)
	if !ok {
		pk = patternKinds[0]
	}
	var pal []color.Color
	for _, c := range strList(in, "colors") {
		pal = append(pal, parseHex(c))
	}
	switch len(pal) {
	case 0:
		pal = []color.Color{color.RGBA{}, color.RGBA{A: 0xff}}
	case 1:
		pal = []color.Color{color.RGBA{}, pal[0]}
	}
	size, err := strconv.Atoi(str(in, "resolution", "1024"))
	if err != nil || size < 16 {
		size = 1024
	}
	seed := uint64(integer(in, "seed", 0)) + uint64(i)
	s := &patternSpec{
		kind: pk.value, size: size, palette: pal, seed: seed,
		angle: int(integer(in, "stripe_angle", 0)), dotSize: num(in, "dot_size", 0.5), amp: num(in, "amplitude", 0.5),
		sx: int(hash(seed, 11) % uint64(size)), sy: int(hash(seed, 13) % uint64(size)),
	}
	k := len(pal)
	total := 0
	for b := range k {
		total += 1 + int(hash(seed, 20+b)%3)
		s.bands = append(s.bands, total)
	}
	var half []int
	for b := range k {
		for range 2 * (1 + int(hash(seed, 30+b)%4)) {
			half = append(half, b)
		}
	}
	s.sett = append(append([]int(nil), half...), reversed(half)...)
	n := int(integer(in, "repeats", int64(useCaseRepeats(str(in, "use_case", "general")))))
	maxN := size / 16
	if pk.value == "plaid" {
		maxN = size / (3 * len(s.sett))
	}
	c := 1
	if pk.cycle != nil {
		c = max(1, pk.cycle(k))
	}
	n = (max(1, n) + c - 1) / c * c
	if n > maxN {
		n = max(c, maxN/c*c)
	}
	s.repeats = n
	return s
}

func reversed(a []int) []int {
	out := make([]int, len(a))
	for i, v := range a {
		out[len(a)-1-i] = v
	}
	return out
}

func patternDocs() Docs {
	return Docs{
		Lead: "pattern.generate draws seamless repeat tiles in the colours you send. Each tile repeats edge to edge with no visible seam, so it can be printed on fabric or paper, or used as a background of any size.",
		BuiltFor: []string{
			"Textile and apparel prints: stripes, checks, houndstooth and plaid in a collection's colours.",
			"Wrapping paper, stationery and packaging backgrounds.",
			"Web and app backgrounds that tile without seams.",
		},
		WhatYouGet: []string{
			"count square PNG tiles at the chosen resolution, each seamless in both directions.",
			"Each file's data: kind, colours, seed, repeats and size, so any tile can be drawn again.",
		},
		Outputs: DocsOutputs{
			Count:          "count tiles (1 to 8, default 1).",
			CountDependsOn: []string{"count"},
			Order:          strp("By index: tile i is drawn with seed + i."),
			AbsentWhen:     strp("A tile that cannot be drawn is absent and not charged; the summary carries output_not_produced."),
		},
		Specs: []SpecRow{
			{"input_formats", "Input formats", "No files: colours as #RRGGBB strings."},
			{"input_count", "Input count", "1 to 6 colours."},
			{"output_format", "Output format", "PNG, indexed colour; transparent ground when one colour is sent."},
			{"output_resolution", "Output resolution", "512, 1024 or 2048 pixels square (vocabulary resolution)."},
			{"aspect_ratios", "Aspect ratios", "1:1 only."},
			{"outputs_per_job", "Outputs per job", "1 to 8 (count)."},
			{"watermark", "Watermark", "None."},
			{"commercial_use", "Commercial use", "Allowed; the tiles are yours."},
			{"content_checks", "Content checks", "None: the task takes no prompt and no images."},
			{"reproducibility", "Reproducibility", "Deterministic: the same input and seed give the same bytes."},
		},
		Limitations: []string{
			"stripe_angle is 0, 45, 90 or 135 degrees: other angles cannot tile seamlessly on a square.",
			"Kinds that cycle colours per cell (checks, dots, diamonds, houndstooth) round repeats up to a multiple of the colours cycled.",
			"repeats is capped so that cells stay at least 16 pixels wide; plaid draws at most as many setts as fit with threads 3 pixels wide.",
			"Edges are hard: the tiles are not anti-aliased, so they stay exact in their colours.",
		},
		Errors: errorList(apierr.FieldNotAccepted, apierr.FieldNotSupported, apierr.InvalidOption,
			apierr.TooManyColours, apierr.InvalidColour),
		Compares: []Compare{{
			Task:         "pattern.stripes",
			UseThisWhen:  "you start anything new; it draws stripes and every other kind.",
			UseOtherWhen: "never for new work: pattern.stripes is deprecated and draws the same stripes.",
		}},
		Related: []Related{{Task: "palette.generate", Relation: "before"}},
	}
}

func patternExamples() []Example {
	return []Example{
		{Name: "diagonal_stripes", Title: "Diagonal stripes in three colours",
			Description: "Two 45° stripe tiles; the second, drawn with seed 8, has other band widths.",
			Input:       json.RawMessage(`{"kind":"stripes","colors":["#1B2A4A","#F4F1EA","#C8102E"],"stripe_angle":45,"count":2,"seed":7,"resolution":"512"}`)},
		{Name: "houndstooth", Title: "Classic houndstooth",
			Description: "Black on cream, six motifs across.",
			Input:       json.RawMessage(`{"kind":"houndstooth","colors":["#F5F1E6","#111111"],"repeats":6,"resolution":"512"}`)},
		{Name: "polka_dots", Title: "Polka dots for apparel",
			Description: "Two dot colours on cream, sized for garments.",
			Input:       json.RawMessage(`{"kind":"dots","colors":["#FFF8E7","#E4572E","#17BEBB"],"dot_size":0.6,"use_case":"apparel","resolution":"512"}`)},
		{Name: "tartan", Title: "A four-colour tartan",
			Description: "A plaid sett in a 2/2 twill.",
			Input:       json.RawMessage(`{"kind":"plaid","colors":["#0B3D2E","#1C2E5A","#B22222","#E8C547"],"seed":3,"resolution":"512"}`)},
	}
}
