package pattern

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// generateDocs is the page of pattern.generate.
func generateDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "pattern.generate draws seamless repeat tiles in the colours you send. Each tile repeats edge to edge with " +
			"no visible seam, so it can be printed on fabric or paper, or used as a background of any size.",
		BuiltFor: []string{
			"Textile and apparel prints: stripes of set widths, gingham, buffalo and windowpane checks, polka dots, " +
				"houndstooth and plaid in a collection's colours.",
			"Wrapping paper, stationery and packaging backgrounds.",
			"Web and app backgrounds that tile without seams.",
		},
		WhatYouGet: []string{
			"count square PNG tiles at the chosen resolution, each seamless in both directions; or, with format svg or " +
				"pdf, the same tiles as vector shapes, every kind.",
			"Each file's data: kind, colours, seed, repeats and size, so any tile can be drawn again.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "count tiles (1 to 8, default 1).",
			CountDependsOn: []string{"count"},
			Order:          new("By index: tile i is drawn with seed + i."),
			AbsentWhen: new(
				"A tile that cannot be drawn is absent and not charged; the summary carries output_not_produced.",
			),
		},
		Specs: []tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: "No files: colours as #RRGGBB strings."},
			{Key: "input_count", Title: "Input count", Text: "1 to 6 colours."},
			{
				Key:   "output_format",
				Title: "Output format",
				Text: "PNG (format png, the default), 8-bit RGB with anti-aliased edges; RGBA with a transparent ground " +
					"when one colour is sent. SVG 1.1 (format svg) or PDF 1.4 (format pdf): the same tile as vector shapes, " +
					"one <rect>, <circle> or <path> per band, check, dot, diamond or line (a path per zigzag or wave band, " +
					"waves as cubic Béziers; houndstooth and plaid a <rect> per weft stripe and per float over it), " +
					"filled in the colours sent, cut by the tile's edge with one clip path; no <pattern> element.",
			},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text: "512, 1024 or 2048 pixels square (vocabulary resolution); an SVG is that many pixels square " +
					"(viewBox 0 0 side side), a PDF page that many points.",
			},
			{Key: "aspect_ratios", Title: "Aspect ratios", Text: "1:1 only."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "1 to 8 (count)."},
			{Key: "watermark", Title: "Watermark", Text: "None."},
			{Key: "commercial_use", Title: "Commercial use", Text: "Allowed; the tiles are yours."},
			{Key: "content_checks", Title: "Content checks", Text: "None: the task takes no prompt and no images."},
			{
				Key:   "reproducibility",
				Title: "Reproducibility",
				Text:  "Deterministic: the same input and seed give the same bytes.",
			},
		},
		Limitations: []string{
			"stripe_angle is 0, 45, 90 or 135 degrees: other angles cannot tile seamlessly on a square.",
			"Kinds that cycle colours per cell (checks, dots, diamonds, houndstooth) round repeats up to a multiple of the " +
				"colours cycled.",
			"repeats is capped so that cells stay at least 16 pixels wide; plaid draws at most as many setts as fit with " +
				"threads 3 pixels wide.",
			"Edges are anti-aliased at every resolution: each pixel is the mean of 4 × 4 samples (17 levels of coverage), so " +
				"an edge pixel is a blend of the two colours it joins and only edge pixels carry blends; a tile is RGB (RGBA " +
				"with one colour), not indexed. Measured on the ground-truth set (go test -run '^$' -bench PatternQuality " +
				"./tasks/pattern): 99.8 % of the pixels a dot's edge crosses (exact coverage 10 to 90 %) are blends, coverage " +
				"is off the exact circle's by 0.025 on average, dot centres lie within 0.02 px of a regular lattice, and the " +
				"seam error is 0.",
			"Dots sit on a regular lattice, square (grid) or half-drop; the seed moves the whole lattice, never one dot. A " +
				"half-drop lattice rounds repeats up to an even number.",
			"gingham and buffalo_check mix a coloured band crossing the ground as 50 % of each in sRGB (the mixed third " +
				"tone); windowpane lines are solid. They weave a ground and at most two band colours and refuse more with " +
				"request_refused. Flat weaves only: no twill texture or thread slubs.",
			"sett reads the usual thread count: colour code and threads per stripe, symmetric (pivots once, the stripes " +
				"between mirrored; a slash may mark a pivot) unless \"...\" marks it asymmetric; the same sett in warp and " +
				"weft. Codes are labels bound to colors in order of first appearance, not a fixed colour table. At most 2048 " +
				"threads a repeat and at least 1 px a thread; repeats is capped so a thread is 3 px or more when one repeat " +
				"fits. Measured on the ground-truth sett K8 R40 K16 Y8 at 4 px a thread: all 65 536 crossings show the " +
				"colour of the thread the twill lifts.",
			"stripe_widths are relative widths within one repeat; the repeat's width is the tile side divided by repeats, so " +
				"bands land on sub-pixel edges and are anti-aliased there.",
			"SVG and PDF are made for every kind; houndstooth and plaid are drawn thread by thread: a rectangle per weft " +
				"stripe, then a rectangle per float of another colour (measured at 512 px: houndstooth 6 repeats 29 KB, " +
				"the sett K4 R24 K24 Y4 119 KB of SVG). A browser that anti-aliases each shape on its own may show faint " +
				"hairlines where floats of one colour meet across threads (seen in Chromium). A " +
				"woven check as a vector needs 2 or 3 colours (its mixed tones need a ground; request_refused otherwise). " +
				"Measured (go test -run VectorPDF ./tasks/pattern, 15 tiles of every kind): the PDF rendered by poppler " +
				"at one pixel a point is the PNG away from edges (0 pixels another colour), 0.1 to 2.3 of 255 apart on average.",
			"A vector tile is the tile, not a repeat swatch: shapes that cross an edge are cut by a clip path and continue " +
				"on the opposite edge; lay copies side by side (or make an Illustrator pattern swatch of the artwork) for a " +
				"repeat. Waves are 8 cubic Béziers a repeat, within 0.0004 of a repeat of the PNG's cosine (measured: 0.00032).",
		},
		Errors: tasks.ErrorList(apierr.FieldNotAccepted, apierr.FieldNotSupported, apierr.InvalidOption,
			apierr.TooManyColours, apierr.InvalidColour, apierr.RequestRefused),
		Compares: []tasks.Compare{{
			Task:         "pattern.stripes",
			UseThisWhen:  "you start anything new; it draws stripes and every other kind.",
			UseOtherWhen: "never for new work: pattern.stripes is deprecated and draws the same stripes.",
		}},
		Related: []tasks.Related{{Task: "palette.generate", Relation: "before"}},
	}
}

