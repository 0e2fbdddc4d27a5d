package colourwork

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// separateInput is a colour.separate request, defaults applied.
type separateInput struct {
	Image      string `json:"image" schema:"required"`
	MaxColours int    `json:"max_colours" schema:"required"`
	Order      string `json:"order"`
	JobName    string `json:"job_name"`
	DPI        int    `json:"dpi"`
	// WidthMM resamples the design to print this wide at DPI.
	WidthMM *float64 `json:"width_mm"`
	Garment *string  `json:"garment"`
	// TrapPx or TrapMM spreads each ink under darker ones.
	TrapPx *int     `json:"trap_px"`
	TrapMM *float64 `json:"trap_mm"`
	// Underbase adds a white film, choked by ChokePx or ChokeMM.
	Underbase bool     `json:"underbase"`
	ChokePx   *int     `json:"underbase_choke_px"`
	ChokeMM   *float64 `json:"underbase_choke_mm"`
	// HalftoneLPI screens HalftoneInks (all when empty) at HalftoneAngle.
	HalftoneLPI   *float64 `json:"halftone_lpi"`
	HalftoneAngle float64  `json:"halftone_angle"`
	HalftoneInks  []string `json:"halftone_inks"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (separateInput) FieldSchemas() map[string]any {
	props := obj{
		"image": imageProp("The design to separate"),
		"max_colours": obj{"minimum": minSeparations, "maximum": maxSeparations,
			"description": fmt.Sprintf(
				"The most spot colours (inks, screens) to separate into, %d to %d; a design with fewer distinct colours gets "+
					"fewer separations. Inks are merged to fit only when a printer would print them as one (close shades of "+
					"one hue); a design with more distinct inks fails naming them.",
				minSeparations,
				maxSeparations,
			)},
		"order": tasks.VocabEnum(orderVocab(), "The order of the separations (the print order)."),
		"job_name": obj{"maxLength": 60, "default": "",
			"description": "The job's name, printed on every film (default: the image reference)."},
		"dpi": obj{"minimum": minFilmDPI, "maximum": maxFilmDPI, "default": defaultFilmDPI,
			"description": "The films' resolution: one design pixel is one film dot, so the print is " +
				"width px ÷ dpi inches wide; written in each PNG's pHYs chunk and on each film."},
		"width_mm": obj{"minimum": 10, "maximum": 2000,
			"description": "The printed width of the design in millimetres: the design is resampled (Lanczos) " +
				"to width_mm × dpi / 25.4 px wide, its height in proportion, before it is separated, so each " +
				"film prints at that size. Default: one design pixel per film dot."},
		"garment": tasks.ColourSchema("The garment's colour, #RRGGBB: the design's ink within ΔE2000 8 of it is " +
			"the garment showing through, so it gets no film. Default: every ink prints."),
		"trap_px": obj{"minimum": 0, "maximum": maxTrapPx,
			"description": "Trap in film pixels: each ink spreads this far under the darker inks it meets, " +
				"so a screen a little out of register shows no gap. Send trap_px or trap_mm, not both."},
		"trap_mm": obj{"minimum": 0, "maximum": maxTrapMM,
			"description": "Trap in millimetres, converted at dpi; see trap_px."},
		"underbase": obj{"default": false,
			"description": "Add a white underbase film, printed first, for a dark garment: every printed " +
				"ink's area, choked (shrunk) so it stays hidden under the inks."},
		"underbase_choke_px": obj{"minimum": 0, "maximum": maxTrapPx,
			"description": fmt.Sprintf("How far the underbase is choked, in film pixels (default %d). "+
				"Send underbase_choke_px or underbase_choke_mm, not both.", defaultChokePx)},
		"underbase_choke_mm": obj{"minimum": 0, "maximum": maxTrapMM,
			"description": "How far the underbase is choked, in millimetres, converted at dpi."},
		"halftone_lpi": obj{"minimum": minLPI, "maximum": maxLPI,
			"description": "Screen soft inks as halftones at this many lines per inch (55 to 65 is usual on " +
				"garments): a film's greys — blends at edges, soft shading — become round dots. Default: " +
				"solid films, every pixel printing all or nothing."},
		"halftone_angle": obj{"minimum": 0, "maximum": 90, "default": 22.5,
			"description": "The halftone screen's angle in degrees."},
		"halftone_inks": obj{"maxItems": maxSeparations,
			"items": tasks.ColourSchema("An ink to halftone: the design's ink nearest this colour."),
			"description": "The soft inks to halftone, each the design's ink nearest the colour sent " +
				"(within ΔE2000 15). Default with halftone_lpi: every ink."},
	}
	return props
}
