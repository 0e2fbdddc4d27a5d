package design

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/pattern"
)

// The bounds of design.from_prompt.
const (
	maxPromptLength = 500
	maxReferences   = 4
	maxTiles        = 8
	maxColours      = 6 // pattern.generate's
	// A reference gives its dominant colours: at most refColours each,
	// colours nearer than ΔE2000 refMergeDE counted as one, none under
	// refMinShare of the image.
	refColours, refMergeDE, refMinShare = 5, 8, 0.02
	// A reference colour nearer than ΔE2000 distinctDE to one already read is
	// not added.
	distinctDE = 7
)

func fromPrompt() *tasks.Definition {
	return &tasks.Definition{
		Name: "design.from_prompt", Title: "Design a pattern from a brief",
		Description: "Reads a short design brief in plain words — colours, pattern kind, scale, mood — and reference " +
			"images' palettes, and draws seamless pattern tiles; the tiles' data says how the brief was read.",
		Category: tasks.CategoryDesignGeneration, Unit: "tile",
		InputSchema: tasks.MustJSON(tasks.InputSchema[input](
			"design.from_prompt input",
			"A design brief in words, with optional reference images.",
			nil,
		)),
		OutputSchema: outputSchema(),
		Runner:       tasks.Typed[input](runner{}),
		Pricing: tasks.Pricing{CreditType: contract.CreditService, Option: "resolution",
			ByOption: []tasks.OptionPrice{
				{Value: "512", Credits: 2},
				{Value: "1024", Credits: 3},
				{Value: "2048", Credits: 5},
			}},
		RefSides: map[string]tasks.ImageSides{"references": imagetasks.InputSides},
		Refuse:   tasks.Refusal(refuse),
		ErrorRules: []tasks.ErrorRule{
			{Field: "prompt", Keyword: "required", Code: apierr.PromptRequired},
			{Field: "prompt", Keyword: "minLength", Code: apierr.PromptRequired},
			{Field: "prompt", Keyword: "type", Code: apierr.PromptRequired},
			{Field: "references", Keyword: "maxItems", Code: apierr.TooManyReferences},
		},
		Docs:     docs(),
		Examples: examples(),
		Produces: []string{"seamless_tile", "prompt_reading", "job"},
		Uses:     []string{"content_policy", "output_resolution", "seed", "credit_hold"},
	}
}

func outputSchema() json.RawMessage {
	colour := obj{"type": "object", "required": []string{"name", "hex", "source"}, "properties": obj{
		"name": obj{
			"type":             []any{"string", "null"},
			tasks.VocabKeyword: "colour_name",
			"description":      "The colour_name read; null for a colour taken from a reference.",
		},
		"hex": tasks.ColourSchema("The colour drawn, after the mood."),
		"source": obj{
			"type": "string",
			"enum": []any{"prompt", "reference", "default"},
			"description": "Where the colour came from: the brief, a reference's palette, or the white ground added to a " +
				"single colour.",
		},
	}}
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Designed tile data", "type": "object",
		"description": "The data of one delivered tile and how the brief was read.",
		"properties": obj{
			"index": obj{"type": "integer", "minimum": 0, "description": "The output number, from 0."},
			"seed": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The seed this tile was drawn with (the input seed + index).",
			},
			"kind": obj{"type": "string", tasks.VocabKeyword: "pattern_kind", "description": "The motif drawn."},
			"colors": obj{
				"type":        "array",
				"items":       tasks.ColourSchema("A colour drawn."),
				"description": "The colours drawn, the ground first.",
			},
			"width":      obj{"type": "integer", "description": "Width in pixels."},
			"height":     obj{"type": "integer", "description": "Height in pixels."},
			"resolution": obj{"type": "string", tasks.VocabKeyword: "resolution"},
			"repeats": obj{
				"type":        "integer",
				"minimum":     1,
				"description": "Motif repeats across the tile side, as drawn.",
			},
			"seamless": obj{
				"const":       true,
				"description": "The left edge continues the right, the top continues the bottom.",
			},
			"reading": obj{
				"type":        "object",
				"description": "How the brief was read: correct a brief by using the vocabularies' words.",
				"required":    []string{"colours", "kind", "kind_read", "scale", "mood", "words_not_read"},
				"properties": obj{
					"colours": obj{
						"type":        "array",
						"items":       colour,
						"description": "The colours, the ground first, then in the brief's order, then the references'.",
					},
					"kind": obj{
						"type":             "string",
						tasks.VocabKeyword: "pattern_kind",
						"description":      "The kind drawn.",
					},
					"kind_read": obj{
						"type":        "boolean",
						"description": "False when the brief named no kind and stripes were drawn.",
					},
					"scale": obj{
						"type":             []any{"string", "null"},
						tasks.VocabKeyword: "design_scale",
						"description":      "The scale read, or null.",
					},
					"mood": obj{
						"type":             []any{"string", "null"},
						tasks.VocabKeyword: "design_mood",
						"description":      "The mood read, or null.",
					},
					"words_not_read": obj{
						"type":        "array",
						"items":       obj{"type": "string"},
						"description": "Words of the brief no vocabulary knows (small words like and, with left out).",
					},
				},
			},
		},
		"required": []string{
			"index",
			"seed",
			"kind",
			"colors",
			"width",
			"height",
			"resolution",
			"repeats",
			"seamless",
			"reading",
		},
	})
}

