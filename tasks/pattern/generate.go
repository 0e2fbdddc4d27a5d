package pattern

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// obj is a JSON object under construction.
type obj = map[string]any

// fields are the input properties pattern.generate and pattern.stripes share.
func fields() obj {
	return obj{
		"colors": obj{
			"type": "array", "minItems": 1, "maxItems": 6, "items": tasks.ColourSchema("A colour, #RRGGBB."),
			"description": "The colours to draw with, 1 to 6, in order; the first is the ground of dots, diamonds and " +
				"houndstooth. One colour is drawn on a transparent ground.",
		},
		"count": obj{
			"type":        "integer",
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
			"type":        "integer",
			"minimum":     0,
			"maximum":     4294967295,
			"default":     0,
			"description": "Same input and seed give the same bytes.",
		},
		"repeats": obj{"type": "integer", "minimum": 1, "maximum": 32,
			"description": "Motif repeats across the tile side; default from use_case. Kinds that cycle colours per cell " +
				"round it up to a multiple of the colours cycled."},
		"use_case": tasks.VocabEnum(
			tasks.UseCaseVocab(),
			"Where the design goes; sets repeats when repeats is not sent.",
		),
		"stripe_angle": obj{"type": "integer", "enum": []any{0, 45, 90, 135}, "default": 0,
			"description": "Direction of stripes in degrees: 0 horizontal, 90 vertical, 45 and 135 diagonal. Only for kind " +
				"stripes."},
	}
}

// outputSchema is the data of a tile of pattern.generate and pattern.stripes.
func outputSchema() json.RawMessage {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Pattern tile data", "type": "object",
		"description": "The data of one delivered tile.",
		"properties": obj{
			"kind": obj{
				"type":             "string",
				tasks.VocabKeyword: "pattern_kind",
				"description":      "The motif drawn.",
			},
			"index": obj{"type": "integer", "minimum": 0, "description": "The output number, from 0."},
			"seed": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The seed this tile was drawn with (the input seed + index).",
			},
			"colors": obj{
				"type":        "array",
				"items":       tasks.ColourSchema("A colour drawn."),
				"description": "The colours drawn, as sent.",
			},
			"transparent_ground": obj{
				"type":        "boolean",
				"description": "True when one colour was sent and the ground is transparent.",
			},
			"width":      obj{"type": "integer", "description": "Width in pixels."},
			"height":     obj{"type": "integer", "description": "Height in pixels."},
			"resolution": obj{"type": "string", tasks.VocabKeyword: "resolution"},
			"repeats": obj{
				"type":        "integer",
				"minimum":     1,
				"description": "Motif repeats across the tile side, as drawn.",
			},
			"use_case": obj{"type": "string", tasks.VocabKeyword: "use_case"},
			"sett": obj{"type": "string",
				"description": "The tartan's thread count as woven (kind plaid with a sett): each stripe's code and threads."},
			"sett_threads": obj{"type": "integer", "minimum": 2,
				"description": "Threads of one woven repeat of the sett (a symmetric sett there and back)."},
			"sett_colors": obj{"type": "object", "additionalProperties": tasks.ColourSchema("The colour of a code."),
				"description": "Each colour code of the sett and the colour it was woven in."},
			"format": obj{"type": "string", "enum": []any{"png", "svg", "pdf"},
				"description": "The file's format: png, or svg and pdf of the same tile as vector shapes (the " +
					"built-in renderer always says; a route to a model may not)."},
			"seamless": obj{
				"const":       true,
				"description": "The left edge continues the right, the top continues the bottom.",
			},
		},
		"required": []string{
			"kind",
			"index",
			"seed",
			"colors",
			"transparent_ground",
			"width",
			"height",
			"resolution",
			"repeats",
			"use_case",
			"seamless",
		},
	})
}

// wovenKinds draw a ground and at most two band colours.
var wovenKinds = []string{"gingham", "buffalo_check", "windowpane"}

// refuseGenerate refuses a woven check of more colours than it weaves:
// drawing some of them and dropping the rest would not be what was asked.
func refuseGenerate(in *generateInput, _ map[string]tasks.ImageSize) *apierr.Error {
	if in.Sett != nil {
		if e := refuseSett(in); e != nil {
			return e
		}
	}
	if in.Format != "png" && slices.Contains(wovenKinds, in.Kind) && len(in.Colors) < 2 {
		return apierr.Newf(apierr.RequestRefused, "kind %s as %s needs a ground colour: its mixed tones would be "+
			"see-through on a transparent ground. Send 2 or 3 colours, or format png.", in.Kind, in.Format).
			WithField("colors")
	}
	if slices.Contains(wovenKinds, in.Kind) && len(in.Colors) > 3 {
		return apierr.Newf(apierr.RequestRefused, "kind %s weaves a ground and at most two band colours "+
			"(vertical, horizontal); %d colours were sent: send 1 to 3, or use kind plaid for more.",
			in.Kind, len(in.Colors)).WithField("colors")
	}
	return nil
}

