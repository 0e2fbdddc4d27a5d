package pattern

import "github.com/taskplatform/taskplatform/tasks"

// generateInput is a pattern.generate request, defaults applied. The
// fields of one kind only (stripe_angle, dot_size, amplitude) are zero for
// the other kinds.
type generateInput struct {
	Kind         string   `json:"kind"`
	Colors       []string `json:"colors" schema:"required"`
	Count        int      `json:"count"`
	Resolution   string   `json:"resolution"`
	Seed         int64    `json:"seed"`
	Repeats      *int     `json:"repeats"`
	UseCase      string   `json:"use_case"`
	StripeAngle  int      `json:"stripe_angle"`
	DotSize      float64  `json:"dot_size"`
	Amplitude    float64  `json:"amplitude"`
	DotLayout    string   `json:"dot_layout"`
	StripeWidths []int    `json:"stripe_widths"`
	LineWidth    float64  `json:"line_width"`
	Format       string   `json:"format"`
	Sett         *string  `json:"sett"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (generateInput) FieldSchemas() map[string]any {
	props := fields()
	props["kind"] = tasks.VocabEnum(kindVocab(), "The motif. Some fields apply to some kinds only.")
	props["dot_size"] = obj{"minimum": 0.1, "maximum": 0.9, "default": 0.5,
		"description": "Dot diameter as a fraction of the cell. Only for kind dots."}
	props["dot_layout"] = tasks.FieldEnum([]tasks.VocabValue{
		{Value: "half_drop", Default: true, Description: "every other column of dots drops by half a cell, the classic " +
			"polka dot.",
			ChooseWhen: "you want dots that read as an even scatter"},
		{Value: "grid", Description: "dots in straight rows and columns.",
			ChooseWhen: "you want a formal, geometric spot"},
	}, "The lattice the dots sit on. Only for kind dots.")
	props["stripe_widths"] = obj{"minItems": 1, "maxItems": 24,
		"items": obj{"minimum": 1, "maximum": 100, "examples": []any{6, 1}},
		"description": "Relative widths of the bands of one repeat, in order; band i is drawn in colors[i mod the " +
			"number of colours], so [6, 1, 1, 1] with two colours is a wide band, then narrow ones alternating. " +
			"Without it the widths vary with the seed. Only for kind stripes."}
	props["line_width"] = obj{"minimum": 0.03, "maximum": 0.3, "default": 0.08,
		"description": "Width of a windowpane line as a fraction of one repeat. Only for kind windowpane."}
	props["amplitude"] = obj{"minimum": 0.1, "maximum": 1, "default": 0.5,
		"description": "Height of the zigzag or wave as a fraction of one repeat. Only for kinds chevron and waves."}
	props["format"] = tasks.FieldEnum(formatOptions(), "The file format of each tile.")
	props["sett"] = obj{"minLength": 2, "maxLength": 400, "examples": []any{"K4 R24 K24 Y4"},
		"description": "A tartan's thread count: stripes of a colour code (1 to 3 letters) and a number of threads, " +
			"from one pivot to the other, as \"K4 R24 K24 Y4\". The codes name colors in order of first appearance " +
			"(send one colour per code: K, R, Y above take colors[0], [1], [2]). Symmetric by default: woven there and " +
			"back, the first and last stripes (the pivots, which a slash may mark: K/4) once each; \"...\" at an end " +
			"marks an asymmetric sett, woven as written. Woven as a 2/2 twill, the same sett in warp and weft, at least " +
			"3 px a thread when the resolution allows. Only for kind plaid; without it the seed draws the sett."}
	props["colors"].(obj)["description"] = props["colors"].(obj)["description"].(string) + " With a sett, one " +
		"colour per colour code, in the order the codes first appear."
	return props
}

// fields are the input properties pattern.generate and pattern.stripes share.
func fields() obj {
	return obj{
		"colors": obj{
			"minItems": 1, "maxItems": 6, "items": tasks.ColourSchema("A colour, #RRGGBB."),
			"description": "The colours to draw with, 1 to 6, in order; the first is the ground of dots, diamonds and " +
				"houndstooth. One colour is drawn on a transparent ground.",
		},
		"count": obj{
			"minimum":     1,
			"maximum":     8,
			"default":     1,
			"description": "How many tiles to make; tile i uses seed + i.",
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
		"repeats": obj{"minimum": 1, "maximum": 32,
			"description": "Motif repeats across the tile side; default from use_case. Kinds that cycle colours per cell " +
				"round it up to a multiple of the colours cycled."},
		"use_case": tasks.VocabEnum(
			tasks.UseCaseVocab(),
			"Where the design goes; sets repeats when repeats is not sent.",
		),
		"stripe_angle": obj{"enum": []any{0, 45, 90, 135}, "default": 0,
			"description": "Direction of stripes in degrees: 0 horizontal, 90 vertical, 45 and 135 diagonal. Only for kind " +
				"stripes."},
	}
}
