package photoshoot

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// upscaleInput is a photoshoot.upscale request, defaults applied.
type upscaleInput struct {
	Images []string `json:"images" schema:"required"`
	Factor string   `json:"factor"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (upscaleInput) FieldSchemas() map[string]any {
	props := obj{
		"images": obj{tasks.RefKeyword: "image", "minItems": 1, "maxItems": maxOutputs,
			"items": obj{
				"pattern":     artPattern,
				"maxLength":   70,
				"description": "An art: handle of a shot.",
				"examples":    []any{"art:abc123"},
			},
			"description": fmt.Sprintf(
				"Shots to enlarge, 1 to %d art: handles, all of one photoshoot of the account (its images at GET "+
					"/v1/files/photoshoot:<id>); one output each, in this order.",
				maxOutputs,
			)},
		"factor": tasks.FieldEnum(factors(), "How many times larger each side becomes; the price depends on it."),
	}
	return props
}