// generateExamples are the examples of pattern.generate.
func generateExamples() []tasks.Example {
	return []tasks.Example{
		{Name: "ticking_stripes", Title: "Ticking stripes of set widths",
			Description: "Navy on cream: a wide band, then narrow ones alternating, widths 6:1:1:1.",
			Input: json.RawMessage(
				`{"kind":"stripes","colors":["#F4F1EA","#1C2E5A"],"stripe_widths":[6,1,1,1],"resolution":"512"}`,
			)},
		{Name: "gingham", Title: "Red gingham",
			Description: "Red on white with the pink mixed tone where the red crosses the white.",
			Input:       json.RawMessage(`{"kind":"gingham","colors":["#FFFFFF","#C8102E"],"resolution":"512"}`)},
		{Name: "diagonal_stripes", Title: "Diagonal stripes in three colours",
			Description: "Two 45° stripe tiles; the second, drawn with seed 8, has other band widths.",
			Input: json.RawMessage(
				`{"kind":"stripes","colors":["#1B2A4A","#F4F1EA","#C8102E"],"stripe_angle":45,"count":2,"seed":7,` +
					`"resolution":"512"}`,
			)},
		{Name: "houndstooth", Title: "Classic houndstooth",
			Description: "Black on cream, six motifs across.",
			Input: json.RawMessage(
				`{"kind":"houndstooth","colors":["#F5F1E6","#111111"],"repeats":6,"resolution":"512"}`,
			)},
		{Name: "polka_dots", Title: "Polka dots for apparel",
			Description: "Two dot colours on cream, sized for garments.",
			Input: json.RawMessage(
				`{"kind":"dots","colors":["#FFF8E7","#E4572E","#17BEBB"],"dot_size":0.6,"use_case":"apparel","resolution":"512"}`,
			)},
		{Name: "vector_dots", Title: "Polka dots as an SVG to edit",
			Description: "The same dots as vector circles on a cream rectangle, for Illustrator or Inkscape.",
			Input: json.RawMessage(
				`{"kind":"dots","colors":["#FFF8E7","#E4572E"],"dot_size":0.5,"repeats":6,"format":"svg","resolution":"512"}`,
			)},
		{Name: "tartan_sett", Title: "A tartan from its thread count",
			Description: "The symmetric sett K4 R24 K24 Y4 (black, red, yellow) woven there and back in a 2/2 twill.",
			Input: json.RawMessage(
				`{"kind":"plaid","colors":["#111111","#C8102E","#E8C547"],"sett":"K4 R24 K24 Y4","resolution":"512"}`,
			)},
		{Name: "tartan", Title: "A four-colour tartan",
			Description: "A plaid sett in a 2/2 twill.",
			Input: json.RawMessage(
				`{"kind":"plaid","colors":["#0B3D2E","#1C2E5A","#B22222","#E8C547"],"seed":3,"resolution":"512"}`,
			)},
	}
}
