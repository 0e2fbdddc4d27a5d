package production

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// The bounds of a techpack's lists.
const (
	maxStyleImages  = 4
	maxColourways   = 8
	maxWayColours   = 6
	maxMeasurements = 40
	maxSizes        = 16
	maxSizeName     = 12
	maxBOMRows      = 40
	maxConstruction = 30
)

// bomUnits are the values of the bom_unit vocabulary.
var bomUnits = []struct{ value, label, text string }{
	{"m", "Metres", "Length of fabric, tape or trim, in metres."},
	{"cm", "Centimetres", "Short lengths: zips, elastic, binding."},
	{"yd", "Yards", "Length in yards, for suppliers who sell by the yard."},
	{"pcs", "Pieces", "Countable parts: buttons, labels, rivets."},
	{"pair", "Pairs", "Parts that come in pairs: eyelets, hooks and eyes."},
	{"set", "Sets", "Parts sold as a set: snaps, zip pulls with stops."},
	{"g", "Grams", "Thread, filling or wadding by weight."},
	{"kg", "Kilograms", "Bulk materials by weight."},
	{"cone", "Cones", "Sewing thread on cones."},
}

func bomUnitVocab() tasks.Vocabulary {
	values := make([]tasks.VocabValue, len(bomUnits))
	for i, u := range bomUnits {
		values[i] = tasks.VocabValue{Value: u.value, Label: u.label, Description: u.text}
	}
	return tasks.Vocabulary{
		Name:        "bom_unit",
		Description: "The unit of a bill of materials row's quantity.",
		Values:      values,
		Concept:     new("techpack"),
	}
}

