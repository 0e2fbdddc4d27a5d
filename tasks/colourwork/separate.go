package colourwork

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

// The bounds of max_colours: a screen print has at least two inks (or a
// shirt and one ink) and rarely more than twelve screens.
const (
	minSeparations = 2
	maxSeparations = 12
)

// A spot colour is a cluster the design keeps: clusters nearer than
// mergeDE (CIEDE2000) are one ink, and one under minCoverage of the design
// (anti-aliased edges, noise) is folded into its nearest ink.
const (
	mergeDE     = 8
	minCoverage = 0.01
)

// The bounds of a film's fields.
const (
	minFilmDPI, maxFilmDPI, defaultFilmDPI = 72, 1200, 300
	maxTrapPx, maxTrapMM                   = 20, 2.0
	defaultChokePx                         = 2
	minLPI, maxLPI                         = 10, 120
)

func separate() *tasks.Definition {
	return &tasks.Definition{
		Name: "colour.separate", Title: "Separate a design into spot colours",
		Description: "Splits a flat-colour design into screen-printing films — one per spot colour, black where the ink " +
			"prints, with registration marks and a label naming the job, the ink and its colour — plus a composite preview " +
			"and each ink's coverage; trap, a white underbase and halftones on request.",
		Category: tasks.CategoryProductionPrep, Unit: "file",
		InputSchema: tasks.MustJSON(tasks.InputSchema[separateInput](
			"colour.separate input",
			"A design and the most spot colours to separate it into, with the films' options.",
			nil,
		)),
		OutputSchema: separateOutput(),
		Runner:       tasks.Typed[separateInput](separateRunner{}),
		Pricing:      perOutput(1),
		RefSides:     map[string]tasks.ImageSides{"image": imagetasks.InputSides},
		Refuse:       tasks.Refusal(refuseSeparate),
		ErrorRules: []tasks.ErrorRule{
			{Field: "max_colours", Keyword: "maximum", Code: apierr.TooManyColours},
			{Field: "garment", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "garment", Keyword: "type", Code: apierr.InvalidColour},
			{Field: "halftone_inks[]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "halftone_inks[]", Keyword: "type", Code: apierr.InvalidColour},
		},
		Docs:     separateDocs(),
		Produces: []string{"colour_separation", "job"},
		Uses:     []string{"credit_hold"},
		Examples: []tasks.Example{{
			Name: "lemon_print", Title: "A three-colour lemon print as screens",
			Description: "Three inks: the job delivers the composite and the cream, lemon and leaf green films, light to " +
				"dark, with each ink's coverage.",
			Input: json.RawMessage(`{"image":"file:example_lemon_print","max_colours":3,"job_name":"Lemon tee"}`),
			Files: []tasks.ExampleFile{printFile},
		}, {
			Name: "dark_garment", Title: "The lemon print on a navy tee",
			Description: "The same print on navy: an underbase film choked 2 px prints first, each ink spreads 0.2 mm under " +
				"darker ones.",
			Input: json.RawMessage(`{"image":"file:example_lemon_print","max_colours":3,"job_name":"Lemon tee navy",` +
				`"underbase":true,"trap_mm":0.2}`),
			Files: []tasks.ExampleFile{printFile},
		}, {
			Name: "line_art", Title: "Line art with hairlines",
			Description: "A red ring, 1-px black hairlines and a bold bar on white, as three inks at 300 dpi: the hairlines " +
				"stay on the black film, which warns fine_lines (1 px is 0.08 mm, finer than a screen holds).",
			Input: json.RawMessage(`{"image":"file:example_line_art","max_colours":3,"job_name":"Line art"}`),
			Files: []tasks.ExampleFile{lineArtFile},
		}},
	}
}

func separateOutput() json.RawMessage {
	ink := obj{"type": "object", "required": []string{"hex", "name", "coverage", "separation"}, "properties": obj{
		"hex": tasks.ColourSchema("The ink's colour: the mean of the design's flat pixels it prints."),
		"name": obj{"type": "string", "description": "The nearest descriptive colour name (colour_name), not an ink " +
			"system's."},
		"coverage": obj{
			"type":        "number",
			"minimum":     0,
			"maximum":     100,
			"description": "The percentage of the design's opaque pixels the ink prints, before trap.",
		},
		"separation": obj{"type": "integer", "minimum": 1, "description": "The output index of the ink's film."},
	}}
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Separation data", "type": "object",
		"description": "The data of the composite (index 0) or of one film (index 1 on).",
		"properties": obj{
			"index": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "0 for the composite; 1 on for the films in print order.",
			},
			"kind": obj{
				"type":        "string",
				"enum":        []any{"composite", "separation", "underbase"},
				"description": "What the file is.",
			},
			"image":     obj{"type": "string", "description": "The input image reference, as sent."},
			"job_name":  obj{"type": "string", "description": "The job's name as the films print it."},
			"width":     obj{"type": "integer", "minimum": 1, "description": "The design's width in pixels."},
			"height":    obj{"type": "integer", "minimum": 1, "description": "The design's height in pixels."},
			"dpi":       obj{"type": "integer", "minimum": 1, "description": "The films' resolution."},
			"width_mm":  obj{"type": "number", "description": "The design's printed width: width ÷ dpi × 25.4."},
			"height_mm": obj{"type": "number", "description": "The design's printed height."},
			"film_width": obj{"type": "integer", "minimum": 1,
				"description": "A film's width in pixels: the design plus margin_px on each side."},
			"film_height": obj{"type": "integer", "minimum": 1,
				"description": "A film's height: the design, margin_px above and below, and the label."},
			"margin_px": obj{"type": "integer", "minimum": 0,
				"description": "Where the design starts on a film, from its left and top edges, in pixels."},
			"trap_px": obj{"type": "integer", "minimum": 0, "description": "The trap applied, in pixels."},
			"order": obj{
				"type":             "string",
				tasks.VocabKeyword: "separation_order",
				"description":      "The order of the separations.",
			},
			"hex":      tasks.ColourSchema("A film's ink (#FFFFFF for the underbase); absent on the composite."),
			"ink_name": obj{"type": "string", "description": "A film's ink name; absent on the composite."},
			"coverage": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     100,
				"description": "A film's coverage in percent of the design, before trap; absent on the composite.",
			},
			"halftone": obj{"type": "boolean", "description": "Whether the film is screened as a halftone."},
			"colours": obj{
				"type":        "array",
				"items":       ink,
				"description": "Every printed ink, in the films' order.",
			},
		},
		"required": []string{"index", "kind", "image", "job_name", "width", "height", "dpi", "width_mm",
			"height_mm", "film_width", "film_height", "margin_px", "trap_px", "order", "colours"},
	})
}

