package records

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// obj is a JSON object under construction.
type obj = map[string]any

// The bounds of a moodboard's images.
const (
	minBoardImages = 3
	maxBoardImages = 24
	lookSide       = 1200 // a look's stored copy is at most this many px a side
)

// nameSchema is the name of a record.
func nameSchema(what string) obj {
	return obj{
		"type":        "string",
		"minLength":   1,
		"maxLength":   120,
		"description": what,
		"examples":    []any{"Coastal linen SS27"},
	}
}

// nameRules answer name_required for a missing, empty or non-string name.
var nameRules = []tasks.ErrorRule{
	{Field: "name", Keyword: "required", Code: apierr.NameRequired},
	{Field: "name", Keyword: "minLength", Code: apierr.NameRequired},
	{Field: "name", Keyword: "type", Code: apierr.NameRequired},
}

// checkName answers name_required for a name of white space only (the
// schema refuses an empty or missing one).
func checkName(name string) error {
	if strings.TrimSpace(name) == "" {
		return apierr.New(apierr.NameRequired, "name must have a character other than white space.").WithField("name")
	}
	return nil
}

// moodboard makes a moodboard record: a collage, then its analysis.
func moodboard() *tasks.Definition {
	return &tasks.Definition{
		Name: "moodboard.create", Title: "Create a moodboard",
		Description: "Keeps 3 to 24 images as a moodboard record: a collage at once, then an analysis of its palette and " +
			"of every look.",
		Category: tasks.CategoryRecordsLibraries, Unit: "file",
		InputSchema: tasks.MustJSON(tasks.InputSchema[moodboardInput](
			"moodboard.create input",
			"A moodboard: its name and images.",
			nil,
		)),
		OutputSchema: moodboardOutput(),
		Runner:       tasks.Typed[moodboardInput](moodboardRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 2},
		ErrorRules: append([]tasks.ErrorRule{
			{Field: "images", Keyword: "required", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "contains", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "minItems", Code: apierr.MoodboardNeedsImages},
			{Field: "images", Keyword: "maxItems", Code: apierr.TooManyImages},
		}, nameRules...),
		Docs:     moodboardDocs(),
		Examples: moodboardExamples(),
		Produces: []string{"moodboard", "look", "job"},
		Uses:     []string{"credit_hold"},
	}
}

func namedColourSchema(what string) obj {
	return obj{"type": "object", "description": what, "required": []string{"hex", "weight", "name"}, "properties": obj{
		"hex":    tasks.ColourSchema("The colour."),
		"weight": obj{"type": "number", "minimum": 0, "maximum": 1, "description": "Its share of what was measured."},
		"name": obj{
			"type":             "string",
			tasks.VocabKeyword: "colour_name",
			"description":      "The nearest named colour (vocabulary colour_name).",
		},
	}}
}

// lookSchema is one look of an analysis.
func lookSchema() obj {
	return obj{
		"type": "object",
		"required": []string{
			"index",
			"image",
			"url",
			"dominant_colours",
			"lightness",
			"chroma",
			"temperature",
			"surface",
			"edge_density",
		},
		"properties": obj{
			"index": obj{"type": "integer", "minimum": 0, "description": "The image's position in images."},
			"image": obj{"type": "string", "description": "The reference as sent."},
			"url": obj{
				"type": "string",
				"description": "The service's stored copy of the image (JPEG, at most 1200 px a side); send it in a brand kit's " +
					"looks. Empty in a catalogue example.",
			},
			"dominant_colours": obj{
				"type":        "array",
				"items":       namedColourSchema("A main colour of the image."),
				"description": "1 to 3 colours, heaviest first.",
			},
			"lightness": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     100,
				"description": "Mean CIELAB L*: 0 black, 100 white.",
			},
			"chroma": obj{
				"type":        "number",
				"minimum":     0,
				"description": "Mean CIELAB C*ab: 0 grey; 40 and more vivid.",
			},
			"temperature": obj{
				"type":             "string",
				tasks.VocabKeyword: "colour_temperature",
				"description":      "warm, cool or neutral.",
			},
			"surface": obj{
				"type":             "string",
				tasks.VocabKeyword: "look_surface",
				"description":      "print or solid.",
			},
			"backdrop": obj{"type": "string", "pattern": tasks.ColourPattern,
				"description": "The plain backdrop left out of this look's colours and the palette, when one was found."},
			"edge_density": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     1,
				"description": "Share of pixels on a lightness edge; over 0.08 reads as a print.",
			},
		},
	}
}

