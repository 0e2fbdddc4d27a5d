package records

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// The bounds of a fabric's weight, in grams per square metre.
const (
	minWeight = 20
	maxWeight = 600
)

// weightClass names a weight in g/m².
func weightClass(gsm int) string {
	switch {
	case gsm < 170:
		return "light"
	case gsm <= 270:
		return "medium"
	}
	return "heavy"
}

// fabricCode writes composition (heaviest first), construction and weight:
// CO98EL2-DN-340.
func fabricCode(f FabricFacts) string {
	comp := slices.Clone(f.Composition)
	slices.SortStableFunc(comp, func(a, b Fibre) int {
		switch {
		case a.Percent > b.Percent:
			return -1
		case a.Percent < b.Percent:
			return 1
		}
		return 0
	})
	var sb strings.Builder
	for _, c := range comp {
		code := "XX"
		for _, fb := range fibres {
			if fb.value == c.Fibre {
				code = fb.code
			}
		}
		sb.WriteString(code + strconv.FormatFloat(c.Percent, 'f', -1, 64))
	}
	cc := "XX"
	for _, c := range constructions {
		if c.value == f.Construction {
			cc = c.code
		}
	}
	return fmt.Sprintf("%s-%s-%d", sb.String(), cc, f.WeightGSM)
}

// givenColour is the colour a fabric input states, #RRGGBB or a
// colour_name value, or nil.
func givenColour(in *fabricInput) *KitColour {
	if in.Colour == nil {
		return nil
	}
	v := strings.TrimSpace(*in.Colour)
	if hexColour.MatchString(v) {
		hex := strings.ToUpper(v)
		return &KitColour{Hex: hex, Name: nearestName(labOfHex(hex))}
	}
	if n, ok := colour.NameByValue(v); ok {
		return &KitColour{Hex: n.Hex, Name: n.Value}
	}
	if n, ok := colour.NameOfWords(v); ok {
		return &KitColour{Hex: n.Hex, Name: n.Value}
	}
	return nil
}

// hexColour is a colour sent as #RRGGBB.
var hexColour = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// checkColour answers invalid_colour naming colour when it is neither
// #RRGGBB nor words that name a colour_name entry.
func checkColour(in *fabricInput) error {
	if in.Colour == nil || givenColour(in) != nil {
		return nil
	}
	return apierr.Newf(apierr.InvalidColour, "colour %q is neither #RRGGBB nor a colour in words the colour_name "+
		"vocabulary knows (forest, navy blue, dusty rose…).", *in.Colour).WithField("colour")
}

// fieldsOf are the record fields of a fabric input before its swatch is read.
func fieldsOf(in *fabricInput) FabricFields {
	f := in.Facts
	out := FabricFields{Facts: f, Code: fabricCode(f), WeightClass: weightClass(f.WeightGSM),
		WeightOz: round(float64(f.WeightGSM)/33.906, 1), Swatch: in.Swatch, ColourSource: colourNone, Trade: in.Trade}
	if c := givenColour(in); c != nil {
		out.Colour, out.ColourSource = c, colourGiven
	}
	return out
}

// fabric makes a fabric record with its swatch card.
func fabric() *tasks.Definition {
	return &tasks.Definition{
		Name: "fabric.create", Title: "Create a fabric",
		Description: "Keeps a fabric's weight, composition and construction as a fabric record with its code, delivered " +
			"as a swatch card.",
		Category: tasks.CategoryRecordsLibraries, Unit: "card",
		InputSchema: tasks.MustJSON(tasks.InputSchema[fabricInput](
			"fabric.create input",
			"A fabric: name, facts and an optional swatch image.",
			nil,
		)),
		OutputSchema: fabricOutput(),
		Runner:       tasks.Typed[fabricInput](fabricRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 1},
		ErrorRules: append([]tasks.ErrorRule{
			{Field: "facts.weight_gsm", Keyword: "type", Code: apierr.InvalidWeight},
			{Field: "facts.weight_gsm", Keyword: "minimum", Code: apierr.InvalidWeight},
			{Field: "facts.weight_gsm", Keyword: "maximum", Code: apierr.InvalidWeight},
			{Field: "colour", Keyword: "type", Code: apierr.InvalidColour},
			{Field: "colour", Keyword: "minLength", Code: apierr.InvalidColour},
			{Field: "colour", Keyword: "maxLength", Code: apierr.InvalidColour},
		}, nameRules...),
		Docs:     fabricDocs(),
		Examples: fabricExamples(),
		Produces: []string{"fabric", "job"},
		Uses:     []string{"credit_hold"},
	}
}

