package records

import (
	"context"
	"fmt"
	"image"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
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

// planItemInput is one item of a range_plan.create request.
type planItemInput struct {
	Type      string   `json:"type" schema:"required"`
	Name      string   `json:"name" schema:"required"`
	Fabric    *string  `json:"fabric"`
	Colours   []string `json:"colours"`
	Quantity  int      `json:"quantity" schema:"required"`
	Images    []string `json:"images"`
	Price     *float64 `json:"price"`
	Cost      *float64 `json:"cost"`
	Sizes     []string `json:"sizes"`
	Drop      *string  `json:"drop"`
	Colourway *string  `json:"colourway"`
}

// planOf reads a validated input.
func planOf(in *rangePlanInput) RangePlanFields {
	out := RangePlanFields{Season: in.Season, BrandKit: in.BrandKit}
	if in.Currency != nil {
		out.Currency = *in.Currency
	}
	for _, it := range in.Items {
		p := PlanItem{Type: it.Type, Name: strings.TrimSpace(it.Name), Fabric: it.Fabric, Quantity: it.Quantity,
			Colours: []KitColour{}, Price: it.Price, Cost: it.Cost}
		for _, sz := range it.Sizes {
			if sz = strings.TrimSpace(sz); sz != "" {
				p.Sizes = append(p.Sizes, sz)
			}
		}
		for _, c := range it.Colours {
			c = strings.ToUpper(c)
			p.Colours = append(p.Colours, KitColour{Hex: c, Name: nearestName(labOfHex(c))})
		}
		p.Images = append(p.Images, it.Images...)
		if it.Drop != nil {
			p.Drop = strings.TrimSpace(*it.Drop)
		}
		if it.Colourway != nil {
			p.Colourway = strings.TrimSpace(*it.Colourway)
		}
		out.Items = append(out.Items, p)
	}
	total(&out)
	return out
}

// The bounds of a range plan's images and drops.
const (
	maxPlanImages = 60
	maxItemImages = 4
	maxDrops      = 8
)

// refusePlan refuses more distinct images than a plan draws, prices
// without a currency and more drops than a sheet lays out.
func refusePlan(in *rangePlanInput, _ map[string]tasks.ImageSize) *apierr.Error {
	drops := map[string]bool{}
	images := map[string]bool{}
	for i, it := range in.Items {
		for j, ref := range it.Images {
			if images[ref] = true; len(images) > maxPlanImages {
				f := fmt.Sprintf("items[%d].images[%d]", i, j)
				return apierr.Newf(apierr.RequestRefused, "%s is the plan's image %d; a range plan shows at most %d "+
					"different images (an image two items name counts once).", f, len(images), maxPlanImages).WithField(f)
			}
		}
		if in.Currency == nil && (it.Price != nil || it.Cost != nil) {
			return apierr.Newf(apierr.RequestRefused, "items[%d] has a price or cost but the plan names no "+
				"currency; send currency (EUR, GBP, USD…).", i).WithField("currency")
		}
		if it.Drop != nil {
			drops[strings.TrimSpace(*it.Drop)] = true
		}
	}
	if len(drops) > maxDrops {
		return apierr.Newf(apierr.RequestRefused, "the items name %d drops; a range plan lays out at most %d.",
			len(drops), maxDrops).WithField("items")
	}
	return nil
}

// rangePlan makes a range plan record: an overview PNG and a PDF sheet.
func rangePlan() *tasks.Definition {
	return &tasks.Definition{
		Name: "range_plan.create", Title: "Create a range plan",
		Description: "Keeps a season's styles as a range plan record, delivered as an overview PNG and a PDF sheet " +
			"grouped by garment type with fabrics and colourways.",
		Category: tasks.CategoryRecordsLibraries, Unit: "file",
		InputSchema: tasks.MustJSON(tasks.InputSchema[rangePlanInput](
			"range_plan.create input",
			"A range plan: season and items.",
			nil,
		)),
		OutputSchema: rangePlanOutput(),
		Runner:       tasks.Typed[rangePlanInput](rangePlanRunner{}),
		RefSides:     map[string]tasks.ImageSides{"items[].images": imageSides},
		Refuse:       tasks.Refusal(refusePlan),
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

// moneyProps adds a total's value, cost and margin to props.
func moneyProps(props obj) obj {
	props["value"] = obj{"type": []any{"number", "null"}, "description": "Units × price, null without prices."}
	props["cost"] = obj{"type": []any{"number", "null"}, "description": "Units × cost, null without costs."}
	props["margin"] = obj{"type": []any{"number", "null"},
		"description": "(value − cost) / value over the items with both, a fraction; null without them."}
	return props
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
				"items": obj{"type": "object", "required": []string{"type", "items", "quantity"}, "properties": moneyProps(obj{
					"type": obj{
						"type":             "string",
						tasks.VocabKeyword: "garment_type",
					}, "items": obj{"type": "integer"}, "quantity": obj{"type": "integer"}})},
				"description": "Items, units, value, cost and margin per garment type, in vocabulary order.",
			},
			"drops": obj{
				"type": "array",
				"items": obj{"type": "object", "required": []string{"drop", "items", "quantity"}, "properties": moneyProps(obj{
					"drop":  obj{"type": "string", "description": "The drop; empty for the items sent without one."},
					"items": obj{"type": "integer"}, "quantity": obj{"type": "integer"}})},
				"description": "Items, units, value, cost and margin per delivery drop, in the order the drops first appear; " +
					"empty when no item names a drop.",
			},
			"currency": obj{"type": []any{"string", "null"}, "description": "The currency of the money figures."},
			"value":    obj{"type": []any{"number", "null"}, "description": "Units × price over the items with a price."},
			"cost":     obj{"type": []any{"number", "null"}, "description": "Units × cost over the items with a cost."},
			"margin": obj{"type": []any{"number", "null"},
				"description": "(value − cost) / value over the items with both, a fraction."},
		},
		"required": []string{"range_plan", "index", "format", "name", "season", "items", "quantity", "totals", "drops"},
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
			return apierr.Newf(apierr.TooManyItems, "items[%d] is item %d of type %s; a range plan takes at most %d.", i,
				count[it.Type], it.Type, g.limit).
				WithField(fmt.Sprintf("items[%d]", i))
		}
	}
	if _, _, err := resolvePlan(ctx, env, plan); err != nil {
		return err
	}
	return openRecord(ctx, env, KindRangePlan, strings.TrimSpace(in.Name), plan)
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
		return tasks.Output{}, tasks.InStep(err)
	}
	imgs, err := planImages(ctx, in)
	if err != nil {
		return tasks.Output{}, err
	}
	name := strings.TrimSpace(in.Name)
	meta := obj{"range_plan": handleOf(ctx, KindRangePlan), "index": i, "name": name, "season": plan.Season,
		"items": len(plan.Items), "quantity": plan.Quantity, "totals": toJSON(plan.Totals),
		"drops": toJSON(append([]DropTotal{}, plan.Drops...)), "currency": nonEmpty(plan.Currency),
		"value": plan.Sum.Value, "cost": plan.Sum.Cost, "margin": plan.Sum.Margin}
	switch i {
	case 0:
		if err := completeRecord(ctx, KindRangePlan, plan, nil); err != nil {
			return tasks.Output{}, err
		}
		data, err := encodePNG(planOverview(name, plan, fabrics, kit, imgs))
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "png"
		return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: meta}, nil
	case 1:
		data, err := planPDF(name, plan, fabrics, kit, imgs)
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "pdf"
		return tasks.Output{Data: data, MediaType: "application/pdf", Ext: "pdf", Meta: meta}, nil
	}
	return tasks.Output{}, fmt.Errorf("range_plan.create: no output %d", i)
}

// planImages reads the images the items show, each once (named by the
// first item that shows it), at most planImageSide a side: reference →
// image.
func planImages(ctx context.Context, in *rangePlanInput) (map[string]image.Image, error) {
	out := map[string]image.Image{}
	for i, it := range in.Items {
		for _, r := range tasks.ListRefs(fmt.Sprintf("items[%d].images", i), it.Images) {
			ref := r.Ref
			if out[ref] != nil {
				continue
			}
			img, err := tasks.ReduceImage(ctx, r, imageSides, func(full image.Image) image.Image {
				return fit(full, planImageSide)
			})
			if err != nil {
				return nil, err
			}
			out[ref] = img
		}
	}
	return out, nil
}

// planImageSide is the longest side an item's image is kept at: its card
// in the PDF rasters at two pixels a point.
const planImageSide = 720

// plural writes n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
