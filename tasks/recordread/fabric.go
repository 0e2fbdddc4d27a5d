package recordread

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
)

// KindFabric is the kind of a fabric's handle, fabric:<id>.
const KindFabric = "fabric"

// CuratedFabric answers a curated fabric of the library without a database
// (a catalogue example). The records family, which ships the library, sets
// it when it is imported; until then no curated fabric is found that way.
var CuratedFabric = func(ref string) (*Fabric, bool) { return nil, false }

// Fabric is a fabric record as other tasks read it.
type Fabric struct {
	Handle  string
	Name    string
	Curated bool
	Status  string
	FabricFields
}

// ReadFabric reads fabric:<id>: env's account's own or a curated one.
// Without an env (a catalogue example) only curated fabrics are read.
func ReadFabric(ctx context.Context, env tasks.Env, field, ref string) (*Fabric, error) {
	if env.DB == nil {
		if f, ok := CuratedFabric(ref); ok {
			return f, nil
		}
		return nil, recordstore.NoRecord(field, ref)
	}
	r, status, _, err := recordstore.Read(ctx, env, KindFabric, field, ref)
	if err != nil {
		return nil, err
	}
	fab := &Fabric{Handle: r.Handle(), Name: r.Name, Curated: r.Curated(), Status: status}
	if err := json.Unmarshal([]byte(r.Fields), &fab.FabricFields); err != nil {
		return nil, fmt.Errorf("read fabric %s: %w", ref, err)
	}
	if fab.SwatchURL != nil {
		fab.SwatchURL = new(recordstore.AbsoluteURL(env.FilesBaseURL, *fab.SwatchURL))
	}
	return fab, nil
}

// Fibre is one line of a fabric's composition.
type Fibre struct {
	Fibre   string  `json:"fibre" schema:"required"`
	Percent float64 `json:"percent" schema:"required"`
}

// FabricFacts are what a fabric.create input states.
type FabricFacts struct {
	WeightGSM    int     `json:"weight_gsm" schema:"required"`
	Composition  []Fibre `json:"composition" schema:"required"`
	Construction string  `json:"construction" schema:"required"`
}

// FabricFields are a fabric record's fields.
type FabricFields struct {
	Facts FabricFacts `json:"facts"`
	// Code is the fabric's short code: composition, construction, weight
	// (CO98EL2-DN-340).
	Code string `json:"code"`
	// WeightClass is light (under 170 g/m²), medium (170–270) or heavy.
	WeightClass string `json:"weight_class"`
	// WeightOz is the weight in ounces per square yard.
	WeightOz float64 `json:"weight_oz_yd2"`
	// Swatch is the swatch reference as sent, or nil.
	Swatch *string `json:"swatch"`
	// SwatchURL is the stored swatch image (relative in the record); nil
	// until the fabric is ready.
	SwatchURL *string `json:"swatch_url"`
	// Colour is the fabric's colour: the caller's, or measured from the
	// swatch photo when only a photo was sent; nil when neither was.
	Colour *KitColour `json:"colour"`
	// ColourSource says where Colour comes from: given, measured or none.
	ColourSource string `json:"colour_source,omitempty"`
	// Trade is what a buyer orders by: width, shrinkage, price and
	// minimum order; nil when none was sent.
	Trade *FabricTrade `json:"trade,omitempty"`
}

// The values of a fabric's colour_source.
const (
	ColourGiven    = "given"
	ColourMeasured = "measured"
	ColourNone     = "none"
)

// colourSourceText is what a card says of a colour's source.
func colourSourceText(f FabricFields) string {
	switch f.ColourSource {
	case ColourGiven:
		return "as given"
	case ColourMeasured:
		return "measured from the swatch photo"
	}
	return "not given"
}

// ColourLine is a fabric's colour as a card prints it: its hex, name and
// where it comes from.
func ColourLine(f FabricFields) string {
	if f.Colour == nil {
		return "Not given (drawn undyed)"
	}
	return f.Colour.Hex + " · " + colour.Label(f.Colour.Name) + " · " + colourSourceText(f)
}

// FabricTrade is a fabric's buying facts; each is nil when not sent.
type FabricTrade struct {
	// WidthCM is the usable (cuttable) width, in centimetres.
	WidthCM *float64 `json:"width_cm,omitempty"`
	// ShrinkLengthPct and ShrinkWidthPct are the shrinkage after washing
	// along the length (warp) and across the width (weft), in percent.
	ShrinkLengthPct *float64 `json:"shrinkage_length_pct,omitempty"`
	ShrinkWidthPct  *float64 `json:"shrinkage_width_pct,omitempty"`
	// PricePerM is the price of one metre in Currency.
	PricePerM *float64 `json:"price_per_m,omitempty"`
	Currency  *string  `json:"currency,omitempty"`
	// MinOrderM is the minimum order, in metres.
	MinOrderM *float64 `json:"minimum_order_m,omitempty"`
}

// metresPerYard converts lengths for the card's yard figures.
const metresPerYard = 0.9144

// TradeRows are a card's rows of a fabric's buying facts, those sent,
// with yards and inches beside metres and centimetres; money writes a
// price in a currency.
func TradeRows(t *FabricTrade, money func(code string, v float64) string) [][2]string {
	if t == nil {
		return nil
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	var rows [][2]string
	if t.WidthCM != nil {
		rows = append(rows, [2]string{"Width", fmt.Sprintf("%s cm · %.0f in usable", num(*t.WidthCM),
			*t.WidthCM/2.54)})
	}
	if t.ShrinkLengthPct != nil || t.ShrinkWidthPct != nil {
		side := func(v *float64) string {
			if v == nil {
				return "–"
			}
			return num(*v) + "%"
		}
		rows = append(rows, [2]string{"Shrinkage", fmt.Sprintf("length %s · width %s after washing",
			side(t.ShrinkLengthPct), side(t.ShrinkWidthPct))})
	}
	if t.PricePerM != nil {
		code := ""
		if t.Currency != nil {
			code = *t.Currency
		}
		rows = append(rows, [2]string{"Price", fmt.Sprintf("%s / m · %s / yd", money(code, *t.PricePerM),
			money(code, *t.PricePerM*metresPerYard))})
	}
	if t.MinOrderM != nil {
		rows = append(rows, [2]string{"Minimum order", fmt.Sprintf("%s m · %.0f yd", num(*t.MinOrderM),
			*t.MinOrderM/metresPerYard)})
	}
	return rows
}
