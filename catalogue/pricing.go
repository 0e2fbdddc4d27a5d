package catalogue

import "github.com/taskplatform/taskplatform/tasks"

// PriceEntry is one row of GET /v1/pricing.
type PriceEntry struct {
	Task       string              `json:"task"`
	Status     string              `json:"status,omitempty"`
	CreditType string              `json:"credit_type"`
	Unit       string              `json:"unit"`
	PerOutput  *int64              `json:"per_output"`
	DependsOn  *string             `json:"depends_on"`
	Prices     []tasks.OptionPrice `json:"prices"`
	Note       string              `json:"note"`
}

// Price is a task's row of the price list: the figures Estimate multiplies
// by the planned outputs.
func Price(d *tasks.Definition) PriceEntry {
	p := d.Pricing
	e := PriceEntry{
		Task:       d.Name,
		Status:     d.Status,
		CreditType: p.CreditType,
		Unit:       d.Unit,
		Prices:     []tasks.OptionPrice{},
	}
	if p.Option == "" {
		e.PerOutput = &p.PerOutput
		e.Note = "Charged per delivered " + d.Unit + "."
		return e
	}
	e.DependsOn = &p.Option
	e.Prices = append(e.Prices, p.ByOption...)
	e.Note = "Charged per delivered " + d.Unit + " at the price of the chosen " + p.Option + "."
	return e
}

// Prices is the price list: one row per runnable task, in order.
func (c *Catalogue) Prices() []PriceEntry {
	var out []PriceEntry
	for _, d := range c.reg.Runnable() {
		out = append(out, Price(d))
	}
	return out
}