// refuseSett checks a sett: its notation, one colour per code, and
// threads of at least a pixel at the resolution.
func refuseSett(in *generateInput) *apierr.Error {
	st, e := parseSett(*in.Sett)
	if e != nil {
		return e
	}
	if len(st.codes) != len(in.Colors) {
		return apierr.Newf(apierr.RequestRefused, "the sett %s names %d colours (%s, in order of first appearance); "+
			"%d colours were sent: send one colour per code, in that order.", st, len(st.codes),
			strings.Join(st.codes, ", "), len(in.Colors)).WithField("colors")
	}
	size, _ := strconv.Atoi(in.Resolution)
	if n := len(st.threads()); size > 0 && n > size {
		return apierr.Newf(apierr.RequestRefused, "the sett weaves %d threads a repeat: at resolution %s a thread "+
			"would be under 1 px. Send a larger resolution or a shorter sett.", n, in.Resolution).WithField("sett")
	}
	return nil
}

// colourRules answer colour failures with the colour codes.
var colourRules = []tasks.ErrorRule{
	{Field: "colors", Keyword: "maxItems", Code: apierr.TooManyColours},
	{Field: "colors[]", Keyword: "pattern", Code: apierr.InvalidColour},
	{Field: "colors[]", Keyword: "type", Code: apierr.InvalidColour},
}

// resolutionPricing prices a tile by its side.
var resolutionPricing = tasks.Pricing{
	CreditType: contract.CreditService, Option: "resolution",
	ByOption: []tasks.OptionPrice{{Value: "512", Credits: 1}, {Value: "1024", Credits: 2}, {Value: "2048", Credits: 4}},
}

// generate draws seamless tiles of every kind.
func generate() *tasks.Definition {
	props := fields()
	props["kind"] = tasks.VocabEnum(kindVocab(), "The motif. Some fields apply to some kinds only.")
	props["dot_size"] = obj{"type": "number", "minimum": 0.1, "maximum": 0.9, "default": 0.5,
		"description": "Dot diameter as a fraction of the cell. Only for kind dots."}
	props["dot_layout"] = tasks.FieldEnum([]tasks.VocabValue{
		{Value: "half_drop", Default: true, Description: "every other column of dots drops by half a cell, the classic " +
			"polka dot.",
			ChooseWhen: "you want dots that read as an even scatter"},
		{Value: "grid", Description: "dots in straight rows and columns.",
			ChooseWhen: "you want a formal, geometric spot"},
	}, "The lattice the dots sit on. Only for kind dots.")
	props["stripe_widths"] = obj{"type": "array", "minItems": 1, "maxItems": 24,
		"items": obj{"type": "integer", "minimum": 1, "maximum": 100, "examples": []any{6, 1}},
		"description": "Relative widths of the bands of one repeat, in order; band i is drawn in colors[i mod the " +
			"number of colours], so [6, 1, 1, 1] with two colours is a wide band, then narrow ones alternating. " +
			"Without it the widths vary with the seed. Only for kind stripes."}
	props["line_width"] = obj{"type": "number", "minimum": 0.03, "maximum": 0.3, "default": 0.08,
		"description": "Width of a windowpane line as a fraction of one repeat. Only for kind windowpane."}
	props["amplitude"] = obj{"type": "number", "minimum": 0.1, "maximum": 1, "default": 0.5,
		"description": "Height of the zigzag or wave as a fraction of one repeat. Only for kinds chevron and waves."}
	props["format"] = tasks.FieldEnum(formatOptions(), "The file format of each tile.")
	props["sett"] = obj{"type": "string", "minLength": 2, "maxLength": 400, "examples": []any{"K4 R24 K24 Y4"},
		"description": "A tartan's thread count: stripes of a colour code (1 to 3 letters) and a number of threads, " +
			"from one pivot to the other, as \"K4 R24 K24 Y4\". The codes name colors in order of first appearance " +
			"(send one colour per code: K, R, Y above take colors[0], [1], [2]). Symmetric by default: woven there and " +
			"back, the first and last stripes (the pivots, which a slash may mark: K/4) once each; \"...\" at an end " +
			"marks an asymmetric sett, woven as written. Woven as a 2/2 twill, the same sett in warp and weft, at least " +
			"3 px a thread when the resolution allows. Only for kind plaid; without it the seed draws the sett."}
	props["colors"].(obj)["description"] = props["colors"].(obj)["description"].(string) + " With a sett, one " +
		"colour per colour code, in the order the codes first appear."
	v := &tasks.Variant{Field: "kind", Default: "stripes", Only: map[string][]string{
		"stripe_angle": {"stripes"}, "dot_size": {"dots"}, "amplitude": {"chevron", "waves"},
		"dot_layout": {"dots"}, "stripe_widths": {"stripes"}, "line_width": {"windowpane"}, "sett": {"plaid"},
	}}
	return &tasks.Definition{
		Name: "pattern.generate", Title: "Generate a repeat pattern",
		Description: "Draws seamless repeat pattern tiles in your colours: stripes, checks, dots, chevron, waves, " +
			"diamonds, houndstooth, plaid, gingham, buffalo check or windowpane.",
		Category: tasks.CategoryDesignGeneration, Unit: "tile",
		InputSchema: tasks.MustJSON(tasks.ObjectSchema("pattern.generate input",
			"A seamless pattern tile request.", props, []string{"colors"}, v)),
		OutputSchema: outputSchema(),
		Runner:       tasks.Typed[generateInput](runner{}),
		Pricing:      resolutionPricing,
		ErrorRules:   colourRules,
		Refuse:       tasks.Refusal(refuseGenerate),
		Variant:      v,
		Docs:         generateDocs(),
		Examples:     generateExamples(),
		Produces:     []string{"seamless_tile", "job"},
		Uses:         []string{"colour_harmony", "seed", "output_resolution", "task_variant", "credit_hold"},
	}
}
