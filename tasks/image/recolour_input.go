package image

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// recolourInput is an image.recolour request, defaults applied; quality
// is set for format jpeg only.
type recolourInput struct {
	Image   string       `json:"image" schema:"required"`
	Palette paletteInput `json:"palette"`
	Mapping []PairInput  `json:"mapping"`
	Area    string       `json:"area"`
	Format  string       `json:"format"`
	Quality int          `json:"quality"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (recolourInput) FieldSchemas() map[string]any {
	props := obj{
		"image": obj{"pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
			"description": "The image to recolour: a file: handle (POST /v1/files), an art: handle a job delivered, or a " +
				"public https URL.",
			"examples": []any{"file:abc123", "art:def456"}},
		"palette": obj{"oneOf": []any{
			obj{
				"type":        "array",
				"minItems":    1,
				"maxItems":    maxPaletteColours,
				"items":       tasks.ColourSchema("A colour, #RRGGBB."),
				"description": fmt.Sprintf("1 to %d colours.", maxPaletteColours),
			},
			obj{"type": "string", "pattern": tasks.HandlePattern(recordread.KindBrandKit),
				"description": fmt.Sprintf(
					"brand_kit:<id> of the account's: its colours, in the kit's order (its first %d).",
					maxPaletteColours,
				),
				"examples": []any{"brand_kit:abc123"}},
		},
			"description": fmt.Sprintf(
				"The colours to recolour into, 1 to %d, or brand_kit:<id> of the account's (its first %d colours): the image's "+
					"colours (as many at most) take them by lightness rank, the lightest the lightest. Send palette or mapping.",
				maxPaletteColours,
				maxPaletteColours,
			),
			"examples": []any{[]any{"#F3EBDD", "#7D9471"}, "brand_kit:abc123"}},
		"mapping": MappingSchema(),
		"area":    AreaSchema(),
	}
	formatProps(props)
	return props
}
