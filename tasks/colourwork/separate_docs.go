package colourwork

import (
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// separateDocs are colour.separate's docs.
func separateDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "colour.separate prepares a flat-colour design for screen printing. It finds the design's spot colours at " +
			"full resolution — k-means in CIELAB from a fixed seed over every pixel, so a 1-px line is its own colour, " +
			"colours " +
			"closer than ΔE2000 8 counted as one ink, a colour that is only the blend where two inks meet dropped — and " +
			"gives every pixel to the ink it was drawn with: a flat pixel to its ink, a pixel on an anti-aliased edge to " +
			"the nearer of the inks that meet there (never to a third ink whose colour matches the blend), and any patch " +
			"under 6 touching px to the ink around it. With more inks than max_colours, only inks a printer would print as " +
			"one are merged (within ΔE2000 20, of one hue, never black with a colour); a design whose inks are all distinct " +
			"fails naming them and the max_colours that holds them. Each ink gets a film: black where it prints, with " +
			"registration marks and a label naming the job, the ink (a descriptive colour name and its hex), the print " +
			"order and the design's physical size at dpi; lines finer than a screen holds (0.15 mm) stay as drawn with a " +
			"fine_lines warning; options add trap, a choked white underbase for dark garments and halftone screens for " +
			"soft inks. The composite and every film are cut from one separation. It is deterministic image processing, " +
			"not a generative model.",
		BuiltFor: []string{
			"Screen and pad printing: one film per ink, in print order, registered and labelled.",
			"Printing on dark garments: the garment colour gets no film and a choked white underbase prints first.",
			"Quoting a print job: how many inks a design needs and how much of each.",
		},
		WhatYouGet: []string{
			"Index 0: the composite preview, a PNG of the design in its inks only (the garment in the colour sent); compare " +
				"it with the design to see what the separation keeps.",
			"With underbase: index 1 is the white underbase film — every printed pixel, choked by underbase_choke_px " +
				"(default 2) so it hides under the inks.",
			"Then one film per ink, in order: an 8-bit greyscale PNG, black (0) where the ink prints and white (255) " +
				"elsewhere, the design at one film dot per pixel inset margin_px (12 mm at dpi) from the left and top, four " +
				"registration marks at the middle of the margins — the same place on every film — and a label below: job name, " +
				"ink number, name and hex, print order, size in mm at dpi, trap or halftone. The PNG's pHYs chunk records dpi.",
			"trap_px or trap_mm spreads each ink that far under every darker ink it meets (lighter inks spread under darker " +
				"ones, as they print first and the dark ink hides the overlap).",
			"halftone_lpi screens the inks in halftone_inks (default all) as round dots at halftone_angle: a pixel that is a " +
				"blend of an ink and another (an anti-aliased edge, a gradient, a soft glow) prints that share of the ink as " +
				"dots; tints under 10 % print nothing and over 90 % print solid.",
			"Every file's data lists the printed inks in order with their hex, descriptive name and coverage in percent; a " +
				"film's data names its own ink, and the film's size and the design's place on it.",
		},
		Outputs: tasks.DocsOutputs{
			Count: "1 + max_colours files asked for (one more with underbase): the composite, the underbase, then a " +
				"film per ink found (at most max_colours).",
			CountDependsOn: []string{"max_colours", "underbase"},
			Order: new("The composite first, then the underbase when asked, then the ink films in order " +
				"(separation_order)."),
			AbsentWhen: new(
				"A design with fewer spot colours than max_colours (or one that is the garment colour) gets fewer films: the " +
					"missing ones are reported output_not_produced and not charged. An image that cannot be read, or is fully " +
					"transparent, fails the job with processing_failed, and so does a halftone_inks colour that is none of the " +
					"design's inks, and a design with more distinct inks than max_colours (the message names them and the " +
					"max_colours to send).",
			),
		},
		Specs: append([]tasks.SpecRow{
			{Key: "input_count", Title: "Input count", Text: "One image."},
			{
				Key:   "output_format",
				Title: "Output format",
				Text: "PNG: the composite in RGBA (transparent where the design is), the films 8-bit greyscale, black and " +
					"white only, with a pHYs chunk giving dpi.",
			},
			{Key: "output_resolution", Title: "Output resolution", Text: "The composite: the design's, after EXIF " +
				"orientation. A film: the design (resampled to width_mm at dpi when sent, at most 40 MP, else refused naming " +
				"width_mm) plus margin_px on each side and the label band below (film_width × film_height in the data), at dpi " +
				"(default 300)."},
			{
				Key:   "outputs_per_job",
				Title: "Outputs per job",
				Text:  fmt.Sprintf("2 to %d: the composite, the underbase when asked and one film per ink.", 2+maxSeparations),
			},
		}, commonSpecs()...),
		Limitations: []string{
			"Measured on a ground-truth set of flat designs with known inks (anti-aliased, saved as JPEG quality 85; " +
				"BenchmarkSeparationTruth): at most 0.17 % of any film's ink lies more than 1 px from the ink's true region, no " +
				"film has a patch under 6 px, each ink's coverage is within 0.3 percentage points of the truth and its " +
				"declared colour within 5 sRGB units.",
			"Measured on line art (red rings, 1-px black hairlines straight and diagonal, 18-px lettering on white; " +
				"BenchmarkLineArtSeparation): crisp or through JPEG, each ink is declared within ΔE2000 0.3 of its true " +
				"colour, each film prints at least 99.7 % of its ink's pixels and 99.9 % of the hairlines' pixels; asked into " +
				"2 inks the job fails naming the 3.",
			"Made for flat-colour art: a photo is posterised into at most max_colours inks; halftones come only from blends " +
				"between two inks (edges, gradients, soft glows), not from a photo's full tonal range (no simulated process).",
			"Detail under 6 touching px (a dot) joins the ink around it: a screen would not hold it. A line 1 px wide is " +
				"kept; one finer than 0.15 mm at dpi warns fine_lines on its film.",
			"An ink under 0.02 % of the design, or one with no flat area that lies within ΔE2000 20 of a larger ink of " +
				"the same hue, is taken for JPEG noise or an edge blend and joins its neighbours; so is one with no flat area " +
				"that has the lightness of one ink and a colour between it and another (JPEG's 2 × 2 colour averaging at a " +
				"1-px navy line across orange makes it dark brown): measured through JPEG, navy and orange 1-px lines over " +
				"each other on cream keep their 3 inks, each within ΔE2000 3 and 98 % of its pixels " +
				"(TestThinLinesOverAnInkAreNotAnInk).",
			"Ink names are the nearest descriptive colour names (the nearest by CIEDE2000 in the colour_name vocabulary), " +
				"not Pantone or other ink-system matches: match the hex to your ink system.",
			"Halftones are round dots without dot-gain compensation or stochastic screening; trap spreads light inks under " +
				"darker ones only, and no ink overprints another except through trap.",
			"The composite and the films are cut from one separation kept in the worker's memory (up to 240 MB of ink " +
				"maps); an output run on another worker, or after the separation was dropped, separates again with the same " +
				"result. A 4-ink job at 280 mm and 300 dpi (3,307 × 2,756 px; the composite and 4 films, BenchmarkFourInkJob) " +
				"took 9.6 s of CPU in all, 7.2 s of it the one separation.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.TooManyColours,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.InvalidColour,
			apierr.FineLines,
		),
		Related: []tasks.Related{
			{Task: "colourway.generate", Relation: "before"},
			{Task: "image.recolour", Relation: "before"},
		},
	}
}
