package photoshoot

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// modelInput is a model.create request, defaults applied.
type modelInput struct {
	Name   string   `json:"name" schema:"required"`
	Base   string   `json:"base" schema:"required"`
	Images []string `json:"images" schema:"required"`
	// Adjustments is absent when the base's proportions are kept.
	Adjustments *modelAdjustments `json:"adjustments"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (modelInput) FieldSchemas() map[string]any {
	adj := obj{}
	for _, a := range adjustments {
		adj[a.name] = obj{
			"minimum":     -a.bound,
			"maximum":     a.bound,
			"default":     0,
			"description": a.text,
		}
	}
	props := obj{
		"name": obj{
			"minLength":   1,
			"maxLength":   maxNameLength,
			"description": "The style's name, as listed and searched (GET /v1/refs/model?q=).",
		},
		"base": obj{"pattern": modelPattern, "maxLength": 100,
			"description": "The base model, model:<id> of the library (GET /v1/refs/model lists bases with base null); the " +
				"style keeps its gender, build and hair style."},
		"images": obj{tasks.RefKeyword: "image", "minItems": 1, "maxItems": maxReferencePhotos,
			"items": obj{"pattern": tasks.RefPattern, "maxLength": 2048,
				"description": "A file: handle (POST /v1/files), an art: handle or a public https URL."},
			"description": fmt.Sprintf(
				"Reference photos, 1 to %d: portraits or full-length shots, face and hair well lit against a plain background.",
				maxReferencePhotos,
			),
			"examples": []any{[]any{"file:abc123"}}},
		"adjustments": obj{"additionalProperties": false, "properties": adj,
			"description": "Proportions changed from the base, each within its bounds; absent: the base's."},
	}
	return props
}
