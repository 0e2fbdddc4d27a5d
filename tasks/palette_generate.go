package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

func paletteGenerate() *Definition {
	schemeItem := vocabEnum("colour_scheme", "A colour harmony.")
	props := obj{
		"base_color": colourSchema("The colour every scheme is built around, #RRGGBB."),
		"schemes": obj{"type": "array", "items": schemeItem, "minItems": 1, "maxItems": 6, "uniqueItems": true,
			"default":     []any{"complementary", "analogous", "triadic"},
			"description": "The harmonies to draw, one sheet each, in this order."},
		"shades": obj{"type": "integer", "minimum": 0, "maximum": 4, "default": 0,
			"description": "Rows of lighter, then darker, steps drawn under each colour."},
		"labels": obj{"type": "boolean", "default": true, "description": "Print the title, hex codes and roles on the sheet."},
	}
	return &Definition{
		Name: "palette.generate", Title: "Generate colour palettes",
		Description: "Builds colour harmonies around one base colour and draws each as an SVG swatch sheet with its colours as data.",
		Category:    CategoryDesignGeneration, Unit: "sheet",
		InputSchema: mustJSON(objectSchema("palette.generate input",
			"A palette request: one sheet per scheme.", props, []string{"base_color"}, nil)),
		OutputSchema: paletteOutputSchema(),
		Runner:       paletteRunner{},
		Pricing:      Pricing{CreditType: CreditService, PerOutput: 1},
		ErrorRules: []ErrorRule{
			{"base_color", "pattern", apierr.InvalidColour},
			{"base_color", "type", apierr.InvalidColour},
		},
		Docs:     paletteDocs(),
		Examples: paletteExamples(),
	}
}

func paletteOutputSchema() json.RawMessage {
	colour := obj{
		"type": "object",
		"properties": obj{
			"hex":  colourSchema("The colour."),
			"role": obj{"type": "string", "description": "Its place in the scheme: base, complement, triad_1, tint_1, ..."},
			"rgb": obj{"type": "object", "required": []string{"r", "g", "b"}, "properties": obj{
				"r": obj{"type": "integer", "minimum": 0, "maximum": 255},
				"g": obj{"type": "integer", "minimum": 0, "maximum": 255},
				"b": obj{"type": "integer", "minimum": 0, "maximum": 255}}},
			"hsl": obj{"type": "object", "required": []string{"h", "s", "l"}, "properties": obj{
				"h": obj{"type": "number", "minimum": 0, "maximum": 360},
				"s": obj{"type": "number", "minimum": 0, "maximum": 1},
				"l": obj{"type": "number", "minimum": 0, "maximum": 1}}},
			"adjusted": obj{"type": "boolean", "description": "True when the colour was moved in lightness to stay distinct (warning colour_adjusted)."},
			"shades":   obj{"type": "array", "items": colourSchema("A step."), "description": "Lighter and darker steps, when shades was sent."},
		},
		"required": []string{"hex", "role", "rgb", "hsl", "adjusted", "shades"},
	}
	return mustJSON(obj{
		"$schema": SchemaDialect, "title": "Palette sheet data", "type": "object",
		"description": "The data of one swatch sheet.",
		"properties": obj{
			"scheme":     obj{"type": "string", VocabKeyword: "colour_scheme", "description": "The harmony drawn."},
			"index":      obj{"type": "integer", "minimum": 0, "description": "The output number: the position in schemes."},
			"base_color": colourSchema("The base colour, as sent, in capitals."),
			"colors":     obj{"type": "array", "items": colour, "description": "The scheme's colours, left to right."},
		},
		"required": []string{"scheme", "index", "base_color", "colors"},
	})
}

// paletteRunner draws one swatch sheet per scheme.
type paletteRunner struct{}

// Plan asks for one sheet per scheme.
func (paletteRunner) Plan(in map[string]any) Plan {
	return Plan{Steps: len(strList(in, "schemes")), Phase: "drawing swatch sheets"}
}