// maxFilmPixels bounds the design's pixels after width_mm: the input
// image budget's 40 MP.
const maxFilmPixels = 40_000_000

// filmSize is the design's size in pixels once resampled to in.WidthMM,
// and whether it fits maxFilmPixels.
func filmSize(in *separateInput, w, h int) (int, int, bool) {
	if in.WidthMM != nil {
		fw := max(1, mmToPx(*in.WidthMM, in.DPI))
		w, h = fw, max(1, int(math.Round(float64(h)*float64(fw)/float64(w))))
	}
	return w, h, w*h <= maxFilmPixels
}

// tooLarge is the refusal of a design too large to separate at width_mm.
func tooLarge(in *separateInput, w, h int) *apierr.Error {
	fw, fh, _ := filmSize(in, w, h)
	return apierr.New(apierr.RequestRefused, fmt.Sprintf("At %g mm wide and %d dpi the design is %d × %d px "+
		"(%.1f MP); colour.separate separates at most 40 MP: send a smaller width_mm or dpi.",
		*in.WidthMM, in.DPI, fw, fh, float64(fw*fh)/1e6)).WithField("width_mm")
}

// refuseSeparate refuses options that contradict each other, and a design
// width_mm would make too large.
func refuseSeparate(in *separateInput, sizes map[string]tasks.ImageSize) *apierr.Error {
	if sz, ok := sizes["image"]; ok && in.WidthMM != nil && sz.Width > 0 && sz.Height > 0 {
		if _, _, fits := filmSize(in, sz.Width, sz.Height); !fits {
			return tooLarge(in, sz.Width, sz.Height)
		}
	}
	switch {
	case in.TrapPx != nil && in.TrapMM != nil:
		return apierr.New(apierr.RequestRefused, "Send trap_px or trap_mm, not both.").WithField("trap_mm")
	case in.ChokePx != nil && in.ChokeMM != nil:
		return apierr.New(apierr.RequestRefused, "Send underbase_choke_px or underbase_choke_mm, not both.").
			WithField("underbase_choke_mm")
	case !in.Underbase && (in.ChokePx != nil || in.ChokeMM != nil):
		return apierr.New(apierr.RequestRefused, "A choke needs an underbase: send underbase true.").
			WithField("underbase")
	case in.HalftoneLPI == nil && len(in.HalftoneInks) > 0:
		return apierr.New(apierr.RequestRefused, "halftone_inks needs halftone_lpi, the screen's ruling.").
			WithField("halftone_lpi")
	}
	return nil
}

