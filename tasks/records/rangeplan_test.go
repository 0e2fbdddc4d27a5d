package records

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pagecheck"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// a4Landscape is the line sheet's page, in points.
var a4Landscape = pagecheck.Sheet{W: 842, H: 595, MinInk: 0.4}

// TestRangePlanLineSheet renders the example line sheet: every page opened
// with poppler is A4 landscape with text, no two words overlapping and no
// page mostly empty; no text crosses a swatch or an image; every item's
// image is on its card; and the totals per type and per drop add up to
// the figures worked out here from the input.
func TestRangePlanLineSheet(t *testing.T) {
	d := mustLookup(t, "range_plan.create")
	out, err := d.ExampleOutputs(context.Background(), 0)
	require.NoError(t, err)
	require.Len(t, out, 2)
	dump(t, "rangeplan.png", out[0].Data)
	dump(t, "rangeplan.pdf", out[1].Data)
	pagecheck.Margins(t, out[0].Data, 40)
	pages := pagecheck.Check(t, out[1].Data, a4Landscape)
	text := ""
	for _, p := range pages {
		text += p.Text() + "\n"
	}
	for _, want := range []string{"Breton tee", "Drop 1 · Feb", "Drop 2 · Apr", "By type", "By drop", "€45.00",
		"Navy/Ecru", "Sizes XS S M L XL", "Page 1 of 1"} {
		require.Contains(t, text, want)
	}

	var in rangePlanInput
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &in))
	plan := planOf(&in)
	var value, cost float64
	units := 0
	drops := map[string]int{}
	for _, it := range in.Items {
		value += float64(it.Quantity) * *it.Price
		cost += float64(it.Quantity) * *it.Cost
		units += it.Quantity
		drops[*it.Drop] += it.Quantity
	}
	require.Equal(t, units, plan.Quantity)
	require.InDelta(t, value, *plan.Sum.Value, 0.01)
	require.InDelta(t, (value-cost)/value, *plan.Sum.Margin, 0.0001)
	byType, byDrop := 0, 0
	for _, tt := range plan.Totals {
		byType += tt.Quantity
	}
	for _, dt := range plan.Drops {
		byDrop += dt.Quantity
		require.Equal(t, drops[dt.Drop], dt.Quantity, dt.Drop)
	}
	require.Equal(t, units, byType)
	require.Equal(t, units, byDrop)

	boxes := renderBoxes(t, d, &in)
	require.Empty(t, pagecheck.Collisions(boxes, 0.6))
	images := 0
	for _, b := range boxes {
		if b.Kind == pdfsheet.BoxImage {
			images++
		}
	}
	want := 0
	for _, it := range plan.Items {
		want += len(it.Images)
		if len(it.Images) == 0 && it.Fabric != nil {
			want++ // its fabric's swatch stands in
		}
	}
	require.Equal(t, want, images, "every image the input sent is on its card")
}

// renderBoxes lays the example's line sheet out again and answers what it
// drew.
func renderBoxes(t *testing.T, d *tasks.Definition, in *rangePlanInput) []pdfsheet.Box {
	t.Helper()
	files := taskstest.Files{}
	for _, f := range d.Examples[0].Files {
		files[f.Ref] = f.Data()
	}
	ctx := tasks.WithLoader(context.Background(), files)
	plan := planOf(in)
	fabrics, kit, err := resolvePlan(ctx, tasks.Env{}, plan)
	require.NoError(t, err)
	imgs, err := planImages(ctx, in)
	require.NoError(t, err)
	s, _ := lineSheet{name: in.Name, plan: plan, fabrics: fabrics, kit: kit, imgs: imgs}.render()
	return s.Boxes()
}

// TestRangePlanCrowded fills a plan to the edges: long names, six
// colourways an item, many drops and types, items without fabric or
// image. No text overlaps, runs over a swatch or leaves a page mostly
// empty.
func TestRangePlanCrowded(t *testing.T) {
	for _, withDrops := range []bool{true, false} {
		t.Run(fmt.Sprint("drops ", withDrops), func(t *testing.T) { crowded(t, withDrops) })
	}
}

