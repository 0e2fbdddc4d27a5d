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
	schemeItem := tasks.VocabEnum(schemeVocab(), "A colour harmony.")
	props := obj{
		"base_color": tasks.ColourSchema("The colour every scheme is built around, #RRGGBB."),
		"schemes": obj{"type": "array", "items": schemeItem, "minItems": 1, "maxItems": 6, "uniqueItems": true,
			"default":     []any{"complementary", "analogous", "triadic"},
			"description": "The harmonies to draw, one sheet each, in this order."},
		"shades": obj{"type": "integer", "minimum": 0, "maximum": 4, "default": 0,
			"description": "Rows of lighter, then darker, steps drawn under each colour."},
		"labels": obj{
			"type":        "boolean",
			"default":     true,
			"description": "Print the title, hex codes and roles on the sheet.",
		},
	}
	return &tasks.Definition{
		Name: "palette.generate", Title: "Generate colour palettes",
		Description: "Builds colour harmonies around one base colour and draws each as an SVG swatch sheet with its colours as data.",
		Category:    tasks.CategoryDesignGeneration, Unit: "sheet",
		InputSchema: tasks.MustJSON(tasks.ObjectSchema("palette.generate input",
			"A palette request: one sheet per scheme.", props, []string{"base_color"}, nil)),
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
				"description": "The output number: the position in schemes.",
			},
			"base_color": tasks.ColourSchema("The base colour, as sent, in capitals."),
			"colors":     obj{"type": "array", "items": colour, "description": "The scheme's colours, left to right."},
		},
		"required": []string{"scheme", "index", "base_color", "colors"},
	})
}

// input is a palette.generate request, defaults applied.
type input struct {
	BaseColor string   `json:"base_color"`
	Schemes   []string `json:"schemes"`
	Shades    int      `json:"shades"`
	Labels    bool     `json:"labels"`
}

// runner draws one swatch sheet per scheme.
type runner struct{}

// Plan asks for one sheet per scheme.
func (runner) Plan(in *input) tasks.Plan {
	return tasks.Plan{Steps: len(in.Schemes), Phase: "drawing swatch sheets"}
}

// Step draws the sheet of schemes[i].
func (runner) Step(ctx context.Context, in *input, i int) (tasks.Output, error) {
	if err := ctx.Err(); err != nil {
		return tasks.Output{}, err
	}
	schemes := in.Schemes
	if i < 0 || i >= len(schemes) {
		return tasks.Output{}, fmt.Errorf("palette.generate: no output %d", i)
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
	title := fmt.Sprintf("%s · base %s", sc.label, base)
	return tasks.Output{
		Data: paletteSVG(title, sw, shades, in.Labels), MediaType: "image/svg+xml", Ext: "svg",
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