// refuse is the check at once of the brief: it must not be blank, and
// name a colour unless references are sent.
func refuse(in *input, _ map[string]tasks.ImageSize) *apierr.Error {
	prompt := in.Prompt
	if strings.TrimSpace(prompt) == "" {
		return apierr.New(apierr.PromptRequired, "prompt is blank; describe the design in words.").WithField("prompt")
	}
	r := read(prompt)
	if len(r.colours) == 0 && len(in.References) == 0 {
		return apierr.New(apierr.RequestRefused, "The prompt names no colour of the colour_name vocabulary (GET "+
			"/v1/vocab/colour_name) and no references are sent: name a colour, or send a reference whose palette to use.").
			WithField("prompt")
	}
	if len(r.refused) > 0 {
		return nil // the content policy answers at admission (content_refused)
	}
	if len(r.notDrawn) > 0 {
		return apierr.Newf(apierr.RequestRefused, "The prompt asks for %s, which no pattern kind draws: name a kind of "+
			"pattern_kind (GET /v1/vocab/pattern_kind) instead.",
			quoteAll(r.notDrawn)).WithField("prompt")
	}
	if n := len(r.colours); r.kind != "" && n > pattern.MaxColours(r.kind) {
		return apierr.Newf(apierr.RequestRefused, "The prompt names %d colours; %s weaves at most %d: name fewer, or ask "+
			"for plaid.",
			n, r.kind, pattern.MaxColours(r.kind)).WithField("prompt")
	}
	if r.kind == "" && len(r.wordsNotRead) > 0 {
		return apierr.Newf(apierr.RequestRefused, "The prompt names no pattern kind, and %s could not be read: name a "+
			"kind of pattern_kind (GET /v1/vocab/pattern_kind), or leave the unread words out to get stripes.",
			quoteAll(r.wordsNotRead)).WithField("prompt")
	}
	return nil
}

// runner reads the brief and draws count tiles through pattern.generate's
// renderer.
type runner struct{}

// Plan implements tasks.Runner.
func (runner) Plan(in *input) tasks.Plan {
	return tasks.Plan{Steps: in.Count, Phase: "drawing tiles"}
}

// Admit implements tasks.Admitter: the content policy, decided at once
// for the prompt.
func (runner) Admit(_ context.Context, _ tasks.Env, in *input) error {
	if terms := read(in.Prompt).refused; len(terms) > 0 {
		return apierr.Newf(apierr.ContentRefused, "The prompt names %s, which the content policy refuses (GET "+
			"/v1/vocab/refused_term).", quoteAll(terms)).
			WithField("prompt")
	}
	return nil
}

// AdmitErrors implements tasks.Admitter.
func (runner) AdmitErrors() []apierr.Code { return []apierr.Code{apierr.ContentRefused} }

func quoteAll(terms []string) string {
	q := make([]string, len(terms))
	for i, t := range terms {
		q[i] = fmt.Sprintf("%q", t)
	}
	return strings.Join(q, ", ")
}

func refusal(msg string) error {
	return &tasks.StepError{Code: contract.ErrTypeContentRefused, Message: msg}
}

