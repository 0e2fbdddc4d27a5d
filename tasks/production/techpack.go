package production

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
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
	return &tasks.Definition{
		Name: "techpack.create", Title: "Create a techpack",
		Description: "Lays a style out as a multi-page PDF techpack: cover with the style images, fabric card, colourway " +
			"swatches with hex, sRGB and CMYK, graded measurements and bill of materials.",
		Category: tasks.CategoryProductionPrep, Unit: "file", AddedOn: "2026-11-22",
		InputSchema: tasks.MustJSON(tasks.InputSchema[techpackInput](
			"techpack.create input",
			"A style: its images, fabric, colourways, measurements and bill of materials.",
			nil,
		)),
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
	Point       string             `json:"point" schema:"required"`
	ToleranceMM float64            `json:"tolerance_mm" schema:"required"`
	Sizes       map[string]float64 `json:"sizes" schema:"required"`
}

// BOMRow is one row of a bill of materials.
type BOMRow struct {
	Item     string  `json:"item"`
	Material string  `json:"material"`
	Supplier string  `json:"supplier,omitempty"`
	Quantity float64 `json:"quantity"`
	Unit     string  `json:"unit"`
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
	Item     string  `json:"item" schema:"required"`
	Material string  `json:"material" schema:"required"`
	Supplier *string `json:"supplier"`
	Quantity float64 `json:"quantity" schema:"required"`
	Unit     string  `json:"unit" schema:"required"`
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
