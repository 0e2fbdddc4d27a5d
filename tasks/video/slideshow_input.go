package video

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// slideInput is a video.slideshow request, defaults applied.
type slideInput struct {
	Images     []string `json:"images" schema:"required"`
	FrameMS    int      `json:"frame_ms"`
	Transition string   `json:"transition"`
	Size       string   `json:"size"`
	Fit        string   `json:"fit"`
	Background string   `json:"background"`
	Format     string   `json:"format"`
}

// fieldSchemas are the schema keywords of each field (tasks.DerivedSchema):
// the formats are the ones this service's ffmpeg writes.
func (slideInput) fieldSchemas(o Options) map[string]any {
	props := obj{
		"images": obj{
			tasks.RefKeyword: "image", "minItems": 1, "maxItems": maxSlides,
			"items": obj{"pattern": tasks.RefPattern, "maxLength": 2048,
				"description": "A file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL."},
			"description": fmt.Sprintf("The images to show, 1 to %d, in this order.", maxSlides),
			"examples":    []any{[]any{"file:abc123", "art:def456"}},
		},
		"frame_ms": obj{
			"minimum":     500,
			"maximum":     5000,
			"default":     1500,
			"description": "How long each image shows, in milliseconds (rounded to 10 ms), transition included.",
		},
		"transition": tasks.FieldEnum(transitions(), "How one image passes to the next."),
		"size":       tasks.VocabEnum(sizeVocab(), "The frame size, WIDTHxHEIGHT."),
		"fit":        tasks.FieldEnum(frameFits(), "How each image fills a frame of another aspect ratio."),
		"background": tasks.ColourSchema("The colour around images with fit contain, #RRGGBB."),
		"format":     tasks.VocabEnum(formatVocab(o), "The file format. "+o.formats()),
	}
	props["background"].(obj)["default"] = "#FFFFFF"
	return props
}
