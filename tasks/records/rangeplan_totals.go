package records

import (
	"fmt"
	"math"
	"strings"
)

// moneyOf sums items.
func moneyOf(items []PlanItem) Money {
	var value, cost, mValue, mCost float64
	var priced, costed, both bool
	for _, it := range items {
		q := float64(it.Quantity)
		if it.Price != nil {
			value += q * *it.Price
			priced = true
		}
		if it.Cost != nil {
			cost += q * *it.Cost
			costed = true
		}
		if it.Price != nil && it.Cost != nil && *it.Price > 0 {
			mValue += q * *it.Price
			mCost += q * *it.Cost
			both = true
		}
	}
	var m Money
	if priced {
		m.Value = new(round(value, 2))
	}
	if costed {
		m.Cost = new(round(cost, 2))
	}
	if both && mValue > 0 {
		m.Margin = new(round((mValue-mCost)/mValue, 4))
	}
	return m
}

// total fills the plan's totals: per type in vocabulary order, per drop in
// the order the drops first appear (items without a drop last), and the
// whole plan.
func total(p *RangePlanFields) {
	p.Totals, p.Drops, p.Quantity = nil, nil, 0
	for _, g := range byType(p.Items) {
		p.Totals = append(p.Totals, TypeTotal{Type: g[0].Type, Items: len(g), Quantity: units(g), Money: moneyOf(g)})
	}
	if hasDrops(p.Items) {
		for _, g := range byDrop(p.Items) {
			p.Drops = append(p.Drops, DropTotal{Drop: g[0].Drop, Items: len(g), Quantity: units(g), Money: moneyOf(g)})
		}
	}
	p.Quantity = units(p.Items)
	p.Sum = moneyOf(p.Items)
}

// units adds up the items' quantities.
func units(items []PlanItem) int {
	n := 0
	for _, it := range items {
		n += it.Quantity
	}
	return n
}

// hasDrops says whether any item names a drop.
func hasDrops(items []PlanItem) bool {
	for _, it := range items {
		if it.Drop != "" {
			return true
		}
	}
	return false
}

// byType groups items by garment type, in vocabulary order, keeping their
// order within a type.
func byType(items []PlanItem) [][]PlanItem {
	var out [][]PlanItem
	for _, g := range garments {
		var group []PlanItem
		for _, it := range items {
			if it.Type == g.value {
				group = append(group, it)
			}
		}
		if len(group) > 0 {
			out = append(out, group)
		}
	}
	return out
}

// byDrop groups items by drop in the order the drops first appear, items
// without a drop last; within a drop by type.
func byDrop(items []PlanItem) [][]PlanItem {
	var order []string
	seen := map[string]bool{}
	for _, it := range items {
		if it.Drop != "" && !seen[it.Drop] {
			seen[it.Drop] = true
			order = append(order, it.Drop)
		}
	}
	order = append(order, "")
	var out [][]PlanItem
	for _, d := range order {
		var group []PlanItem
		for _, it := range items {
			if it.Drop == d {
				group = append(group, it)
			}
		}
		var sorted []PlanItem
		for _, g := range byType(group) {
			sorted = append(sorted, g...)
		}
		if len(sorted) > 0 {
			out = append(out, sorted)
		}
	}
	return out
}

// sections are the groups a sheet lays out: by drop when any item names
// one, else by type.
func sections(items []PlanItem) [][]PlanItem {
	if hasDrops(items) {
		return byDrop(items)
	}
	return byType(items)
}

// currencies are the currencies a range plan's prices may be in, with the
// symbol a sheet writes and the decimals it shows.
var currencies = []struct {
	code, symbol string
	decimals     int
}{
	{"EUR", "€", 2}, {"GBP", "£", 2}, {"USD", "$", 2}, {"JPY", "¥", 0}, {"CNY", "CN¥", 2}, {"AUD", "A$", 2},
	{"CAD", "C$", 2}, {"CHF", "CHF ", 2}, {"SEK", "SEK ", 2}, {"DKK", "DKK ", 2}, {"NOK", "NOK ", 2},
	{"INR", "₹", 2}, {"HKD", "HK$", 2}, {"SGD", "S$", 2}, {"KRW", "₩", 0},
}

// currencyCodes are the accepted ISO 4217 codes, in order.
func currencyCodes() []any {
	out := make([]any, len(currencies))
	for i, c := range currencies {
		out[i] = c.code
	}
	return out
}

// formatMoney writes v in currency code: €1,234.50, ¥12,000.
func formatMoney(code string, v float64) string {
	sym, dec := code+" ", 2
	for _, c := range currencies {
		if c.code == code {
			sym, dec = c.symbol, c.decimals
		}
	}
	neg := v < 0
	v = math.Abs(v)
	s := fmt.Sprintf("%.*f", dec, v)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := sym + b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "−" + out
	}
	return out
}

// formatUnits writes a count with thousands separators.
func formatUnits(n int) string {
	s := formatMoney("", float64(n))
	s = strings.TrimPrefix(s, " ")
	return strings.TrimSuffix(s, ".00")
}

// percent writes a fraction as a whole percent: 58%.
func percent(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }
