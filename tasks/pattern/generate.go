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
	v := &tasks.Variant{Field: "kind", Default: "stripes", Only: map[string][]string{
		"stripe_angle": {"stripes"}, "dot_size": {"dots"}, "amplitude": {"chevron", "waves"},
		"dot_layout": {"dots"}, "stripe_widths": {"stripes"}, "line_width": {"windowpane"}, "sett": {"plaid"},
	}}
	return &tasks.Definition{
		Name: "pattern.generate", Title: "Generate a repeat pattern",
		Description: "Draws seamless repeat pattern tiles in your colours: stripes, checks, dots, chevron, waves, " +
			"diamonds, houndstooth, plaid, gingham, buffalo check or windowpane.",
		Category: tasks.CategoryDesignGeneration, Unit: "tile",
		InputSchema: tasks.MustJSON(tasks.InputSchema[generateInput](
			"pattern.generate input",
			"A seamless pattern tile request.",
			v,
		)),
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
