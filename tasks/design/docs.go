package design

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

func docs() tasks.Docs {
	return tasks.Docs{
		Lead: "design.from_prompt turns a short brief in plain words into seamless pattern tiles. It reads the brief word " +
			"by word against served vocabularies — colour names (colour_name), pattern kinds with their common names " +
			"(pattern_kind: stripes, gingham, polka, tartan, …), scale (design_scale) and mood (design_mood) — fills in " +
			"colours the brief does not name from the reference images' dominant colours, and draws the tiles with " +
			"pattern.generate's renderer. It is a deterministic reading of words, not a generative model: every tile's data " +
			"says exactly how the brief was read, and which words were not, so a brief that reads wrong can be corrected.",
		BuiltFor: []string{
			"Turning a buyer's or designer's brief (\"navy and mustard houndstooth, small scale, with a cream ground\") into " +
				"repeat tiles at once.",
			"Pattern tiles in the colours of a mood image or a product photo: send it as a reference.",
		},
		WhatYouGet: []string{
			"count square PNG tiles at the chosen resolution, seamless in both directions.",
			"Each tile's data: the kind, colours, repeats and seed drawn, and reading — the colours with their names and " +
				"sources, the kind, scale and mood read, and the words not read.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          fmt.Sprintf("count tiles (1 to %d, default 1).", maxTiles),
			CountDependsOn: []string{"count"},
			Order:          new("By index: tile i is drawn with seed + i."),
			AbsentWhen: new(
				"A reference that cannot be fetched or read fails every tile: the job fails with processing_failed. A reference " +
					"whose embedded text names a refused term fails the job with content_refused.",
			),
		},
		Specs: []tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text: fmt.Sprintf(
					"A prompt of 1 to %d characters; up to %d reference images: PNG, JPEG, WebP, GIF (first frame) or BMP, 16 to "+
						"8192 px a side.",
					maxPromptLength,
					maxReferences,
				),
			},
			{
				Key:   "input_count",
				Title: "Input count",
				Text:  fmt.Sprintf("One prompt and 0 to %d references.", maxReferences),
			},
			{Key: "output_format", Title: "Output format", Text: "PNG, 8-bit RGB with anti-aliased edges."},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text:  "512, 1024 or 2048 pixels square (vocabulary resolution).",
			},
			{Key: "aspect_ratios", Title: "Aspect ratios", Text: "1:1 only."},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: fmt.Sprintf("1 to %d (count).", maxTiles)},
			{Key: "watermark", Title: "Watermark", Text: "None."},
			{
				Key:   "commercial_use",
				Title: "Commercial use",
				Text:  "Allowed; the tiles are yours. References must be images you may use.",
			},
			{
				Key:   "content_checks",
				Title: "Content checks",
				Text: "The content policy (vocabulary refused_term: a short list of trademarks and hate terms, matched as " +
					"whole words, case and punctuation ignored). A prompt naming one is refused at submit with 422 " +
					"content_refused, before anything is held; the same check runs again in the job. References are fetched by the " +
					"job, so their check runs there: a reference whose embedded text (PNG text chunks, JPEG comments and XMP) " +
					"names a refused term fails the job with content_refused. Pixels are not inspected.",
			},
			{
				Key:   "reproducibility",
				Title: "Reproducibility",
				Text:  "Deterministic: the same prompt, references, seed and resolution give the same bytes.",
			},
		},
		Limitations: []string{
			"Only the vocabularies' words are read: a colour must be a colour_name or one of its aliases (\"dusty rose\" is " +
				"blush, \"light blue\" sky_blue), and a specific colour followed by its family's word is one colour (\"sage " +
				"green\" is sage, \"navy blue\" navy); a kind is one of pattern_kind or its aliases (gingham, buffalo, " +
				"windowpane, polka, tartan …). Other words are listed in reading.words_not_read.",
			"A brief is refused with request_refused at submit, before anything is held or charged, when it names a motif no " +
				"kind draws (" + motifNames() + ", and the words for them: flowers, leopard, camo …), or names no kind and has " +
				"words that cannot be read. A brief that names no kind and nothing unread (\"navy and cream\") gets stripes, " +
				"and says so (reading.kind_read false).",
			"The first kind, scale and mood named apply. gingham, buffalo_check and windowpane weave at most three colours; " +
				"a brief giving them more is refused.",
			"At most 6 colours are drawn; references only fill in when the brief names fewer than two colours (three when it " +
				"names none). A single colour is drawn on a white ground.",
			"Motifs, florals, figures and logos cannot be drawn: only the kinds of pattern_kind. Tiles are drawn by " +
				"pattern.generate's renderer, anti-aliased (its limitations apply).",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.RequestRefused,
			apierr.PromptRequired,
			apierr.TooManyReferences,
			apierr.ImageNotPublic,
			apierr.ContentRefused,
		),
		Compares: []tasks.Compare{{
			Task:         "pattern.generate",
			UseThisWhen:  "you have a brief in words or a reference image, not exact colours and settings.",
			UseOtherWhen: "you know the kind, the exact colours and the settings (stripe angle, dot size) you want.",
		}},
		Related: []tasks.Related{
			{Task: "pattern.generate", Relation: "sibling"},
			{Task: "colourway.generate", Relation: "after"},
		},
		Prompting: new(
			"Name colours with colour_name words (navy, mustard, cream, sage, …), say which is the ground (\"on a cream " +
				"ground\"), name one kind (stripes, gingham, polka dots, tartan, chevron, houndstooth, …), a scale (small, " +
				"medium, large) and, if you like, a mood (calm, pastel, dark, bold). Check reading in the tile's data: " +
				"words_not_read lists what was not understood.",
		),
	}
}

// moodFile is the reference the examples send: a warm terracotta and sand
// photo-like gradient, drawn here so the example runs anywhere.
var moodFile = tasks.ExampleFile{Ref: "file:example_terracotta_mood", Name: "terracotta.png", MediaType: "image/png",
	Data: sync.OnceValue(func() []byte {
		const S = 160
		img := image.NewNRGBA(image.Rect(0, 0, S, S))
		for y := range S {
			for x := range S {
				c := color.NRGBA{0xE6, 0xD3, 0xB3, 255} // sand
				if math.Hypot(float64(x-60), float64(y-70)) < 45 {
					c = color.NRGBA{0xC3, 0x64, 0x3F, 255} // terracotta
				} else if y > 130 {
					c = color.NRGBA{0x4B, 0x5B, 0x3C, 255} // olive
				}
				img.SetNRGBA(x, y, c)
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			panic(err)
		}
		return buf.Bytes()
	})}

func examples() []tasks.Example {
	return []tasks.Example{
		{Name: "houndstooth_brief", Title: "Navy and mustard houndstooth on cream",
			Description: "Cream is read as the ground, navy and mustard as the checks, small as 12 repeats.",
			Input: json.RawMessage(
				`{"prompt":"navy and mustard houndstooth, small scale, with a cream ground","resolution":"512"}`,
			)},
		{Name: "red_white_stripes", Title: "Red and white stripes",
			Description: "Two tiles of red and white stripes; the second has other band widths.",
			Input:       json.RawMessage(`{"prompt":"red and white stripes","count":2,"resolution":"512"}`)},
		{Name: "calm_gingham_from_reference", Title: "Calm gingham in a photo's colours",
			Description: "The brief names no colour: the reference's three dominant colours are used, softened by calm.",
			Input: json.RawMessage(
				`{"prompt":"calm gingham, large","references":["file:example_terracotta_mood"],"resolution":"512"}`,
			),
			Files: []tasks.ExampleFile{moodFile}},
	}
}
