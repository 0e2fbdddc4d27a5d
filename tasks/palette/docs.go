package palette

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// docs is the page of palette.generate.
func docs() tasks.Docs {
	return tasks.Docs{
		Lead: "palette.generate builds colour harmonies around one base colour — complementary, analogous, triadic and more — and draws each as a labelled SVG swatch sheet. Every sheet's data lists its colours as hex, RGB and HSL, ready to send to pattern.generate.",
		BuiltFor: []string{
			"Starting a collection's colour story from one brand colour.",
			"Feeding exact colours to pattern.generate.",
		},
		WhatYouGet: []string{
			"One SVG swatch sheet per entry of schemes, in the order sent.",
			"Each file's data: the scheme and its colours with role, hex, RGB, HSL and optional shade steps.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One sheet per entry of schemes (1 to 6; default 3).",
			CountDependsOn: []string{"schemes"},
			Order:          new("The order of schemes."),
			AbsentWhen: new(
				"A sheet that cannot be drawn is absent and not charged; the summary carries output_not_produced.",
			),
		},
		Specs: []tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: "No files: one #RRGGBB colour."},
			{Key: "input_count", Title: "Input count", Text: "One base colour, 1 to 6 schemes."},
			{Key: "output_format", Title: "Output format", Text: "SVG (image/svg+xml)."},
			{Key: "output_resolution", Title: "Output resolution", Text: "Vector; 136 px per colour wide at 1:1."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "1 to 6 (schemes)."},
			{Key: "watermark", Title: "Watermark", Text: "None."},
			{Key: "commercial_use", Title: "Commercial use", Text: "Allowed."},
			{Key: "content_checks", Title: "Content checks", Text: "None."},
			{
				Key:   "reproducibility",
				Title: "Reproducibility",
				Text:  "Deterministic: the same input gives the same bytes.",
			},
		},
		Limitations: []string{
			"Harmonies are turns of the hue circle in OKLCH, a perceptual colour space: every colour keeps the base's perceived lightness and chroma, and a colour outside sRGB is brought in by lowering its chroma (hue and lightness kept). Tints, shades and the shades rows are steps of HSL lightness.",
			"The base colour is always in every sheet exactly as sent (same hex) and is never moved; another colour too close to the base or to an earlier colour (closer than 0.05 in OKLab, about ΔE 5: a grey's complement, a near-white's tints) is moved in lightness instead and reported with the warning colour_adjusted.",
			"In the monochromatic sheet, colours darker than the base are named shade_1, shade_2 … and lighter ones tint_1, tint_2 …, nearest first: a base with no room above it (white) gets shades only.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.InvalidColour,
			apierr.ColourAdjusted,
		),
		Related: []tasks.Related{
			{Task: "pattern.generate", Relation: "after"},
		},
	}
}

// examples are the examples of palette.generate.
func examples() []tasks.Example {
	return []tasks.Example{
		{Name: "brand_blue", Title: "Harmonies of a brand blue",
			Description: "Complementary and triadic sheets around #1F6FEB.",
			Input:       json.RawMessage(`{"base_color":"#1F6FEB","schemes":["complementary","triadic"]}`)},
		{Name: "grey_adjusted", Title: "A grey base, with adjusted colours",
			Description: "A grey's complement is the same grey, so it is moved in lightness and the summary warns colour_adjusted.",
			Input: json.RawMessage(
				`{"base_color":"#808080","schemes":["complementary","monochromatic"],"shades":2}`,
			)},
	}
}