// moodboardOutput is the data of a collage and of an analysis sheet.
func moodboardOutput() []byte {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Moodboard file data", "type": "object",
		"description": "The data of a moodboard's collage (index 0) or analysis sheet (index 1).",
		"properties": obj{
			"moodboard": obj{
				"type":        []any{"string", "null"},
				"description": "The record, moodboard:<id>; null in a catalogue example.",
			},
			"index": obj{"type": "integer", "minimum": 0, "maximum": 1},
			"kind": obj{
				"type":        "string",
				"enum":        []any{"collage", "analysis"},
				"description": "collage or analysis.",
			},
			"name":   obj{"type": "string"},
			"images": obj{"type": "integer", "minimum": 1, "description": "The number of images."},
			"palette": obj{
				"type":        "array",
				"items":       namedColourSchema("A colour of the board."),
				"description": "analysis: the board's palette, heaviest first; weights sum to 1.",
			},
			"looks": obj{
				"type":        "array",
				"items":       lookSchema(),
				"description": "analysis: one look per image, in images order.",
			},
		},
		"required": []string{"moodboard", "index", "kind", "name", "images"},
	})
}

// description is the board's description, "" when none was sent.
func (in *moodboardInput) description() string {
	if in.Description == nil {
		return ""
	}
	return *in.Description
}

// moodboardRunner delivers the collage (step 0), then the analysis (step 1,
// on the capacity-limited analysis queue).
type moodboardRunner struct{}

// Plan asks for the collage and the analysis.
func (moodboardRunner) Plan(*moodboardInput) tasks.Plan {
	return tasks.Plan{Steps: 2, Phase: "making the moodboard", Capacity: map[int]string{1: contract.QueueAnalysis}}
}

// Admit refuses a blank name and opens the record, analysing.
func (moodboardRunner) Admit(ctx context.Context, env tasks.Env, in *moodboardInput) error {
	if err := checkName(in.Name); err != nil {
		return err
	}
	return openRecord(ctx, env, KindMoodboard, strings.TrimSpace(in.Name), obj{
		"description": nonEmpty(in.description()), "images": in.Images,
	})
}

// AdmitErrors is what Admit answers.
func (moodboardRunner) AdmitErrors() []apierr.Code { return []apierr.Code{apierr.NameRequired} }

func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Step renders the collage or the analysis. Its images are read one at a
// time (tasks.ReduceImage), each drawn or measured and released before the
// next is decoded: the step holds one full-size image at most, beside the
// sheet it draws.
func (moodboardRunner) Step(ctx context.Context, in *moodboardInput, i int) (tasks.Output, error) {
	refs := tasks.ListRefs("images", in.Images)
	name := strings.TrimSpace(in.Name)
	meta := obj{"moodboard": handleOf(ctx, KindMoodboard), "index": i, "name": name, "images": len(refs)}
	switch i {
	case 0:
		// Each image is read once, kept at collageSide: the layout needs
		// every image's proportions before it places any.
		thumbs := make([]image.Image, len(refs))
		aspects := make([]float64, len(refs))
		for j, r := range refs {
			img, err := tasks.ReduceImage(ctx, r, imageSides, func(full image.Image) image.Image {
				return fit(full, collageSide)
			})
			if err != nil {
				return tasks.Output{}, err
			}
			thumbs[j] = img
			aspects[j] = float64(img.Bounds().Dx()) / float64(img.Bounds().Dy())
		}
		out, cells := collageCanvas(name, in.description(), aspects)
		for j, img := range thumbs {
			cover(out, cells[j], img)
		}
		data, err := encodeJPEG(out)
		if err != nil {
			return tasks.Output{}, err
		}
		meta["kind"] = "collage"
		return tasks.Output{Data: data, MediaType: "image/jpeg", Ext: "jpg", Meta: meta}, nil
	case 1:
		sheet := sheetCanvas(len(refs))
		px := make([]pixels, len(refs))
		var urls []string
		for j, r := range refs {
			look, err := tasks.ReduceImage(ctx, r, imageSides, func(full image.Image) *image.RGBA {
				px[j] = readPixels(full)
				cover(sheet, sheetLookRect(j), full)
				return fit(full, lookSide)
			})
			if err != nil {
				return tasks.Output{}, err
			}
			url, stored, err := storeLook(ctx, j, look)
			if err != nil {
				return tasks.Output{}, err
			}
			if stored {
				urls = append(urls, url)
			}
		}
		a := analysePixels(px, in.Images, urls, in.IgnoreBackdrops)
		if err := completeRecord(ctx, KindMoodboard, obj{
			"description": nonEmpty(in.description()), "images": in.Images}, a); err != nil {
			return tasks.Output{}, err
		}
		drawSheet(sheet, name, a)
		data, err := encodePNG(sheet)
		if err != nil {
			return tasks.Output{}, err
		}
		served := absoluteLooks(ctx, a)
		meta["kind"], meta["palette"], meta["looks"] = "analysis", toJSON(served.Palette), toJSON(served.Looks)
		return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: meta}, nil
	}
	return tasks.Output{}, fmt.Errorf("moodboard.create: no output %d", i)
}

