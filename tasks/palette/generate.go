package palette

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// obj is a JSON object under construction.
type obj = map[string]any

// generate draws colour harmonies around a base colour as swatch sheets.
func generate() *tasks.Definition {
	return &tasks.Definition{
		Name: "palette.generate", Title: "Generate colour palettes",
		Description: "Builds colour harmonies around one base colour and draws each as an SVG swatch sheet with its " +
			"colours as data.",
		Category: tasks.CategoryDesignGeneration, Unit: "sheet",
		InputSchema: tasks.MustJSON(tasks.InputSchema[input](
			"palette.generate input",
			"A palette request: one sheet per scheme.",
			nil,
		)),
		OutputSchema: outputSchema(),
		Runner:       tasks.Typed[input](runner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 1},
		ErrorRules: []tasks.ErrorRule{
			{Field: "base_color", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "base_color", Keyword: "type", Code: apierr.InvalidColour},
		},
		Docs:     docs(),
		Examples: examples(),
		Produces: []string{"colour_harmony", "job"},
		Uses:     []string{"credit_hold"},
	}
}

// outputSchema is the data of one swatch sheet.
func outputSchema() json.RawMessage {
	colour := obj{
		"type": "object",
		"properties": obj{
			"hex": tasks.ColourSchema("The colour."),
			"role": obj{
				"type":        "string",
				"description": "Its place in the scheme: base, complement, triad_1, tint_1, ...",
			},
			"rgb": obj{"type": "object", "required": []string{"r", "g", "b"}, "properties": obj{
				"r": obj{"type": "integer", "minimum": 0, "maximum": 255},
				"g": obj{"type": "integer", "minimum": 0, "maximum": 255},
				"b": obj{"type": "integer", "minimum": 0, "maximum": 255}}},
			"hsl": obj{"type": "object", "required": []string{"h", "s", "l"}, "properties": obj{
				"h": obj{"type": "number", "minimum": 0, "maximum": 360},
				"s": obj{"type": "number", "minimum": 0, "maximum": 1},
				"l": obj{"type": "number", "minimum": 0, "maximum": 1}}},
			"adjusted": obj{
				"type":        "boolean",
				"description": "True when the colour was moved in lightness to stay distinct (warning colour_adjusted).",
			},
			"shades": obj{
				"type":        "array",
				"items":       tasks.ColourSchema("A step."),
				"description": "Lighter and darker steps, when shades was sent.",
			},
		},
		"required": []string{"hex", "role", "rgb", "hsl", "adjusted", "shades"},
	}
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Palette sheet data", "type": "object",
		"description": "The data of one swatch sheet.",
		"properties": obj{
			"scheme": obj{
				"type":             "string",
				tasks.VocabKeyword: "colour_scheme",
				"description":      "The harmony drawn.",
			},
			"index": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The output number, from 0: each scheme's files in the order of formats.",
			},
			"format": obj{
				"type":        "string",
				"enum":        []any{"svg", "ase", "gpl"},
				"description": "The file: svg (the sheet), ase (Adobe Swatch Exchange) or gpl (GIMP palette).",
			},
			"base_color": tasks.ColourSchema("The base colour, as sent, in capitals."),
			"colors":     obj{"type": "array", "items": colour, "description": "The scheme's colours, left to right."},
		},
		"required": []string{"scheme", "index", "format", "base_color", "colors"},
	})
}

// runner draws one swatch sheet per scheme.
type runner struct{}

// Plan asks for one file per scheme and format.
func (runner) Plan(in *input) tasks.Plan {
	return tasks.Plan{Steps: len(in.Schemes) * len(formatsOf(in)), Phase: "drawing swatch sheets"}
}

// formatsOf is in.Formats, or the SVG sheet alone when none is set.
func formatsOf(in *input) []string {
	if len(in.Formats) == 0 {
		return []string{"svg"}
	}
	return in.Formats
}

// Step delivers output i: the sheet of schemes[i / len(formats)] in
// formats[i % len(formats)].
func (runner) Step(ctx context.Context, in *input, out int) (tasks.Output, error) {
	if err := ctx.Err(); err != nil {
		return tasks.Output{}, err
	}
	schemes, formats := in.Schemes, formatsOf(in)
	i, ff := out/len(formats), formatByValue(formats[out%len(formats)])
	if out < 0 || i >= len(schemes) {
		return tasks.Output{}, fmt.Errorf("palette.generate: no output %d", out)
	}
	sc, ok := schemeByValue(schemes[i])
	if !ok {
		return tasks.Output{}, fmt.Errorf("palette.generate: unknown scheme %q", schemes[i])
	}
	base := strings.ToUpper(in.BaseColor)
	sw := harmony(sc, base)
	steps := in.Shades
	var (
		colors   []any
		shades   [][]string
		warnings []contract.Warning
	)
	for j, s := range sw {
		c := tasks.ParseColour(s.hex)
		var row []string
		for r := range steps {
			row = append(row, mixStep(s.hex, shadeStep(r, steps)))
		}
		shades = append(shades, row)
		colors = append(colors, map[string]any{
			"hex": s.hex, "role": s.role, "adjusted": s.adjusted, "shades": append([]string{}, row...),
			"rgb": map[string]any{"r": int(c.R), "g": int(c.G), "b": int(c.B)},
			"hsl": map[string]any{"h": round3(s.c.h), "s": round3(s.c.s), "l": round3(s.c.l)},
		})
		if s.adjusted && out%len(formats) == 0 {
			f := fmt.Sprintf("schemes[%d]", i)
			warnings = append(
				warnings,
				contract.Warning{Code: string(apierr.ColourAdjusted), Field: &f, Message: fmt.Sprintf(
					"In the %s sheet, colour %d (%s) was too close to an earlier colour and was moved to %s.",
					sc.value,
					j+1,
					s.role,
					s.hex,
				)},
			)
		}
	}
	var data []byte
	switch ff.value {
	case "ase":
		data = encodeASE(fmt.Sprintf("%s - base %s", sc.label, base), fileSwatches(sw, shades))
	case "gpl":
		data = encodeGPL(fmt.Sprintf("%s - base %s", sc.label, base), len(sw), fileSwatches(sw, shades))
	default:
		data = paletteSVG(fmt.Sprintf("%s · base %s", sc.label, base), sw, shades, in.Labels)
	}
	return tasks.Output{
		Data: data, MediaType: ff.mediaType, Ext: ff.ext,
		Meta: map[string]any{"scheme": sc.value, "index": out, "format": ff.value, "base_color": base,
			"colors": colors},
		Warnings: warnings,
	}, nil
}

// shadeStep is the mix of shade row r of steps: lighter steps first
// (0.3, 0.6 toward white), then darker ones (-0.3, -0.6: toward black).
func shadeStep(r, steps int) float64 {
	up := (steps + 1) / 2
	if r < up {
		return 0.3 * float64(r+1)
	}
	return -0.3 * float64(r-up+1)
}

// mixStep mixes a colour toward white (f > 0) or black (f < 0) by |f| in
// OKLab, as paint is let down with white or black: lightness moves that
// far toward 1 or 0 and chroma falls by the same share, so a step is
// never more saturated than its colour (no neon tints of a vivid colour).
func mixStep(hex string, f float64) string {
	c := hexToOKLCH(hex)
	if f >= 0 {
		c.l += (1 - c.l) * f
	} else {
		c.l *= 1 + f
	}
	c.c *= 1 - math.Abs(f)
	return c.hex()
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
