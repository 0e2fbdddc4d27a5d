package records

import (
	"context"
	"fmt"
	"image"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// garment is one value of the garment_type vocabulary with the most items
// of that type one range plan takes.
type garment struct {
	value, label, group string
	limit               int
}

var garments = []garment{
	{"dress", "Dress", "womenswear", 12},
	{"top", "Top", "tops", 16},
	{"shirt", "Shirt", "tops", 12},
	{"t_shirt", "T-shirt", "tops", 16},
	{"knitwear", "Knitwear", "tops", 10},
	{"jacket", "Jacket", "outerwear", 8},
	{"coat", "Coat", "outerwear", 6},
	{"trousers", "Trousers", "bottoms", 12},
	{"jeans", "Jeans", "bottoms", 8},
	{"skirt", "Skirt", "bottoms", 10},
	{"shorts", "Shorts", "bottoms", 8},
	{"suit", "Suit", "tailoring", 6},
	{"jumpsuit", "Jumpsuit", "womenswear", 6},
	{"activewear", "Activewear", "sport", 10},
	{"accessory", "Accessory", "accessories", 12},
	{"bag", "Bag", "accessories", 8},
	{"footwear", "Footwear", "accessories", 8},
}

func garmentVocab() tasks.Vocabulary {
	values := make([]tasks.VocabValue, len(garments))
	for i, g := range garments {
		values[i] = tasks.VocabValue{Value: g.value, Label: g.label, Group: g.group,
			Description: fmt.Sprintf("%s; a range plan takes at most %d items of this type.", g.label, g.limit)}
	}
	return tasks.Vocabulary{
		Name:        "garment_type",
		Description: "The type of a range plan item; each type has a most items per range plan (too_many_items).",
		Values:      values,
		Concept:     new("range_plan"),
		Groups: []tasks.VocabGroup{
			{
				Name:        "womenswear",
				Description: "One-piece womenswear.",
			}, {Name: "tops", Description: "Tops and knitwear."},
			{
				Name:        "outerwear",
				Description: "Jackets and coats.",
			}, {Name: "bottoms", Description: "Trousers, skirts and shorts."},
			{Name: "tailoring", Description: "Suits."}, {Name: "sport", Description: "Sport and active."},
			{Name: "accessories", Description: "Accessories, bags and shoes."}},
	}
}

func garmentLimit(t string) (garment, bool) {
	for _, g := range garments {
		if g.value == t {
			return g, true
		}
	}
	return garment{}, false
}

// limitsText lists the per-type limits for the docs.
func limitsText() string {
	var parts []string
	for _, g := range garments {
		parts = append(parts, fmt.Sprintf("%s %d", g.value, g.limit))
	}
	return strings.Join(parts, ", ")
}

// PlanItem is one item of a range plan.
type PlanItem struct {
	Type     string      `json:"type"`
	Name     string      `json:"name"`
	Fabric   *string     `json:"fabric"`
	Colours  []KitColour `json:"colours"`
	Quantity int         `json:"quantity"`
}

// TypeTotal sums the items of one garment type.
type TypeTotal struct {
	Type     string `json:"type"`
	Items    int    `json:"items"`
	Quantity int    `json:"quantity"`
}

// RangePlanFields are a range plan record's fields.
type RangePlanFields struct {
	Season   string      `json:"season"`
	BrandKit *string     `json:"brand_kit"`
	Items    []PlanItem  `json:"items"`
	Totals   []TypeTotal `json:"totals"`
	Quantity int         `json:"quantity"`
}

// rangePlanInput is a range_plan.create request.
type rangePlanInput struct {
	Name     string          `json:"name"`
	Season   string          `json:"season"`
	Items    []planItemInput `json:"items"`
	BrandKit *string         `json:"brand_kit"`
}

// planItemInput is one item of a range_plan.create request.
type planItemInput struct {
	Type     string   `json:"type"`
	Name     string   `json:"name"`
	Fabric   *string  `json:"fabric"`
	Colours  []string `json:"colours"`
	Quantity int      `json:"quantity"`
}

// planOf reads a validated input.
func planOf(in *rangePlanInput) RangePlanFields {
	out := RangePlanFields{Season: in.Season, BrandKit: in.BrandKit}
	totals := map[string]*TypeTotal{}
	for _, it := range in.Items {
		p := PlanItem{Type: it.Type, Name: strings.TrimSpace(it.Name), Fabric: it.Fabric, Quantity: it.Quantity,
			Colours: []KitColour{}}
		for _, c := range it.Colours {
			c = strings.ToUpper(c)
			p.Colours = append(p.Colours, KitColour{Hex: c, Name: nearestName(labOfHex(c))})
		}
		out.Items = append(out.Items, p)
		t, ok := totals[p.Type]
		if !ok {
			t = &TypeTotal{Type: p.Type}
			totals[p.Type] = t
		}
		t.Items++
		t.Quantity += p.Quantity
		out.Quantity += p.Quantity
	}
	for _, g := range garments {
		if t, ok := totals[g.value]; ok {
			out.Totals = append(out.Totals, *t)
		}
	}
	return out
}

// rangePlan makes a range plan record: an overview PNG and a PDF sheet.
func rangePlan() *tasks.Definition {
	item := obj{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"type", "name", "quantity"},
		"properties": obj{
			"type": tasks.VocabEnum(
				garmentVocab(),
				"The garment type; see the vocabulary for the most items of each type.",
			),
			"name": obj{"type": "string", "minLength": 1, "maxLength": 80, "description": "The style's name."},
			"fabric": obj{
				"type":        "string",
				"pattern":     HandlePattern(models.RecordFabric),
				"description": "fabric:<id> of the account's or the curated library's.",
			},
			"colours": obj{
				"type":        "array",
				"maxItems":    6,
				"items":       tasks.ColourSchema("A colourway, #RRGGBB."),
				"description": "Colourways, up to 6.",
			},
			"quantity": obj{"type": "integer", "minimum": 1, "maximum": 100000, "description": "Units planned."},
		},
	}
	props := obj{
		"name": nameSchema("The range's name."),
		"season": obj{
			"type":        "string",
			"minLength":   1,
			"maxLength":   40,
			"description": "The season, such as SS27 or Autumn/Winter 2026.",
			"examples":    []any{"SS27"},
		},
		"items": obj{"type": "array", "minItems": 1, "maxItems": 60, "items": item,
			"description": "The styles of the range, 1 to 60, grouped by type on the sheet. At most so many of one type: " + limitsText() + "."},
		"brand_kit": obj{"type": "string", "pattern": HandlePattern(models.RecordBrandKit),
			"description": "brand_kit:<id> of the account's: its colours and looks head the sheet; its looks must be analysed (brand_kit_look_not_ready)."},
	}
	return &tasks.Definition{
		Name: "range_plan.create", Title: "Create a range plan",
		Description: "Keeps a season's styles as a range plan record, delivered as an overview PNG and a PDF sheet grouped by garment type with fabrics and colourways.",
		Category:    tasks.CategoryRecordsLibraries, Unit: "file",
		InputSchema: tasks.MustJSON(tasks.ObjectSchema("range_plan.create input",
			"A range plan: season and items.", props, []string{"name", "season", "items"}, nil)),
		OutputSchema: rangePlanOutput(),
		Runner:       tasks.Typed[rangePlanInput](rangePlanRunner{}),
		Pricing:      tasks.Pricing{CreditType: contract.CreditService, PerOutput: 2},
		ErrorRules: append([]tasks.ErrorRule{
			{Field: "items[].colours[]", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "items[].colours[]", Keyword: "type", Code: apierr.InvalidColour},
		}, nameRules...),
		Docs:     rangePlanDocs(),
		Examples: rangePlanExamples(),
		Produces: []string{"range_plan", "job"},
		Uses:     []string{"fabric", "brand_kit", "credit_hold"},
	}
}

