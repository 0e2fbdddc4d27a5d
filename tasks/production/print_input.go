package production

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// printInput is a print.prepare request, defaults applied.
type printInput struct {
	Image    string  `json:"image" schema:"required"`
	WidthMM  float64 `json:"width_mm" schema:"required"`
	HeightMM float64 `json:"height_mm" schema:"required"`
	DPI      int     `json:"dpi" schema:"required"`
	BleedMM  float64 `json:"bleed_mm"`
	Repeat   string  `json:"repeat"`
	// Fit, Anchor and Background place one artwork (repeat none).
	Fit        string `json:"fit"`
	Anchor     string `json:"anchor"`
	Background string `json:"background"`
	// ColourSpace is the PDF's: rgb or cmyk.
	ColourSpace string `json:"colour_space"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (printInput) FieldSchemas() map[string]any {
	props := obj{
		"image": obj{"pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
			"description": "The artwork: a file: handle (POST /v1/files), an art: handle a job delivered, or a public https " +
				"URL."},
		"width_mm": obj{
			"minimum":     minSideMM,
			"maximum":     maxSideMM,
			"description": "The trim width in millimetres.",
		},
		"height_mm": obj{
			"minimum":     minSideMM,
			"maximum":     maxSideMM,
			"description": "The trim height in millimetres.",
		},
		"dpi": obj{"minimum": minDPI, "maximum": maxDPI,
			"description": fmt.Sprintf(
				"The print resolution in dots per inch, %d to %d; written in the PNG's pHYs chunk. The file may hold at most %s "+
					"pixels, bleed included (request_refused naming the field).",
				minDPI,
				maxDPI,
				megapixels(maxPrintPixels),
			)},
		"bleed_mm": obj{
			"minimum":     0,
			"maximum":     maxBleedMM,
			"default":     0,
			"description": "Bleed added on each side, in millimetres (printers often ask for 3).",
		},
		"repeat": tasks.VocabEnum(
			repeatVocab(),
			"How the image fills the print: one artwork placed as fit says (none) or tiled at its own size (tile).",
		),
		"fit": tasks.VocabEnum(
			fitVocab(),
			"With repeat none: the whole artwork inside the trim, padded with background (contain), "+
				"or covering the print and cut at the trim (cover, warning artwork_cropped).",
		),
		"anchor": tasks.VocabEnum(
			anchorVocab(),
			"Where the artwork is placed: where the padding (contain) or the cut (cover) is not.",
		),
		"colour_space": tasks.VocabEnum(colourSpaceVocab(),
			"The PDF's colour space: the art as sRGB (rgb) or converted to CMYK by a stated formula (cmyk)."),
		"background": withDefault(
			tasks.ColourSchema(
				"The colour of the print around a fitted artwork and under transparent pixels, #RRGGBB.",
			),
			"#FFFFFF",
		),
	}
	return props
}
