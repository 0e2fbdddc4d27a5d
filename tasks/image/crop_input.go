package image

import "github.com/taskplatform/taskplatform/tasks"

// cropInput is an image.crop request, defaults applied; quality is set
// for format jpeg only. It is the task's input schema (tasks.InputSchema).
type cropInput struct {
	Images      []string `json:"images" schema:"required"`
	AspectRatio string   `json:"aspect_ratio"`
	Anchor      string   `json:"anchor"`
	Format      string   `json:"format"`
	Quality     int      `json:"quality"`
}

// FieldSchemas implements tasks.Described.
func (cropInput) FieldSchemas() map[string]any {
	props := obj{
		"images":       imagesProp("crop"),
		"aspect_ratio": tasks.VocabEnum(aspectVocab(), "The width:height of the crops."),
		"anchor": tasks.VocabEnum(
			anchorVocab(),
			"Where the crop is placed: on the most interesting region, or in the middle.",
		),
	}
	formatProps(props)
	return props
}