func fabricOutput() []byte {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Swatch card data", "type": "object", "description": "The data of a " +
			"fabric's swatch card.",
		"properties": obj{
			"fabric": obj{
				"type":        []any{"string", "null"},
				"description": "The record, fabric:<id>; null in a catalogue example.",
			},
			"index": obj{"type": "integer", "minimum": 0, "maximum": 0},
			"name":  obj{"type": "string"},
			"code": obj{
				"type":        "string",
				"description": "Composition, construction and weight, such as CO98EL2-DN-340.",
			},
			"weight_gsm":    obj{"type": "integer"},
			"weight_class":  obj{"type": "string", "enum": []any{"light", "medium", "heavy"}},
			"weight_oz_yd2": obj{"type": "number"},
			"construction":  obj{"type": "string", tasks.VocabKeyword: "fabric_construction"},
			"composition": obj{
				"type": "array",
				"items": obj{"type": "object", "required": []string{"fibre", "percent"}, "properties": obj{
					"fibre": obj{"type": "string", tasks.VocabKeyword: "fibre"}, "percent": obj{"type": "number"}}},
			},
			"colour": obj{"oneOf": []any{namedColourSchema("The fabric's colour."), obj{"type": "null"}},
				"description": "The fabric's colour (see colour_source), null when neither a colour nor a swatch photo was sent."},
			"colour_sent": obj{"type": "string", "description": "The colour as sent, when one was: #RRGGBB, or words " +
				"read as colour.name."},
			"trade": tradeData(),
			"colour_source": obj{"type": "string", "enum": []any{colourGiven, colourMeasured, colourNone},
				"description": "given: the colour sent; measured: the main colour of the swatch photo; none: neither was sent."},
		},
		"required": []string{
			"fabric",
			"index",
			"name",
			"code",
			"weight_gsm",
			"weight_class",
			"weight_oz_yd2",
			"construction",
			"composition",
			"colour",
			"colour_source",
		},
	})
}

type fabricRunner struct{}

// Plan asks for one swatch card.
func (fabricRunner) Plan(*fabricInput) tasks.Plan {
	return tasks.Plan{Steps: 1, Phase: "drawing the swatch card"}
}

// AdmitErrors is what Admit answers.
func (fabricRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{apierr.NameRequired, apierr.InvalidColour, apierr.RequestRefused}
}

// Admit checks the composition adds up to 100 with each fibre once and
// opens the record.
func (fabricRunner) Admit(ctx context.Context, env tasks.Env, in *fabricInput) error {
	if err := checkName(in.Name); err != nil {
		return err
	}
	if err := checkComposition(in.Facts); err != nil {
		return err
	}
	if err := checkColour(in); err != nil {
		return err
	}
	if err := checkTrade(in.Trade); err != nil {
		return err
	}
	return openRecord(ctx, env, KindFabric, strings.TrimSpace(in.Name), fieldsOf(in))
}

// checkComposition answers invalid_request naming the composition when the
// percentages do not add up to 100, or the fibre named twice.
func checkComposition(f FabricFacts) error {
	var sum float64
	seen := map[string]bool{}
	for i, c := range f.Composition {
		if seen[c.Fibre] {
			return apierr.Newf(apierr.InvalidRequest, "facts.composition names %s twice; give each fibre once with its whole "+
				"share.", c.Fibre).
				WithField(fmt.Sprintf("facts.composition[%d].fibre", i))
		}
		seen[c.Fibre] = true
		sum += c.Percent
	}
	if math.Abs(sum-100) > 0.01 {
		return apierr.Newf(apierr.InvalidRequest, "facts.composition adds up to %s%%; the percentages must add up to 100.",
			strconv.FormatFloat(round(sum, 2), 'f', -1, 64)).
			WithField("facts.composition")
	}
	return nil
}