// techpack makes a multi-page PDF techpack of one style.
func techpack() *tasks.Definition {
	way := obj{
		"type":        "array",
		"minItems":    1,
		"maxItems":    maxWayColours,
		"items":       tasks.ColourSchema("A colour of the colourway, #RRGGBB."),
		"description": fmt.Sprintf("One colourway: 1 to %d colours, main colour first.", maxWayColours),
	}
	measurement := obj{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"point", "tolerance_mm", "sizes"},
		"properties": obj{
			"point": obj{
				"type":        "string",
				"minLength":   1,
				"maxLength":   60,
				"description": "The point of measure, such as Chest width or Centre back length.",
			},
			"tolerance_mm": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     100,
				"description": "The tolerance, ± millimetres.",
			},
			"sizes": obj{"type": "object", "additionalProperties": obj{"type": "number", "minimum": 0, "maximum": 5000},
				"description": fmt.Sprintf(
					"The measurement in millimetres by size name (S, M, L or 38, 40…): 1 to %d sizes, names of 1 to %d characters. "+
						"The table's columns run in size order: letter sizes XXS to 5XL, then numeric sizes ascending, then other "+
						"names alphabetically.",
					maxSizes,
					maxSizeName,
				),
				"examples": []any{obj{"S": 480, "M": 510, "L": 540}}},
		},
	}
	bomRow := obj{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"item", "material", "quantity", "unit"},
		"properties": obj{
			"item": obj{
				"type":        "string",
				"minLength":   1,
				"maxLength":   60,
				"description": "The part, such as Shell fabric, Main label or Zip.",
			},
			"material": obj{
				"type":        "string",
				"minLength":   1,
				"maxLength":   80,
				"description": "What it is made of or its reference.",
			},
			"supplier": obj{"type": "string", "minLength": 1, "maxLength": 80, "description": "Who supplies it."},
			"quantity": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     100000,
				"description": "How much one garment takes, in unit.",
			},
			"unit": tasks.VocabEnum(bomUnitVocab(), "The unit of quantity."),
		},
	}
	props := obj{
		"name": obj{
			"type":        "string",
			"minLength":   1,
			"maxLength":   80,
			"description": "The style's name, printed on every page.",
			"examples":    []any{"Harbour Breton tee"},
		},
		"style_images": obj{"type": "array", tasks.RefKeyword: "image", "minItems": 1, "maxItems": maxStyleImages,
			"items": obj{
				"type":        "string",
				"pattern":     tasks.RefPattern,
				"maxLength":   2048,
				"description": "A file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL.",
			},
			"description": fmt.Sprintf(
				"Flats or photos of the style, 1 to %d, laid out on the cover in this order.",
				maxStyleImages,
			)},
		"fabric": obj{"type": "string", "pattern": tasks.HandlePattern(recordread.KindFabric),
			"description": "fabric:<id> of the account's or the curated library's (GET /v1/refs/fabric): its facts fill the " +
				"fabric card."},
		"colourways": obj{
			"description": fmt.Sprintf(
				"The style's colourways: brand_kit:<id> of the account's (one colourway per kit colour, named after it; the "+
					"kit's looks must be analysed, brand_kit_look_not_ready), or a list of 1 to %d colourways, each a list of 1 to "+
					"%d colours #RRGGBB.",
				maxColourways,
				maxWayColours,
			),
			"oneOf": []any{
				obj{
					"type":        "string",
					"pattern":     tasks.HandlePattern(recordread.KindBrandKit),
					"description": "brand_kit:<id>.",
				},
				obj{
					"type":        "array",
					"minItems":    1,
					"maxItems":    maxColourways,
					"items":       way,
					"description": "Colourways, each a list of colours.",
				},
			},
			"examples": []any{[]any{[]any{"#1B2A4A", "#FAFAF7"}, []any{"#D6C3A1"}}, "brand_kit:bk_abc123"}},
		"measurements": obj{"type": "array", "minItems": 1, "maxItems": maxMeasurements, "items": measurement,
			"description": fmt.Sprintf("The graded measurement table: 1 to %d points of measure.", maxMeasurements)},
		"bom": obj{"type": "array", "minItems": 1, "maxItems": maxBOMRows, "items": bomRow,
			"description": fmt.Sprintf("The bill of materials: 1 to %d rows.", maxBOMRows)},
		"range_plan": obj{"type": "string", "pattern": tasks.HandlePattern(recordread.KindRangePlan),
			"description": "range_plan:<id> of the account's the style belongs to; its name and season head the cover."},
		"notes": obj{
			"type":        "string",
			"maxLength":   2000,
			"description": "Construction or finishing notes, printed on the cover and in full on the construction page.",
		},
		"style_code": obj{"type": "string", "minLength": 1, "maxLength": 24,
			"description": "The style's code, such as HB-TEE-001: printed with the name at the head of every page.",
			"examples":    []any{"HB-TEE-001"}},
		"version": obj{"type": "string", "minLength": 1, "maxLength": 12, "default": "1",
			"description": "The techpack's version, such as 1, 2 or 2b: at the head of every page."},
		"date": obj{"type": "string", "pattern": `^\d{4}-\d{2}-\d{2}$`,
			"description": "The techpack's date, YYYY-MM-DD, at the head of every page; without it, the day the job runs " +
				"(UTC)."},
		"construction": obj{"type": "array", "maxItems": maxConstruction,
			"items": obj{"type": "string", "maxLength": 300,
				"description": "One step or spec, such as Side seams: 4-thread overlock, 1 cm allowance."},
			"description": fmt.Sprintf("Construction notes, up to %d, numbered on the construction page.", maxConstruction)},
	}
	return &tasks.Definition{
		Name: "techpack.create", Title: "Create a techpack",
		Description: "Lays a style out as a multi-page PDF techpack: cover with the style images, fabric card, colourway " +
			"swatches with hex, sRGB and CMYK, graded measurements and bill of materials.",
		Category: tasks.CategoryProductionPrep, Unit: "file", AddedOn: "2026-11-22",
		InputSchema: tasks.MustJSON(tasks.ObjectSchema("techpack.create input",
			"A style: its images, fabric, colourways, measurements and bill of materials.", props,
			[]string{"name", "style_images", "fabric", "colourways", "measurements", "bom"}, nil)),
		OutputSchema: techpackOutput(),
		Runner:       tasks.Typed[techpackInput](techpackRunner{}),
		Pricing:      perOutput(4),
		RefSides:     map[string]tasks.ImageSides{"style_images": inputSides},
		Refuse:       tasks.Refusal(refuseTechpack),
		ErrorRules: []tasks.ErrorRule{
			{Field: "name", Keyword: "required", Code: apierr.NameRequired},
			{Field: "name", Keyword: "minLength", Code: apierr.NameRequired},
			{Field: "style_images", Keyword: "required", Code: apierr.ImagesRequired},
			{Field: "style_images", Keyword: "minItems", Code: apierr.ImagesRequired},
			{Field: "style_images", Keyword: "maxItems", Code: apierr.TooManyImages},
			{Field: "colourways[][]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "colourways[][]", Keyword: "type", Code: apierr.InvalidColour},
		},
		Docs:     techpackDocs(),
		Examples: techpackExamples(),
		Produces: []string{"techpack", "job"},
		Uses:     []string{"fabric", "brand_kit", "range_plan", "credit_hold"},
	}
}

// Colourway is one colourway of a techpack.
type Colourway struct {
	Name    string   `json:"name"`
	Colours []string `json:"colours"`
}

// Measurement is one point of measure with its value per size: a row of
// measurements as sent (its point trimmed in the pack).
type Measurement struct {
	Point       string             `json:"point"`
	ToleranceMM float64            `json:"tolerance_mm"`
	Sizes       map[string]float64 `json:"sizes"`
}

// BOMRow is one row of a bill of materials.
type BOMRow struct {
	Item     string  `json:"item"`
	Material string  `json:"material"`
	Supplier string  `json:"supplier,omitempty"`
	Quantity float64 `json:"quantity"`
	Unit     string  `json:"unit"`
}

