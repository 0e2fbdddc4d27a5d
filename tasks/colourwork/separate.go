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