// Step draws the sheet of schemes[i].
func (paletteRunner) Step(ctx context.Context, in map[string]any, i int) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	schemes := strList(in, "schemes")
	if i < 0 || i >= len(schemes) {
		return Output{}, fmt.Errorf("palette.generate: no output %d", i)
	}
	sc, ok := schemeByValue(schemes[i])
	if !ok {
		return Output{}, fmt.Errorf("palette.generate: unknown scheme %q", schemes[i])
	}
	base := strings.ToUpper(str(in, "base_color", "#808080"))
	sw := harmony(sc, base)
	steps := int(integer(in, "shades", 0))
	var (
		colors   []any
		shades   [][]string
		warnings []contract.Warning
	)
	for j, s := range sw {
		c := parseHex(s.hex)
		var row []string
		for r := range steps {
			row = append(row, toHex(light(s.c, shadeStep(r, steps), "").c))
		}
		shades = append(shades, row)
		colors = append(colors, map[string]any{
			"hex": s.hex, "role": s.role, "adjusted": s.adjusted, "shades": append([]string{}, row...),
			"rgb": map[string]any{"r": int(c.R), "g": int(c.G), "b": int(c.B)},
			"hsl": map[string]any{"h": round3(s.c.h), "s": round3(s.c.s), "l": round3(s.c.l)},
		})
		if s.adjusted {
			f := fmt.Sprintf("schemes[%d]", i)
			warnings = append(warnings, contract.Warning{Code: string(apierr.ColourAdjusted), Field: &f, Message: fmt.Sprintf(
				"In the %s sheet, colour %d (%s) was too close to an earlier colour and was moved to %s.", sc.value, j+1, s.role, s.hex)})
		}
	}
	title := fmt.Sprintf("%s · base %s", sc.label, base)
	return Output{
		Data: paletteSVG(title, sw, shades, boolean(in, "labels", true)), MediaType: "image/svg+xml", Ext: "svg",
		Meta:     map[string]any{"scheme": sc.value, "index": i, "base_color": base, "colors": colors},
		Warnings: warnings,
	}, nil
}

// shadeStep is the lightness change of shade row r of steps: lighter steps
// first (+0.2, +0.4), then darker ones (-0.2, -0.4).
func shadeStep(r, steps int) float64 {
	up := (steps + 1) / 2
	if r < up {
		return 0.2 * float64(r+1)
	}
	return -0.2 * float64(r-up+1)
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

func paletteDocs() Docs {
	return Docs{
		Lead: "palette.generate builds colour harmonies around one base colour — complementary, analogous, triadic and more — and draws each as a labelled SVG swatch sheet. Every sheet's data lists its colours as hex, RGB and HSL, ready to send to pattern.generate.",
		BuiltFor: []string{
			"Starting a collection's colour story from one brand colour.",
			"Feeding exact colours to pattern.generate.",
		},
		WhatYouGet: []string{
			"One SVG swatch sheet per entry of schemes, in the order sent.",
			"Each file's data: the scheme and its colours with role, hex, RGB, HSL and optional shade steps.",
		},
		Outputs: DocsOutputs{
			Count:          "One sheet per entry of schemes (1 to 6; default 3).",
			CountDependsOn: []string{"schemes"},
			Order:          strp("The order of schemes."),
			AbsentWhen:     strp("A sheet that cannot be drawn is absent and not charged; the summary carries output_not_produced."),
		},
		Specs: []SpecRow{
			{"input_formats", "Input formats", "No files: one #RRGGBB colour."},
			{"input_count", "Input count", "One base colour, 1 to 6 schemes."},
			{"output_format", "Output format", "SVG (image/svg+xml)."},
			{"output_resolution", "Output resolution", "Vector; 136 px per colour wide at 1:1."},
			{"outputs_per_job", "Outputs per job", "1 to 6 (schemes)."},
			{"watermark", "Watermark", "None."},
			{"commercial_use", "Commercial use", "Allowed."},
			{"content_checks", "Content checks", "None."},
			{"reproducibility", "Reproducibility", "Deterministic: the same input gives the same bytes."},
		},
		Limitations: []string{
			"Harmonies are computed in HSL, not a perceptual colour space.",
			"A colour too close to another in its scheme (a grey's complement, a near-white's tints) is moved in lightness and reported with the warning colour_adjusted.",
		},
		Errors: errorList(apierr.FieldNotAccepted, apierr.InvalidOption, apierr.InvalidColour, apierr.ColourAdjusted),
		Related: []Related{
			{Task: "pattern.generate", Relation: "after"},
		},
	}
}

func paletteExamples() []Example {
	return []Example{
		{Name: "brand_blue", Title: "Harmonies of a brand blue",
			Description: "Complementary and triadic sheets around #1F6FEB.",
			Input:       json.RawMessage(`{"base_color":"#1F6FEB","schemes":["complementary","triadic"]}`)},
		{Name: "grey_adjusted", Title: "A grey base, with adjusted colours",
			Description: "A grey's complement is the same grey, so it is moved in lightness and the summary warns colour_adjusted.",
			Input:       json.RawMessage(`{"base_color":"#808080","schemes":["complementary","monochromatic"],"shades":2}`)},
	}
}