// Step draws the swatch card and completes the record.
func (fabricRunner) Step(ctx context.Context, in *fabricInput, i int) (tasks.Output, error) {
	if i != 0 {
		return tasks.Output{}, fmt.Errorf("fabric.create: no output %d", i)
	}
	fields := fieldsOf(in)
	var sw image.Image
	if fields.Swatch != nil {
		img, err := loadImage(ctx, tasks.Ref{Field: "swatch", Ref: *fields.Swatch})
		if err != nil {
			return tasks.Output{}, err
		}
		sw = fit(img, 900)
		if fields.Colour == nil {
			main := mainColour(sw)
			fields.Colour, fields.ColourSource = &main, colourMeasured
		}
	} else {
		c := recordread.Ecru
		if fields.Colour != nil {
			c = tasks.ParseColour(fields.Colour.Hex)
		}
		sw = recordread.Texture(fields.Facts.Construction, c, 900)
	}
	if env, ok := tasks.EnvOf(ctx); ok {
		id := recordID(KindFabric, env.JobID) + "_swatch"
		if err := putImage(ctx, env, id, "fabric:"+recordID(KindFabric, env.JobID), sw); err != nil {
			return tasks.Output{}, err
		}
		fields.SwatchURL = new(filePath(id, "jpg"))
	}
	if err := completeRecord(ctx, KindFabric, fields, nil); err != nil {
		return tasks.Output{}, err
	}
	name := strings.TrimSpace(in.Name)
	data, err := encodePNG(swatchCard(name, fields, sw))
	if err != nil {
		return tasks.Output{}, err
	}
	return tasks.Output{
		Data:      data,
		MediaType: "image/png",
		Ext:       "png",
		Meta:      fabricMeta(handleOf(ctx, KindFabric), name, fields, in.Colour),
	}, nil
}

// fabricMeta is the card's data; sent is the colour as sent, if any.
func fabricMeta(handle any, name string, f FabricFields, sent *string) map[string]any {
	out := obj{
		"fabric":        handle,
		"index":         0,
		"name":          name,
		"code":          f.Code,
		"weight_gsm":    f.Facts.WeightGSM,
		"weight_class":  f.WeightClass,
		"weight_oz_yd2": f.WeightOz,
		"construction":  f.Facts.Construction,
		"composition":   toJSON(f.Facts.Composition),
		"colour":        colourMeta(f.Colour),
		"colour_source": cmp.Or(f.ColourSource, colourNone),
	}
	if f.Trade != nil {
		out["trade"] = tradeMeta(f.Trade)
	}
	if sent != nil {
		out["colour_sent"] = *sent
	}
	return out
}

// colourMeta is a fabric's colour as card data, or nil.
func colourMeta(c *KitColour) any {
	if c == nil {
		return nil
	}
	return obj{"hex": c.Hex, "weight": 1, "name": c.Name}
}

// mainColour is the heaviest colour of an image.
func mainColour(img image.Image) KitColour {
	p := readPixels(img)
	h := histogram{}
	for _, c := range p.rgb {
		h.add(c, 1)
	}
	sw := colour.Cluster(h.samples(), 4, 6, 0.02)
	return KitColour{Hex: sw[0].C.Hex(), Name: nearestName(sw[0].C)}
}

// labelOf is the label of a vocabulary value.
func labelOf(value string) string {
	for _, f := range fibres {
		if f.value == value {
			return f.label
		}
	}
	for _, c := range constructions {
		if c.value == value {
			return c.label
		}
	}
	return value
}

// swatchCard draws the swatch with the fabric's facts under it.
func swatchCard(name string, f FabricFields, sw image.Image) image.Image {
	const width, pad = 1200, 48
	out := canvas(width, 1440+64*len(tradeRows(f.Trade)), paper)
	cover(out, image.Rect(pad, pad, width-pad, pad+900), sw)
	y := pad + 900 + 80
	text(out, pad, y, name, 52, true, ink, width-2*pad)
	text(out, pad, y+56, f.Code, 30, true, muted, width-2*pad)
	var comp []string
	for _, c := range f.Facts.Composition {
		comp = append(comp, fmt.Sprintf("%s%% %s", strconv.FormatFloat(c.Percent, 'f', -1, 64), labelOf(c.Fibre)))
	}
	rows := [][2]string{
		{"Composition", strings.Join(comp, ", ")},
		{"Construction", labelOf(f.Facts.Construction)},
		{"Weight", fmt.Sprintf("%d g/m² · %.1f oz/yd² · %s", f.Facts.WeightGSM, f.WeightOz, f.WeightClass)},
		{"Colour", recordread.ColourLine(f)},
	}
	rows = append(rows, tradeRows(f.Trade)...)
	for i, r := range rows {
		ry := y + 130 + i*64
		fill(out, image.Rect(pad, ry-44, width-pad, ry-43), rule)
		text(out, pad, ry, r[0], 26, false, muted, 260)
		text(out, pad+280, ry, r[1], 26, false, ink, width-2*pad-280)
	}
	if f.Colour != nil {
		chip := image.Rect(width-pad-120, y-60, width-pad, y+60)
		fill(out, chip, tasks.ParseColour(f.Colour.Hex))
		if light(f.Colour.Hex) {
			outline(out, chip, rule) // white on the paper stays visible
		}
	}
	return out
}