// techpackInput is a techpack.create request as sent.
type techpackInput struct {
	Name         string          `json:"name"`
	StyleImages  []string        `json:"style_images"`
	Fabric       string          `json:"fabric"`
	Colourways   colourwaysInput `json:"colourways"`
	Measurements []Measurement   `json:"measurements"`
	BOM          []bomInput      `json:"bom"`
	RangePlan    *string         `json:"range_plan"`
	Notes        *string         `json:"notes"`
	StyleCode    *string         `json:"style_code"`
	Version      string          `json:"version"`
	Date         *string         `json:"date"`
	Construction []string        `json:"construction"`
}

// colourwaysInput is techpack.create's colourways: a brand_kit: handle, or
// a list of colourways, each a list of colours.
type colourwaysInput struct {
	BrandKit string
	Ways     [][]string
}

// UnmarshalJSON reads either form.
func (c *colourwaysInput) UnmarshalJSON(b []byte) error {
	*c = colourwaysInput{}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte(`"`)) {
		return json.Unmarshal(b, &c.BrandKit)
	}
	return json.Unmarshal(b, &c.Ways)
}

// bomInput is one row of bom as sent.
type bomInput struct {
	Item     string  `json:"item"`
	Material string  `json:"material"`
	Supplier *string `json:"supplier"`
	Quantity float64 `json:"quantity"`
	Unit     string  `json:"unit"`
}

// pack is a validated techpack input.
type pack struct {
	name         string
	images       []tasks.Ref
	fabric       string
	brandKit     string
	colourways   []Colourway
	measurements []Measurement
	sizes        []string
	bom          []BOMRow
	rangePlan    string
	notes        string
	styleCode    string
	version      string
	date         string
	construction []string
}

// packOf reads a validated input. A JSON object keeps no order, so the
// sizes are put in size order (sortedSizes).
func packOf(in *techpackInput) pack {
	p := pack{name: strings.TrimSpace(in.Name), images: tasks.ListRefs("style_images", in.StyleImages),
		fabric: in.Fabric, brandKit: in.Colourways.BrandKit}
	if in.RangePlan != nil {
		p.rangePlan = *in.RangePlan
	}
	if in.Notes != nil {
		p.notes = strings.TrimSpace(*in.Notes)
	}
	if in.StyleCode != nil {
		p.styleCode = strings.TrimSpace(*in.StyleCode)
	}
	p.version = cmpOr(strings.TrimSpace(in.Version), "1")
	if in.Date != nil {
		p.date = *in.Date
	}
	for _, c := range in.Construction {
		if c = strings.TrimSpace(c); c != "" {
			p.construction = append(p.construction, c)
		}
	}
	for i, w := range in.Colourways.Ways {
		way := Colourway{Name: fmt.Sprintf("Colourway %d", i+1)}
		for _, c := range w {
			way.Colours = append(way.Colours, strings.ToUpper(c))
		}
		p.colourways = append(p.colourways, way)
	}
	seen := map[string]bool{}
	for _, m := range in.Measurements {
		me := Measurement{Point: strings.TrimSpace(m.Point), ToleranceMM: m.ToleranceMM, Sizes: map[string]float64{}}
		for _, k := range sortedSizes(m.Sizes) {
			me.Sizes[k] = m.Sizes[k]
			seen[k] = true
		}
		p.measurements = append(p.measurements, me)
	}
	p.sizes = sortedSizes(seen)
	for _, r := range in.BOM {
		row := BOMRow{Item: r.Item, Material: r.Material, Quantity: r.Quantity, Unit: r.Unit}
		if r.Supplier != nil {
			row.Supplier = *r.Supplier
		}
		p.bom = append(p.bom, row)
	}
	return p
}

// refuseTechpack refuses a blank name and measurement sizes the table
// cannot hold.
func refuseTechpack(in *techpackInput, _ map[string]tasks.ImageSize) *apierr.Error {
	if strings.TrimSpace(in.Name) == "" {
		return apierr.New(apierr.NameRequired, "name is blank; give the style a name.").WithField("name")
	}
	p := packOf(in)
	for i, m := range p.measurements {
		field := fmt.Sprintf("measurements[%d].sizes", i)
		if len(m.Sizes) == 0 {
			return apierr.Newf(apierr.RequestRefused, "%s is empty; give the measurement of at least one size.", field).
				WithField(field)
		}
		for s := range m.Sizes {
			if n := len([]rune(strings.TrimSpace(s))); n == 0 || n > maxSizeName {
				return apierr.Newf(apierr.RequestRefused, "%s has the size name %q; size names are 1 to %d characters.", field, s,
					maxSizeName).
					WithField(field)
			}
		}
	}
	if len(p.sizes) > maxSizes {
		return apierr.Newf(apierr.RequestRefused, "measurements name %d sizes; the table holds at most %d.", len(p.sizes),
			maxSizes).
			WithField("measurements")
	}
	return nil
}
