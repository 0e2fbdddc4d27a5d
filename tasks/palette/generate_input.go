package palette

import "github.com/taskplatform/taskplatform/tasks"

// input is a palette.generate request, defaults applied.
type input struct {
	BaseColor string   `json:"base_color" schema:"required"`
	Schemes   []string `json:"schemes"`
	Shades    int      `json:"shades"`
	Labels    bool     `json:"labels"`
	Formats   []string `json:"formats"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (input) FieldSchemas() map[string]any {
	schemeItem := tasks.VocabEnum(schemeVocab(), "A colour harmony.")
	props := obj{
		"base_color": tasks.ColourSchema("The colour every scheme is built around, #RRGGBB."),
		"schemes": obj{"items": schemeItem, "minItems": 1, "maxItems": 6, "uniqueItems": true,
			"default":     []any{"complementary", "analogous", "triadic"},
			"description": "The harmonies to draw, one sheet each, in this order."},
		"shades": obj{"minimum": 0, "maximum": 4, "default": 0,
			"description": "Rows of lighter, then darker, steps drawn under each colour."},
		"formats": obj{"minItems": 1, "maxItems": len(fileFormats), "uniqueItems": true,
			"items": tasks.FieldEnum(formatOptions(), "A file to deliver for each sheet:"), "default": []any{"svg"},
			"description": "The files delivered for each sheet, in this order: each file is one output, " +
				"charged as one."},
		"labels": obj{
			"default":     true,
			"description": "Print the title, hex codes and roles on the sheet.",
		},
	}
	return props
}
