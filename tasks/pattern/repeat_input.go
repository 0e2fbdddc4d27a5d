package pattern

import "github.com/taskplatform/taskplatform/tasks"

// repeatInput is a pattern.repeat request, defaults applied.
type repeatInput struct {
	Image      string   `json:"image" schema:"required"`
	Layouts    []string `json:"layouts"`
	Resolution string   `json:"resolution"`
	MotifScale float64  `json:"motif_scale"`
	Background string   `json:"background"`
	Knockout   bool     `json:"knockout"`
	Rotation   float64  `json:"rotation"`
	Toss       bool     `json:"toss"`
	Spacing    *int     `json:"spacing"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (repeatInput) FieldSchemas() map[string]any {
	props := obj{
		"image": obj{"pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
			"description": "The motif: a file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL.",
			"examples":    []any{"file:abc123", "art:def456"}},
		"layouts": obj{
			"items":       tasks.VocabEnum(layoutVocab(), "A repeat layout."),
			"minItems":    1,
			"maxItems":    4,
			"uniqueItems": true,
			"default":     []any{"half_drop"},
			"description": "The layouts to make, one tile each, in this order.",
		},
		"resolution": tasks.VocabEnum(tasks.ResolutionVocab(), "The side of each square tile in pixels."),
		"motif_scale": obj{
			"minimum":     0.1,
			"maximum":     1,
			"default":     0.6,
			"description": "The motif's longest side as a share of a cell (a tile is 2 × 2 cells).",
		},
		"background": tasks.ColourSchema(
			"The ground colour behind the motif, #RRGGBB; transparent parts of the motif show it.",
		),
		"knockout": obj{"default": true,
			"description": "Knock out a plain backdrop: a motif with no transparency whose border is one plain colour (a " +
				"JPEG on white) has that backdrop made transparent by image.remove_background's cut-out (tolerance 12, " +
				"feather 2), so the ground shows around it instead of a box. The data's knockout says what was done. " +
				"false keeps the motif as sent."},
		"rotation": obj{"minimum": -180, "maximum": 180, "default": 0,
			"description": "Turn every copy of the motif by this many degrees (clockwise)."},
		"spacing": obj{"minimum": 0, "maximum": 1016,
			"description": "The gap between neighbouring copies, in pixels of the tile, measured along the motif's " +
				"longest side before any turn: the motif is scaled so its longest side is a cell (half the tile) minus " +
				"spacing. When sent it replaces motif_scale; 0 sets copies edge to edge. At most the cell minus 8 px " +
				"(248 at 512, 504 at 1024, 1016 at 2048). The data's gap_px says the gaps across and down as drawn."},
		"toss": obj{"default": false,
			"description": "A tossed repeat: each of the tile's four copies turned by its own angle (0, 140, 250 and " +
				"35 degrees, added to rotation), as scattered motifs are laid out."},
	}
	props["resolution"].(obj)["default"] = "1024"
	props["background"].(obj)["default"] = "#FFFFFF"
	return props
}