// toJSON is v as the JSON values an output's data holds.
func toJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// absoluteLooks is a with its looks' URLs under the step's files base URL.
func absoluteLooks(ctx context.Context, a Analysis) Analysis {
	env, _ := tasks.EnvOf(ctx)
	out := Analysis{Palette: a.Palette, Looks: make([]Look, len(a.Looks))}
	for i, l := range a.Looks {
		if l.URL != "" {
			l.URL = absolute(env.FilesBaseURL, l.URL)
		}
		out.Looks[i] = l
	}
	return out
}

// storeLook stores look (image i, at most lookSide px a side) as a JPEG
// file of the record and returns its relative address; without an env (a
// catalogue example) it stores nothing and stored is false.
func storeLook(ctx context.Context, i int, look image.Image) (url string, stored bool, err error) {
	env, ok := tasks.EnvOf(ctx)
	if !ok {
		return "", false, nil
	}
	rec := recordID(KindMoodboard, env.JobID)
	id := fmt.Sprintf("%s_look%d", rec, i)
	if err := putImage(ctx, env, id, "moodboard:"+rec, look); err != nil {
		return "", false, err
	}
	return filePath(id, "jpg"), true, nil
}

// putImage stores img as the JPEG file id of a record (owner names it).
func putImage(ctx context.Context, env tasks.Env, id, owner string, img image.Image) error {
	data, err := encodeJPEG(img)
	if err != nil {
		return err
	}
	b := img.Bounds()
	return putFile(ctx, env, id, "jpg", "image/jpeg", owner, data, b.Dx(), b.Dy())
}

// The collage's layout: rows of images at their own proportions, each row
// as tall as fills the width, about collageRow px; a proportion beyond
// maxAspect (or its inverse) is cropped to it.
const (
	collageWidth  = 1800
	collageGutter = 12
	collageHeader = 132
	collageRow    = 380
	maxAspect     = 2.5
	collageSide   = 720 // the longest side an image is kept at for the collage
)

// The analysis sheet's layout.
const sheetWidth, sheetPad, sheetHeader, sheetStrip, sheetLabel, sheetLookH = 1800, 36, 120, 220, 96, 220

// sheetCanvas is the blank analysis sheet of a board of n looks.
func sheetCanvas(n int) *image.RGBA {
	rows := (n + 1) / 2
	return canvas(sheetWidth, sheetHeader+sheetStrip+sheetLabel+rows*sheetLookH+sheetPad, paper)
}

// sheetLookRect is where the analysis sheet shows look i's image.
func sheetLookRect(i int) image.Rectangle {
	colW := (sheetWidth - 3*sheetPad) / 2
	cx := sheetPad + (i%2)*(colW+sheetPad)
	cy := sheetHeader + sheetStrip + sheetLabel + (i/2)*sheetLookH
	return image.Rect(cx, cy, cx+180, cy+180)
}

// drawSheet draws the palette as a proportional strip and every look's
// colours and readings on a sheet from sheetCanvas, whose look images are
// drawn at sheetLookRect.
func drawSheet(out *image.RGBA, name string, a Analysis) {
	const width, pad, header, strip, label, lookH = sheetWidth, sheetPad, sheetHeader, sheetStrip, sheetLabel, sheetLookH
	text(out, pad, 62, name, 44, true, ink, width-2*pad)
	text(
		out,
		pad,
		100,
		fmt.Sprintf("Palette of %d colours · %d looks", len(a.Palette), len(a.Looks)),
		22,
		false,
		muted,
		0,
	)
	x := pad
	inner := width - 2*pad
	for i, c := range a.Palette {
		w := int(math.Round(c.Weight * float64(inner)))
		if i == len(a.Palette)-1 {
			w = pad + inner - x
		}
		col := tasks.ParseColour(c.Hex)
		fill(out, image.Rect(x, header, x+w, header+strip), col)
		if w > 90 {
			text(out, x+12, header+strip+34, c.Hex, 22, true, ink, w-16)
			text(out, x+12, header+strip+64, fmt.Sprintf("%s · %.0f%%", c.Name, c.Weight*100), 20, false, muted, w-16)
		}
		x += w
	}
	colW := (width - 3*pad) / 2
	for i, l := range a.Looks {
		cx := pad + (i%2)*(colW+pad)
		cy := header + strip + label + (i/2)*lookH
		sx := cx + 200
		for j, d := range l.Dominant {
			fill(out, image.Rect(sx+j*150, cy, sx+j*150+140, cy+90), tasks.ParseColour(d.Hex))
			text(out, sx+j*150, cy+116, d.Hex, 18, true, ink, 140)
			text(out, sx+j*150, cy+140, d.Name, 18, false, muted, 140)
		}
		text(
			out,
			sx,
			cy+174,
			fmt.Sprintf("L* %.0f · C* %.0f · %s · %s", l.Lightness, l.Chroma, l.Temperature, l.Surface),
			20,
			false,
			ink,
			colW-200,
		)
	}
}
