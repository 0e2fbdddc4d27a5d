package records

import (
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// FabricTrade is a fabric's buying facts.
type FabricTrade = recordread.FabricTrade

// tradeSchema is fabric.create's trade input: what a buyer orders by.
func tradeSchema() obj {
	num := func(lo, hi float64, text string) obj {
		return obj{"type": "number", "minimum": lo, "maximum": hi, "description": text}
	}
	return obj{
		"type": "object", "additionalProperties": false,
		"description": "What a buyer orders the fabric by, each optional: usable width, shrinkage after washing, price " +
			"a metre (with its currency) and minimum order. The card and the data show what is sent.",
		"properties": obj{
			"width_cm": num(10, 400, "Usable (cuttable) width in centimetres, such as 150; the card adds inches."),
			"shrinkage_length_pct": num(0, 30,
				"Shrinkage after washing along the length (warp), in percent, such as 3."),
			"shrinkage_width_pct": num(0, 30,
				"Shrinkage after washing across the width (weft), in percent, such as 2."),
			"price_per_m": num(0, 100000, "Price of one metre, in currency; the card adds the price a yard."),
			"currency": obj{"type": "string", "enum": currencyCodes(),
				"description": "The ISO 4217 currency of price_per_m; required with it."},
			"minimum_order_m": num(0, 1000000, "Minimum order in metres (MOQ), such as 300; the card adds yards."),
		},
	}
}

// tradeData is the schema of the trade facts in a fabric's data: the
// input's fields, as sent; absent when none was.
func tradeData() obj {
	t := tradeSchema()
	t["description"] = "The buying facts sent (width_cm, shrinkage_length_pct, shrinkage_width_pct, price_per_m, " +
		"currency, minimum_order_m); absent when none was."
	return t
}

// checkTrade answers request_refused when a price comes without its
// currency.
func checkTrade(t *FabricTrade) error {
	if t != nil && t.PricePerM != nil && t.Currency == nil {
		return apierr.Newf(apierr.RequestRefused, "trade.price_per_m needs trade.currency (EUR, GBP, USD…).").
			WithField("trade.currency")
	}
	return nil
}

// tradeRows are the card's rows of a fabric's buying facts, those sent.
func tradeRows(t *FabricTrade) [][2]string { return recordread.TradeRows(t, formatMoney) }

// tradeMeta is the card data's trade object, or nil.
func tradeMeta(t *FabricTrade) any {
	if t == nil {
		return nil
	}
	return toJSON(t)
}