func crowded(t *testing.T, withDrops bool) {
	types := []string{"dress", "top", "shirt", "t_shirt", "knitwear", "jacket", "coat", "trousers", "skirt"}
	drops := []string{"Drop 1 · January capsule", "Drop 2", "Drop 3 · Holiday", "Drop 4"}
	var items []any
	for i := range 41 {
		it := map[string]any{"type": types[i%len(types)], "quantity": 100000 - i*997,
			"name":    fmt.Sprintf("Extraordinarily long style name number %d with detail", i),
			"colours": []string{"#FFFFFF", "#1B2A4A", "#D6C3A1", "#8EC6EA", "#6D1A2C", "#F6D52A"}[:1+i%6],
			"price":   999999.99 - float64(i), "cost": 12.5, "drop": drops[i%len(drops)],
			"sizes":     []string{"XXS", "XS", "S", "M", "L", "XL", "XXL", "3XL", "4XL", "5XL", "6XL", "7XL"},
			"colourway": "A very long colourway name, in words"}
		if !withDrops {
			delete(it, "drop")
		}
		if i%3 == 0 {
			it["fabric"] = "fabric:fb_cur_jersey_white"
		}
		items = append(items, it)
	}
	body, _ := json.Marshal(map[string]any{"name": strings.Repeat("Long range name ", 7), "season": "Autumn/Winter 2026",
		"currency": "JPY", "items": items})
	d := mustLookup(t, "range_plan.create")
	v, err := d.Validate(body)
	require.NoError(t, err)
	ctx := context.Background()
	png, err := d.Runner.Step(ctx, v, 0)
	require.NoError(t, err)
	pdf, err := d.Runner.Step(ctx, v, 1)
	require.NoError(t, err)
	dump(t, fmt.Sprintf("rangeplan_crowded_%v.pdf", withDrops), pdf.Data)
	pagecheck.Margins(t, png.Data, 40)
	pagecheck.Check(t, pdf.Data, a4Landscape)
	in := tasks.Arg[rangePlanInput](v)
	require.NotNil(t, in)
	require.Empty(t, pagecheck.Collisions(renderBoxes(t, d, in), 0.6))
}

// TestRangePlanRefusals refuses what a line sheet cannot show honestly.
func TestRangePlanRefusals(t *testing.T) {
	d := mustLookup(t, "range_plan.create")
	require.Equal(t, []string{"items[].images"}, d.RefFields(), "an item names its images: checked and loaded there")
	var items []any
	for i := range 16 {
		var refs []string
		for j := range 4 {
			refs = append(refs, fmt.Sprintf("file:look_%d_%d", i, j))
		}
		items = append(items, map[string]any{"type": "top", "name": "a", "quantity": 1, "images": refs})
	}
	items = append([]any{map[string]any{"type": "top", "name": "again", "quantity": 1,
		"images": []string{"file:look_0_0", "file:look_0_1"}}}, items...) // named twice, counted once
	many, err := json.Marshal(map[string]any{"name": "x", "season": "SS27", "items": items})
	require.NoError(t, err)
	for _, tc := range []struct{ body, field string }{
		{`{"name":"x","season":"SS27","items":[{"type":"dress","name":"a","quantity":1,"price":10}]}`, "currency"},
		{string(many), "items[16].images[0]"}, // the 61st different image
	} {
		_, err := d.Validate([]byte(tc.body))
		require.Error(t, err, tc.body)
		e := apierr.As(err)
		require.Equal(t, apierr.RequestRefused, e.Code)
		require.Equal(t, tc.field, *e.Field)
	}
}

// TestRangePlanDropsFlowOn lays out four drops of one card row each: a
// drop's heading and cards continue on the page the last drop ended on
// whenever a row fits there, and the cards are sized so they do: the first
// page holds the title, the totals and drops 1 and 2, the second drops 3
// and 4. No page is left with room for a heading and a row before its next
// drop.
func TestRangePlanDropsFlowOn(t *testing.T) {
	var items []planItemInput
	for i := range 8 {
		drop := fmt.Sprintf("Drop %d", i/2+1)
		items = append(items, planItemInput{Type: "t_shirt", Name: fmt.Sprintf("Tee %d", i), Quantity: 10, Drop: &drop})
	}
	plan := planOf(&rangePlanInput{Name: "Flow", Season: "SS27", Items: items})
	s, blocks := lineSheet{name: "Flow", plan: plan}.render()
	var headings []int
	for i, b := range blocks {
		if b.keep {
			headings = append(headings, b.page)
		}
		if i > 0 && b.page > blocks[i-1].page {
			free := s.H - lsFooter - (blocks[i-1].y + blocks[i-1].h)
			need := b.h
			if b.keep {
				need += blocks[i+1].h
			}
			require.Less(t, free, need, "block %d starts page %d with %.0f pt free on the page before", i, b.page, free)
		}
	}
	require.Equal(t, []int{1, 1, 2, 2}, headings, "the page each drop's heading is on")
	require.Equal(t, 2, s.Pages())
}
