package image

import "github.com/taskplatform/taskplatform/tasks"

// resizeInput is an image.resize request, defaults applied; quality is
// set for format jpeg only.
type resizeInput struct {
	Images     []string `json:"images" schema:"required"`
	Width      *int     `json:"width"`
	Height     *int     `json:"height"`
	Resolution string   `json:"resolution"`
	Fit        string   `json:"fit"`
	Background *string  `json:"background"`
	Format     string   `json:"format"`
	Quality    int      `json:"quality"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (resizeInput) FieldSchemas() map[string]any {
	props := obj{
		"images": imagesProp("resize"),
		"width": obj{
			"minimum":     1,
			"maximum":     maxOutputSide,
			"description": "The output width in pixels. Alone, the height follows the image's aspect ratio.",
		},
		"height": obj{
			"minimum":     1,
			"maximum":     maxOutputSide,
			"description": "The output height in pixels. Alone, the width follows the image's aspect ratio.",
		},
		"resolution": tasks.VocabEnum(
			tasks.ResolutionVocab(),
			"The output's longer side in pixels, the other following the aspect ratio; used when neither width nor height is "+
				"sent.",
		),
		"fit": tasks.VocabEnum(
			fitVocab(),
			"How the image meets width × height when both are sent and its aspect ratio differs.",
		),
		"background": tasks.ColourSchema(
			"The colour around the image with fit contain, #RRGGBB; transparent when absent (white in JPEG).",
		),
	}
	formatProps(props)
	return props
}