func rangePlanOutput() []byte {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Range plan file data", "type": "object",
		"description": "The data of a range plan's overview (index 0, PNG) or sheet (index 1, PDF).",
		"properties": obj{
			"range_plan": obj{
				"type":        []any{"string", "null"},
				"description": "The record, range_plan:<id>; null in a catalogue example.",
			},
			"index":    obj{"type": "integer", "minimum": 0, "maximum": 1},
			"format":   obj{"type": "string", "enum": []any{"png", "pdf"}},
			"name":     obj{"type": "string"},
			"season":   obj{"type": "string"},
			"items":    obj{"type": "integer", "minimum": 1},
			"quantity": obj{"type": "integer", "minimum": 1, "description": "Units planned in all."},
			"totals": obj{
				"type": "array",
				"items": obj{"type": "object", "required": []string{"type", "items", "quantity"}, "properties": obj{
					"type": obj{
						"type":             "string",
						tasks.VocabKeyword: "garment_type",
					}, "items": obj{"type": "integer"}, "quantity": obj{"type": "integer"}}},
				"description": "Items and units per garment type, in vocabulary order.",
			},
		},
		"required": []string{"range_plan", "index", "format", "name", "season", "items", "quantity", "totals"},
	})
}

type rangePlanRunner struct{}

// Plan asks for the overview, then the sheet.
func (rangePlanRunner) Plan(*rangePlanInput) tasks.Plan {
	return tasks.Plan{Steps: 2, Phase: "drawing the range plan"}
}

