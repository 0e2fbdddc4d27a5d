package design

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// input is a design.from_prompt request, defaults applied.
type input struct {
	Prompt     string   `json:"prompt" schema:"required"`
	References []string `json:"references"`
	Count      int      `json:"count"`
	Resolution string   `json:"resolution"`
	Seed       int64    `json:"seed"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (input) FieldSchemas() map[string]any {
	props := obj{
		"prompt": obj{"minLength": 1, "maxLength": maxPromptLength,
			"description": "The brief in plain words: colour names (vocabulary colour_name; a colour followed by ground or " +
				"background is the ground), a pattern kind (pattern_kind and its aliases), a scale (design_scale) and a mood " +
				"(design_mood).",
			"examples": []any{"navy and mustard houndstooth, small scale, with a cream ground"}},
		"references": obj{"maxItems": maxReferences, tasks.RefKeyword: "image",
			"items": obj{"pattern": tasks.RefPattern, "maxLength": 2048,
				"description": "A file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL."},
			"description": fmt.Sprintf(
				"Up to %d reference images whose palettes fill in the colours the brief does not name.",
				maxReferences,
			),
			"examples": []any{[]any{"file:abc123"}}},
		"count": obj{
			"minimum":     1,
			"maximum":     maxTiles,
			"default":     1,
			"description": "How many tiles to make; tile i is drawn with seed + i.",
		},
		"resolution": tasks.VocabEnum(
			tasks.ResolutionVocab(),
			"Side of the square tile in pixels; the price depends on it.",
		),
		"seed": obj{
			"minimum":     0,
			"maximum":     4294967295,
			"default":     0,
			"description": "Same input and seed give the same bytes.",
		},
	}
	return props
}
