package recordread

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
)

// KindRangePlan is the kind of a range plan's handle, range_plan:<id>.
const KindRangePlan = "range_plan"

// RangePlan is a range plan as other tasks read it (techpacks).
type RangePlan struct {
	Handle string
	Name   string
	Status string
	RangePlanFields
}

// ReadRangePlan reads range_plan:<id> of env's account.
func ReadRangePlan(ctx context.Context, env tasks.Env, field, ref string) (*RangePlan, error) {
	if env.DB == nil {
		return nil, recordstore.NoRecord(field, ref)
	}
	r, status, _, err := recordstore.Read(ctx, env, KindRangePlan, field, ref)
	if err != nil {
		return nil, err
	}
	rp := &RangePlan{Handle: r.Handle(), Name: r.Name, Status: status}
	if err := json.Unmarshal([]byte(r.Fields), &rp.RangePlanFields); err != nil {
		return nil, fmt.Errorf("read range plan %s: %w", ref, err)
	}
	return rp, nil
}

// PlanItem is one item of a range plan.
type PlanItem struct {
	Type     string      `json:"type"`
	Name     string      `json:"name"`
	Fabric   *string     `json:"fabric"`
	Colours  []KitColour `json:"colours"`
	Quantity int         `json:"quantity"`
	// Images are the item's images: references as sent, in order; the
	// first leads its card.
	Images    []string `json:"images,omitempty"`
	Price     *float64 `json:"price,omitempty"`
	Cost      *float64 `json:"cost,omitempty"`
	Sizes     []string `json:"sizes,omitempty"`
	Drop      string   `json:"drop,omitempty"`
	Colourway string   `json:"colourway,omitempty"`
}

// RangePlanFields are a range plan record's fields.
type RangePlanFields struct {
	Season   string      `json:"season"`
	BrandKit *string     `json:"brand_kit"`
	Items    []PlanItem  `json:"items"`
	Totals   []TypeTotal `json:"totals"`
	Quantity int         `json:"quantity"`
	// Currency is the ISO 4217 code of the items' prices and costs.
	Currency string      `json:"currency,omitempty"`
	Drops    []DropTotal `json:"drops,omitempty"`
	Sum      Money       `json:"sum"`
}

// Money sums the units of some items with their value at price and cost
// where the items carry them.
type Money struct {
	// Value is the units times the price over the items with a price; nil
	// when none has one.
	Value *float64 `json:"value"`
	// Cost is the units times the cost over the items with a cost; nil
	// when none has one.
	Cost *float64 `json:"cost"`
	// Margin is (value − cost) / value over the items with both, a
	// fraction; nil when none has both.
	Margin *float64 `json:"margin"`
}

// TypeTotal sums the items of one garment type.
type TypeTotal struct {
	Type     string `json:"type"`
	Items    int    `json:"items"`
	Quantity int    `json:"quantity"`
	Money
}

// DropTotal sums the items of one delivery drop ("" for the items sent
// without one).
type DropTotal struct {
	Drop     string `json:"drop"`
	Items    int    `json:"items"`
	Quantity int    `json:"quantity"`
	Money
}