// AdmitErrors is what Admit answers.
func (rangePlanRunner) AdmitErrors() []apierr.Code {
	return []apierr.Code{apierr.NameRequired, apierr.TooManyItems, apierr.BrandKitLookNotReady}
}

// Admit checks the per-type limits, the fabrics and the brand kit, then
// opens the record.
func (rangePlanRunner) Admit(ctx context.Context, env tasks.Env, in *rangePlanInput) error {
	if err := checkName(in.Name); err != nil {
		return err
	}
	plan := planOf(in)
	count := map[string]int{}
	for i, it := range plan.Items {
		count[it.Type]++
		if g, ok := garmentLimit(it.Type); ok && count[it.Type] > g.limit {
			return apierr.Newf(apierr.TooManyItems, "items[%d] is item %d of type %s; a range plan takes at most %d.", i, count[it.Type], it.Type, g.limit).
				WithField(fmt.Sprintf("items[%d]", i))
		}
	}
	if _, _, err := resolvePlan(ctx, env, plan); err != nil {
		return err
	}
	return openRecord(ctx, env, models.RecordRangePlan, strings.TrimSpace(in.Name), plan)
}

// resolvePlan reads the plan's fabrics (by handle) and brand kit.
func resolvePlan(ctx context.Context, env tasks.Env, plan RangePlanFields) (map[string]*Fabric, *BrandKit, error) {
	fabrics := map[string]*Fabric{}
	for i, it := range plan.Items {
		if it.Fabric == nil || fabrics[*it.Fabric] != nil {
			continue
		}
		f, err := ReadFabric(ctx, env, fmt.Sprintf("items[%d].fabric", i), *it.Fabric)
		if err != nil {
			return nil, nil, err
		}
		fabrics[*it.Fabric] = f
	}
	var kit *BrandKit
	if plan.BrandKit != nil {
		k, err := ReadBrandKit(ctx, env, "brand_kit", *plan.BrandKit)
		if err != nil {
			return nil, nil, err
		}
		if err := k.LooksReady("brand_kit"); err != nil {
			return nil, nil, err
		}
		kit = k
	}
	return fabrics, kit, nil
}

// Step draws the overview (0) or the PDF sheet (1); the first completes
// the record.
func (rangePlanRunner) Step(ctx context.Context, in *rangePlanInput, i int) (tasks.Output, error) {
	env, _ := tasks.EnvOf(ctx)
	plan := planOf(in)
	fabrics, kit, err := resolvePlan(ctx, env, plan)
	if err != nil {
		return tasks.Output{}, InStep(err)
	}
	name := strings.TrimSpace(in.Name)
	meta := obj{"range_plan": handleOf(ctx, models.RecordRangePlan), "index": i, "name": name, "season": plan.Season,
		"items": len(plan.Items), "quantity": plan.Quantity, "totals": toJSON(plan.Totals)}
	switch i {
	case 0:
		if err := completeRecord(ctx, models.RecordRangePlan, plan, nil); err != nil {
			return tasks.Output{}, err
		}
		data, err := encodePNG(planOverview(name, plan, fabrics, kit))
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "png"
		return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: meta}, nil
	case 1:
		data, err := planPDF(name, plan, fabrics, kit)
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "pdf"
		return tasks.Output{Data: data, MediaType: "application/pdf", Ext: "pdf", Meta: meta}, nil
	}
	return tasks.Output{}, fmt.Errorf("range_plan.create: no output %d", i)
}

// fabricSwatch is the drawn swatch of an item's fabric, or nil.
func fabricSwatch(it PlanItem, fabrics map[string]*Fabric, side int) (image.Image, *Fabric) {
	if it.Fabric == nil {
		return nil, nil
	}
	f := fabrics[*it.Fabric]
	if f == nil {
		return nil, nil
	}
	return f.Swatch(side), f
}

// groups are the plan's items by garment type, in vocabulary order.
func groups(plan RangePlanFields) [][]PlanItem {
	var out [][]PlanItem
	for _, g := range garments {
		var items []PlanItem
		for _, it := range plan.Items {
			if it.Type == g.value {
				items = append(items, it)
			}
		}
		if len(items) > 0 {
			out = append(out, items)
		}
	}
	return out
}

