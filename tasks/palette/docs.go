package palette

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// docs is the page of palette.generate.
func docs() tasks.Docs {
	return tasks.Docs{
		Lead: "palette.generate builds colour harmonies around one base colour — complementary, analogous, triadic and " +
			"more — and draws each as a labelled SVG swatch sheet. Every sheet's data lists its colours as hex, RGB and HSL, " +
			"ready to send to pattern.generate.",
		BuiltFor: []string{
			"Starting a collection's colour story from one brand colour.",
			"Feeding exact colours to pattern.generate.",
		},
		WhatYouGet: []string{
			"One SVG swatch sheet per entry of schemes, in the order sent; a swatch light enough to vanish on the white " +
				"sheet (relative luminance above 0.75) is outlined, as on every sheet the project draws.",
			"With formats, the same sheet also as an Adobe Swatch Exchange file (ase: a group per sheet, RGB colours named " +
				"by role and hex, then their shade steps) and a GIMP/Inkscape palette (gpl), each file one output.",
			"Each file's data: the scheme and its colours with role, hex, RGB, HSL and optional shade steps.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One file per entry of schemes (1 to 6; default 3) and of formats (1 to 3; default svg).",
			CountDependsOn: []string{"schemes", "formats"},
			Order:          new("The order of schemes; within a scheme, the order of formats."),
			AbsentWhen: new(
				"A sheet that cannot be drawn is absent and not charged; the summary carries output_not_produced.",
			),
		},
		Specs: []tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: "No files: one #RRGGBB colour."},
			{Key: "input_count", Title: "Input count", Text: "One base colour, 1 to 6 schemes."},
			{Key: "output_format", Title: "Output format", Text: "SVG (image/svg+xml); on request ASE 1.0 " +
				"(application/x-adobe-ase) and GIMP palette (application/x-gimp-palette)."},
			{Key: "output_resolution", Title: "Output resolution", Text: "Vector; 136 px per colour wide at 1:1."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "1 to 18 (schemes × formats)."},
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
			"Harmonies are turns of the hue circle in OKLCH, a perceptual colour space: every colour keeps the base's " +
				"perceived lightness and chroma, and a colour outside sRGB is brought in by lowering its chroma (hue and " +
				"lightness kept). The monochromatic sheet's tints and shades are steps of OKLCH lightness (±0.12, ±0.24) at the " +
				"base's hue and chroma, and a colour moved to stay distinct moves in OKLCH lightness too, so no colour of any " +
				"sheet is more chromatic than the base (within 0.005 of OKLCH chroma, 8-bit rounding; tested over every " +
				"scheme); the shades rows under each colour mix it toward white (30 %, 60 %) then black in OKLab, lowering " +
				"chroma with it, so no step is more saturated than its colour.",
			"The base colour is always in every sheet exactly as sent (same hex) and is never moved; another colour too " +
				"close to the base or to an earlier colour (closer than CIEDE2000 5: a grey's complement, a near-white's tints) " +
				"is moved in lightness instead and reported with the warning colour_adjusted.",
			"ASE files hold RGB colours (no CMYK, Lab or spot inks) of type normal, not global; GPL files hold 8-bit RGB. " +
				"Both name each colour by its role and hex.",
			"In the monochromatic sheet, colours darker than the base are named shade_1, shade_2 … and lighter ones tint_1, " +
				"tint_2 …, nearest first: a base with no room above it (white) gets shades only.",
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
		{Name: "swatch_files", Title: "A palette for Illustrator and GIMP",
			Description: "The triadic sheet of #3A5A40 as an SVG sheet, an ASE swatch file and a GIMP palette.",
			Input: json.RawMessage(
				`{"base_color":"#3A5A40","schemes":["triadic"],"shades":2,"formats":["svg","ase","gpl"]}`,
			)},
		{Name: "grey_adjusted", Title: "A grey base, with adjusted colours",
			Description: "A grey's complement is the same grey, so it is moved in lightness and the summary warns " +
				"colour_adjusted.",
			Input: json.RawMessage(
				`{"base_color":"#808080","schemes":["complementary","monochromatic"],"shades":2}`,
			)},
	}
}
