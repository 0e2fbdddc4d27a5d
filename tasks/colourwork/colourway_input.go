package colourwork

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// colourwayInput is a colourway.generate request. count has no schema
// default: it applies to a brand kit only (refused with a list), and is
// defaultKitCount when not sent.
type colourwayInput struct {
	Image    string                   `json:"image" schema:"required"`
	Palettes palettes                 `json:"palettes"`
	Mappings [][]imagetasks.PairInput `json:"mappings"`
	Area     string                   `json:"area"`
	Count    *int                     `json:"count"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (colourwayInput) FieldSchemas() map[string]any {
	props := obj{
		"image": imageProp("The design to recolour"),
		"palettes": obj{"oneOf": []any{
			obj{
				"type":        "array",
				"minItems":    1,
				"maxItems":    maxPalettes,
				"description": fmt.Sprintf("1 to %d palettes, one colourway each in this order.", maxPalettes),
				"items": obj{
					"type":        "array",
					"minItems":    1,
					"maxItems":    maxPaletteSize,
					"items":       tasks.ColourSchema("A colour, #RRGGBB."),
					"description": fmt.Sprintf("One palette: 1 to %d colours.", maxPaletteSize),
				},
			},
			obj{
				"type":        "string",
				"pattern":     tasks.HandlePattern(recordread.KindBrandKit),
				"description": "brand_kit:<id> of the account's: its colours give count colourways.",
				"examples":    []any{"brand_kit:abc123"},
			},
		},
			"description": fmt.Sprintf(
				"The palettes, 1 to %d, one colourway each in this order (the design's colours take a palette's by lightness "+
					"rank, the lightest the lightest); or brand_kit:<id> of the account's, whose colours give count colourways. "+
					"Send palettes or mappings.",
				maxPalettes,
			),
			"examples": []any{[]any{[]any{"#1B2A4A", "#F4F1EA"}, []any{"#7D9471", "#F3EBDD"}}, "brand_kit:abc123"}},
		"mappings": obj{
			"minItems": 1, "maxItems": maxPalettes,
			"items": imagetasks.MappingSchema(),
			"description": fmt.Sprintf(
				"Instead of palettes: 1 to %d explicit mappings, one colourway each, each a list of {from, to} pairs.",
				maxPalettes,
			),
		},
		"area": imagetasks.AreaSchema(),
		"count": obj{"minimum": 1, "maximum": maxPalettes,
			"description": fmt.Sprintf(
				"With a brand kit only: how many colourways to draw from it, 1 to %d; %d when not sent.",
				maxPalettes,
				defaultKitCount,
			)},
	}
	return props
}