// planOverview draws the plan as cards grouped by type.
func planOverview(name string, plan RangePlanFields, fabrics map[string]*Fabric, kit *BrandKit) image.Image {
	const width, pad, cardW, cardH, gap, perRow = 1800, 48, 402, 250, 24, 4
	gs := groups(plan)
	h := 170
	for _, g := range gs {
		h += 70 + ((len(g)+perRow-1)/perRow)*(cardH+gap)
	}
	out := canvas(width, h+pad, paper)
	text(out, pad, 76, name, 52, true, ink, width-2*pad-400)
	sub := plan.Season + " · " + plural(len(plan.Items), "style") + " · " + plural(plan.Quantity, "unit")
	if kit != nil {
		sub += " · " + kit.Name
		for j, c := range kit.Colours {
			x := width - pad - (len(kit.Colours)-j)*44
			fill(out, image.Rect(x, 40, x+40, 80), tasks.ParseColour(c.Hex))
		}
	}
	text(out, pad, 120, sub, 26, false, muted, width-2*pad)
	y := 170
	for _, g := range gs {
		gl, _ := garmentLimit(g[0].Type)
		qty := 0
		for _, it := range g {
			qty += it.Quantity
		}
		text(out, pad, y+40, gl.label+" · "+plural(len(g), "style")+" · "+plural(qty, "unit"), 30, true, ink, 0)
		fill(out, image.Rect(pad, y+54, width-pad, y+56), rule)
		y += 70
		for j, it := range g {
			x := pad + (j%perRow)*(cardW+gap)
			cy := y + (j/perRow)*(cardH+gap)
			fill(out, image.Rect(x, cy, x+cardW, cy+cardH), paper)
			fill(out, image.Rect(x, cy, x+cardW, cy+1), rule)
			sw, f := fabricSwatch(it, fabrics, 140)
			if sw != nil {
				cover(out, image.Rect(x, cy+12, x+140, cy+152), sw)
			} else {
				fill(out, image.Rect(x, cy+12, x+140, cy+152), rule)
			}
			text(out, x+156, cy+44, it.Name, 24, true, ink, cardW-160)
			text(out, x+156, cy+76, plural(it.Quantity, "unit"), 20, false, muted, cardW-160)
			if f != nil {
				text(out, x+156, cy+104, f.Name, 18, false, muted, cardW-160)
				text(out, x+156, cy+128, f.Code, 16, false, muted, cardW-160)
			}
			for k, c := range it.Colours {
				cx := x + k*64
				fill(out, image.Rect(cx, cy+170, cx+56, cy+214), tasks.ParseColour(c.Hex))
				text(out, cx, cy+236, c.Hex, 12, false, muted, 60)
			}
		}
		y += ((len(g) + perRow - 1) / perRow) * (cardH + gap)
	}
	return out
}

// planPDF writes the plan as a table per garment type on A4 landscape
// pages.
func planPDF(name string, plan RangePlanFields, fabrics map[string]*Fabric, kit *BrandKit) ([]byte, error) {
	s := pdfsheet.A4(name+" range plan", true)
	const m, row = 36.0, 40.0
	inner := s.W - 2*m
	s.Text(m, m, name, 22, true, ink, inner-200)
	sub := plan.Season + " · " + plural(len(plan.Items), "style") + " · " + plural(plan.Quantity, "unit")
	if kit != nil {
		sub += " · brand kit " + kit.Name
		for j, c := range kit.Colours {
			s.Rect(s.W-m-float64(len(kit.Colours)-j)*22, m, 18, 18, tasks.ParseColour(c.Hex))
		}
	}
	s.Text(m, m+30, sub, 11, false, muted, inner)
	y := m + 60
	for _, g := range groups(plan) {
		if y+2*row > s.H-m {
			s.Page()
			y = m
		}
		gl, _ := garmentLimit(g[0].Type)
		s.Text(m, y, gl.label+" · "+plural(len(g), "style"), 14, true, ink, inner)
		y += 22
		s.Text(m+48, y, "Style", 8, true, muted, 0)
		s.Text(m+260, y, "Fabric", 8, true, muted, 0)
		s.Text(m+520, y, "Colourways", 8, true, muted, 0)
		s.Text(m+inner-60, y, "Units", 8, true, muted, 0)
		y += 14
		for _, it := range g {
			if y+row > s.H-m {
				s.Page()
				y = m
			}
			sw, f := fabricSwatch(it, fabrics, 64)
			if sw != nil {
				s.Image(sw, m, y, 32, 32)
			} else {
				s.Outline(m, y, 32, 32, rule)
			}
			s.Text(m+48, y+10, it.Name, 11, false, ink, 200)
			if f != nil {
				s.Text(m+260, y+4, f.Name, 10, false, ink, 250)
				s.Text(m+260, y+18, f.Code, 8, false, muted, 250)
			}
			for k, c := range it.Colours {
				s.Rect(m+520+float64(k)*36, y+4, 28, 16, tasks.ParseColour(c.Hex))
				s.Text(m+520+float64(k)*36, y+22, c.Hex, 5, false, muted, 34)
			}
			s.Text(m+inner-60, y+10, fmt.Sprintf("%d", it.Quantity), 11, false, ink, 60)
			y += row
		}
		y += 10
	}
	return s.Bytes()
}

// plural writes n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