// Step implements tasks.Runner: the brief is read again (and the policy
// checked again), the references fetched, checked and read, and tile i
// drawn.
func (runner) Step(ctx context.Context, in *input, i int) (tasks.Output, error) {
	r := read(in.Prompt)
	if len(r.refused) > 0 {
		return tasks.Output{}, refusal(
			fmt.Sprintf("The prompt names %s, which the content policy refuses.", quoteAll(r.refused)),
		)
	}
	var swatches []imagetasks.Swatch
	refs := tasks.ListRefs("references", in.References)
	for _, ref := range refs {
		data, err := tasks.LoadRef(ctx, ref)
		if err != nil {
			return tasks.Output{}, err
		}
		if terms := refusedIn(embeddedText(data)); len(terms) > 0 {
			return tasks.Output{}, refusal(
				fmt.Sprintf(
					"%s (%s): the image's embedded text names %s, which the content policy refuses.",
					ref.Field,
					ref.Ref,
					quoteAll(terms),
				),
			)
		}
		img, err := imagetasks.Decode(ref, data)
		if err != nil {
			return tasks.Output{}, err
		}
		sw, err := imagetasks.Dominant(img, refColours, refMergeDE, refMinShare)
		if err != nil {
			return tasks.Output{}, &tasks.StepError{
				Code:    contract.ErrTypeProcessing,
				Message: fmt.Sprintf("%s (%s): %v", ref.Field, ref.Ref, err),
			}
		}
		for _, s := range sw {
			swatches = append(swatches, imagetasks.Swatch{Colour: s.Colour, Share: s.Share / float64(len(refs))})
		}
	}
	colours := fill(r.colours, swatches)
	hexes := make([]string, len(colours))
	for j := range colours {
		colours[j].hex = withMood(r.mood, colours[j].hex)
		hexes[j] = colours[j].hex
	}
	kind := r.kind
	if kind == "" {
		kind = "stripes"
	}
	pin := map[string]any{"kind": kind, "colors": hexes, "resolution": in.Resolution,
		"seed": in.Seed, "count": int64(in.Count)}
	for _, s := range scales {
		if s.value == r.scale {
			pin["repeats"] = int64(s.repeats)
		}
	}
	out, err := pattern.Draw(ctx, pin, i)
	if err != nil {
		return tasks.Output{}, err
	}
	meta := map[string]any{"reading": r.data(colours, kind)}
	for _, k := range []string{"index", "seed", "kind", "colors", "width", "height", "resolution", "repeats", "seamless"} {
		meta[k] = out.Meta[k]
	}
	out.Meta = meta
	return out, nil
}

// fill completes the colours read from the brief with the references'
// dominant colours (largest share first, each distinct from those already
// read) up to two colours — three when the brief named none — and adds a
// white ground to a single colour. At most maxColours are kept.
func fill(named []namedColour, swatches []imagetasks.Swatch) []namedColour {
	out := slices.Clone(named)
	want := 2
	if len(named) == 0 {
		want = 3
	}
	slices.SortStableFunc(swatches, func(a, b imagetasks.Swatch) int {
		switch {
		case a.Share > b.Share:
			return -1
		case a.Share < b.Share:
			return 1
		}
		return 0
	})
	for _, s := range swatches {
		if len(out) >= want {
			break
		}
		if slices.ContainsFunc(
			out,
			func(c namedColour) bool { return imagetasks.DeltaE(tasks.ParseColour(c.hex), s.Colour) < distinctDE },
		) {
			continue
		}
		out = append(out, namedColour{hex: s.Hex(), source: "reference"})
	}
	if len(out) == 1 {
		out = append([]namedColour{{name: "white", hex: whiteHex(), source: "default"}}, out...)
	}
	return out[:min(len(out), maxColours)]
}

// whiteHex is colour_name white's reference colour.
func whiteHex() string {
	_, hexes := colourPhrases()
	return hexes["white"]
}

// data is the reading as a tile's data.
func (r reading) data(colours []namedColour, kind string) map[string]any {
	var cs []any
	for _, c := range colours {
		var name any
		if c.name != "" {
			name = c.name
		}
		cs = append(cs, map[string]any{"name": name, "hex": c.hex, "source": c.source})
	}
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	notRead := r.wordsNotRead
	if notRead == nil {
		notRead = []string{}
	}
	return map[string]any{
		"colours":        cs,
		"kind":           kind,
		"kind_read":      r.kind != "",
		"scale":          null(r.scale),
		"mood":           null(r.mood),
		"words_not_read": notRead,
	}
}
