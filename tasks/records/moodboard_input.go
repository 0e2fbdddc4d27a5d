package records

import "github.com/taskplatform/taskplatform/tasks"

// moodboardInput is a moodboard.create request.
type moodboardInput struct {
	Name            string   `json:"name" schema:"required"`
	Images          []string `json:"images" schema:"required"`
	Description     *string  `json:"description"`
	IgnoreBackdrops bool     `json:"ignore_backdrops"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (moodboardInput) FieldSchemas() map[string]any {
	props := obj{
		"name": nameSchema("The moodboard's name, shown on its collage and in pickers."),
		"images": obj{
			"minItems":       minBoardImages,
			"maxItems":       maxBoardImages,
			tasks.RefKeyword: "image",
			"items":          obj{"pattern": tasks.RefPattern, "maxLength": 2048},
			"contains":       obj{"type": "string"},
			"description": "The board's images, in collage order: file: handles (POST /v1/files), art: handles a job " +
				"delivered, or public https URLs. 3 to 24.",
			"examples": []any{[]any{"file:abc123", "art:def456", "https://example.com/look.jpg"}},
		},
		"description": obj{
			"maxLength":   1000,
			"description": "What the board is for; kept on the record.",
		},
		"ignore_backdrops": obj{"default": true,
			"description": "Leave a product shot's plain backdrop (a white or light grey sweep most of the image's " +
				"border shares) out of the palette and the look's colours; each look names the backdrop it left out."},
	}
	return props
}