// separateRunner plans the composite, the underbase when asked and
// max_colours films: the design may have fewer inks, and a film it has no
// ink for is not produced (nor charged).
type separateRunner struct{}

// Plan implements tasks.Runner.
func (separateRunner) Plan(in *separateInput) tasks.Plan {
	n := 1 + in.MaxColours
	if in.Underbase {
		n++
	}
	return tasks.Plan{Steps: n, Phase: "separating colours"}
}

// Step implements tasks.Runner: 0 is the composite, then the underbase
// when asked, then the film of each ink in order. Every output is cut from
// one separation of the design (separations); an output that does not
// find it kept separates the design again, deterministically, so all
// outputs agree on the inks.
func (separateRunner) Step(ctx context.Context, in *separateInput, i int) (tasks.Output, error) {
	r := tasks.Ref{Field: "image", Ref: in.Image}
	data, err := tasks.LoadRef(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	job, err := separationOf(ctx, data, in, func() (*separation, error) {
		img, err := imagetasks.Decode(r, data)
		if err != nil {
			return nil, err
		}
		if in.WidthMM != nil {
			b := img.Bounds()
			w, h, fits := filmSize(in, b.Dx(), b.Dy())
			if !fits {
				return nil, failf(tooLarge(in, b.Dx(), b.Dy()).Message)
			}
			img = imaging.Resize(img, w, h, imaging.Lanczos)
		}
		job, err := newSeparation(ctx, img, in)
		if err != nil && ctx.Err() == nil {
			return nil, failf(fmt.Sprintf("image (%s): %v", r.Ref, err))
		}
		return job, err
	})
	if err != nil {
		return tasks.Output{}, err
	}
	meta := job.meta(r.Ref, i)
	if i == 0 {
		return pngOutput(job.composite(), meta)
	}
	first := 1
	if in.Underbase {
		if i == 1 {
			return filmOutput(job.underbaseFilm(), in.DPI, meta)
		}
		first = 2
	}
	n := i - first
	if n >= len(job.order) {
		return tasks.Output{}, failf(
			fmt.Sprintf("the design has %d spot colours, so separation %d has no ink", len(job.order), i),
		)
	}
	out, err := filmOutput(job.inkFilm(n), in.DPI, meta)
	out.Warnings = job.fineLineWarning(job.order[n])
	return out, err
}

// filmOutput encodes a film as PNG with its dpi.
func filmOutput(img image.Image, dpi int, meta map[string]any) (tasks.Output, error) {
	out, err := pngOutput(img, meta)
	if err != nil {
		return out, err
	}
	out.Data, err = pngenc.WithDPI(out.Data, dpi)
	return out, err
}

// inkOrder lists the positions of the inks in print order: lightest first
// (the usual order on a light garment) or most coverage first; ties keep
// the order k-means found.
func inkOrder(sw []imagetasks.Swatch, order string) []int {
	idx := make([]int, len(sw))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if order == "coverage" {
			return -cmp(sw[a].Share, sw[b].Share)
		}
		return -cmp(imagetasks.Lightness(sw[a].Colour), imagetasks.Lightness(sw[b].Colour))
	})
	return idx
}

func cmp(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func percent(share float64) float64 { return math.Round(share*1e4) / 100 }

func orderVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "separation_order", Description: "The order of a design's separations, which is the order the screens print " +
			"in.",
		Values: []tasks.VocabValue{
			{
				Value:       "light_to_dark",
				Label:       "Light to dark",
				Description: "Lightest ink first (CIELAB L*), as most prints on light garments go down.",
				ChooseWhen:  "you are unsure",
				Default:     true,
			},
			{
				Value:       "coverage",
				Label:       "By coverage",
				Description: "The ink that covers most first.",
				ChooseWhen:  "you budget screens by how much ink they lay",
			},
		},
		Default: new("light_to_dark"), Concept: new("colour_separation"),
	}
}

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
				"the same hue, is taken for JPEG noise or an edge blend and joins its neighbours.",
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
